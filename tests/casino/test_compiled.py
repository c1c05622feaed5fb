"""Reads whose SQL is built once: the same objects as their querysets, on PostgreSQL, from
the database the routers name at each call; and what they read of Django, pinned."""

from __future__ import annotations

import ast
import hashlib
import inspect
from decimal import Decimal as D
from pathlib import Path

import django
import pytest
from django.conf import settings
from django.db import connections, transaction
from django.db.models import query
from django.db.models.base import Model
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from casino import compiled
from casino.compiled import SAMPLE_KEY, SAMPLE_TEXT, Compiled
from casino.floor.models import Box, Round, TableSession
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.games import BoxInput
from casino.kernel import replicas
from casino.kernel.replicas import replica_reads
from casino.venues.models import Venue
from tests.factories import VenueFactory

pytestmark = pytest.mark.django_db

BOXES = Compiled(
    lambda round_: Box.objects.filter(round_id=round_).select_related("player").order_by("pk"),
    samples=(SAMPLE_KEY,),
)


def deal(floor, session, dealer_cards="JS QH JD AC 7H"):
    box = BoxInput(position=1, cards="KS QS 5H 4H TC", stakes={"single": D("100000")})
    round_, _result = round_create(
        session=session, user=floor.dealer, dealer_cards=dealer_cards, boxes=[box]
    )
    return round_


def fields(obj):
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


def test_a_compiled_read_gives_what_its_queryset_gives_for_each_key(
    floor, django_assert_num_queries
):
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    first, second = deal(floor, session), deal(floor, session, dealer_cards="KH 8H 4D JH AD")
    for round_ in (first, second):
        expected = list(
            Box.objects.filter(round_id=round_.pk).select_related("player").order_by("pk")
        )
        with django_assert_num_queries(1):
            found = BOXES(round_.pk)
            assert [fields(box) for box in found] == [fields(box) for box in expected]
            # JSON read back as the ORM does (the converters apply), the player loaded.
            assert found[0].evaluation["category"] == "NIU_9"
            assert found[0].player is None
    assert BOXES(SAMPLE_KEY + 1) == []


def test_related_objects_and_text_keys_are_read_with_the_row(floor, django_assert_num_queries):
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    round_, _ = round_create(
        session=session,
        user=floor.dealer,
        dealer_cards="JS QH JD AC 7H",
        boxes=[BoxInput(position=1, cards="KS QS 5H 4H TC", stakes={"single": D("100000")})],
        create_key="form-7",
    )
    read = Compiled(
        lambda session, key: Round.objects.select_related("session__table__venue").filter(
            session_id=session, create_key=key
        ),
        samples=(SAMPLE_KEY, SAMPLE_TEXT),
    )
    with django_assert_num_queries(1):
        (found,) = read(session.pk, "form-7")
        assert found.pk == round_.pk
        assert found.session.table.venue.code == floor.venue.code
    assert read(session.pk, "form-8") == []


def test_a_sample_the_orm_transforms_is_refused_when_the_read_is_built(floor):
    read = Compiled(
        lambda text: Round.objects.filter(create_key__contains=text), samples=(SAMPLE_TEXT,)
    )
    with pytest.raises(ValueError, match="not among the parameters"):
        read("form")


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_needs_a_transaction(floor):
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    lock = Compiled(
        lambda pk: TableSession.objects.select_for_update().filter(pk=pk), samples=(SAMPLE_KEY,)
    )
    with transaction.atomic():
        assert [found.pk for found in lock(session.pk)] == [session.pk]
    with pytest.raises(TransactionManagementError):
        lock(session.pk)


def test_arguments_are_counted():
    with pytest.raises(TypeError, match="1 arguments expected, 2 given"):
        BOXES(1, 2)
    with pytest.raises(ValueError, match="differ"):
        Compiled(lambda a, b: Box.objects.filter(pk=a), samples=(SAMPLE_KEY, SAMPLE_KEY))


def test_keys_are_read_in_turns_of_the_reads_places(floor, session, django_assert_num_queries):
    rounds = [deal(floor, session).pk for _ in range(3)]
    of_rounds = Compiled(
        lambda venue, *rounds: Round.objects.filter(
            session__table__venue_id=venue, pk__in=rounds
        ).order_by(),
        samples=(SAMPLE_KEY, SAMPLE_KEY - 1, SAMPLE_KEY - 2),
    )
    venue = floor.table.venue_id
    with django_assert_num_queries(1):  # one key: repeated in the second place
        assert [r.pk for r in of_rounds.in_turns((venue,), rounds[:1])] == rounds[:1]
    with django_assert_num_queries(2):  # three keys: two, then one repeated
        assert sorted(r.pk for r in of_rounds.in_turns((venue,), rounds)) == rounds
    with django_assert_num_queries(0):
        assert of_rounds.in_turns((venue,), []) == []


def test_switched_off_a_read_runs_its_queryset_and_gives_the_same(floor):
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    round_ = deal(floor, session)
    read = Compiled(
        lambda round_: Box.objects.filter(round_id=round_).select_related("player").order_by("pk"),
        samples=(SAMPLE_KEY,),
    )
    built = read(round_.pk)
    compiled.use_compiled(False)
    try:
        plain = read(round_.pk)
    finally:
        compiled.use_compiled(True)
    assert [fields(box) for box in plain] == [fields(box) for box in built]
    assert read._plans.keys() == {"default"}  # the plain call built no plan


def test_a_read_that_names_its_database_is_refused():
    read = Compiled(lambda pk: Venue.objects.using("default").filter(pk=pk), samples=(SAMPLE_KEY,))
    with pytest.raises(ValueError, match=r"no \.using"):
        read(1)


@pytest.mark.skipif(
    replicas.REPLICA not in settings.DATABASES, reason="REPLICA_DATABASE_URL not set"
)
@pytest.mark.django_db(transaction=True, databases=["default", "replica"])
def test_a_read_first_made_on_the_replica_reads_the_primary_outside_the_block():
    # given a read whose first call is in a report's replica block
    venue = VenueFactory(code="alias")
    read = Compiled(lambda pk: Venue.objects.filter(pk=pk), samples=(SAMPLE_KEY,))
    with (
        CaptureQueriesContext(connections["replica"]) as replica,
        CaptureQueriesContext(connections["default"]) as primary,
    ):
        with replica_reads():
            assert [found.pk for found in read(venue.pk)] == [venue.pk]
        # when a service calls it afterwards
        (found,) = read(venue.pk)
    # then the service reads the primary, which a copy that lags behind must not stand for
    assert len(replica.captured_queries) == 1
    assert len(primary.captured_queries) == 1
    assert found._state.db == "default"
    # and inside the block again, the replica
    with CaptureQueriesContext(connections["replica"]) as replica, replica_reads():
        (found,) = read(venue.pk)
    assert len(replica.captured_queries) == 1 and found._state.db == "replica"


#: What ``casino.compiled`` reproduces or reads of Django, with the digest of its source in
#: the release it was checked against. A release that changes one fails here: read the new
#: code against ``casino/compiled.py`` (``Compiled.__call__`` is ``ModelIterable.__iter__``
#: less what it refuses; ``_planned`` reads what the compiler's setup leaves behind), run
#: this file, then write the new digests.
DJANGO_CHECKED = (5, 2)
DJANGO_READ = {
    "ModelIterable.__iter__": (query.ModelIterable.__iter__, "c2a744b8c18e0b4a"),
    "get_related_populators": (query.get_related_populators, "979430eb75b93969"),
    "RelatedPopulator": (query.RelatedPopulator, "4cc87fb0e18cb0ce"),
    "QuerySet.db": (query.QuerySet.db.fget, "06b9d708fe4a8a84"),
    "Model.from_db": (Model.from_db, "eba347895d11fa79"),
    "SQLCompiler.setup_query": (SQLCompiler.setup_query, "a426aa7c0cfa3024"),
    "SQLCompiler.get_select": (SQLCompiler.get_select, "12c5003d7ab4bf35"),
    "SQLCompiler.get_related_selections": (
        SQLCompiler.get_related_selections,
        "46cbc4bd45f61809",
    ),
    "SQLCompiler.get_converters": (SQLCompiler.get_converters, "c6c8c1b71882ee8b"),
    "SQLCompiler.results_iter": (SQLCompiler.results_iter, "d279d61b80a3a115"),
    "SQLCompiler.apply_converters": (SQLCompiler.apply_converters, "c034ce3e5090aa2e"),
}


def test_what_it_reads_of_django_is_the_code_it_was_checked_against():
    assert django.VERSION[:2] == DJANGO_CHECKED, "check DJANGO_READ against this release"
    changed = [
        name
        for name, (code, digest) in DJANGO_READ.items()
        if hashlib.sha256(inspect.getsource(code).encode()).hexdigest()[:16] != digest
    ]
    assert not changed, f"Django changed what casino.compiled reads: {changed}"


def test_the_compilers_plan_has_the_shape_it_reads(floor):
    queryset = Round.objects.select_related("session__table").filter(pk=SAMPLE_KEY)
    assert queryset._iterable_class is query.ModelIterable
    assert queryset._db is None and queryset._prefetch_related_lookups == ()
    assert queryset._known_related_objects == {}
    compiler = queryset.query.get_compiler(using="default")
    _sql, params = compiler.as_sql()
    assert SAMPLE_KEY in params
    info = compiler.klass_info
    assert set(info) == {"model", "select_fields", "related_klass_infos"}
    assert info["model"] is Round and info["select_fields"] == list(
        range(len(Round._meta.concrete_fields))
    )
    (session_info,) = info["related_klass_infos"]
    assert {"model", "field", "reverse", "local_setter", "remote_setter", "from_parent"} <= set(
        session_info
    )
    expression, _sql, _alias = compiler.select[0]
    assert expression.target.attname == "id"
    assert compiler.col_count == len(compiler.select)
    assert compiler.annotation_col_map == {}
    populators = query.get_related_populators(info, compiler.select, "default")
    assert [type(p) for p in populators] == [query.RelatedPopulator]


#: The only modules that use ``casino.compiled``: the reads a round runs, the session the
#: round screen reads on every request, and the pit the floor view polls.
HOT_PATH = {
    "casino.floor.services.rounds",
    "casino.floor.services.settlement",
    "casino.floor.services.sessions",
    "casino.rulesets.selectors",  # version_in_force, read at every deal
    "casino.venues.limits",  # the table's limits, read by every round and its screen
    "casino.floor.console.selectors",  # the session of a key, on every console request
    "casino.floor.console.floor_selectors",  # a pit's tables and sessions, every 5 s a pit
}


def test_compiled_reads_stay_on_the_rounds_hot_path():
    root = Path(settings.BASE_DIR)
    users = set()
    for path in root.glob("*/**/*.py"):
        if path.parts[len(root.parts)] in {".venv", "tests", "bench", "loadtest", "node_modules"}:
            continue
        tree = ast.parse(path.read_text(), str(path))
        if any(
            isinstance(node, ast.ImportFrom) and node.module == "casino.compiled"
            for node in ast.walk(tree)
        ):
            users.add(".".join(path.relative_to(root).with_suffix("").parts))
    assert users == HOT_PATH


def test_every_compiled_read_is_parsed_once_by_psycopg():
    """psycopg keeps a statement's parsing (``%s`` to ``$n``) only for statements of at most
    ``MAX_CACHED_STATEMENT_PARAMS`` parameters and ``MAX_CACHED_STATEMENT_LENGTH`` bytes;
    a longer one is parsed again at every call (a millisecond a floor view when the pit's
    reads had 128 places). Each module-level read of the hot path stays within both."""
    import importlib

    from psycopg import _queries

    reads = {
        f"{module}.{name}": value
        for module in HOT_PATH
        for name, value in vars(importlib.import_module(module)).items()
        if isinstance(value, Compiled)
    }
    assert "casino.venues.limits._LIMITS_OF_TABLES" in reads
    assert "casino.floor.console.floor_selectors._OPEN_SESSIONS_OF_TABLES" in reads
    for name, read in reads.items():
        sql, params = read._queryset(*read._samples).query.get_compiler("default").as_sql()
        assert len(params) <= _queries.MAX_CACHED_STATEMENT_PARAMS, (name, len(params))
        assert len(sql.encode()) <= _queries.MAX_CACHED_STATEMENT_LENGTH, (name, len(sql))
