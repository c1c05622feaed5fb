"""Mau Binh's demo table, played through the real round services."""

from __future__ import annotations

import pytest
from django.db.models import Sum

from casino.floor.models import Box, Round, RoundStatus, TableSession
from casino.ledger.models import LedgerEntry
from casino.rulesets.models import VersionStatus
from casino.rulesets.selectors import version_in_force
from casino.staff.roles import DEALER, MANAGER, SUPERVISOR
from maubinh.demo import maubinh_demo
from maubinh.models import MauBinhRulesetVersion
from tests.factories import PlayerFactory, staff

pytestmark = pytest.mark.django_db


def test_the_demo_plays_rounds_through_the_services(venue, manager, approver):
    users = {
        "manager": manager,
        "approver": approver,
        "dealer": staff("d", DEALER, venue),
        "supervisor": staff("s", SUPERVISOR, venue),
    }
    PlayerFactory.create_batch(4, venue=venue)
    # when
    table = maubinh_demo(venue, users, rounds=6, seed=1)
    again = maubinh_demo(venue, users, rounds=6, seed=1)
    # then
    assert again == table and (table.code, table.game, table.seats) == ("MB1", "maubinh", 4)
    version = version_in_force(model=MauBinhRulesetVersion, ruleset=table.ruleset)
    assert version.status == VersionStatus.ACTIVE
    assert (version.last_edited_by, version.approved_by) == (manager, approver)
    rounds = Round.objects.filter(session__table=table)
    assert rounds.count() == 6 and set(rounds.values_list("status", flat=True)) == {
        RoundStatus.SETTLED
    }
    boxes = Box.objects.filter(round__in=rounds)
    assert boxes.filter(quit=True).count() == 1
    assert sum(bool(box.evaluation["fouled"]) for box in boxes) == 1
    assert boxes.filter(player__isnull=False).exists()
    entries = LedgerEntry.objects.filter(round__in=rounds)
    assert entries.aggregate(t=Sum("amount"))["t"] == 0
    assert TableSession.objects.get(table=table).status == TableSession.Status.OPEN


def test_the_demo_needs_no_other_table_at_the_venue(venue, approver):
    editor = staff("mb-editor", MANAGER, venue)
    users = {
        "manager": editor,
        "approver": approver,
        "dealer": staff("d2", DEALER, venue),
        "supervisor": staff("s2", SUPERVISOR, venue),
    }
    table = maubinh_demo(venue, users, rounds=2)
    assert table.chip_denominations[-1] == "1000"  # the venue's rounding unit
