"""Rated table games as the floor sees them: the adapter registered in ``casino.games``.

A table of this game (baccarat, blackjack, roulette..., named by its ruleset version) is
kept for its accounting only: sessions, fills and credits, drop and win by the count, and
the players' ratings. It deals no round on the system (``settles_rounds`` is False)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import cached_property
from typing import Any

from django.utils.translation import gettext_lazy as _

from casino.games import (
    BoxInput,
    GameAdapter,
    GameAdmin,
    GameApi,
    GameConsole,
    GameDemo,
    GameReports,
    LedgerLine,
    RoundInputError,
    RoundResult,
)
from casino.kernel.money import plain
from tablegames import engine
from tablegames.models import RULE_FIELDS, RatingAuditAction, TableGameRulesetVersion
from tablegames.selectors import BET_TYPE, snapshot


class TableGamesAdapter(GameAdapter):
    code = "tablegames"
    name = _("Other table games")
    bet_types = (BET_TYPE,)
    version_model = TableGameRulesetVersion

    # The game's parts, each in its own module (imported when first asked, after every app
    # is loaded: they import the floor's screens, API and admin).

    @cached_property
    def console(self) -> GameConsole:
        from tablegames.console import CONSOLE

        return CONSOLE

    @cached_property
    def api(self) -> GameApi:
        from tablegames.api import API

        return API

    @cached_property
    def admin(self) -> GameAdmin:
        from tablegames.admin import ADMIN

        return ADMIN

    @cached_property
    def reports(self) -> GameReports:
        from tablegames.reports import REPORTS

        return REPORTS

    @cached_property
    def demo(self) -> GameDemo:
        from tablegames.demo import DEMO

        return DEMO

    # The rules of a version: its fields (the game played, its house edge and pace).

    rule_fields = RULE_FIELDS

    def rule_errors(self, version: TableGameRulesetVersion) -> list[str]:
        errors = []
        if not (version.game_name or "").strip():
            errors.append(str(_("Name the game played (Baccarat, Blackjack, Roulette...).")))
        if version.house_edge_rate is None or not Decimal(0) <= version.house_edge_rate < 1:
            errors.append(str(_("The house edge is from 0 up to 1 (0.02 is 2%).")))
        if not version.decisions_per_hour:
            errors.append(str(_("Decisions per hour are 1 or more.")))
        return errors

    def approval_figures(self, version: TableGameRulesetVersion) -> tuple[dict, list[str]]:
        """The house edge and pace, stored as approved; an edge of 10% or more warns."""
        figures = {
            "house_edge": {"bet": plain(version.house_edge_rate)},
            "decisions_per_hour": version.decisions_per_hour,
            "game_name": version.game_name,
        }
        warnings = []
        if version.house_edge_rate >= Decimal("0.1"):
            warnings.append(
                str(_("A house edge of %(edge)s is unusually high for a table game."))
                % {"edge": plain(version.house_edge_rate)}
            )
        return figures, warnings

    settles_rounds = False
    audit_actions = (RatingAuditAction,)

    def snapshot(self, version: TableGameRulesetVersion) -> engine.Ruleset:
        return snapshot(version)

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

    def boxes_dealt(self, rules: Any, seats: int) -> int:
        return 0
