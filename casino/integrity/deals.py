"""The order of the deals: a deal repeated or recycled, and a shuffle that carries cards over.

A shuffler (or a dealer) that reuses a previous deal's order does not change how often each
card or hand comes out, so the counts never show it. What shows is the deals themselves,
compared with each other at the same table, in the order they were dealt:

* ``deal_repeat``: every deal against every earlier deal of the period at the table for the
  very same cards in the same hands (its exact probability under a fair shuffle), and
  against the ``RECENT`` deals before it for the cards each hand shares with the same hand
  then (a recycled order shares many). A card of a hand is one of the earlier same hand's
  cards with probability (its size) / 52 under a fair shuffle of any number of decks, so
  the cards shared follow a sum of binomials: its exact upper tail is the pair's p-value
  (drawn without replacement the spread is a little smaller, so the tail is
  conservative). The test's p-value is the smaller of the two, each times the pairs
  compared (Bonferroni), times 2;
* ``deal_serial``: the cards each deal shares with the deal just before it, summed over the
  period, against its distribution under a fair shuffle (one-sided: exact when every hand
  holds as many cards, a binomial; else a z-test): a shuffle that leaves clumps of the
  last deal together raises it a little every round.

The rounds come from the re-settlement's pass (casino.integrity.resettlement): no query of
its own. A "hand" is the dealer's cards (position 0) or a box's, as recorded.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from casino.integrity import statistics as st
from casino.integrity.exact import poisson_binomial_sf
from casino.integrity.groups import MINIMUM, Z95, Group, Outcome, Scope

#: The earlier deals at the table each deal is compared with for the cards it shares.
RECENT = 10
#: Deals a table needs before its serial test may alert (the repeat test needs two).
SERIAL_MINIMUM = MINIMUM.rounds

#: A deal as compared: per hand (position), its cards in the order recorded.
Deal = dict[int, tuple[str, ...]]


def deal_of(dealer_cards: str, boxes: Iterable[tuple[int, str]]) -> Deal:
    """A round's deal from its record: the dealer's cards at 0, each box's at its position
    (rows' separators left out)."""
    deal = {0: tuple(dealer_cards.split())} if dealer_cards.strip() else {}
    for position, cards in boxes:
        held = tuple(card for card in cards.split() if card != "/")
        if held:
            deal[position] = held
    return deal


#: A deal as compared: its (hand, card) pairs (a card twice in one hand of a multi-deck
#: shoe counts once: fewer shared, never more) and its hands' sizes.
Prepared = tuple[frozenset[tuple[int, str]], tuple[tuple[int, int], ...]]


def prepared(deal: Deal) -> Prepared:
    pairs = frozenset((position, card) for position, cards in deal.items() for card in cards)
    return pairs, tuple(sorted((position, len(cards)) for position, cards in deal.items()))


@lru_cache(maxsize=1024)
def null_of(
    earlier: tuple[tuple[int, int], ...], later: tuple[tuple[int, int], ...]
) -> tuple[float, float, tuple[tuple[float, int], ...]]:
    """The mean and variance of the cards a deal with hands of sizes ``later`` shares with
    one of sizes ``earlier`` under a fair shuffle, and the trials (success probability,
    count) whose sum it is: each card of a hand is in the earlier same hand with chance
    (its size) / 52."""
    sizes = dict(earlier)
    trials: Counter[float] = Counter()
    for position, size in later:
        if sizes.get(position):
            trials[sizes[position] / 52] += size
    mean = sum(p * n for p, n in trials.items())
    variance = sum(p * (1 - p) * n for p, n in trials.items())
    return mean, variance, tuple(sorted(trials.items()))


def shared(earlier: Prepared, later: Prepared) -> tuple[int, float, float, dict[float, int]]:
    """The cards ``later``'s hands share with the same hands of ``earlier``, their mean and
    variance under a fair shuffle, and the trials whose sum they are."""
    mean, variance, trials = null_of(earlier[1], later[1])
    return len(earlier[0] & later[0]), mean, variance, dict(trials)


def identical_probability(deal: Deal, decks: int) -> float:
    """The chance a fair shuffle of a shoe of ``decks`` decks deals these very cards to these
    hands, in any order within each hand: one order's chance (each card in turn, its copies
    left over the cards left; every order of the same cards has the same) times the orders
    of each hand's cards."""
    left = 52 * decks
    used: Counter[str] = Counter()
    probability = 1.0
    for position in sorted(deal):
        cards = deal[position]
        orders = math.factorial(len(cards))
        for copies in Counter(cards).values():
            orders //= math.factorial(copies)
        probability *= orders
        for card in cards:
            probability *= max(decks - used[card], 0) / left
            used[card] += 1
            left -= 1
    return probability


@dataclass
class _Table:
    group: Group
    decks: int = 1
    recent: deque = field(default_factory=lambda: deque(maxlen=RECENT))
    seen: dict[tuple, str] = field(default_factory=dict)
    pairs: int = 0
    #: The pair furthest above its mean so far (in SDs): (z, shared, mean, trials, its
    #: round's name, the earlier round's name).
    worst: tuple[float, int, float, dict[float, int], str, str] | None = None
    #: Deals dealt again: (its round's name, the earlier round's, exact probability).
    repeats: list[tuple[str, str, float]] = field(default_factory=list)
    #: The session of the table's first deal: rounds of another are named with theirs.
    first_session: int | None = None
    serial: list[float] = field(default_factory=lambda: [0, 0.0, 0.0])
    #: The trials the serial sum is of (probability: count).
    serial_trials: Counter[float] = field(default_factory=Counter)


class DealWatch:
    """The deals of a period, fed table by table in the order dealt (``add``), and the two
    tests of each table (``outcomes``)."""

    def __init__(self) -> None:
        self._tables: dict[int, _Table] = {}

    def add(self, *, table_id: int, game: str, session_id: int, number: int, deal: Deal,
            decks: int) -> None:  # fmt: skip
        table = self._tables.get(table_id)
        if table is None:
            table = self._tables[table_id] = _Table(Group(Scope.TABLE, table_id, game))
        table.decks = max(table.decks, decks)
        table.group.sessions.add(session_id)
        if table.first_session is None:
            table.first_session = session_id
        # A round's number restarts with each session: "#12", or "#12 (34)" in session 34.
        name = f"#{number}" if session_id == table.first_session else f"#{number} ({session_id})"
        table.group.dealt[sum(len(cards) for cards in deal.values())] += 1
        key = tuple((position, tuple(sorted(cards))) for position, cards in sorted(deal.items()))
        if key in table.seen:
            exact = identical_probability(deal, table.decks)
            table.repeats.append((name, table.seen[key], exact))
        else:
            table.seen[key] = name
        this = prepared(deal)
        for index, (earlier_name, earlier) in enumerate(reversed(table.recent)):
            found, mean, variance, trials = shared(earlier, this)
            if variance <= 0:
                continue
            table.pairs += 1
            z = (found - mean) / math.sqrt(variance)
            if table.worst is None or z > table.worst[0]:
                table.worst = (z, found, mean, trials, name, earlier_name)
            if index == 0:  # the deal just before
                table.serial[0] += found
                table.serial[1] += mean
                table.serial[2] += variance
                table.serial_trials.update(trials)
        table.recent.append((name, this))

    def figures(self) -> dict[int, _Table]:
        """Each table's figures the tests read, its deals themselves let go (a table's
        memory stops growing with its deals): what a process that watched some of a
        period's tables hands back (``merge``). No deal is added after."""
        for table in self._tables.values():
            table.seen = {}
            table.recent.clear()
            table.group.categories = {}  # never counted here; a plain dict crosses processes
        return self._tables

    def merge(self, tables: dict[int, _Table] | None) -> None:
        """Tables watched in another process (its ``figures``), after this one's."""
        self._tables.update(tables or {})

    def outcomes(self) -> list[Outcome]:
        found = []
        for table in self._tables.values():
            found.append(_repeat(table))
            found.append(_serial(table))
        return found


def _repeat(table: _Table) -> Outcome:
    rounds = table.group.rounds
    cells: list[dict[str, Any]] = []
    parts = []
    if table.repeats:
        exact = min(r[2] for r in table.repeats)
        compared = rounds * (rounds - 1) / 2
        parts.append(min(1.0, compared * exact))
        for name, earlier, _exact in table.repeats[:20]:
            cells.append(_cell(f"{name} = {earlier}", 1, 0.0, 0.0, 0.0, True))
    if table.worst is not None:
        _z, shares, mean, trials, name, earlier = table.worst
        tail = poisson_binomial_sf(shares, trials)
        parts.append(min(1.0, table.pairs * tail))
        sd = math.sqrt(sum(p * (1 - p) * n for p, n in trials.items()))
        cells.append(
            _cell(
                f"{name} ~ {earlier}", shares, mean, max(0.0, mean - Z95 * sd),
                mean + Z95 * sd, parts[-1] < 0.05,
            )
        )  # fmt: skip
    if rounds < 2 or not parts:
        return Outcome(table.group, "deal_repeat", rounds, cells, note=f"{rounds} rounds, 2 needed")
    p_value = min(1.0, len(parts) * min(parts))
    return Outcome(table.group, "deal_repeat", rounds, cells, "exact", None, p_value)


def _serial(table: _Table) -> Outcome:
    rounds = table.group.rounds
    found, mean, variance = table.serial
    half = Z95 * math.sqrt(variance)
    cells = [_cell("shared", found, mean, max(0.0, mean - half), mean + half, False)]
    cells[0]["outside"] = not cells[0]["low"] <= found <= cells[0]["high"]
    if rounds < SERIAL_MINIMUM or variance <= 0:
        note = f"{rounds} rounds, {SERIAL_MINIMUM} needed"
        return Outcome(table.group, "deal_serial", rounds, cells, note=note)
    # One-sided: only more cards carried over than chance is a shuffle's fault (a shoe dealt
    # through without a shuffle between rounds carries fewer over). Hands of
    # one size make the sum a binomial, whose exact tail is used (the normal's is too thin
    # on the right for a sum of rare matches); else the normal, with continuity correction.
    z = st.z_test(found, mean, variance).z
    if len(table.serial_trials) == 1:
        from scipy.stats import binom

        ((share, trials),) = table.serial_trials.items()
        p_value = float(binom.sf(found - 1, trials, share))
        return Outcome(table.group, "deal_serial", rounds, cells, "exact", z, p_value)
    p_value = st.normal_sf((found - 0.5 - mean) / math.sqrt(variance))
    return Outcome(table.group, "deal_serial", rounds, cells, "z", z, p_value)


def _cell(
    key: str, observed: float, expected: float, low: float, high: float, outside: bool
) -> dict[str, Any]:
    return {
        "key": key,
        "observed": observed,
        "expected": expected,
        "low": low,
        "high": high,
        "outside": outside,
    }
