"""Statements whose SQL is built once per process: the hot reads and inserts of a round.

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
does) is refused when the read is first built. Only plain model querysets are compiled.

``insert_rows(objects)`` inserts new objects of one model in one statement, as
``bulk_create`` does on PostgreSQL (each column one array, ``UNNEST``, the keys returned
in order), with the statement built once per model: no signals, as with ``bulk_create``.

``use_compiled(reads=False)`` makes every read run its queryset, and
``use_compiled(inserts=False)`` every insert go through ``bulk_create``, as the ORM would
without this module: ``bench/compiled_ab.py`` measures a round each way in one run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from django.db import connections, models
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=models.Model)

#: Samples no real call passes: a key (no row has a negative id), a text, an instant.
SAMPLE_KEY = -4_000_000_000_000_000_001
SAMPLE_TEXT = "\x00sample"
SAMPLE_TIME = datetime(1900, 1, 1, tzinfo=UTC)

_enabled = {"reads": True, "inserts": True}


def use_compiled(*, reads: bool = True, inserts: bool = True) -> None:
    """Run reads and inserts compiled (the default), or reads as their plain querysets
    (``reads=False``) and inserts through ``bulk_create`` (``inserts=False``), for a
    side-by-side measurement."""
    _enabled.update(reads=reads, inserts=inserts)


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
        self._plan: _Plan | None = None

    def __call__(self, *arguments: Any) -> list[M]:
        if len(arguments) != len(self._samples):
            raise TypeError(f"{len(self._samples)} arguments expected, {len(arguments)} given")
        if not _enabled["reads"]:
            return list(self._queryset(*arguments))
        plan = self._plan
        if plan is None:
            plan = self._plan = _planned(self._queryset(*self._samples), self._samples)
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
        if not positions and isinstance(sample, datetime):
            # A database without a time type (SQLite) takes an instant as the text its
            # operations make of it; each call's instant is made into that text likewise.
            adapt = compiler.connection.ops.adapt_datetimefield_value
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


@dataclass(frozen=True)
class _Insert:
    sql: str
    fields: tuple[models.Field, ...]


_INSERTS: dict[type[models.Model], _Insert] = {}


def insert_rows(objects: Sequence[M]) -> list[M]:
    """Insert ``objects`` (new, of one model, keys not set) in one statement; set their keys.

    Each column's values are prepared as ``bulk_create`` prepares them (``pre_save``, then
    ``get_db_prep_save``), related objects saved since they were assigned are taken by
    key, and the statement returns the new keys in the rows' order (on PostgreSQL; other
    databases get ``bulk_create``)."""
    if not objects:
        return []
    model = type(objects[0])
    plan = _INSERTS.get(model)
    connection = connections["default"]
    # make run's SQLite, or switched off: Django's own way.
    if connection.vendor != "postgresql" or not _enabled["inserts"]:
        return model._default_manager.bulk_create(objects)
    if plan is None:
        plan = _INSERTS[model] = _insert_of(model, connection)
    columns: list[list[Any]] = [[] for _field in plan.fields]
    for obj in objects:
        if type(obj) is not model or obj.pk is not None:
            raise ValueError(f"insert_rows takes new {model.__name__} objects only")
        obj._prepare_related_fields_for_save(operation_name="insert_rows")
        for values, field in zip(columns, plan.fields, strict=True):
            value = field.pre_save(obj, True)
            if hasattr(value, "as_sql"):
                raise ValueError(f"{field.name}: an expression cannot be inserted by insert_rows")
            values.append(field.get_db_prep_save(value, connection))
    with connection.cursor() as cursor:
        cursor.execute(plan.sql, columns)
        keys = cursor.fetchall()
    for obj, (key,) in zip(objects, keys, strict=True):
        obj.pk = key
        obj._state.adding = False
        obj._state.db = connection.alias
    return list(objects)


def _insert_of(model: type[models.Model], connection: Any) -> _Insert:
    meta = model._meta
    fields = tuple(field for field in meta.concrete_fields if not field.primary_key)
    quote = connection.ops.quote_name
    # Each column an array of its type without its size (no varchar(50)[] truncation).
    arrays = [f"(%s)::{field.db_type(connection).split('(')[0]}[]" for field in fields]
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "  # noqa: S608
        f"SELECT * FROM UNNEST({', '.join(arrays)}) RETURNING {quote(meta.pk.column)}"
    )
    return _Insert(sql=sql, fields=fields)
