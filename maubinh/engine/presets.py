"""The Mau Binh rulesets shipped with the product (docs/RULES.md B3), as plain data.

``PRESET_DATA`` holds only strings, ints, bools and dicts, so the Django side can install a
preset as an editable ruleset (migration or command) from the same source the engine uses;
:func:`get` turns a preset into a frozen :class:`Ruleset` snapshot.

- ``bigkool-2016``: BigKool's rules in force from 2016-05-13 (seed 002): Dragon 72 (a one-suit
  dragon counts as Dragon: the new version lists no Dragon Flush), Six Pairs, Three Flushes and
  Three Straights 18, the row bonuses, scoop doubling ("sập 3 chi", x2).
- ``classic``: the rules before that date: no scoop rule (the sheet says the new version
  *added* it), Dragon Flush 78 above Dragon 72, the rest as above.

>>> get("bigkool-2016").scoop_multiplier, get("classic").scoop_multiplier
(2, 1)
>>> get("classic").offered_instant_wins[0].name
'DRAGON_FLUSH'
>>> CODES
('bigkool-2016', 'classic')
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from typing import TypedDict

from maubinh.engine.rules import Ruleset


class PresetData(TypedDict):
    code: str
    name: str
    #: "row:CATEGORY" -> chi the winning row scores (others score 1).
    row_bonuses: dict[str, int]
    #: instant-win kind -> chi from each other player; absent = not offered.
    instant_wins: dict[str, int]
    scoop_multiplier: int
    fee_rate: str
    quit_penalty: int
    wheel_is_lowest: bool
    foul_counts_as_scoop: bool
    dragon_flush_counts_as_dragon: bool
    #: The readings of the sheet (``rules.READINGS``) and the foul switches.
    tied_instant_wins: str
    fee_basis: str
    declaring: str
    instant_win_when_fouled: bool
    foul_pays_row_bonuses: bool
    rounding_unit: str
    #: A ``casino.kernel.money.Rounding``: how a commission or fee is rounded to the unit.
    rounding_mode: str


# docs/RULES.md B2 step 3, seed 002 "Một số trường hợp thắng đặc biệt".
_ROW_BONUSES = {
    "back:FOUR_OF_A_KIND": 8,
    "back:STRAIGHT_FLUSH": 10,
    "middle:FULL_HOUSE": 4,
    "middle:FOUR_OF_A_KIND": 16,
    "middle:STRAIGHT_FLUSH": 20,
    "front:THREE_OF_A_KIND": 6,
}
_INSTANT_WINS_18 = {"six_pairs": 18, "three_flushes": 18, "three_straights": 18}
# Where seed 002 reads two ways (docs/RULES.md "Settings a venue may choose"), the presets keep
# the reading the product has always played: tied instant wins each collect in full, the fee
# on a seat's net result, instant wins taken automatically, Three Flushes and Three Straights
# standing on a fouled layout, row bonuses counted against a fouled hand.
_READINGS = {
    "tied_instant_wins": "each_in_full",
    "fee_basis": "net_result",
    "declaring": "automatic",
    "instant_win_when_fouled": True,
    "foul_pays_row_bonuses": True,
}

PRESET_DATA: dict[str, PresetData] = {
    "bigkool-2016": {
        "code": "bigkool-2016",
        "name": "Mau Binh, BigKool rules from 2016-05-13",
        "row_bonuses": _ROW_BONUSES,
        "instant_wins": {"dragon": 72, **_INSTANT_WINS_18},
        "scoop_multiplier": 2,
        "fee_rate": "0.05",
        "quit_penalty": 6,
        "wheel_is_lowest": True,
        "foul_counts_as_scoop": True,
        "dragon_flush_counts_as_dragon": True,
        **_READINGS,
        "rounding_unit": "1",
        "rounding_mode": "up",
    },
    "classic": {
        "code": "classic",
        "name": "Mau Binh, classic rules (before 2016-05-13)",
        "row_bonuses": _ROW_BONUSES,
        "instant_wins": {"dragon_flush": 78, "dragon": 72, **_INSTANT_WINS_18},
        "scoop_multiplier": 1,
        "fee_rate": "0.05",
        "quit_penalty": 6,
        "wheel_is_lowest": True,
        "foul_counts_as_scoop": True,
        "dragon_flush_counts_as_dragon": True,
        **_READINGS,
        "rounding_unit": "1",
        "rounding_mode": "up",
    },
}

#: Preset codes, in the order the admin lists them.
CODES: tuple[str, ...] = tuple(PRESET_DATA)


def ruleset_from_data(data: PresetData) -> Ruleset:
    """Build a ruleset snapshot from preset data (or data shaped like it)."""
    return Ruleset(
        code=data["code"],
        name=data["name"],
        row_bonuses={tuple(key.split(":")): chi for key, chi in data["row_bonuses"].items()},
        instant_wins=dict(data["instant_wins"]),
        scoop_multiplier=data["scoop_multiplier"],
        fee_rate=Decimal(data["fee_rate"]),
        quit_penalty=data["quit_penalty"],
        wheel_is_lowest=data["wheel_is_lowest"],
        foul_counts_as_scoop=data["foul_counts_as_scoop"],
        dragon_flush_counts_as_dragon=data["dragon_flush_counts_as_dragon"],
        tied_instant_wins=data["tied_instant_wins"],
        fee_basis=data["fee_basis"],
        declaring=data["declaring"],
        instant_win_when_fouled=data["instant_win_when_fouled"],
        foul_pays_row_bonuses=data["foul_pays_row_bonuses"],
        rounding_unit=Decimal(data["rounding_unit"]),
        rounding_mode=data["rounding_mode"],
    )


# One per preset code (two today; an unknown code raises and is not kept): 16 keeps them all.
@lru_cache(maxsize=16)
def get(code: str) -> Ruleset:
    """The preset ruleset with this code (its rounding unit is 1 and its mode up; a venue's
    copy starts from the venue's chip unit, see :meth:`Ruleset.with_rounding_unit`).

    >>> get("bigkool-2016").instant_win_amount("dragon")
    72
    >>> get("vn-kr-004")
    Traceback (most recent call last):
    ...
    ValueError: 'vn-kr-004' is not a Mau Binh preset: one of bigkool-2016, classic
    """
    try:
        data = PRESET_DATA[code]
    except KeyError:
        raise ValueError(f"{code!r} is not a Mau Binh preset: one of {', '.join(CODES)}") from None
    return ruleset_from_data(data)


def all_presets() -> tuple[Ruleset, ...]:
    """Every preset ruleset, in ``CODES`` order."""
    return tuple(get(code) for code in CODES)
