"""The Mau Binh engine: pure Python, no Django, no I/O (docs/ARCHITECTURE.md "Engine contract").

>>> from decimal import Decimal
>>> from maubinh.engine import check_arrangement, evaluate_row, presets, settle_table
>>> rules = presets.get("bigkool-2016")
>>> evaluate_row("KS KH 4D 4C KC", rules).category.name
'FULL_HOUSE'
>>> check_arrangement("AS AH KD KC 2S", "QS QH JC JD 3C", "9H 9D 4C", rules).fouled
False
>>> table = settle_table(
...     {
...         1: ("AS AH KD KC 2S", "QS QH JC JD 3C", "9H 9D 4C"),
...         2: ("TS TH 8D 8C 5S", "7S 7H 6C 6D 2C", "KS 3H 4D"),
...     },
...     Decimal("10"),
...     rules,
... )
>>> table.seats[1].chi, table.seats[1].net, table.seats[2].net
(6, Decimal('57'), Decimal('-60'))
"""

from maubinh.engine import presets
from maubinh.engine.arrange import suggest_arrangement
from maubinh.engine.arrangement import Arrangement, check_arrangement, instant_win
from maubinh.engine.rows import RowHand, card_rank, compare_rows, evaluate_row
from maubinh.engine.rules import (
    FRONT_CATEGORIES,
    ROWS,
    STANDARD_ROW_BONUSES,
    Declaring,
    FeeBasis,
    InstantWin,
    Row,
    RowCategory,
    Ruleset,
    TiedInstantWins,
)
from maubinh.engine.settle import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PairBasis,
    PairResult,
    SeatResult,
    TableSettlement,
    fee_on,
    settle_table,
)

__all__ = [
    "FRONT_CATEGORIES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ROWS",
    "STANDARD_ROW_BONUSES",
    "Arrangement",
    "Declaring",
    "FeeBasis",
    "InstantWin",
    "PairBasis",
    "PairResult",
    "Row",
    "RowCategory",
    "RowHand",
    "Ruleset",
    "SeatResult",
    "TableSettlement",
    "TiedInstantWins",
    "card_rank",
    "check_arrangement",
    "compare_rows",
    "evaluate_row",
    "fee_on",
    "instant_win",
    "presets",
    "settle_table",
    "suggest_arrangement",
]
