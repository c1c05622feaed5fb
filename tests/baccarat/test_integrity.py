"""Baccarat under the integrity tests: a settled round counts its result (the winner and how
the hands were dealt), its cards and each seat's side backed, a void takes them off, and the
run tests a table's results against the exact odds of its shoe (a fair shoe raises no alert,
a shoe stacked with tens is flagged) and each seat's wins against its sides' shares (a seat
that sees the deal is flagged)."""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest

from baccarat.engine import DealError, deal, presets, ruleset_odds
from casino import games
from casino.floor.services.rounds import _rules_in_force, round_create
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.integrity.group_tests import run_tests
from casino.integrity.models import CardTally, CategoryTally
from casino.integrity.tallies import (
    round_counts,
    write_card_tallies,
    write_category_tallies,
)
from casino.kernel.cards import DECK, format_cards
from tests.casino.integrity.simulated import tally_base

pytestmark = pytest.mark.django_db

ADAPTER = games.get("baccarat")


def test_the_expected_results_are_the_exact_shares_of_every_deal():
    rules = presets.get("commission")
    shares = ADAPTER.integrity_expected(rules)["round_result"]
    assert sum(shares.values()) == 1
    odds = ruleset_odds(rules)
    naturals = sum(v for k, v in shares.items() if k.endswith("/natural"))
    counted = sum(
        n for (p, b, pc, bc), n in odds.outcomes.items() if pc == bc == 2 and max(p, b) >= 8
    )
    assert naturals == Fraction(counted, odds.total)
    assert ADAPTER.integrity_decks(rules) == 8


def test_a_settled_round_counts_its_result_and_cards_and_a_void_takes_them_off(bac):
    round_, _result = round_create(
        session=bac.session,
        user=bac.dealer,
        dealer_cards="2S 9H 3C KD",  # Player 5, Banker a natural 9
        boxes=[BoxInput(position=1, cards="", stakes={"banker": Decimal(10000)})],
    )
    round_settle(round_=round_, user=bac.dealer, key="k1")
    tally = CategoryTally.objects.get(session=bac.session, subject="round_result")
    assert (tally.category, tally.count) == ("banker/natural", 1)
    assert sum(CardTally.objects.filter(session=bac.session).values_list("count", flat=True)) == 4
    round_void(round_=round_, requested_by=bac.dealer, approved_by=bac.supervisor, reason="x")
    tally.refresh_from_db()
    assert tally.count == 0


def _tally(session, rounds: int, *, shoe: list, seed: int) -> None:
    """``rounds`` deals from ``shoe`` (reshuffled as it runs low), tallied as settlement
    would have."""
    _adapter, version, rules = _rules_in_force(session)
    rng = random.Random(seed)
    base = tally_base(session, "baccarat")
    categories: Counter = Counter()
    cards: Counter = Counter()
    left: list = []
    for _ in range(rounds):
        if len(left) < 14:
            left = list(shoe)
            rng.shuffle(left)
        for used in (4, 5, 6):
            dealt = tuple(reversed(left[-used:]))
            try:
                deal(dealt, rules)
            except DealError:
                continue
            del left[-used:]
            break
        result = ADAPTER.evaluate_round(
            rules=rules,
            dealer_cards=format_cards(dealt),
            boxes=[BoxInput(position=1, cards="", stakes={"player": Decimal(1000)})],
        )
        got_categories, got_cards = round_counts(
            ADAPTER.integrity_counts(result), players={}, ruleset_version_id=version.pk
        )
        categories.update(got_categories)
        cards.update(got_cards)
    write_category_tallies([(base, key, n) for key, n in categories.items()])
    write_card_tallies([(base, key, n) for key, n in cards.items()])


def _results(session):
    date = session.shift.gaming_date
    return [
        outcome
        for outcome in run_tests(session.table.venue_id, date, date)
        if outcome.test == "round_result" and outcome.p_value is not None
    ]


def test_a_fair_shoe_passes_and_a_shoe_stacked_with_tens_is_flagged(bac):
    eight_decks = list(DECK) * 8
    _tally(bac.session, 2000, shoe=eight_decks, seed=1)
    (fair,) = [
        o for o in _results(bac.session) if o.group.scope == "table" and o.group.key == bac.table.pk
    ]
    assert fair.p_value > 0.001
    # The second table's shoe: every 2 to 5 replaced by a ten (naturals and stands more often).
    stacked = [
        card if card.value % 10 not in (2, 3, 4, 5) else next(c for c in DECK if c.rank == "T")
        for card in eight_decks
    ]
    _tally(bac.box_session, 2000, shoe=stacked, seed=2)
    flagged = [
        o
        for o in _results(bac.box_session)
        if o.group.scope == "table" and o.group.key == bac.box_table.pk
    ]
    assert flagged and flagged[0].p_value < 1e-6


def test_the_rounds_an_integrity_result_counted_read_the_shoes_once_per_session(
    bac, client, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from casino.integrity.models import IntegrityResult
    from casino.integrity.runs import integrity_run

    # Four deals where both hands stand on their first two cards.
    deals = ("2S 9H 3C KD", "4S 4H 3D 5C", "9S 2H KC 3D", "TS 7H 8C 4D")
    client.force_login(bac.manager)
    counts = []
    for listed, batch in ((1, deals[:1]), (4, deals[1:])):
        for cards in batch:
            round_, _result = round_create(
                session=bac.session,
                user=bac.dealer,
                dealer_cards=cards,
                boxes=[BoxInput(position=1, cards="", stakes={"banker": Decimal(10000)})],
            )
            round_settle(round_=round_, user=bac.dealer, key=cards)
        day = bac.session.shift.gaming_date
        run = integrity_run(venue=bac.venue, date_from=day, date_to=day)
        result = IntegrityResult.objects.filter(run=run, scope="table").first()
        url = reverse("reports:integrity_rounds", args=[result.pk])
        with django_assert_max_num_queries(12), CaptureQueriesContext(connection) as queries:
            page = client.get(url)
        assert page.status_code == 200
        assert page.content.decode().count('<tr id="round-') == listed
        counts.append(len(queries))
    assert counts[0] == counts[1], "one read of the session's shoes, however many rounds"


def test_the_sides_expected_are_the_exact_shares_of_the_deals_that_decide_them():
    rules = presets.get("commission")
    expected = ADAPTER.integrity_expected(rules)
    sides = expected["bet_outcome"]
    assert sides["player"] + sides["banker"] == 1
    won = sum(p for key, p in expected["round_result"].items() if key.startswith("banker/"))
    tie = sum(p for key, p in expected["round_result"].items() if key.startswith("tie/"))
    assert sides["banker"] == won / (1 - tie)
    assert 0.506 < float(sides["banker"]) < 0.507


def _seats(session, rounds: int, *, knows: float, seed: int) -> None:
    """``rounds`` deals of an 8-deck shoe with two seats betting: position 1 backs a side
    at random, position 3 backs the side that wins ``knows`` of the time (it sees the deal),
    a side at random otherwise; tallied as settlement would have."""
    _adapter, version, rules = _rules_in_force(session)
    rng = random.Random(seed)
    base = tally_base(session, "baccarat")
    categories: Counter = Counter()
    shoe = list(DECK) * 8
    for _ in range(rounds):
        rng.shuffle(shoe)
        for used in (4, 5, 6):
            dealt = tuple(shoe[:used])
            try:
                coup = deal(dealt, rules)
            except DealError:
                continue
            break
        winner = coup.winner if str(coup.winner) in ("player", "banker") else "banker"
        side = str(winner) if rng.random() < knows else rng.choice(("player", "banker"))
        stake = Decimal(1000)
        random_side = rng.choice(("player", "banker"))
        result = ADAPTER.evaluate_round(
            rules=rules,
            dealer_cards=format_cards(dealt),
            boxes=[
                BoxInput(position=1, cards="", stakes={random_side: stake}),
                BoxInput(position=3, cards="", stakes={side: stake}),
            ],
        )
        got, _cards = round_counts(
            ADAPTER.integrity_counts(result), players={}, ruleset_version_id=version.pk
        )
        categories.update(got)
    write_category_tallies([(base, key, n) for key, n in categories.items()])


def test_a_seat_backing_the_side_it_knows_wins_is_caught_by_its_own_test(bac):
    # A fifth of the time the seat backs the side that wins: its wins of the decided bets go
    # from about 0.5 to 0.6; 600 deals are ample for a test at 0.05 / 10 (about 450 needed).
    _seats(bac.session, 600, knows=0.2, seed=5)
    date = bac.session.shift.gaming_date
    seats = {
        o.position: o
        for o in run_tests(bac.table.venue_id, date, date)
        if o.test == "bet_outcome" and o.group.scope == "table" and o.position is not None
    }
    assert set(seats) == {1, 3}
    assert seats[3].p_value < 0.05 / 10
    assert seats[1].p_value > 0.05 / 10
    wins = {cell["key"]: cell for cell in seats[3].cells}
    assert sum(c["observed"] for c in wins.values()) > sum(c["expected"] for c in wins.values())
