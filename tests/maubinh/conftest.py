"""Fixtures for the Django side of Mau Binh: a table with an active copy of a preset."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.floor.services.sessions import session_open
from casino.rulesets.models import Ruleset
from casino.rulesets.services import version_activate, version_approve, version_content_hash
from casino.staff.roles import DEALER, MANAGER, SUPERVISOR
from casino.venues.models import Table, TableLimit, Venue
from maubinh.models import MauBinhRulesetVersion
from maubinh.services import venue_ruleset_from_preset
from tests.factories import staff

#: Deals per house-take simulation in these tests: enough to exercise every step, fast.
TEST_DEALS = 3


@pytest.fixture(autouse=True)
def _few_deals(settings):
    """Keep the house-take simulation (approval, the admin panel) to a few deals."""
    settings.MAUBINH_HOUSE_TAKE_DEALS = TEST_DEALS


def maubinh_table(
    venue: Venue,
    *,
    code: str = "MB1",
    preset: str = "bigkool-2016",
    seats: int = 4,
    limits: dict[str, tuple[str, str]] | None = None,
    denominations: tuple[str, ...] = ("1000000", "100000", "10000", "1000"),
    readings: dict[str, object] | None = None,
) -> Table:
    """A Mau Binh table at ``venue`` with an active copy of ``preset`` (``readings``: rules
    of the version that differ from the preset's, set on the draft before its approval)."""
    ruleset = Ruleset.objects.filter(venue=venue, game="maubinh", code=preset).first()
    if ruleset is None:
        approver = staff(f"{venue.code}-maubinh-approver", MANAGER, venue)
        version = venue_ruleset_from_preset(
            venue=venue,
            preset_code=preset,
            editor=staff(f"{venue.code}-maubinh-editor", MANAGER, venue),
            approver=None if readings else approver,
        )
        if readings:
            MauBinhRulesetVersion.objects.filter(pk=version.pk).update(**readings)
            version.refresh_from_db()
            version_activate(
                version=version_approve(
                    version=version, content_hash=version_content_hash(version), user=approver
                ),
                user=approver,
            )
        ruleset = version.ruleset
    table = Table.objects.create(
        venue=venue,
        code=code,
        game="maubinh",
        ruleset=ruleset,
        seats=seats,
        chip_denominations=list(denominations),
    )
    lo, hi = (limits or {}).get("stake", ("10000", "10000000"))
    TableLimit.objects.create(
        table=table, bet_type="stake", min_stake=Decimal(lo), max_stake=Decimal(hi)
    )
    return table


@pytest.fixture
def dealer(venue):
    return staff("mb-dealer", DEALER, venue)


@pytest.fixture
def supervisor(venue):
    return staff("mb-supervisor", SUPERVISOR, venue)


@pytest.fixture
def table(venue):
    return maubinh_table(venue)


@pytest.fixture
def session(table, dealer, supervisor):
    return session_open(
        table=table, counted_by=dealer, confirmed_by=supervisor, opening_chips={"100000": 50}
    )


@pytest.fixture
def optional_session(venue, dealer, supervisor):
    """An open session at a table whose version leaves declaring an instant win to the player."""
    table = maubinh_table(venue, code="MB-OPT", readings={"declaring": "optional"})
    return session_open(
        table=table, counted_by=dealer, confirmed_by=supervisor, opening_chips={"100000": 50}
    )
