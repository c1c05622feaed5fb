"""The Baccarat (Punto Banco) engine: pure Python, no Django, no I/O (docs/ARCHITECTURE.md
"Engine contract"; the rules in docs/RULES.md, Part C).

>>> from casino.kernel.cards import parse_cards
>>> from decimal import Decimal
>>> from baccarat.engine import evaluate_round, presets
>>> rules = presets.get("no-commission")
>>> outcome = evaluate_round(parse_cards("4H 3C AD 3S 5S"), {1: {"banker": Decimal(100),
...     "super6": Decimal(10)}}, rules)
>>> str(outcome.coup.winner), [str(line.net) for line in outcome.seats[1].lines]
('banker', ['50', '120'])
"""

from baccarat.engine import presets
from baccarat.engine.odds import (
    BetOdds,
    OddsRow,
    RulesetOdds,
    full_shoe,
    outcome_counts,
    pays,
    ruleset_odds,
    summary,
)
from baccarat.engine.rules import (
    MAX_DECKS,
    SETTLEMENT_ORDER,
    BetType,
    Collection,
    Ruleset,
    Variant,
    Winner,
)
from baccarat.engine.settle import (
    BetLine,
    RoundOutcome,
    SeatSettlement,
    SettlementError,
    evaluate_round,
    settle,
    settle_bet,
)
from baccarat.engine.tableau import (
    Coup,
    DealError,
    Hand,
    Progress,
    banker_draws,
    deal,
    hands_so_far,
    player_draws,
    point,
    total,
)

__all__ = [
    "MAX_DECKS",
    "SETTLEMENT_ORDER",
    "BetLine",
    "BetOdds",
    "BetType",
    "Collection",
    "Coup",
    "DealError",
    "Hand",
    "OddsRow",
    "Progress",
    "RoundOutcome",
    "Ruleset",
    "RulesetOdds",
    "SeatSettlement",
    "SettlementError",
    "Variant",
    "Winner",
    "banker_draws",
    "deal",
    "evaluate_round",
    "full_shoe",
    "hands_so_far",
    "outcome_counts",
    "pays",
    "player_draws",
    "point",
    "presets",
    "ruleset_odds",
    "settle",
    "settle_bet",
    "summary",
    "total",
]
