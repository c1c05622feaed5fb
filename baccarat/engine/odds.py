"""Exact odds of a Baccarat ruleset, counted over every ordered deal of the shoe (docs/ODDS.md).

Every outcome is counted as the number of ordered six-card deals from the shoe that produce
it: a deal that uses four or five cards still leaves the rest of the six dealt, so the
counts are integers that sum to ``N (N-1) ... (N-5)`` for a shoe of ``N`` cards. The totals
depend on the cards' values only (ten and the court cards are all 0), so the count runs over
values; the pairs depend on ranks and on two cards of one hand only, and are counted on
their own. Nothing is simulated and nothing is rounded: probabilities and edges are
``Fraction`` s.

>>> from baccarat.engine import presets, ruleset_odds
>>> odds = ruleset_odds(presets.get("commission"))
>>> sum(odds.outcomes.values()) == odds.total == 416 * 415 * 414 * 413 * 412 * 411
True
>>> f"{float(odds.bets['banker'].house_edge):.6f}", f"{float(odds.bets['player'].house_edge):.6f}"
('0.010579', '0.012351')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from baccarat.engine.rules import BetType, Ruleset, Variant, Winner
from casino.kernel.cards import RANKS, Rank

#: A deal's outcome: (Player total, Banker total, Player's cards, Banker's cards).
OutcomeKey = tuple[int, int, int, int]

_RANK_POINT = {
    rank: (10 if rank in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING) else i + 1) % 10
    for i, rank in enumerate(RANKS)
}


@dataclass(frozen=True)
class BetOdds:
    """One bet per unit staked: its chances, its net returns and its house edge."""

    bet_type: BetType
    win_probability: Fraction
    push_probability: Fraction
    lose_probability: Fraction
    #: The bet's net returns per unit staked and their probabilities (a win may pay more
    #: than one price: a no-commission Banker 6, Super 6 in two or three cards).
    returns: tuple[tuple[Fraction, Fraction], ...]

    @property
    def expected(self) -> Fraction:
        """The player's expected net per unit staked."""
        return sum((value * p for value, p in self.returns), Fraction(0))

    @property
    def return_(self) -> Fraction:
        """The player's expected net per unit staked (``expected``)."""
        return self.expected

    @property
    def house_edge(self) -> Fraction:
        return -self.expected

    @property
    def variance(self) -> Fraction:
        """The variance of a unit stake's net."""
        mean = self.expected
        return sum((value * value * p for value, p in self.returns), Fraction(0)) - mean * mean


@dataclass(frozen=True)
class RulesetOdds:
    total: int
    outcomes: Mapping[OutcomeKey, int]
    #: Ordered six-card deals whose first two Player (Banker) cards are of one rank.
    pair_count: int
    bets: Mapping[BetType, BetOdds]

    def count(self, winner: Winner | str) -> int:
        winner = Winner(winner)
        return sum(n for key, n in self.outcomes.items() if _winner(key) is winner)

    def probability(self, winner: Winner | str) -> Fraction:
        return Fraction(self.count(winner), self.total)

    def outcome_probabilities(self) -> dict[OutcomeKey, Fraction]:
        return {key: Fraction(n, self.total) for key, n in self.outcomes.items()}


def _winner(key: OutcomeKey) -> Winner:
    player, banker = key[0], key[1]
    if player > banker:
        return Winner.PLAYER
    if banker > player:
        return Winner.BANKER
    return Winner.TIE


def full_shoe(decks: int) -> dict[Rank, int]:
    """A shoe of ``decks`` full decks: four cards of each rank per deck."""
    return {rank: 4 * decks for rank in RANKS}


def _falling(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result *= n - i
    return result


# The Banker's drawing rule by (Banker total, Player's third card value), for a Player who
# drew; the Banker draws on 0-5 when the Player stood.
_BANKER_DRAWS = [
    [
        b <= 2
        or (b == 3 and t != 8)
        or (b == 4 and 2 <= t <= 7)
        or (b == 5 and 4 <= t <= 7)
        or (b == 6 and t in (6, 7))
        for t in range(10)
    ]
    for b in range(10)
]


@lru_cache(maxsize=64)
def outcome_counts(values: tuple[int, ...]) -> dict[OutcomeKey, int]:
    """The ordered six-card deals of a shoe holding ``values[v]`` cards worth ``v`` (0..9),
    counted by outcome."""
    counts = list(values)
    n = sum(counts)
    if n < 6:
        raise ValueError(f"a shoe of {n} cards cannot deal a round of six")
    rest4 = (n - 4) * (n - 5)
    rest5 = n - 5
    out: dict[OutcomeKey, int] = {}
    digits = range(10)
    draws = _BANKER_DRAWS
    for p1 in digits:
        w1 = counts[p1]
        if not w1:
            continue
        counts[p1] -= 1
        for b1 in digits:
            w2 = w1 * counts[b1]
            if not w2:
                continue
            counts[b1] -= 1
            for p2 in digits:
                w3 = w2 * counts[p2]
                if not w3:
                    continue
                counts[p2] -= 1
                pt = (p1 + p2) % 10
                for b2 in digits:
                    w4 = w3 * counts[b2]
                    if not w4:
                        continue
                    bt = (b1 + b2) % 10
                    counts[b2] -= 1
                    if pt >= 8 or bt >= 8:
                        key = (pt, bt, 2, 2)
                        out[key] = out.get(key, 0) + w4 * rest4
                    elif pt <= 5:
                        row = draws[bt]
                        for p3 in digits:
                            w5 = w4 * counts[p3]
                            if not w5:
                                continue
                            pt3 = (pt + p3) % 10
                            if row[p3]:
                                counts[p3] -= 1
                                for b3 in digits:
                                    w6 = w5 * counts[b3]
                                    if w6:
                                        key = (pt3, (bt + b3) % 10, 3, 3)
                                        out[key] = out.get(key, 0) + w6
                                counts[p3] += 1
                            else:
                                key = (pt3, bt, 3, 2)
                                out[key] = out.get(key, 0) + w5 * rest5
                    elif bt <= 5:
                        for b3 in digits:
                            w5 = w4 * counts[b3]
                            if w5:
                                key = (pt, (bt + b3) % 10, 2, 3)
                                out[key] = out.get(key, 0) + w5 * rest5
                    else:
                        key = (pt, bt, 2, 2)
                        out[key] = out.get(key, 0) + w4 * rest4
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return out


def _bet(bet: BetType, outcomes: Mapping[tuple[Fraction, str], int], total: int) -> BetOdds:
    """A bet from its returns' counts (``(net per unit, outcome)`` -> deals)."""
    probability = {"win": Fraction(0), "push": Fraction(0), "lose": Fraction(0)}
    returns: dict[Fraction, Fraction] = {}
    for (value, outcome), n in outcomes.items():
        p = Fraction(n, total)
        probability[outcome] += p
        returns[value] = returns.get(value, Fraction(0)) + p
    return BetOdds(
        bet_type=bet,
        win_probability=probability["win"],
        push_probability=probability["push"],
        lose_probability=probability["lose"],
        returns=tuple(sorted(returns.items())),
    )


def ruleset_odds(rules: Ruleset, shoe: Mapping[Rank | str, int] | None = None) -> RulesetOdds:
    """The exact odds of every bet under ``rules`` for ``shoe`` (cards per rank; by default
    ``rules.decks`` full decks), offered or not."""
    ranks = full_shoe(rules.decks) if shoe is None else {Rank(r): int(n) for r, n in shoe.items()}
    if any(n < 0 for n in ranks.values()):
        raise ValueError("a shoe cannot hold fewer than no cards of a rank")
    values = [0] * 10
    for rank, n in ranks.items():
        values[_RANK_POINT[rank]] += n
    outcomes = outcome_counts(tuple(values))
    size = sum(ranks.values())
    total = _falling(size, 6)
    pair_count = sum(n * (n - 1) for n in ranks.values()) * _falling(size - 2, 4)
    one = Fraction(1)
    commission = one - Fraction(rules.banker_commission)
    six = Fraction(rules.banker_six_odds)
    tie, pair = Fraction(rules.tie_odds), Fraction(rules.pair_odds)
    two, three = Fraction(rules.super6_two_card_odds), Fraction(rules.super6_three_card_odds)
    tallies: dict[BetType, dict[tuple[Fraction, str], int]] = {bet: {} for bet in BetType}

    def add(bet: BetType, value: Fraction, outcome: str, n: int) -> None:
        key = (value, outcome)
        tallies[bet][key] = tallies[bet].get(key, 0) + n

    for key, n in outcomes.items():
        pt, bt, _pc, bc = key
        if pt > bt:
            add(BetType.PLAYER, one, "win", n)
            add(BetType.BANKER, -one, "lose", n)
            add(BetType.TIE, -one, "lose", n)
            add(BetType.SUPER6, -one, "lose", n)
        elif bt > pt:
            add(BetType.PLAYER, -one, "lose", n)
            if rules.variant is Variant.COMMISSION:
                add(BetType.BANKER, commission, "win", n)
            else:
                add(BetType.BANKER, six if bt == 6 else one, "win", n)
            add(BetType.TIE, -one, "lose", n)
            if bt == 6:
                add(BetType.SUPER6, two if bc == 2 else three, "win", n)
            else:
                add(BetType.SUPER6, -one, "lose", n)
        else:
            add(BetType.PLAYER, Fraction(0), "push", n)
            add(BetType.BANKER, Fraction(0), "push", n)
            add(BetType.TIE, tie, "win", n)
            add(BetType.SUPER6, -one, "lose", n)
    for bet in (BetType.PLAYER_PAIR, BetType.BANKER_PAIR):
        add(bet, pair, "win", pair_count)
        add(bet, -one, "lose", total - pair_count)
    return RulesetOdds(
        total=total,
        outcomes=dict(sorted(outcomes.items())),
        pair_count=pair_count,
        bets={bet: _bet(bet, tallies[bet], total) for bet in BetType},
    )


@dataclass(frozen=True)
class OddsRow:
    """One line of the odds table an approver reads: the bet, what it pays (in the engine's
    English; ``price`` and ``commission`` for a translation), its chances and its edge."""

    bet_type: BetType
    offered: bool
    pays: str
    win_probability: Fraction
    push_probability: Fraction
    house_edge: Fraction


def price(odds: Decimal) -> str:
    """``8`` -> "8:1", ``0.5`` -> "1:2", ``1.5`` -> "3:2"."""
    ratio = Fraction(odds)
    return f"{ratio.numerator}:{ratio.denominator}"


def pays(rules: Ruleset, bet: BetType | str) -> str:
    """What ``bet`` pays under ``rules``, as the table's sign says it.

    >>> from baccarat.engine import presets
    >>> [pays(presets.get("commission"), b) for b in ("banker", "tie", "super6")]
    ['1:1 less 5% commission', '8:1', '12:1 in two cards, 20:1 in three']
    >>> pays(presets.get("no-commission"), "banker")
    '1:1, 1:2 on a Banker 6'
    """
    bet = BetType(bet)
    if bet is BetType.PLAYER:
        return "1:1"
    if bet is BetType.BANKER:
        if rules.variant is Variant.NO_COMMISSION:
            return f"1:1, {price(rules.banker_six_odds)} on a Banker 6"
        rate = format((rules.banker_commission * 100).normalize(), "f")
        return f"1:1 less {rate}% commission"
    if bet is BetType.TIE:
        return price(rules.tie_odds)
    if bet is BetType.SUPER6:
        two, three = price(rules.super6_two_card_odds), price(rules.super6_three_card_odds)
        return f"{two} in two cards, {three} in three"
    return price(rules.pair_odds)


def summary(rules: Ruleset, odds: RulesetOdds | None = None) -> tuple[OddsRow, ...]:
    """Every bet's row, in table order, offered or not (``odds`` counted if not given)."""
    odds = ruleset_odds(rules) if odds is None else odds
    return tuple(
        OddsRow(
            bet_type=bet,
            offered=bet in rules.bet_types,
            pays=pays(rules, bet),
            win_probability=odds.bets[bet].win_probability,
            push_probability=odds.bets[bet].push_probability,
            house_edge=odds.bets[bet].house_edge,
        )
        for bet in BetType
    )
