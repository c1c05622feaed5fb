from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.db.models import Sum

from casino.models import (
    AuditEvent,
    LedgerEntry,
    Player,
    Round,
    Shift,
    Table,
    TableSession,
    Venue,
    VersionStatus,
)
from casino.roles import ROLES, roles_of
from casino.rules import version_in_force
from casino.services.tallies import tally_differences
from niuniu.models import NiuNiuRulesetVersion

pytestmark = pytest.mark.django_db


def test_demo_builds_a_floor_that_reconciles(settings):
    settings.MAUBINH_HOUSE_TAKE_DEALS = 3
    out = io.StringIO()
    call_command("demo", "--rounds", "6", stdout=out)
    call_command("demo", "--rounds", "6", stdout=io.StringIO())  # a second run changes nothing
    venues = {v.code: v for v in Venue.objects.all()}
    assert {code: v.currency for code, v in venues.items()} == {
        "hanoi": "VND",
        "seoul": "KRW",
        "macau": "MOP",
    }
    for venue in venues.values():
        (ruleset,) = venue.rulesets.filter(game="niuniu")
        version = version_in_force(model=NiuNiuRulesetVersion, ruleset=ruleset)
        assert version is not None and version.status == VersionStatus.ACTIVE
        assert version.approved_by != version.last_edited_by
        assert venue.tables.filter(game="niuniu").count() == 2
        assert venue.players.count() == 10
        closed = TableSession.objects.get(table__venue=venue, status="closed")
        niuniu_open = TableSession.objects.filter(
            table__venue=venue, table__game="niuniu", status="open"
        )
        assert niuniu_open.count() == 1
        assert closed.variance == 0
        assert Round.objects.filter(session=closed).count() == 6
    assert LedgerEntry.objects.aggregate(t=Sum("amount"))["t"] == 0
    # Hà Nội plays its own shifts; the others one shift a gaming day.
    hanoi = venues["hanoi"]
    assert [shift["name"] for shift in hanoi.shift_plan] == ["Ca sáng", "Ca chiều", "Ca đêm"]
    assert {s.name for s in Shift.objects.filter(venue=hanoi)} <= {"Ca sáng", "Ca chiều", "Ca đêm"}
    assert {s.name for s in Shift.objects.filter(venue=venues["seoul"])} == {"day"}
    assert tally_differences() == []  # the reports' tallies hold every settled round
    mau_binh = Round.objects.filter(game="maubinh", session__table__venue__code="hanoi")
    assert mau_binh.filter(status="settled").count() >= 20
    assert Venue.objects.get(code="hanoi").tables.filter(game="maubinh").count() == 1
    # tables and players are set up through the services, with their audit events
    tables = AuditEvent.objects.filter(action="table.create", user__username="manager")
    assert tables.count() == Table.objects.count() == 7
    assert AuditEvent.objects.filter(action="player.create").count() == Player.objects.count()
    text = out.getvalue()
    for username in ("dealer", "supervisor", "pitboss", "manager", "approver", "auditor"):
        assert f"log in as {username} / demo-{username}" in text
        user = authenticate(username=username, password=f"demo-{username}")
        assert user is not None
        assert roles_of(user) & set(ROLES)
        assert set(user.venues.values_list("code", flat=True)) == set(venues)
