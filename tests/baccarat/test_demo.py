"""Baccarat's demo at Macau, and the round stream ``simulate`` deals from: valid deals from a
real shoe, the tableau deciding the third cards."""

from __future__ import annotations

import random
import re
from decimal import Decimal

import pytest
from django.db.models import Sum

from baccarat.demo import DEMO, coups, simulated_rounds
from baccarat.engine import presets
from baccarat.models import BaccaratRulesetVersion
from casino import games
from casino.floor.models import Round, TableSession
from casino.ledger.models import LedgerEntry
from casino.staff.roles import DEALER, MANAGER, SUPERVISOR
from casino.venues.models import Table
from tests.factories import VenueFactory, staff

pytestmark = pytest.mark.django_db


def test_macau_gets_a_table_on_each_preset():
    venue = VenueFactory(code="macau", currency="MOP", rounding_unit=Decimal("0.10"))
    users = {
        "manager": staff("manager", MANAGER, venue),
        "approver": staff("approver", MANAGER, venue),
        "dealer": staff("dealer", DEALER, venue),
        "supervisor": staff("supervisor", SUPERVISOR, venue),
    }
    lines = DEMO.set_up_venue(venue=venue, users=users, rounds=8)
    assert len(lines) == 2, lines
    tables = {t.code: t for t in Table.objects.filter(venue=venue, game="baccarat")}
    assert set(tables) == {"BAC1", "BAC2"}
    variants = {
        code: BaccaratRulesetVersion.objects.get(ruleset=table.ruleset).variant
        for code, table in tables.items()
    }
    assert variants == {"BAC1": "commission", "BAC2": "no_commission"}
    rounds = Round.objects.filter(session__table__venue=venue)
    assert rounds.count() == 16
    # The demo voids about one round in a hundred, drawn from a seed of the venue's key (so
    # the run's other venues decide how many): the rounds it says it voided, and only they.
    said = sum(int(re.search(r"\((\d+) voided\)", line).group(1)) for line in lines)
    assert rounds.filter(status="voided").count() == said
    assert rounds.filter(status="settled").count() == 16 - said
    for table in tables.values():
        assert rounds.filter(session__table=table, status="settled").exists()
    assert LedgerEntry.objects.aggregate(t=Sum("amount"))["t"] == 0
    assert not TableSession.objects.filter(table__venue=venue, status="open").exists()
    assert DEMO.set_up_venue(venue=venue, users=users, rounds=8) == []  # already there
    assert DEMO.set_up_venue(venue=VenueFactory(code="hanoi"), users=users, rounds=8) == []


@pytest.mark.parametrize("code", ["commission", "no-commission"])
def test_the_stream_deals_valid_rounds_from_a_shoe(code):
    rules = presets.get(code).with_rounding(Decimal(1000), presets.get(code).rounding_mode)
    adapter = games.get("baccarat")
    rng = random.Random(5)
    limits = {b: (Decimal(lo), Decimal(hi)) for b, (lo, hi) in DEMO.simulation_limits.items()}
    stream = simulated_rounds(rng=rng, rules=rules, seats=9, limits=limits)
    sizes = set()
    for _ in range(400):
        dealer_cards, boxes = next(stream)
        sizes.add(len(dealer_cards.split()))
        assert all(box.cards == "" for box in boxes)
        assert {box.position for box in boxes} <= set(range(1, 10))
        result = adapter.evaluate_round(
            rules=rules,
            dealer_cards=dealer_cards,
            boxes=boxes,
        )
        assert result.dealer_cards == dealer_cards
    assert sizes == {4, 5, 6}


def test_a_shoe_is_dealt_to_its_cut_card_then_shuffled_anew():
    rules = presets.get("commission")
    dealt = [coup for coup, _ in zip(coups(random.Random(1), rules), range(120), strict=False)]
    cards = [card for coup in dealt for card in coup.cards]
    # no card comes more often than the shoe's eight decks hold it within one shoe
    first_shoe = cards[: 8 * 52 - 14]
    assert max(first_shoe.count(card) for card in set(first_shoe)) <= 8
