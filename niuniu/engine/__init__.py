"""The Niu Niu engine: pure Python, no Django, no I/O (docs/ARCHITECTURE.md "Engine contract").

>>> from casino.kernel.cards import parse_cards
>>> from niuniu.engine import evaluate, presets
>>> evaluate(parse_cards("KS QH 10D 3c 7♠"), presets.get("vn-kr-004")).category.name
'NIU_NIU'
"""

from niuniu.engine import presets
from niuniu.engine.bonus import satisfies, winning_line
from niuniu.engine.hands import CATEGORY_LABELS, Hand, compare, evaluate
from niuniu.engine.order import deal_order, payment_order, round_orders
from niuniu.engine.rules import (
    BASE_CATEGORIES,
    MAX_BOXES,
    PAYTABLE_BET_TYPES,
    SPECIAL_CATEGORIES,
    BetType,
    BonusLine,
    BonusPredicate,
    Category,
    PaytableRow,
    Ruleset,
)
from niuniu.engine.settle import (
    SETTLEMENT_ORDER,
    BetLine,
    BoxSettlement,
    SettlementError,
    deposit_multiple,
    settle_box,
    settle_hands,
)

__all__ = [
    "BASE_CATEGORIES",
    "CATEGORY_LABELS",
    "MAX_BOXES",
    "PAYTABLE_BET_TYPES",
    "SETTLEMENT_ORDER",
    "SPECIAL_CATEGORIES",
    "BetLine",
    "BetType",
    "BonusLine",
    "BonusPredicate",
    "BoxSettlement",
    "Category",
    "Hand",
    "PaytableRow",
    "Ruleset",
    "SettlementError",
    "compare",
    "deal_order",
    "deposit_multiple",
    "evaluate",
    "payment_order",
    "presets",
    "round_orders",
    "satisfies",
    "settle_box",
    "settle_hands",
    "winning_line",
]
