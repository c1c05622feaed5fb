"""The Niu Niu rulesets shipped with the product (docs/RULES.md A4), as plain data.

``PRESET_DATA`` holds only strings, tuples and dicts, so the Django side can install a
preset as an editable ruleset (migration or command) from the same source the engine uses.
The tables below are written as docs/RULES.md prints them, one row per hand, strongest first;
:func:`get` turns a preset into a frozen :class:`Ruleset` snapshot.

>>> rules = get("vn-kr-004")
>>> rules.row(BetType.DOUBLE, Category.NIU_9)
PaytableRow(win_odds=Decimal('2'), commission_rate=Decimal('0.05'), loss_multiple=Decimal('2'))
>>> CODES
('vn-kr-004', 'macau-001')
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from typing import TypedDict

from niuniu.engine.rules import (
    MAX_BOXES,
    BetType,
    BonusLine,
    BonusPredicate,
    Category,
    PaytableRow,
    Ruleset,
)

#: A row's cells: win odds ("N" for N:1), commission rate on the winnings, loss multiple.
RowData = tuple[str, str, str]


class PresetData(TypedDict):
    code: str
    name: str
    #: Category names of the special hands switched on.
    special_hands: tuple[str, ...]
    #: bet type -> category name -> (win_odds, commission_rate, loss_multiple).
    paytable: dict[str, dict[str, RowData]]
    #: bet type -> deposit to show, as a multiple of the stake.
    deposit_multiples: dict[str, str]
    #: (name, predicate, odds), best first; empty when the bonus bet is not offered.
    bonus_lines: tuple[tuple[str, str, str], ...]
    rounding_unit: str
    #: A ``casino.kernel.money.Rounding``: how a commission or fee is rounded to the unit.
    rounding_mode: str
    #: Category names of the special hands ranked level with Niu Niu (not above it).
    level_with_niu_niu: tuple[str, ...]
    #: bet type -> the bet whose stake its deposit multiple applies to, when not its own.
    deposit_bases: dict[str, str]
    #: Player boxes a round deals to at most, besides the dealer.
    max_boxes: int


NO_COMMISSION = "0"
FIVE_PERCENT = "0.05"
HALF = "0.50"

# Columns as in docs/RULES.md A4: hand; single (even) win; double win; super win, each as
# (odds, commission rate); double loss; super loss. Single loss is 1 on every row.
_VN_KR_004 = (
    ("NIU_NIU", ("1", FIVE_PERCENT), ("3", FIVE_PERCENT), ("10", FIVE_PERCENT), "3", "10"),
    ("NIU_9", ("1", FIVE_PERCENT), ("2", FIVE_PERCENT), ("9", FIVE_PERCENT), "2", "9"),
    ("NIU_8", ("1", FIVE_PERCENT), ("2", FIVE_PERCENT), ("8", FIVE_PERCENT), "2", "8"),
    ("NIU_7", ("1", FIVE_PERCENT), ("2", FIVE_PERCENT), ("7", FIVE_PERCENT), "2", "7"),
    ("NIU_6", ("1", FIVE_PERCENT), ("1", NO_COMMISSION), ("6", FIVE_PERCENT), "1", "6"),
    ("NIU_5", ("1", FIVE_PERCENT), ("1", NO_COMMISSION), ("5", FIVE_PERCENT), "1", "5"),
    ("NIU_4", ("1", FIVE_PERCENT), ("1", NO_COMMISSION), ("4", FIVE_PERCENT), "1", "4"),
    ("NIU_3", ("1", FIVE_PERCENT), ("1", NO_COMMISSION), ("3", FIVE_PERCENT), "1", "3"),
    ("NIU_2", ("1", FIVE_PERCENT), ("1", NO_COMMISSION), ("2", FIVE_PERCENT), "1", "2"),
    ("NIU_1", ("1", FIVE_PERCENT), ("1", NO_COMMISSION), ("1", NO_COMMISSION), "1", "1"),
    ("NO_NIU", ("1", FIVE_PERCENT), ("1", NO_COMMISSION), ("1", NO_COMMISSION), "1", "1"),
)

_MACAU_001 = (
    ("FIVE_FACE", ("1", NO_COMMISSION), ("3", FIVE_PERCENT), ("10", FIVE_PERCENT), "3", "10"),
    ("NIU_NIU", ("1", NO_COMMISSION), ("3", FIVE_PERCENT), ("10", FIVE_PERCENT), "3", "10"),
    ("NIU_9", ("1", NO_COMMISSION), ("2", FIVE_PERCENT), ("9", FIVE_PERCENT), "2", "9"),
    ("NIU_8", ("1", NO_COMMISSION), ("2", FIVE_PERCENT), ("8", FIVE_PERCENT), "2", "8"),
    ("NIU_7", ("1", NO_COMMISSION), ("2", FIVE_PERCENT), ("7", FIVE_PERCENT), "2", "7"),
    ("NIU_6", ("1", HALF), ("1", NO_COMMISSION), ("6", FIVE_PERCENT), "1", "6"),
    ("NIU_5", ("1", NO_COMMISSION), ("1", NO_COMMISSION), ("5", FIVE_PERCENT), "1", "5"),
    ("NIU_4", ("1", NO_COMMISSION), ("1", NO_COMMISSION), ("4", FIVE_PERCENT), "1", "4"),
    ("NIU_3", ("1", NO_COMMISSION), ("1", NO_COMMISSION), ("3", FIVE_PERCENT), "1", "3"),
    ("NIU_2", ("1", NO_COMMISSION), ("1", NO_COMMISSION), ("2", FIVE_PERCENT), "1", "2"),
    ("NIU_1", ("1", NO_COMMISSION), ("1", NO_COMMISSION), ("1", NO_COMMISSION), "1", "1"),
    ("NO_NIU", ("1", NO_COMMISSION), ("1", NO_COMMISSION), ("1", NO_COMMISSION), "1", "1"),
)

_MACAU_001_BONUS = (
    ("Super Niu Niu", "all_face", "100"),
    ("All Spades", "all_spades", "50"),
    ("Niu Niu", "all_ten_value", "20"),
    ("All Black", "all_black", "10"),
)


_Win = tuple[str, str]  # (odds, commission rate)
_TableRow = tuple[str, _Win, _Win, _Win, str, str]


def _paytable(table: tuple[_TableRow, ...]) -> dict[str, dict[str, RowData]]:
    single_loss = "1"
    return {
        "single": {hand: (*single, single_loss) for hand, single, _, _, _, _ in table},
        "double": {hand: (*double, loss) for hand, _, double, _, loss, _ in table},
        "super": {hand: (*super_, loss) for hand, _, _, super_, _, loss in table},
    }


PRESET_DATA: dict[str, PresetData] = {
    "vn-kr-004": {
        "code": "vn-kr-004",
        "name": "Niu Niu Poker (sheets 000 and 004)",
        "special_hands": (),
        "paytable": _paytable(_VN_KR_004),
        "deposit_multiples": {"single": "1", "double": "3", "super": "10"},
        "bonus_lines": (),
        "rounding_unit": "1",
        "rounding_mode": "up",
        "level_with_niu_niu": (),
        "deposit_bases": {},
        "max_boxes": MAX_BOXES,
    },
    "macau-001": {
        "code": "macau-001",
        "name": "Niu Niu, Macau style (sheet 001)",
        "special_hands": ("FIVE_FACE",),
        "paytable": _paytable(_MACAU_001),
        "deposit_multiples": {"single": "1", "double": "3", "super": "10", "bonus": "1"},
        "bonus_lines": _MACAU_001_BONUS,
        "rounding_unit": "1",
        "rounding_mode": "up",
        "level_with_niu_niu": (),
        "deposit_bases": {},
        "max_boxes": MAX_BOXES,
    },
}

#: Preset codes, in the order the admin lists them.
CODES: tuple[str, ...] = tuple(PRESET_DATA)


def ruleset_from_data(data: PresetData) -> Ruleset:
    """Build a ruleset snapshot from preset data (or data shaped like it)."""
    return Ruleset(
        code=data["code"],
        name=data["name"],
        paytable={
            BetType(bet_type): {
                Category[category]: PaytableRow(*(Decimal(cell) for cell in cells))
                for category, cells in rows.items()
            }
            for bet_type, rows in data["paytable"].items()
        },
        deposit_multiples={
            BetType(bet_type): Decimal(multiple)
            for bet_type, multiple in data["deposit_multiples"].items()
        },
        special_hands=frozenset(Category[name] for name in data["special_hands"]),
        bonus_lines=tuple(
            BonusLine(name, BonusPredicate(predicate), Decimal(odds))
            for name, predicate, odds in data["bonus_lines"]
        ),
        rounding_unit=Decimal(data["rounding_unit"]),
        rounding_mode=data["rounding_mode"],
        level_with_niu_niu=frozenset(Category[name] for name in data["level_with_niu_niu"]),
        deposit_bases={
            BetType(bet_type): BetType(basis) for bet_type, basis in data["deposit_bases"].items()
        },
        max_boxes=data["max_boxes"],
    )


# One per preset code (two today; an unknown code raises and is not kept): 16 keeps them all.
@lru_cache(maxsize=16)
def get(code: str) -> Ruleset:
    """The preset ruleset with this code (its rounding unit is 1 and its mode up; a venue's
    copy starts from the venue's chip unit, see :meth:`Ruleset.with_rounding_unit`).

    >>> get("macau-001").special_hands
    frozenset({<Category.FIVE_FACE: 11>})
    """
    try:
        data = PRESET_DATA[code]
    except KeyError:
        raise ValueError(f"{code!r} is not a preset: one of {', '.join(CODES)}") from None
    return ruleset_from_data(data)


def all_presets() -> tuple[Ruleset, ...]:
    """Every preset ruleset, in ``CODES`` order."""
    return tuple(get(code) for code in CODES)
