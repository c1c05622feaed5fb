"""Rated table games as the floor sees them: the adapter registered in ``casino.games``.

A table of this game (baccarat, blackjack, roulette..., named by its ruleset version) is
kept for its accounting only: sessions, fills and credits, drop and win by the count, and
the players' ratings. It deals no round on the system (``settles_rounds`` is False)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from casino.games import BoxInput, GameParts, LedgerLine, RoundInputError, RoundResult
from tablegames import engine
from tablegames.models import RatingAuditAction, TableGameRulesetVersion
from tablegames.selectors import BET_TYPE, snapshot


class TableGamesAdapter(GameParts):
    code = "tablegames"
    name = _("Other table games")
    bet_types = (BET_TYPE,)
    version_model = TableGameRulesetVersion
    settles_rounds = False
    audit_actions = (RatingAuditAction,)

    def snapshot(self, version: TableGameRulesetVersion) -> engine.Ruleset:
        return snapshot(version)

    def offered_bet_types(self, rules: engine.Ruleset) -> tuple[str, ...]:
        return self.bet_types

    def evaluate_round(
        self, *, rules: engine.Ruleset, dealer_cards: str, boxes: Sequence[BoxInput]
    ) -> RoundResult:
        raise RoundInputError(
            _(
                "%(game)s is played for its accounting only: no round is dealt on the system. "
                "Rate the players on the table's console page instead."
            )
            % {"game": rules.game_name},
            field="session",
            reason="no_rounds",
        )

    def ledger_lines(self, result: RoundResult) -> list[LedgerLine]:
        return []

    def round_orders(self, boxes: Sequence[BoxInput]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        positions = tuple(box.position for box in boxes)
        return positions, positions

    def boxes_dealt(self, rules: Any, seats: int) -> int:
        return 0
