"""A simulated fair month raises no alert beyond the false discovery rate, over many seeds.

Each seed is a month of fair Niu Niu play at 20 tables in two pits: 30 days of 150 rounds
a table, four boxes and the dealer a round, ten dealers in ten-day stints (each deals at
two tables a stint, so each dealer's month spans six tables), twenty members (each on a
box at two tables) and two anonymous boxes a table. Its tallies are drawn fair from the
exact figures, as ``bench/integrity.py`` draws them: hand categories multinomial from the
exact five-card probabilities, each box's win a fair coin (the round's boxes won summed
from the same coins), the cards of each round 25 of a shuffled deck, a member's net result
from their own wins. A stint is drawn at once, on its first day: the sum of its days'
draws has the same law.

The real integrity run (``casino.integrity.runs.integrity_run``, on PostgreSQL: reading
the tallies, every test per table, dealer, pit and member, Benjamini-Hochberg, storing the
results) then tests each seed's month, not its statistics layer alone: the run takes about
0.15 s over a month's 7,300 tally rows and 174 checks, and drawing and writing them 0.4 s,
so 40 seeds take about 25 s.
"""

from __future__ import annotations

import math
from datetime import timedelta
from decimal import Decimal

import numpy as np
import pytest

from casino.floor.models import BetTally
from casino.floor.rules import rules_in_force
from casino.floor.services.sessions import session_open
from casino.integrity.models import CardTally, CategoryTally, IntegrityResult
from casino.integrity.models.tallies import CARDS_DEALT
from casino.integrity.runs import FDR, integrity_run
from casino.integrity.tallies import write_card_tallies, write_category_tallies
from casino.kernel.cards import DECK
from casino.rulesets.rates import rates_of
from casino.staff.roles import DEALER
from casino.venues.services.pits import pit_create
from tests.factories import PlayerFactory, niuniu_table, staff

SEEDS = 40
TABLES = 20
PITS = 2
DAYS = 30
STINT_DAYS = 10
ROUNDS_A_DAY = 150
DEALERS = 10
MEMBERS = 20
BOXES = 4
CARDS_A_ROUND = 5 * (BOXES + 1)
STAKE = Decimal("100000")
#: A Single box's result per unit staked: +0.95 on a win (less the 5% commission), -1 on a
#: loss; Niu Niu never pushes.
WIN, LOSS = Decimal("0.95"), Decimal("-1")


class Month:
    """The floor a month is dealt at: its tables' sessions, dealers, members and dates."""

    def __init__(self, floor) -> None:
        self.venue = floor.venue
        tables = [floor.table] + [
            niuniu_table(floor.venue, code=f"NN{n + 1}") for n in range(1, TABLES)
        ]
        for pit in range(PITS):
            pit_create(
                user=floor.manager,
                venue=floor.venue,
                code=f"P{pit + 1}",
                name=f"Pit {pit + 1}",
                tables=tables[pit::PITS],
            )
        self.sessions = [
            session_open(
                table=table,
                counted_by=floor.dealer,
                confirmed_by=floor.supervisor,
                opening_chips={"100000": 50},
            )
            for table in tables
        ]
        self.dealers = [staff(f"month-dealer-{n}", DEALER, floor.venue).pk for n in range(DEALERS)]
        self.members = [PlayerFactory(venue=floor.venue).pk for _ in range(MEMBERS)]
        in_force = rules_in_force(self.sessions[0].table)
        self.version = in_force.version
        # The month ends on the sessions' gaming date: their bet tallies are of its shift.
        self.last = self.sessions[0].shift.gaming_date
        self.first = self.last - timedelta(days=DAYS - 1)
        expected = in_force.game.integrity_expected(in_force.rules)
        self.hands = list(expected["box_hand"])
        self.p_hand = np.array([float(expected["box_hand"][hand]) for hand in self.hands])

    def seats(self, table: int) -> list[int | None]:
        """The boxes' members at a table: two members, then two anonymous boxes."""
        return [self.members[table], self.members[(table + 1) % MEMBERS], None, None]

    def dealer(self, table: int, stint: int) -> int:
        return self.dealers[(table + 3 * stint) % DEALERS]

    def deal(self, seed: int) -> None:
        """Replace the venue's tallies with a fair month drawn from ``seed``."""
        for model in (CategoryTally, CardTally, BetTally):
            model.objects.filter(venue=self.venue).delete()
        rng = np.random.default_rng(seed)
        categories, cards, bets = [], [], []
        n = STINT_DAYS * ROUNDS_A_DAY
        version = self.version.pk
        for index, session in enumerate(self.sessions):
            for stint in range(DAYS // STINT_DAYS):
                base = {
                    "venue_id": self.venue.pk,
                    "shift_id": session.shift_id,
                    "session_id": session.pk,
                    "table_id": session.table_id,
                    "dealer_id": self.dealer(index, stint),
                    "gaming_date": self.first + timedelta(days=stint * STINT_DAYS),
                    "game": "niuniu",
                }
                for hand, count in zip(self.hands, rng.multinomial(n, self.p_hand), strict=True):
                    categories.append((base, (None, version, "dealer_hand", hand), int(count)))
                won = rng.random((n, BOXES)) < 0.5
                for position, seat in enumerate(self.seats(index)):
                    hands = rng.multinomial(n, self.p_hand)
                    for hand, count in zip(self.hands, hands, strict=True):
                        categories.append((base, (seat, version, "box_hand", hand), int(count)))
                    wins = int(won[:, position].sum())
                    categories.append((base, (seat, version, "box_outcome", "win"), wins))
                    categories.append((base, (seat, version, "box_outcome", "lose"), n - wins))
                    if seat is not None:
                        bets.append(self._bets(base, seat, n, wins))
                for boxes_won, count in enumerate(np.bincount(won.sum(axis=1), minlength=5)):
                    key = (None, version, "round_outcome", f"{boxes_won}/{BOXES}")
                    categories.append((base, key, int(count)))
                categories.append((base, (None, version, CARDS_DEALT, str(CARDS_A_ROUND)), n))
                # Each round's cards: the first 25 of a shuffled deck.
                dealt = rng.random((n, 52)).argpartition(CARDS_A_ROUND, axis=1)
                counts = np.bincount(dealt[:, :CARDS_A_ROUND].ravel(), minlength=52)
                for card, count in zip(DECK, counts, strict=True):
                    cards.append((base, (str(card)[0], str(card)[1]), int(count)))
        write_category_tallies(categories)
        write_card_tallies(cards)
        BetTally.objects.bulk_create(bets)

    def _bets(self, base: dict, member: int, n: int, wins: int) -> BetTally:
        return BetTally(
            venue_id=base["venue_id"],
            shift_id=base["shift_id"],
            session_id=base["session_id"],
            table_id=base["table_id"],
            dealer_id=base["dealer_id"],
            hour=self.sessions[0].shift.starts_at,
            player_id=member,
            game="niuniu",
            ruleset_version_id=self.version.pk,
            bet_type="single",
            bets=n,
            handle=STAKE * n,
            stake_squared=STAKE * STAKE * n,
            player_result=STAKE * (WIN * wins + LOSS * (n - wins)),
            commission=STAKE * (1 - WIN) * wins,
            volume=STAKE * wins,
            max_net=STAKE * WIN,
        )


def binomial_upper(n: int, p: float, beyond: float) -> int:
    """The least k with P(X > k) < ``beyond`` for X ~ binomial(n, p)."""
    tail = 1.0
    for k in range(n + 1):
        tail -= math.comb(n, k) * p**k * (1 - p) ** (n - k)
        if tail < beyond:
            return k
    return n


@pytest.mark.slow
@pytest.mark.django_db
def test_a_fair_month_alerts_on_no_more_seeds_than_the_false_discovery_rate_allows(floor):
    # given the month's floor, and the Single's approved figures the member's fair wins give
    month = Month(floor)
    (rates,) = rates_of([("niuniu", month.version.pk)])
    assert float(rates.edges["single"]) == pytest.approx(0.025, abs=1e-4)
    assert float(rates.sds["single"]) == pytest.approx(math.sqrt(0.950625), abs=1e-3)

    # when each seed's fair month is tested by the run
    alerted_seeds = 0
    tests = alerts = below_05 = 0
    kinds: set[tuple[str, str]] = set()
    for seed in range(SEEDS):
        month.deal(seed)
        run = integrity_run(venue=month.venue, date_from=month.first, date_to=month.last)
        p_values = list(
            IntegrityResult.objects.filter(run=run, p_value__isnull=False).values_list(
                "p_value", flat=True
            )
        )
        kinds |= set(IntegrityResult.objects.filter(run=run).values_list("scope", "test"))
        assert run.tests == len(p_values)
        alerted_seeds += run.alerts > 0
        tests += run.tests
        alerts += run.alerts
        below_05 += sum(p < 0.05 for p in p_values)

    # then every scope's checks ran, on every seed
    assert kinds >= {
        ("table", "dealer_hand"),
        ("table", "box_hand"),
        ("table", "box_outcome"),
        ("table", "cards"),
        ("dealer", "dealer_hand"),
        ("dealer", "box_outcome"),
        ("dealer", "cards"),
        ("pit", "dealer_hand"),
        ("pit", "box_hand"),
        ("player", "box_hand"),
        ("player", "box_outcome"),
        ("player", "net_result"),
    }
    assert tests >= SEEDS * 160
    # Benjamini-Hochberg at 5%: a fair month alerts at all at most 5% of the time, so the
    # seeds that alert are no more than binomial(40, 0.05) exceeds with probability 0.001.
    assert alerted_seeds <= binomial_upper(SEEDS, FDR, 0.001)
    assert alerts / tests <= FDR / 10
    # Each check alone rejects a fair sample at 0.05 at most 5% of the time (the card test's
    # combined p and the discrete tests a little less): the share of p-values under 0.05,
    # within a margin for the tests' correlation (a table's, its dealer's and pit's share
    # hands), and not far under it (a check that never gives a small p-value tests nothing).
    assert 0.02 <= below_05 / tests <= FDR + 0.015
