"""Reads whose SQL is built once: the same objects as their querysets, on PostgreSQL."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db import transaction
from django.db.transaction import TransactionManagementError

from casino.compiled import SAMPLE_KEY, SAMPLE_TEXT, Compiled
from casino.games import BoxInput
from casino.models import Box, Round, TableSession
from casino.services.rounds import round_create
from casino.services.sessions import session_open

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


def test_inserted_rows_get_their_keys_in_order_and_read_back_as_given(floor):
    from casino.compiled import insert_rows
    from casino.models import AuditEvent

    events = insert_rows(
        [
            AuditEvent(user=floor.dealer, action="test.insert", object_type="t", summary=text)
            for text in ("first", "second", "third")
        ]
        + [AuditEvent(action="test.insert", object_type="t", summary="fourth", after={"a": [1]})]
    )
    assert [event.pk for event in events] == sorted(event.pk for event in events)
    read = {event.pk: event for event in AuditEvent.objects.filter(action="test.insert")}
    for event in events:
        assert not event._state.adding
        assert event.at is not None  # auto_now_add, set as save() sets it
        assert fields(read[event.pk]) == fields(event)
    assert read[events[-1].pk].after == {"a": [1]}
    assert read[events[0].pk].user == floor.dealer


def test_an_insert_takes_only_new_objects(floor):
    from casino.compiled import insert_rows
    from casino.models import AuditEvent

    (saved,) = insert_rows([AuditEvent(action="test.insert", object_type="t")])
    with pytest.raises(ValueError, match="new AuditEvent objects only"):
        insert_rows([saved])
    assert insert_rows([]) == []
