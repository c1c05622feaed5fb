"""The Baccarat (Punto Banco) ruleset snapshot: everything the engine needs of a venue's rules.

A snapshot is immutable and carries no database identity; ``baccarat.selectors`` builds one
from an approved ruleset version, ``baccarat.engine.presets`` from data (docs/RULES.md, Part C).

>>> from dataclasses import replace
>>> from baccarat.engine import presets
>>> six = replace(presets.get("commission"), decks=6)
>>> six.decks, six.banker_commission
(6, Decimal('0.05'))
>>> replace(six, decks=9)
Traceback (most recent call last):
...
ValueError: a shoe holds 1 to 8 decks, got 9
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum

from casino.kernel.money import Rounding, rounding_mode

#: The most decks a shoe holds.
MAX_DECKS = 8


class BetType(StrEnum):
    """The bets of a Baccarat table, in the order the table shows them."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"
    SUPER6 = "super6"


#: Every bet type, in table (and settlement) order.
SETTLEMENT_ORDER: tuple[BetType, ...] = tuple(BetType)


class Variant(StrEnum):
    """How a Banker win pays: less a commission, or 1:1 except a win on 6 (1:2)."""

    COMMISSION = "commission"
    NO_COMMISSION = "no_commission"


class Collection(StrEnum):
    """When the Banker's commission is taken: at each win, or owed in the commission box and
    collected at the end of the shoe or when the player leaves."""

    AT_WIN = "at_win"
    BOX = "box"


class Winner(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


def _decimal(value: object, name: str) -> Decimal:
    try:
        amount = Decimal(str(value))
    except ArithmeticError:
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not amount.is_finite():
        raise ValueError(f"{name} must be a number, got {value!r}")
    return amount


@dataclass(frozen=True)
class Ruleset:
    """A frozen Punto Banco ruleset.

    ``banker_commission`` is the rate taken from a Banker win in the commission variant;
    in the no-commission variant a Banker win on a total of 6 pays ``banker_six_odds``
    (1:2) and every other Banker win 1:1. The house's commission (and the part it keeps of
    a no-commission Banker 6) rounds to a multiple of ``rounding_unit`` as ``rounding_mode``
    says; every stake is a multiple of ``rounding_unit``.
    """

    code: str
    name: str
    decks: int = MAX_DECKS
    variant: Variant = Variant.COMMISSION
    banker_commission: Decimal = Decimal("0.05")
    banker_six_odds: Decimal = Decimal("0.5")
    tie_odds: Decimal = Decimal(8)
    pair_odds: Decimal = Decimal(11)
    super6_two_card_odds: Decimal = Decimal(12)
    super6_three_card_odds: Decimal = Decimal(20)
    bet_types: tuple[BetType, ...] = SETTLEMENT_ORDER
    rounding_unit: Decimal = Decimal(1)
    rounding_mode: Rounding = Rounding.DOWN
    collection: Collection = Collection.AT_WIN

    def __post_init__(self) -> None:
        if isinstance(self.decks, bool) or not isinstance(self.decks, int):
            raise ValueError(f"the number of decks must be a whole number, got {self.decks!r}")
        if not 1 <= self.decks <= MAX_DECKS:
            raise ValueError(f"a shoe holds 1 to {MAX_DECKS} decks, got {self.decks}")
        object.__setattr__(self, "variant", Variant(self.variant))
        object.__setattr__(self, "collection", Collection(self.collection))
        object.__setattr__(self, "rounding_mode", rounding_mode(self.rounding_mode))
        for name in (
            "banker_commission",
            "banker_six_odds",
            "tie_odds",
            "pair_odds",
            "super6_two_card_odds",
            "super6_three_card_odds",
            "rounding_unit",
        ):
            object.__setattr__(self, name, _decimal(getattr(self, name), name))
        if not Decimal(0) <= self.banker_commission < Decimal(1):
            raise ValueError(
                f"the Banker commission is a rate from 0 to below 1, got {self.banker_commission}"
            )
        if not Decimal(0) < self.banker_six_odds <= Decimal(1):
            raise ValueError(
                f"a Banker win on 6 pays more than 0 and at most 1:1, got {self.banker_six_odds}"
            )
        for name in ("tie_odds", "pair_odds", "super6_two_card_odds", "super6_three_card_odds"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if not self.rounding_unit > 0:
            raise ValueError(f"the rounding unit must be positive, got {self.rounding_unit}")
        try:
            offered = {BetType(bet) for bet in self.bet_types}
        except ValueError:
            raise ValueError(f"unknown bet types in {self.bet_types!r}") from None
        if not offered:
            raise ValueError("a ruleset offers at least one bet")
        object.__setattr__(
            self, "bet_types", tuple(bet for bet in SETTLEMENT_ORDER if bet in offered)
        )

    @property
    def cards(self) -> int:
        """The cards of a full shoe."""
        return 52 * self.decks

    def with_rounding(self, rounding_unit: Decimal, mode: Rounding | str) -> Ruleset:
        """The same rules with another rounding unit and mode."""
        return replace(self, rounding_unit=rounding_unit, rounding_mode=mode)

    def with_rounding_unit(self, rounding_unit: Decimal) -> Ruleset:
        return self.with_rounding(rounding_unit, self.rounding_mode)
