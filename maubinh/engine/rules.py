"""The Mau Binh ruleset snapshot: everything the engine needs to know about a venue's rules.

A snapshot is immutable and carries no database identity. The Django side builds one from an
approved ruleset version; :mod:`maubinh.engine.presets` builds them from data. Every number of
docs/RULES.md part B lives here (row bonuses, instant-win amounts, scoop multiplier, fee rate, quit
penalty) and every reading a venue may take the other way is a switch, so a venue changes data,
never code.

The constructor takes plain values, so an admin form or a JSON document can feed it: mapping
keys may be the enums below or their text (``("back", "FOUR_OF_A_KIND")``, ``"dragon"``), chi
amounts are ints, money fields are ``Decimal`` (or text such as ``"0.05"``, never ``float``).

>>> rules = Ruleset(
...     code="house",
...     name="House rules",
...     row_bonuses={("back", "FOUR_OF_A_KIND"): 8, ("front", "THREE_OF_A_KIND"): 6},
...     instant_wins={"dragon": 72, "six_pairs": 18},
... )
>>> rules.row_bonus(Row.BACK, RowCategory.FOUR_OF_A_KIND)
8
>>> rules.row_bonus(Row.BACK, RowCategory.FLUSH)
1
>>> rules.instant_win_amount(InstantWin.DRAGON), rules.offers(InstantWin.DRAGON_FLUSH)
(72, False)
>>> rules.fee_rate, rules.scoop_multiplier
(Decimal('0.05'), 2)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import IntEnum, StrEnum
from types import MappingProxyType
from typing import Any

from casino.kernel.money import Rounding, rounding_mode


class Row(StrEnum):
    """The three rows ("chi") of an arrangement, in the order they are compared."""

    BACK = "back"  # chi 1, 5 cards, must be the strongest
    MIDDLE = "middle"  # chi 2, 5 cards
    FRONT = "front"  # chi 3, 3 cards

    @property
    def size(self) -> int:
        """How many cards the row takes."""
        return 3 if self is Row.FRONT else 5

    @property
    def position(self) -> int:
        """0 for the back, 1 for the middle, 2 for the front."""
        return _ROW_POSITIONS[self]


ROWS: tuple[Row, ...] = (Row.BACK, Row.MIDDLE, Row.FRONT)
_ROW_POSITIONS = {row: n for n, row in enumerate(ROWS)}


class RowCategory(IntEnum):
    """Row categories (docs/RULES.md B1); a larger value is a stronger row.

    A front row (3 cards) is only ever ``HIGH_CARD``, ``PAIR`` or ``THREE_OF_A_KIND``.
    """

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The category in words: ``"Four of a Kind"``."""
        return self.name.replace("_", " ").title().replace(" Of ", " of ").replace(" A ", " a ")


#: The categories a front row can have.
FRONT_CATEGORIES: frozenset[RowCategory] = frozenset(
    {RowCategory.HIGH_CARD, RowCategory.PAIR, RowCategory.THREE_OF_A_KIND}
)


class InstantWin(StrEnum):
    """Instant wins ("mậu binh", docs/RULES.md B2 step 1), strongest first.

    The strength order is the definition order, whatever the amounts: of two players with
    different instant wins the one listed first takes its own amount from the other, even
    when both amounts are 18.
    """

    DRAGON_FLUSH = "dragon_flush"  # rồng cuốn: 2..A of one suit
    DRAGON = "dragon"  # sảnh rồng: one each of 2..A
    SIX_PAIRS = "six_pairs"  # lục phé bôn: six pairs + one card
    THREE_FLUSHES = "three_flushes"  # ba thùng: every row one suit
    THREE_STRAIGHTS = "three_straights"  # ba sảnh: every row a straight

    @property
    def strength(self) -> int:
        """Larger is stronger: ``DRAGON_FLUSH`` is 5, ``THREE_STRAIGHTS`` is 1."""
        return _INSTANT_WIN_STRENGTH[self]

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").title()


_INSTANT_WIN_STRENGTH = {kind: len(InstantWin) - n for n, kind in enumerate(InstantWin)}

#: The instant wins that depend on how the rows are laid out (the others on the 13 cards).
LAYOUT_INSTANT_WINS: frozenset[InstantWin] = frozenset(
    {InstantWin.THREE_FLUSHES, InstantWin.THREE_STRAIGHTS}
)


class TiedInstantWins(StrEnum):
    """What players with equal instant wins take ("Nếu bằng nhau thì chia tiền thắng").

    - ``EACH_IN_FULL``: each takes its amount from every weaker player (two of a kind score
      0 between them);
    - ``SHARE``: every weaker player pays the amount once, shared equally by the tied
      winners (two Six Pairs at a table of four: 9 chi each from each other player).
    """

    EACH_IN_FULL = "each_in_full"
    SHARE = "share"


class FeeBasis(StrEnum):
    """What the table fee is a share of ("trừ đi 5% phí bàn chơi").

    - ``NET_RESULT``: a seat's net result over the whole table, when positive;
    - ``EACH_WIN``: each amount the seat won from one opponent, whatever it lost to others
      (each rounded on its own).
    """

    NET_RESULT = "net_result"
    EACH_WIN = "each_win"


class Declaring(StrEnum):
    """Whether an instant win is taken as soon as a hand holds one ("Báo mậu binh").

    - ``AUTOMATIC``: always (the hand is never compared row by row);
    - ``OPTIONAL``: only when the player declares it; an undeclared hand plays its rows.
    """

    AUTOMATIC = "automatic"
    OPTIONAL = "optional"


#: Tied instant wins shared: the most winners that share one payment is three (a table seats
#: four), so a shared amount must split evenly in two and in three.
SHARED_AMOUNT_DIVISOR = 6


#: The row bonuses of docs/RULES.md B2 step 3, as data: (row, category of the winning row) -> chi.
#: Every other winning row scores 1 chi.
STANDARD_ROW_BONUSES: Mapping[tuple[Row, RowCategory], int] = MappingProxyType(
    {
        (Row.BACK, RowCategory.FOUR_OF_A_KIND): 8,
        (Row.BACK, RowCategory.STRAIGHT_FLUSH): 10,
        (Row.MIDDLE, RowCategory.FULL_HOUSE): 4,
        (Row.MIDDLE, RowCategory.FOUR_OF_A_KIND): 16,
        (Row.MIDDLE, RowCategory.STRAIGHT_FLUSH): 20,
        (Row.FRONT, RowCategory.THREE_OF_A_KIND): 6,
    }
)


def _chi(value: Any, what: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        # An admin form may hand over "8" or Decimal("8"); accept whole numbers only.
        try:
            number = Decimal(str(value)) if not isinstance(value, float) else None
        except ArithmeticError:
            number = None
        if number is None or number != number.to_integral_value():
            raise ValueError(f"{what} is a whole number of chi, got {value!r}")
        value = int(number)
    if value < minimum:
        raise ValueError(f"{what} must be at least {minimum}, got {value}")
    return value


def _money(value: Any, what: str) -> Decimal:
    if isinstance(value, float):
        raise TypeError(f"{what} is a Decimal or text such as '0.05', never a float")
    try:
        return Decimal(value)
    except (ArithmeticError, TypeError, ValueError):
        raise ValueError(f"{what} is not a number: {value!r}") from None


def _row_key(key: Any) -> tuple[Row, RowCategory]:
    try:
        row, category = key
        row = Row(row)
        category = category if isinstance(category, RowCategory) else RowCategory[category]
    except (KeyError, TypeError, ValueError):
        raise ValueError(
            f"a row bonus is keyed by (row, category), e.g. ('back', 'FOUR_OF_A_KIND'); got {key!r}"
        ) from None
    if row is Row.FRONT and category not in FRONT_CATEGORIES:
        raise ValueError(f"a front row cannot be a {category.label}")
    return row, category


#: The rules that are on/off switches.
SWITCHES = (
    "wheel_is_lowest",
    "foul_counts_as_scoop",
    "dragon_flush_counts_as_dragon",
    "instant_win_when_fouled",
    "foul_pays_row_bonuses",
)
#: The rules that take one of two readings of the sheet, with their choices.
READINGS: Mapping[str, type[StrEnum]] = MappingProxyType(
    {"tied_instant_wins": TiedInstantWins, "fee_basis": FeeBasis, "declaring": Declaring}
)


def _reading(value: Any, name: str, choices: type[StrEnum]) -> Any:
    try:
        return choices(value)
    except ValueError:
        known = ", ".join(choice.value for choice in choices)
        raise ValueError(f"{name} is one of {known}; got {value!r}") from None


def _instant_win_key(key: Any) -> InstantWin:
    try:
        return InstantWin(key)
    except ValueError:
        known = ", ".join(kind.value for kind in InstantWin)
        raise ValueError(f"{key!r} is not an instant win; known: {known}") from None


@dataclass(frozen=True)
class Ruleset:
    """A frozen Mau Binh ruleset snapshot (docs/RULES.md part B).

    Fields (all plain data):

    - ``code``, ``name``: identify the ruleset (``"bigkool-2016"``, "BigKool 2016").
    - ``row_bonuses``: (row, category of the winning row) -> chi that winning row scores; any
      row not listed scores 1 chi. Standard: :data:`STANDARD_ROW_BONUSES`.
    - ``instant_wins``: kind -> chi it takes from each other player. A kind that is absent or
      0 is not offered (so "Dragon Flush on/off" is whether it has an amount).
    - ``scoop_multiplier``: what everything won from one opponent is multiplied by when all
      three rows are won against them ("sập 3 chi"): 2, or 1 for no scoop rule.
    - ``fee_rate``: the table fee taken from a player's positive result (``Decimal("0.05")``).
    - ``quit_penalty``: chi a player who quits pays to each other player (6).
    - ``wheel_is_lowest``: A-2-3-4-5 is the lowest straight (on) or ranks just below
      A-K-Q-J-10 (off).
    - ``foul_counts_as_scoop``: a clean hand that beats a fouled one wins all three rows, so
      the scoop multiplier applies (on), or not (off).
    - ``dragon_flush_counts_as_dragon``: when Dragon Flush is not offered, a one-suit dragon is
      still a Dragon (on); off, a Dragon must have more than one suit.
    - ``tied_instant_wins``: equal instant wins each take their amount in full, or share
      one payment (:class:`TiedInstantWins`; every amount then a multiple of
      :data:`SHARED_AMOUNT_DIVISOR`).
    - ``fee_basis``: the fee is a share of a seat's net result or of each amount it won
      (:class:`FeeBasis`).
    - ``declaring``: an instant win is taken automatically or only when declared
      (:class:`Declaring`).
    - ``instant_win_when_fouled``: Three Flushes and Three Straights count even when the rows
      as laid out are fouled (on), or a fouled layout holds no instant win (off).
    - ``foul_pays_row_bonuses``: a clean hand's rows score their row bonuses against a fouled
      one (on), or 1 chi each (off).
    - ``rounding_unit``: the fee is rounded to a multiple of this, and the stake is one
      (``Decimal("1")`` for presets; a venue's version starts from the venue's chip unit).
    - ``rounding_mode``: how the fee is rounded to the unit, a ``casino.kernel.money.Rounding``:
      ``up`` (the rule sheets'), ``half_up``, ``down``, or ``none`` (to the cent only).

    The mappings are stored as read-only views, with enum keys, whatever was passed in.
    """

    code: str
    name: str
    row_bonuses: Mapping[tuple[Row, RowCategory], int]
    instant_wins: Mapping[InstantWin, int]
    scoop_multiplier: int = 2
    fee_rate: Decimal = Decimal("0.05")
    quit_penalty: int = 6
    wheel_is_lowest: bool = True
    foul_counts_as_scoop: bool = True
    dragon_flush_counts_as_dragon: bool = True
    tied_instant_wins: TiedInstantWins = TiedInstantWins.EACH_IN_FULL
    fee_basis: FeeBasis = FeeBasis.NET_RESULT
    declaring: Declaring = Declaring.AUTOMATIC
    instant_win_when_fouled: bool = True
    foul_pays_row_bonuses: bool = True
    rounding_unit: Decimal = Decimal("1")
    rounding_mode: Rounding = Rounding.UP
    # Derived lookup tables for the hot loops; not part of the snapshot's identity.
    _bonus_table: tuple[tuple[int, ...], ...] = field(
        init=False, repr=False, compare=False, default=()
    )
    _offered: tuple[tuple[InstantWin, int], ...] = field(
        init=False, repr=False, compare=False, default=()
    )

    def __post_init__(self) -> None:
        setter = object.__setattr__
        if not self.code:
            raise ValueError("a ruleset needs a code")
        bonuses: dict[tuple[Row, RowCategory], int] = {}
        for key, chi in dict(self.row_bonuses).items():
            row, category = _row_key(key)
            bonuses[row, category] = _chi(chi, f"the {row} {category.label} bonus", minimum=1)
        amounts: dict[InstantWin, int] = {}
        for key, chi in dict(self.instant_wins).items():
            kind = _instant_win_key(key)
            amounts[kind] = _chi(chi, f"the {kind.label} amount", minimum=0)
        setter(self, "row_bonuses", MappingProxyType(bonuses))
        setter(self, "instant_wins", MappingProxyType(amounts))
        setter(
            self, "scoop_multiplier", _chi(self.scoop_multiplier, "the scoop multiplier", minimum=1)
        )
        setter(self, "quit_penalty", _chi(self.quit_penalty, "the quit penalty", minimum=0))
        fee_rate = _money(self.fee_rate, "the fee rate")
        if not Decimal(0) <= fee_rate < Decimal(1):
            raise ValueError(f"the fee rate is a fraction from 0 to below 1, got {fee_rate}")
        setter(self, "fee_rate", fee_rate)
        rounding_unit = _money(self.rounding_unit, "the rounding unit")
        if not rounding_unit > 0:
            raise ValueError(f"the rounding unit must be positive, got {rounding_unit}")
        setter(self, "rounding_unit", rounding_unit)
        setter(self, "rounding_mode", rounding_mode(self.rounding_mode))
        for switch in SWITCHES:
            if not isinstance(getattr(self, switch), bool):
                raise ValueError(f"{switch} is a switch: True or False")
        for name, choices in READINGS.items():
            setter(self, name, _reading(getattr(self, name), name, choices))
        if self.tied_instant_wins is TiedInstantWins.SHARE:
            for kind, chi in amounts.items():
                if chi % SHARED_AMOUNT_DIVISOR:
                    raise ValueError(
                        f"shared instant wins split among two or three winners: the {kind.label} "
                        f"amount must be a multiple of {SHARED_AMOUNT_DIVISOR}, got {chi}"
                    )
        setter(
            self,
            "_bonus_table",
            tuple(tuple(bonuses.get((row, c), 1) for c in RowCategory) for row in ROWS),
        )
        setter(
            self,
            "_offered",
            tuple((kind, amounts[kind]) for kind in InstantWin if amounts.get(kind, 0) > 0),
        )

    def __hash__(self) -> int:
        # The mappings are read-only views (unhashable as such); hash their contents.
        return hash(
            (
                self.code,
                frozenset(self.row_bonuses.items()),
                frozenset(self.instant_wins.items()),
                self.scoop_multiplier,
                self.fee_rate,
                self.quit_penalty,
                self.wheel_is_lowest,
                self.foul_counts_as_scoop,
                self.dragon_flush_counts_as_dragon,
                self.tied_instant_wins,
                self.fee_basis,
                self.declaring,
                self.instant_win_when_fouled,
                self.foul_pays_row_bonuses,
                self.rounding_unit,
                self.rounding_mode,
            )
        )

    def row_bonus(self, row: Row, category: RowCategory) -> int:
        """Chi scored by a row of ``category`` that wins ``row`` (1 unless it has a bonus)."""
        return self._bonus_table[Row(row).position][category]

    def instant_win_amount(self, kind: InstantWin) -> int:
        """Chi an instant win of ``kind`` takes from each other player (0: not offered)."""
        return self.instant_wins.get(InstantWin(kind), 0)

    def offers(self, kind: InstantWin) -> bool:
        """Whether the ruleset pays instant wins of ``kind``."""
        return self.instant_win_amount(kind) > 0

    @property
    def offered_instant_wins(self) -> tuple[InstantWin, ...]:
        """The instant wins this ruleset pays, strongest first."""
        return tuple(kind for kind, _ in self._offered)

    def with_rounding_unit(self, rounding_unit: Decimal) -> Ruleset:
        """The same rules with another rounding unit (the rounding mode kept)."""
        return dataclasses.replace(self, rounding_unit=rounding_unit)

    def with_rounding(self, rounding_unit: Decimal, rounding_mode: Rounding | str) -> Ruleset:
        """The same rules with another rounding unit and mode.

        >>> from maubinh.engine import presets
        >>> rules = presets.get("classic").with_rounding(Decimal("0.10"), "half_up")
        >>> rules.rounding_unit, rules.rounding_mode
        (Decimal('0.10'), <Rounding.HALF_UP: 'half_up'>)
        """
        return dataclasses.replace(self, rounding_unit=rounding_unit, rounding_mode=rounding_mode)
