"""A Baccarat floor: a venue rounding to 1,000 with a table on each collection of the
commission (at the win, in the commission box), its staff and an open session at each."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest

from baccarat.services import venue_ruleset_from_preset, version_save_draft
from casino.floor.services.sessions import session_open
from casino.rulesets.models import Ruleset
from casino.rulesets.services import version_activate, version_approve, version_content_hash
from casino.staff.roles import DEALER, MANAGER, SUPERVISOR
from casino.venues.models import Table, TableLimit
from tests.factories import VenueFactory, staff

LIMITS = {
    "player": ("1000", "10000000"),
    "banker": ("1000", "10000000"),
    "tie": ("1000", "1000000"),
    "player_pair": ("1000", "1000000"),
    "banker_pair": ("1000", "1000000"),
    "super6": ("1000", "1000000"),
}


@dataclass
class BaccaratFloor:
    venue: Any
    manager: Any
    approver: Any
    dealer: Any
    supervisor: Any
    table: Any  # commission taken at the win
    box_table: Any  # commission owed in the commission box
    session: Any
    box_session: Any


def baccarat_ruleset(
    venue: Any, editor: Any, approver: Any, *, preset: str = "commission", code: str = "", **rules
) -> Ruleset:
    """The venue's active copy of ``preset``, with ``rules`` changed on the draft."""
    version = venue_ruleset_from_preset(
        venue=venue, preset_code=preset, editor=editor, code=code or None
    )
    for name, value in rules.items():
        setattr(version, name, value)
    version = version_save_draft(version=version, user=editor)
    version = version_approve(
        version=version,
        user=approver,
        content_hash=version_content_hash(version),
        override_reason="the rules as shipped",
    )
    return version_activate(version=version, user=approver).ruleset


def baccarat_table(venue: Any, ruleset: Ruleset, *, code: str = "BAC1", seats: int = 9) -> Table:
    table = Table.objects.create(
        venue=venue,
        code=code,
        game="baccarat",
        ruleset=ruleset,
        seats=seats,
        chip_denominations=["1000000", "100000", "10000", "1000"],
    )
    TableLimit.objects.bulk_create(
        TableLimit(table=table, bet_type=bet, min_stake=Decimal(lo), max_stake=Decimal(hi))
        for bet, (lo, hi) in LIMITS.items()
    )
    return table


@pytest.fixture
def bac(db) -> BaccaratFloor:
    venue = VenueFactory(code="macau", currency="VND", rounding_unit=Decimal("1000"))
    manager = staff("bac-manager", MANAGER, venue)
    approver = staff("bac-approver", MANAGER, venue)
    dealer = staff("bac-dealer", DEALER, venue)
    supervisor = staff("bac-supervisor", SUPERVISOR, venue)
    at_win = baccarat_ruleset(venue, manager, approver)
    boxed = baccarat_ruleset(venue, manager, approver, code="commission-box", collection="box")
    table = baccarat_table(venue, at_win)
    box_table = baccarat_table(venue, boxed, code="BAC2")

    def opened(t: Table) -> Any:
        return session_open(
            table=t,
            counted_by=dealer,
            confirmed_by=supervisor,
            opening_chips={"100000": 50},
        )

    return BaccaratFloor(
        venue=venue,
        manager=manager,
        approver=approver,
        dealer=dealer,
        supervisor=supervisor,
        table=table,
        box_table=box_table,
        session=opened(table),
        box_session=opened(box_table),
    )
