"""Reads whose SQL is built once per process: the reads every round runs.

Building a statement with the ORM (the queryset, its joins, its select list, its SQL)
costs 10 times what PostgreSQL takes to run it when the statement is prepared, and a
round runs the same few reads again and again with other keys. A ``Compiled`` read builds
its queryset once, with sample keys, keeps the SQL, the parameters and Django's own plan
for turning rows into model objects (``select_related`` included), and on each call runs
that SQL with the call's keys in the samples' places. The rows become model objects the
way a queryset makes them (``from_db``, the related objects' populators, the fields'
converters), so callers get what the queryset would have given.

    lock_session = Compiled(
        lambda pk: TableSession.objects.select_for_update(of=("self",))
        .select_related("table__venue")
        .filter(pk=pk),
        samples=(SAMPLE_KEY,),
    )
    lock_session(42)  # [TableSession] with .table and .table.venue loaded

Each sample stands for one argument: a value no real call passes (a negative key, a
date before the venue opened), found among the statement's parameters however often it
appears there; a sample that is not found (a value the ORM transforms, as ``contains``
does) is refused when the read is first built. Only plain model querysets are compiled,
and none that names its database: each call goes where the routers send it then (the
replica inside ``casino.kernel.replicas.replica_reads``, the primary outside it), with the plan
built for that database.

Kept for the round's hot path (the session and round locks, the create key, the limits,
the version in force, the boxes and bets to settle), where it saves 18-20% of a round's CPU
against the same querysets with prepared statements (``bench/compiled_ab.py``,
docs/BENCHMARKS.md), and for the console's session of a key, which every request of the
round screen reads, the players of its boxes, which its preview and Confirm read, and the
table's scheduled changes of limits, which its head shows after every Confirm, and the
floor view's pit (its tables, their open sessions, limits and scheduled changes), which
every supervisor's screen polls (docs/BENCHMARKS.md "floor"); every other read is a plain
queryset. It
reads Django's private internals (the queryset's iterable class, its compiler's ``select``
and ``klass_info``, ``get_related_populators``): their shape is pinned by
``tests/casino/test_compiled.py``, which fails on a Django release that changes them.
``use_compiled(False)`` runs every read as its plain queryset, for the benchmark.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Generic, TypeVar

from django.db import connections, models, router
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=models.Model)

#: Samples no real call passes: a key (no row has a negative id), a text, an instant, a date.
SAMPLE_KEY = -4_000_000_000_000_000_001
SAMPLE_TEXT = "\x00sample"
SAMPLE_TIME = datetime(1900, 1, 1, tzinfo=UTC)
SAMPLE_DATE = date(1900, 1, 1)


def key_samples(count: int) -> tuple[int, ...]:
    """``count`` keys for a read's ``field__in`` places (read with ``Compiled.in_turns``):
    each a key no row has, none of them ``SAMPLE_KEY``, which the read may take too."""
    return tuple(SAMPLE_KEY - 1 - n for n in range(count))


_enabled = True


def use_compiled(enabled: bool) -> None:
    """Run the reads compiled (the default) or as their plain querysets, process-wide: the
    two sides of ``bench/compiled_ab.py``."""
    global _enabled
    _enabled = enabled


@dataclass(frozen=True)
class _Plan:
    alias: str
    sql: str
    params: tuple[Any, ...]
    #: (position in params, index of the argument, how the argument is made a parameter
    #: where the database takes it otherwise) for each place a sample was found.
    places: tuple[tuple[int, int, Callable[[Any], Any] | None], ...]
    for_update: bool
    model: type[models.Model]
    fields: slice
    init_list: list[str]
    populators: list[Any]
    converters: list[tuple[int, tuple[list[Callable], Any]]]
    annotations: dict[str, int]


class Compiled(Generic[M]):
    """A read of ``queryset(*arguments)`` whose SQL is built on its first call only."""

    def __init__(self, queryset: Callable[..., models.QuerySet[M]], *, samples: Sequence[Any]):
        if len(set(map(repr, samples))) != len(samples):
            raise ValueError("each sample must differ from the others")
        self._queryset = queryset
        self._samples = tuple(samples)
        #: The model read and whether the read locks (a locking read goes where writes go),
        #: known from the first call on; the plan of each database read from.
        self._routing: tuple[type[models.Model], bool] | None = None
        self._plans: dict[str, _Plan] = {}

    def __call__(self, *arguments: Any) -> list[M]:
        if len(arguments) != len(self._samples):
            raise TypeError(f"{len(self._samples)} arguments expected, {len(arguments)} given")
        if not _enabled:
            return list(self._queryset(*arguments))
        plan = self._plan()
        alias = plan.alias
        connection = connections[alias]
        if plan.for_update and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(plan.params)
        for position, index, adapt in plan.places:
            params[position] = arguments[index] if adapt is None else adapt(arguments[index])
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchall()
        found = []
        for row in rows:
            if plan.converters:
                row = list(row)
                for position, (converters, expression) in plan.converters:
                    value = row[position]
                    for converter in converters:
                        value = converter(value, expression, connection)
                    row[position] = value
            obj = plan.model.from_db(alias, plan.init_list, row[plan.fields])
            for populator in plan.populators:
                populator.populate(row, obj)
            for name, position in plan.annotations.items():
                setattr(obj, name, row[position])
            found.append(obj)
        return found

    def _plan(self) -> _Plan:
        """The plan for the database the routers send this read to now, built on the first
        call that goes there (as the queryset itself would ask the routers, at each call)."""
        if self._routing is None:
            queryset = self._queryset(*self._samples)
            if queryset._db is not None:
                raise ValueError("a compiled read goes where the routers send it: no .using()")
            self._routing = (queryset.model, bool(queryset.query.select_for_update))
        model, for_update = self._routing
        alias = router.db_for_write(model) if for_update else router.db_for_read(model)
        plan = self._plans.get(alias)
        if plan is None:
            queryset = self._queryset(*self._samples).using(alias)
            plan = self._plans[alias] = _planned(queryset, self._samples)
        return plan

    def in_turns(self, leading: Sequence[Any], keys: Sequence[Any]) -> list[M]:
        """The rows of ``keys``, for a read whose last places take keys (``field__in``): as
        many keys a statement as it has places, the first repeated where fewer are left, in
        turns where more; ``leading`` are the arguments before them."""
        at_once = len(self._samples) - len(leading)
        found: list[M] = []
        for start in range(0, len(keys), at_once):
            some = list(keys[start : start + at_once])
            some += some[:1] * (at_once - len(some))
            found += self(*leading, *some)
        return found

    def first(self, *arguments: Any) -> M | None:
        """The first row's object, or None (the queryset should ask for one row)."""
        found = self(*arguments)
        return found[0] if found else None


def lock_by_key(model: type[M], *related: str) -> Compiled[M]:
    """A read of the ``model`` row of a key, locked (``FOR UPDATE OF`` its own row only),
    with its ``related`` rows (``select_related`` paths) read in the same statement."""
    return Compiled(
        lambda pk: (
            model._default_manager.select_for_update(of=("self",))
            .select_related(*related)
            .filter(pk=pk)
            .order_by()
        ),
        samples=(SAMPLE_KEY,),
    )


def _planned(queryset: models.QuerySet, samples: tuple[Any, ...]) -> _Plan:
    """Build the queryset's SQL and Django's plan for its rows; find the samples' places."""
    if queryset._iterable_class is not models.query.ModelIterable:
        raise ValueError("only querysets of model objects are compiled")
    if queryset._prefetch_related_lookups or queryset._known_related_objects:
        raise ValueError("prefetching and known related objects are not compiled")
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    places = []
    for index, sample in enumerate(samples):
        adapt = None
        positions = [p for p, value in enumerate(params) if _same(value, sample)]
        if not positions and isinstance(sample, date):
            # A database without a time or date type (SQLite) takes an instant or a date as
            # the text its operations make of it; each call's is made into that text likewise.
            ops = compiler.connection.ops
            adapt = (
                ops.adapt_datetimefield_value
                if isinstance(sample, datetime)
                else ops.adapt_datefield_value
            )
            positions = [p for p, value in enumerate(params) if _same(value, adapt(sample))]
        if not positions:
            raise ValueError(f"sample {sample!r} is not among the parameters {params!r}")
        places += [(position, index, adapt) for position in positions]
    select, klass_info = compiler.select, compiler.klass_info
    start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
    fields = [column[0] for column in select[: compiler.col_count]]
    return _Plan(
        alias=queryset.db,
        sql=sql,
        params=tuple(params),
        places=tuple(places),
        for_update=queryset.query.select_for_update,
        model=klass_info["model"],
        fields=slice(start, end),
        init_list=[column[0].target.attname for column in select[start:end]],
        populators=get_related_populators(klass_info, select, queryset.db),
        converters=list(compiler.get_converters(fields).items()),
        annotations=dict(compiler.annotation_col_map),
    )


def _same(value: Any, sample: Any) -> bool:
    return type(value) is type(sample) and value == sample
