"""Exact odds of a Niu Niu ruleset: category probabilities, and per bet type the expected
return, house edge, standard deviation and the probability of every outcome.

One player box plays the dealer; both hands come from one deck, so the ten cards are
distinct and card removal is counted. Every figure is an exact :class:`~fractions.Fraction`
over all equally likely deals (ordered pairs of disjoint five-card hands: 3,986,646,103,440
for the full deck), with decimal views for display. Commission is taken as the exact rate
(no rounding to a venue's unit), so figures are per unit staked.

The work is in three modules (docs/ODDS.md has the argument in full):

- :mod:`niuniu.engine.odds_counts` counts the deals: hands per category, deals per pair of
  player and dealer categories, hands per bonus line. The counts depend only on the deck and
  the special-hand switches, and are cached per process.
- this module applies a ruleset's paytable and bonus lines to those counts (microseconds),
  and compares two rulesets' figures;
- :mod:`niuniu.engine.odds_report` holds the results (:class:`RulesetOdds`, :class:`BetOdds`,
  :class:`OddsDiff`) and their stored JSON form. They are re-exported here.

:func:`rules_hash` identifies the rules that the figures depend on, so a stored result is
recomputed only when they change.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from math import comb
from types import MappingProxyType

from casino.kernel.cards import DECK, Card
from niuniu.engine.odds_counts import (
    HAND,
    bonus_counts,
    category_totals,
    deck_key,
    wins_by_category,
)
from niuniu.engine.odds_report import (
    BET_FIGURES,
    DECIMAL_PLACES,
    SCHEMA,
    BetOdds,
    Change,
    Figure,
    OddsDiff,
    Outcome,
    Result,
    RulesetOdds,
    as_decimal,
)
from niuniu.engine.rules import (
    PAYTABLE_BET_TYPES,
    BetType,
    BonusPredicate,
    Category,
    PaytableRow,
    Ruleset,
)
from niuniu.engine.settle import commission_on

_QUANTUM = Decimal(1).scaleb(-DECIMAL_PLACES)
_ZERO = Fraction(0)


# --- Public functions ----------------------------------------------------------------------


def rules_hash(rules: Ruleset) -> str:
    """sha256 of the canonical JSON of everything the odds depend on, and nothing else.

    Paytable, special-hand switches and ranks, bonus lines (in order) and deposit multiples
    and bases count;
    the code, the name and the rounding (unit and mode: the odds take the exact commission)
    do not, and neither does how a number is written (``1`` and ``1.00`` are the same odds).

    >>> from niuniu.engine import presets
    >>> rules = presets.get("vn-kr-004")
    >>> rules_hash(rules) == rules_hash(rules.with_rounding(Decimal("1000"), "down"))
    True
    >>> len(rules_hash(rules))
    64
    """
    canonical = {
        "schema": SCHEMA,
        "special_hands": sorted(category.name for category in rules.special_hands),
        "paytable": {
            bet_type.value: {
                category.name: [
                    _canonical(row.win_odds),
                    _canonical(row.commission_rate),
                    _canonical(row.loss_multiple),
                ]
                for category, row in rows.items()
            }
            for bet_type, rows in rules.paytable.items()
        },
        "bonus_lines": [
            [line.name, BonusPredicate(line.predicate).value, _canonical(line.odds)]
            for line in rules.bonus_lines
        ],
        "deposit_multiples": {
            bet_type.value: _canonical(multiple)
            for bet_type, multiple in rules.deposit_multiples.items()
        },
    }
    # Written only when set, so the rules of every figure stored before these settings
    # existed keep their hash.
    if rules.level_with_niu_niu:
        canonical["level_with_niu_niu"] = sorted(c.name for c in rules.level_with_niu_niu)
    if rules.deposit_bases:
        canonical["deposit_bases"] = {
            b.value: basis.value for b, basis in rules.deposit_bases.items()
        }
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def category_counts(rules: Ruleset, deck: Sequence[Card] = DECK) -> dict[Category, int]:
    """How many five-card hands of the deck fall in each category, under the switches.

    Every category of ``rules.categories`` is present, strongest first (0 if impossible).

    >>> from niuniu.engine import presets
    >>> category_counts(presets.get("vn-kr-004"))[Category.NIU_NIU]
    191808
    """
    totals = category_totals(deck_key(deck), rules.special_hands, rules.level_with_niu_niu)
    return {category: totals[category] for category in rules.categories}


def showdown_counts(rules: Ruleset, deck: Sequence[Card] = DECK) -> dict[Category, int]:
    """For each category ``c``: the ordered (player, dealer) deals the player wins with ``c``.

    By the swap symmetry (:mod:`niuniu.engine.odds_counts`) it is also the number of deals
    the dealer wins with ``c``; the values add up to half of all deals.
    """
    wins = wins_by_category(deck_key(deck), rules.special_hands, rules.level_with_niu_niu)
    return {category: wins[category] for category in rules.categories}


def ruleset_odds(
    rules: Ruleset, deck: Sequence[Card] = DECK, *, stake: Decimal | None = None
) -> RulesetOdds:
    """The exact odds of every bet the ruleset offers (one box against the dealer).

    ``deck`` is any set of distinct cards with at least ten (a reduced deck lets a test
    compare with brute force); the default is the standard 52-card deck.

    Without ``stake`` a commission is the row's exact rate (the figures the admin shows and
    stores):

    >>> from niuniu.engine import presets
    >>> odds = ruleset_odds(presets.get("vn-kr-004"))
    >>> odds.bets[BetType.SINGLE].house_edge   # wins pay 0.95, losses cost 1, P(win) = 1/2
    Fraction(1, 40)

    With a ``stake`` on every bet, each commission is rounded as the rules round it (unit
    and mode, :func:`~niuniu.engine.settle.commission_on`); the figures stay per unit staked:

    >>> vnd = presets.get("vn-kr-004").with_rounding(Decimal("1000"), "up")
    >>> ruleset_odds(vnd, stake=Decimal("1000")).bets[BetType.SINGLE].house_edge
    Fraction(1, 2)
    >>> ruleset_odds(vnd.with_rounding(Decimal("1000"), "down"),
    ...              stake=Decimal("1000")).bets[BetType.SINGLE].house_edge
    Fraction(0, 1)

    (5% of 1,000 rounds up to a whole 1,000, so a win pays nothing; rounded down, nothing
    is taken.)
    """
    key = deck_key(deck)
    hands = comb(len(key), HAND)
    deals = hands * comb(len(key) - HAND, HAND)
    bets: dict[BetType, BetOdds] = {}
    offered = rules.bet_types
    if any(bet_type in PAYTABLE_BET_TYPES for bet_type in offered):
        wins = showdown_counts(rules, deck)
        if sum(wins.values()) * 2 != deals:  # every deal has exactly one winner
            raise AssertionError("the showdown counts do not add up to every deal")
        for bet_type in offered:
            if bet_type in PAYTABLE_BET_TYPES:
                bets[bet_type] = _paytable_bet(rules, bet_type, wins, deals, stake)
    if BetType.BONUS in offered:
        bets[BetType.BONUS] = _bonus_bet(rules, key, hands)
    totals = category_totals(key, rules.special_hands, rules.level_with_niu_niu)
    return RulesetOdds(
        rules_hash=rules_hash(rules),
        deck_size=len(key),
        hands=hands,
        deals=deals,
        categories=MappingProxyType({category: totals[category] for category in rules.categories}),
        bets=MappingProxyType(bets),
    )


def diff_odds(old: RulesetOdds | Ruleset, new: RulesetOdds | Ruleset) -> OddsDiff:
    """Every figure of ``new`` against ``old`` (the admin's "difference from the active
    version"). Either side may be a stored result (:meth:`RulesetOdds.from_dict`) or a
    ruleset, whose odds are then computed on the full deck. A bet type offered by only
    one side has ``None`` on the other.
    """
    if isinstance(old, Ruleset):
        old = ruleset_odds(old)
    if isinstance(new, Ruleset):
        new = ruleset_odds(new)
    bet_types = [b for b in BetType if b in old.bets or b in new.bets]
    bets = {
        bet_type: MappingProxyType(
            {
                name: Change(
                    _figure(old.bets.get(bet_type), name), _figure(new.bets.get(bet_type), name)
                )
                for name in BET_FIGURES
            }
        )
        for bet_type in bet_types
    }
    categories = sorted(set(old.categories) | set(new.categories), reverse=True)
    return OddsDiff(
        same_rules=old.rules_hash == new.rules_hash,
        bets=MappingProxyType(bets),
        categories=MappingProxyType(
            {
                category: Change(
                    old.category_probability(category) if category in old.categories else None,
                    new.category_probability(category) if category in new.categories else None,
                )
                for category in categories
            }
        ),
    )


# --- Applying a paytable -------------------------------------------------------------------


def _paytable_bet(
    rules: Ruleset,
    bet_type: BetType,
    wins: Mapping[Category, int],
    deals: int,
    stake: Decimal | None,
) -> BetOdds:
    rows = rules.paytable[bet_type]
    missing = [category.name for category in rules.categories if category not in rows]
    if missing:
        raise ValueError(f"the ruleset {rules.code} has no {bet_type} row for {', '.join(missing)}")
    outcomes = []
    for category in rules.categories:  # strongest first: wins, then losses
        net = _win_net(rows[category], rules, stake)
        outcomes.append(_outcome("win", category, None, net, wins[category], deals))
    for category in rules.categories:
        net = -Fraction(rows[category].loss_multiple)
        outcomes.append(_outcome("lose", category, None, net, wins[category], deals))
    return _bet(
        bet_type,
        outcomes,
        max_win_odds=max(Fraction(rows[c].win_odds) for c in rules.categories),
    )


def _win_net(row: PaytableRow, rules: Ruleset, stake: Decimal | None) -> Fraction:
    """What a win on ``row`` nets per unit staked: the exact rate off, or at ``stake`` the
    commission as a settlement rounds it."""
    if stake is None:
        return Fraction(row.win_odds) * (1 - Fraction(row.commission_rate))
    if not stake > 0:
        raise ValueError(f"a stake must be positive, got {stake}")
    gross = stake * row.win_odds
    return Fraction(gross - commission_on(gross, row, rules)) / Fraction(stake)


def _bonus_bet(rules: Ruleset, key: tuple[int, ...], hands: int) -> BetOdds:
    predicates = tuple(BonusPredicate(line.predicate) for line in rules.bonus_lines)
    counts = bonus_counts(key, rules.special_hands, predicates)  # by line index; -1: none
    outcomes = [
        _outcome("win", None, line.name, Fraction(line.odds), counts.get(index, 0), hands)
        for index, line in enumerate(rules.bonus_lines)
    ]
    outcomes.append(_outcome("lose", None, None, Fraction(-1), counts.get(-1, 0), hands))
    return _bet(
        BetType.BONUS,
        outcomes,
        max_win_odds=max(Fraction(line.odds) for line in rules.bonus_lines),
    )


def _outcome(
    result: Result,
    category: Category | None,
    bonus_line: str | None,
    net: Fraction,
    count: int,
    total: int,
) -> Outcome:
    return Outcome(result, category, bonus_line, net, count, Fraction(count, total))


def _bet(bet_type: BetType, outcomes: list[Outcome], *, max_win_odds: Fraction) -> BetOdds:
    mean = sum((o.probability * o.net for o in outcomes), _ZERO)
    square = sum((o.probability * o.net * o.net for o in outcomes), _ZERO)
    variance = square - mean * mean
    return BetOdds(
        bet_type=bet_type,
        outcomes=tuple(outcomes),
        expected_return=mean,
        variance=variance,
        standard_deviation=_sqrt(variance),
        win_probability=sum((o.probability for o in outcomes if o.result == "win"), _ZERO),
        max_win_odds=max_win_odds,
        exposure=max((o.net for o in outcomes if o.result == "win"), default=_ZERO),
    )


def _sqrt(value: Fraction) -> Decimal:
    with localcontext() as context:
        context.prec = 60
        root = (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()
        return root.quantize(_QUANTUM, rounding=ROUND_HALF_EVEN)


def _canonical(value: Decimal) -> str:
    text = format(Decimal(value).normalize(), "f")
    return "0" if text in ("-0", "0") else text


def _figure(bet: BetOdds | None, name: str) -> Figure | None:
    return None if bet is None else getattr(bet, name)


__all__ = [
    "BET_FIGURES",
    "DECIMAL_PLACES",
    "SCHEMA",
    "BetOdds",
    "Change",
    "OddsDiff",
    "Outcome",
    "RulesetOdds",
    "as_decimal",
    "category_counts",
    "diff_odds",
    "rules_hash",
    "ruleset_odds",
    "showdown_counts",
]
