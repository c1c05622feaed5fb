"""The Niu Niu ruleset snapshot: everything the engine needs to know about a venue's rules.

A snapshot is immutable and carries no database identity; the Django side builds one from
an approved ruleset version (``niuniu.selectors.ruleset_snapshot``) and the presets in
``niuniu.engine.presets`` build them from data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import IntEnum, StrEnum
from functools import cached_property
from types import MappingProxyType

from casino.kernel.money import Rounding, rounding_mode


class Category(IntEnum):
    """Hand categories; a larger value is a stronger hand."""

    NO_NIU = 0
    NIU_1 = 1
    NIU_2 = 2
    NIU_3 = 3
    NIU_4 = 4
    NIU_5 = 5
    NIU_6 = 6
    NIU_7 = 7
    NIU_8 = 8
    NIU_9 = 9
    NIU_NIU = 10
    FIVE_FACE = 11
    FOUR_OF_A_KIND = 12
    FIVE_SMALL = 13

    @property
    def is_special(self) -> bool:
        return self > Category.NIU_NIU


#: The categories that exist whatever the switches say, strongest first.
BASE_CATEGORIES: tuple[Category, ...] = tuple(
    sorted((c for c in Category if not c.is_special), reverse=True)
)
#: The special hands, each behind a ruleset switch, strongest first.
SPECIAL_CATEGORIES: tuple[Category, ...] = tuple(
    sorted((c for c in Category if c.is_special), reverse=True)
)


class BetType(StrEnum):
    SINGLE = "single"
    DOUBLE = "double"
    SUPER = "super"
    BONUS = "bonus"


#: Bet types settled against the dealer's hand through paytable rows.
PAYTABLE_BET_TYPES: tuple[BetType, ...] = (BetType.SINGLE, BetType.DOUBLE, BetType.SUPER)

#: Player boxes besides the dealer: the sheets' "2 to 6 people" count the dealer (000, 004).
MAX_BOXES = 5


class BonusPredicate(StrEnum):
    """Conditions a bonus line may set on the player's five cards (docs/RULES.md A4)."""

    ALL_FACE = "all_face"  # all five are J, Q or K
    ALL_TEN_VALUE = "all_ten_value"  # all five are 10, J, Q or K
    ALL_SPADES = "all_spades"
    ALL_SAME_SUIT = "all_same_suit"
    ALL_BLACK = "all_black"  # spades or clubs
    ALL_RED = "all_red"  # hearts or diamonds
    NIU_NIU = "niu_niu"  # any hand with Niu whose point is 0
    FOUR_OF_A_KIND = "four_of_a_kind"
    FIVE_SMALL = "five_small"  # all below 5 and total <= 10


@dataclass(frozen=True, slots=True)
class PaytableRow:
    """How one bet type settles for one hand category.

    ``win_odds`` and ``commission_rate`` apply when the *player* wins with this category;
    ``loss_multiple`` applies when the *dealer* wins with it.
    """

    win_odds: Decimal
    commission_rate: Decimal
    loss_multiple: Decimal


@dataclass(frozen=True, slots=True)
class BonusLine:
    name: str
    predicate: BonusPredicate
    odds: Decimal


@dataclass(frozen=True)
class Ruleset:
    """A frozen Niu Niu ruleset snapshot.

    ``paytable[bet_type][category]`` is a :class:`PaytableRow` for every bet type in
    ``PAYTABLE_BET_TYPES`` that the ruleset enables and every category in ``categories``.
    ``bonus_lines`` are ordered best first (the first line the hand satisfies pays);
    an empty tuple means the bonus bet is not offered. ``deposit_multiples[bet_type]`` is
    the deposit a player must show, as a multiple of the stake of ``deposit_bases[bet_type]``
    (the bet's own stake when it has no entry there). A commission is rounded to a multiple
    of ``rounding_unit`` as ``rounding_mode`` says (``casino.kernel.money.Rounding``), and every
    stake is a multiple of ``rounding_unit``.

    A special hand in ``level_with_niu_niu`` ranks level with Niu Niu (the high card decides
    between them) instead of above it; it is still paid by its own rows. A round deals to at
    most ``max_boxes`` player boxes besides the dealer.
    """

    code: str
    name: str
    paytable: Mapping[BetType, Mapping[Category, PaytableRow]]
    deposit_multiples: Mapping[BetType, Decimal]
    special_hands: frozenset[Category] = frozenset()
    bonus_lines: tuple[BonusLine, ...] = ()
    rounding_unit: Decimal = Decimal("1")
    rounding_mode: Rounding = Rounding.UP
    level_with_niu_niu: frozenset[Category] = frozenset()
    deposit_bases: Mapping[BetType, BetType] = field(default_factory=dict)
    max_boxes: int = MAX_BOXES
    categories: tuple[Category, ...] = field(init=False)

    def __post_init__(self) -> None:
        if not self.rounding_unit > 0:
            raise ValueError(f"the rounding unit must be positive, got {self.rounding_unit}")
        object.__setattr__(self, "rounding_mode", rounding_mode(self.rounding_mode))
        unknown = self.special_hands - set(SPECIAL_CATEGORIES)
        if unknown:
            raise ValueError(f"not special hands: {sorted(c.name for c in unknown)}")
        if not self.level_with_niu_niu <= set(SPECIAL_CATEGORIES):
            raise ValueError("only special hands can rank level with Niu Niu")
        # A hand that is switched off ranks nowhere: keeping it would tell two equal rule
        # sets apart.
        object.__setattr__(
            self, "level_with_niu_niu", frozenset(self.level_with_niu_niu & self.special_hands)
        )
        if isinstance(self.max_boxes, bool) or not 1 <= self.max_boxes <= MAX_BOXES:
            raise ValueError(f"a round deals to 1 to {MAX_BOXES} boxes, got {self.max_boxes!r}")
        categories = tuple(sorted(set(BASE_CATEGORIES) | self.special_hands, reverse=True))
        object.__setattr__(self, "categories", categories)
        # Read-only views, so a snapshot shared between threads cannot be changed.
        object.__setattr__(
            self,
            "paytable",
            MappingProxyType(
                {BetType(b): MappingProxyType(dict(rows)) for b, rows in self.paytable.items()}
            ),
        )
        object.__setattr__(
            self,
            "deposit_multiples",
            MappingProxyType({BetType(b): Decimal(m) for b, m in self.deposit_multiples.items()}),
        )
        bases = {BetType(b): BetType(basis) for b, basis in self.deposit_bases.items()}
        object.__setattr__(
            self,
            "deposit_bases",
            MappingProxyType({b: basis for b, basis in bases.items() if basis is not b}),
        )

    @cached_property  # read for every bet settled; a snapshot never changes
    def deposit_terms(self) -> Mapping[BetType, tuple[BetType, Decimal]]:
        """Each bet type's deposit basis (:meth:`deposit_basis`) and deposit multiple: the
        ruleset's ``deposit_multiples`` when set, otherwise the largest loss multiple of the
        bet's paytable (docs/RULES.md A3: the deposit covers the largest possible loss), and
        1 for a bet without one (the bonus)."""
        terms = {}
        for bet_type in BetType:
            multiple = self.deposit_multiples.get(bet_type)
            if multiple is None:
                rows = self.paytable.get(bet_type)
                multiple = max(row.loss_multiple for row in rows.values()) if rows else Decimal(1)
            terms[bet_type] = (self.deposit_basis(bet_type), multiple)
        return MappingProxyType(terms)

    @cached_property  # read for every box settled; a snapshot never changes
    def bet_types(self) -> tuple[BetType, ...]:
        """The bet types this ruleset offers, in the order the table shows them."""
        offered = [b for b in PAYTABLE_BET_TYPES if b in self.paytable]
        if self.bonus_lines:
            offered.append(BetType.BONUS)
        return tuple(offered)

    def row(self, bet_type: BetType, category: Category) -> PaytableRow:
        return self.paytable[bet_type][category]

    def rank(self, category: Category) -> int:
        """Where a category ranks: its own value, or Niu Niu's for a special hand ranked
        level with Niu Niu. Hands of one rank are told apart by their high card.

        >>> from niuniu.engine import presets
        >>> rules = presets.get("macau-001")
        >>> rules.rank(Category.FIVE_FACE) > rules.rank(Category.NIU_NIU)
        True
        >>> level = replace(rules, level_with_niu_niu=frozenset({Category.FIVE_FACE}))
        >>> level.rank(Category.FIVE_FACE) == level.rank(Category.NIU_NIU)
        True
        """
        return Category.NIU_NIU if category in self.level_with_niu_niu else category

    def deposit_basis(self, bet_type: BetType) -> BetType:
        """The bet whose stake a bet's deposit multiple applies to (its own by default)."""
        return self.deposit_bases.get(bet_type, bet_type)

    def with_rounding_unit(self, rounding_unit: Decimal) -> Ruleset:
        """The same rules with another rounding unit (the rounding mode kept)."""
        return self.with_rounding(rounding_unit, self.rounding_mode)

    def with_rounding(self, rounding_unit: Decimal, rounding_mode: Rounding | str) -> Ruleset:
        """The same rules with another rounding unit and mode.

        >>> from niuniu.engine import presets
        >>> rules = presets.get("vn-kr-004").with_rounding(Decimal("1000"), "down")
        >>> rules.rounding_unit, rules.rounding_mode
        (Decimal('1000'), <Rounding.DOWN: 'down'>)
        """
        return replace(self, rounding_unit=rounding_unit, rounding_mode=rounding_mode)
