"""The exact odds of a Niu Niu ruleset as results, and their stored form.

:func:`niuniu.engine.odds.ruleset_odds` returns a :class:`RulesetOdds`; the admin stores it
as JSON (:meth:`RulesetOdds.to_dict`, read back exactly by :meth:`RulesetOdds.from_dict`)
and compares two of them with :func:`niuniu.engine.odds.diff_odds`, which returns an
:class:`OddsDiff`. Every figure is a :class:`~fractions.Fraction`; the JSON carries each one
as ``"p/q"`` beside a decimal string.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal

from niuniu.engine.rules import BetType, Category

#: Version of the canonical JSON that :func:`niuniu.engine.odds.rules_hash` digests and of
#: ``to_dict``.
SCHEMA = 1
#: Places after the decimal point in the decimal views.
DECIMAL_PLACES = 12
_ZERO = Fraction(0)

Result = Literal["win", "lose"]
Figure = Fraction | Decimal


@dataclass(frozen=True, slots=True)
class Outcome:
    """One way a bet can settle, per unit staked, from the player's point of view.

    ``category`` is the hand that decides it: the player's on a win, the dealer's on a loss
    (``None`` for the bonus). ``bonus_line`` names the bonus line that paid. ``count`` is the
    number of equally likely deals (ordered player/dealer pairs; five-card hands for the
    bonus) that end this way, and ``probability`` is ``count`` over all of them.
    """

    result: Result
    category: Category | None
    bonus_line: str | None
    net: Fraction
    count: int
    probability: Fraction


@dataclass(frozen=True)
class BetOdds:
    """The exact figures of one bet type, per unit staked.

    ``expected_return`` is the player's mean net result (negative: the house's advantage);
    ``house_edge`` is its opposite. ``variance`` is exact; ``standard_deviation`` is its
    square root to ``DECIMAL_PLACES`` places. ``win_probability`` is the hit frequency.
    ``max_win_odds`` is the largest gross win odds in the paytable (the printed N:1) and
    ``exposure`` the largest net win per unit (after commission): the house's worst case.
    """

    bet_type: BetType
    outcomes: tuple[Outcome, ...]
    expected_return: Fraction
    variance: Fraction
    standard_deviation: Decimal
    win_probability: Fraction
    max_win_odds: Fraction
    exposure: Fraction

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_return

    def net_distribution(self) -> dict[Fraction, Fraction]:
        """Probability of each net result per unit, outcomes with equal net merged."""
        merged: dict[Fraction, Fraction] = {}
        for outcome in self.outcomes:
            merged[outcome.net] = merged.get(outcome.net, _ZERO) + outcome.probability
        return dict(sorted(merged.items()))


@dataclass(frozen=True)
class RulesetOdds:
    """Exact odds of one ruleset's rules for one player box against the dealer.

    ``categories`` maps every category the switches allow to the number of five-card hands
    of the deck in it (``hands`` in all). ``deals`` is the number of equally likely ordered
    (player, dealer) pairs of disjoint hands. ``bets`` holds the figures of every bet type
    the ruleset offers, in the order the table shows them.
    """

    rules_hash: str
    deck_size: int
    hands: int
    deals: int
    categories: Mapping[Category, int]
    bets: Mapping[BetType, BetOdds]

    def category_probability(self, category: Category) -> Fraction:
        return Fraction(self.categories.get(category, 0), self.hands)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view: fractions as ``"p/q"`` strings beside decimal strings.

        :meth:`from_dict` reads it back exactly.
        """
        return {
            "schema": SCHEMA,
            "rules_hash": self.rules_hash,
            "deck_size": self.deck_size,
            "hands": self.hands,
            "deals": self.deals,
            "categories": [
                {
                    "category": category.name,
                    "count": count,
                    "probability": _encode(Fraction(count, self.hands)),
                }
                for category, count in self.categories.items()
            ],
            "bets": {bet_type.value: _bet_to_dict(bet) for bet_type, bet in self.bets.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RulesetOdds:
        """The result stored by :meth:`to_dict`."""
        if data.get("schema") != SCHEMA:
            raise ValueError(f"odds stored with schema {data.get('schema')!r}, not {SCHEMA}")
        return cls(
            rules_hash=data["rules_hash"],
            deck_size=data["deck_size"],
            hands=data["hands"],
            deals=data["deals"],
            categories=MappingProxyType(
                {Category[row["category"]]: row["count"] for row in data["categories"]}
            ),
            bets=MappingProxyType(
                {BetType(name): _bet_from_dict(name, bet) for name, bet in data["bets"].items()}
            ),
        )


@dataclass(frozen=True, slots=True)
class Change:
    """One figure before and after; ``None`` where the bet or category is absent."""

    old: Figure | None
    new: Figure | None

    @property
    def delta(self) -> Figure | None:
        if self.old is None or self.new is None:
            return None
        return self.new - self.old  # type: ignore[operator]

    def to_dict(self) -> dict[str, Any]:
        return {
            "old": _encode_figure(self.old),
            "new": _encode_figure(self.new),
            "delta": _encode_figure(self.delta),
        }


#: The figures of a bet that :func:`diff_odds` compares.
BET_FIGURES: tuple[str, ...] = (
    "house_edge",
    "expected_return",
    "standard_deviation",
    "variance",
    "win_probability",
    "max_win_odds",
    "exposure",
)


@dataclass(frozen=True)
class OddsDiff:
    """How a ruleset's figures differ from another's (``new - old``).

    ``bets[bet_type][figure]`` for every bet type in either and every name in
    ``BET_FIGURES``; ``categories[category]`` compares category probabilities.
    """

    same_rules: bool
    bets: Mapping[BetType, Mapping[str, Change]]
    categories: Mapping[Category, Change]

    def to_dict(self) -> dict[str, Any]:
        return {
            "same_rules": self.same_rules,
            "bets": {
                bet_type.value: {name: change.to_dict() for name, change in figures.items()}
                for bet_type, figures in self.bets.items()
            },
            "categories": {
                category.name: change.to_dict() for category, change in self.categories.items()
            },
        }


def as_decimal(value: Fraction, places: int = DECIMAL_PLACES) -> Decimal:
    """A fraction to ``places`` decimal places, rounded half to even.

    >>> as_decimal(Fraction(1, 3), 4)
    Decimal('0.3333')
    """
    quantum = Decimal(1).scaleb(-places)
    with localcontext() as context:
        context.prec = 60
        return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
            quantum, rounding=ROUND_HALF_EVEN
        )


# --- Encoding ------------------------------------------------------------------------------


def _encode(value: Fraction) -> dict[str, str]:
    return {"exact": f"{value.numerator}/{value.denominator}", "decimal": str(as_decimal(value))}


def _encode_figure(value: Figure | None) -> dict[str, str] | str | None:
    if value is None:
        return None
    if isinstance(value, Fraction):
        return _encode(value)
    return str(value)


def _decode(data: Mapping[str, str]) -> Fraction:
    return Fraction(data["exact"])


def _bet_to_dict(bet: BetOdds) -> dict[str, Any]:
    return {
        "expected_return": _encode(bet.expected_return),
        "house_edge": _encode(bet.house_edge),
        "variance": _encode(bet.variance),
        "standard_deviation": str(bet.standard_deviation),
        "win_probability": _encode(bet.win_probability),
        "max_win_odds": _encode(bet.max_win_odds),
        "exposure": _encode(bet.exposure),
        "outcomes": [
            {
                "result": o.result,
                "category": None if o.category is None else o.category.name,
                "bonus_line": o.bonus_line,
                "net": _encode(o.net),
                "count": o.count,
                "probability": _encode(o.probability),
            }
            for o in bet.outcomes
        ],
    }


def _bet_from_dict(name: str, data: Mapping[str, Any]) -> BetOdds:
    return BetOdds(
        bet_type=BetType(name),
        outcomes=tuple(
            Outcome(
                result=o["result"],
                category=None if o["category"] is None else Category[o["category"]],
                bonus_line=o["bonus_line"],
                net=_decode(o["net"]),
                count=o["count"],
                probability=_decode(o["probability"]),
            )
            for o in data["outcomes"]
        ),
        expected_return=_decode(data["expected_return"]),
        variance=_decode(data["variance"]),
        standard_deviation=Decimal(data["standard_deviation"]),
        win_probability=_decode(data["win_probability"]),
        max_win_odds=_decode(data["max_win_odds"]),
        exposure=_decode(data["exposure"]),
    )


__all__ = [
    "BET_FIGURES",
    "DECIMAL_PLACES",
    "SCHEMA",
    "BetOdds",
    "Change",
    "Figure",
    "OddsDiff",
    "Outcome",
    "Result",
    "RulesetOdds",
    "as_decimal",
]
