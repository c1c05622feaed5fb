"""A settle key (the API's Idempotency-Key) is unique within a session, not across venues."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db import IntegrityError, transaction

from casino.audit.models import AuditEvent
from casino.floor.models import Round, RoundStatus
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.kernel.errors import Conflict
from casino.ledger.models import LedgerEntry
from tests.factories import pit_boss

pytestmark = pytest.mark.django_db

NIU_9, NIU_8 = "KS QS 5H 4H TC", "JS QH JD AC 7H"


def dealt(table, dealer):
    session = table.sessions.filter(status="open").first() or session_open(
        table=table,
        counted_by=dealer,
        confirmed_by=pit_boss(table.venue),
        opening_chips={"100000": 50},
    )
    round_, _result = round_create(
        session=session,
        user=dealer,
        dealer_cards=NIU_8,
        boxes=[BoxInput(1, NIU_9, {"single": D("100000")})],
    )
    return round_


def test_two_venues_settle_with_the_same_key(floor):
    # given a round at each venue
    ours = dealt(floor.table, floor.dealer)
    theirs = dealt(floor.other_table, floor.other_dealer)
    # when both settle with the same key (keys are each client's own)
    settled, _ = round_settle(round_=ours, user=floor.dealer, key="shift-1-round-1")
    other, _ = round_settle(round_=theirs, user=floor.other_dealer, key="shift-1-round-1")
    # then both are settled, and neither learns of the other
    assert settled.status == other.status == RoundStatus.SETTLED
    assert Round.objects.filter(settle_key="shift-1-round-1").count() == 2


def test_the_same_key_twice_in_one_session_is_the_existing_conflict(floor):
    first = dealt(floor.table, floor.dealer)
    second = dealt(floor.table, floor.dealer)
    settled, result = round_settle(round_=first, user=floor.dealer, key="k-1")
    # the same key for the same round answers the settlement already made
    again, again_result = round_settle(round_=first, user=floor.dealer, key="k-1")
    assert (again.pk, again_result.house_net) == (settled.pk, result.house_net)
    # for another round of the session it is a conflict, and the round stays dealt
    with pytest.raises(Conflict, match="another round of this session; send a new key"):
        round_settle(round_=second, user=floor.dealer, key="k-1")
    second.refresh_from_db()
    assert (second.status, second.settle_key) == (RoundStatus.DEALT, None)
    # nothing of the refused settle is left: no entry, no tally, no audit event
    assert not LedgerEntry.objects.filter(round=second).exists()
    assert not AuditEvent.objects.filter(action="round.settle", object_id=str(second.pk)).exists()
    # the database holds the rule by itself
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.filter(pk=second.pk).update(settle_key="k-1")
    # with a key of its own it settles
    assert round_settle(round_=second, user=floor.dealer, key="k-2")[0].settle_key == "k-2"
