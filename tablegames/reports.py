"""How the management reports show rated table games: house-banked, with no bets of their
own. A table's win is its win by the count and its theoretical win that of its ratings;
``shift_lines`` gives the shift report its lines of them, ``rated_play`` the players'
rated play, and ``game_names`` the game each table plays (blackjack, roulette...), which
the statistical report's lines per game are of."""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _

from casino.floor import figures
from casino.floor.models import TableSession
from casino.games import GameReports, RatedPlay
from casino.rulesets.models import VersionStatus
from casino.venues.models import Shift
from tablegames.models import Rating, TableGameRulesetVersion
from tablegames.selectors import ratings_between, shift_ratings

GAME = "tablegames"
ZERO = Decimal(0)
CENT = Decimal("0.01")


def _rated(rating: Rating) -> RatedPlay:
    return RatedPlay(
        player_id=rating.player_id,
        session_id=rating.session_id,
        table_code=rating.session.table.code,
        game=rating.version.game_name,
        started_at=rating.started_at,
        ended_at=rating.ended_at,
        average_bet=rating.average_bet,
        decisions=rating.decisions,
        theoretical_win=rating.theoretical_win,
        actual_win=rating.actual_win,
    )


def _sums(ratings: list[Rating], win: Decimal | None) -> dict[str, Any]:
    """The sums a report's line is made of (``figure_line``'s names): the rated handle
    (average bet x decisions), the ratings' theoretical win and the house's win."""
    handle = sum((r.average_bet * r.decisions for r in ratings), ZERO)
    return {
        "t_bets": sum(r.decisions for r in ratings),
        "t_handle": handle,
        "t_player_result": -(win or ZERO),
        "t_commission": ZERO,
        "t_volume": ZERO,
        "t_theoretical_win": sum((r.theoretical_win for r in ratings), ZERO),
        "t_unrated_handle": ZERO,
        "t_win_variance": None,
        "t_unvaried_handle": ZERO,
    }


class TableGamesReports(GameReports):
    label = _("Other table games")
    house_banked = True

    def rated_play(
        self,
        *,
        player_ids: list[int] | None,
        date_from: date,
        date_to: date,
        venue_id: int | None = None,
    ) -> list[RatedPlay]:
        found = ratings_between(
            player_ids=player_ids, date_from=date_from, date_to=date_to, venue_id=venue_id
        )
        return [_rated(rating) for rating in found]

    def game_names(self, table_ids: list[int]) -> dict[int, str]:
        """The game each table plays, as its ruleset's version in force names it (one
        query); a table whose ruleset has no version in force is left out."""
        names: dict[int, str] = {}
        for table_id, name in (
            TableGameRulesetVersion.objects.filter(
                ruleset__tables__in=table_ids, status=VersionStatus.ACTIVE
            )
            .order_by("effective_from", "pk")
            .values_list("ruleset__tables", "game_name")
        ):
            names[table_id] = name  # the latest active version wins
        return names

    def shift_lines(self, shift: Shift) -> dict[str, list[dict[str, Any]]]:
        """The shift's tables of this game, the game and its rated players, as sums for
        ``figure_line``: a table's win is its closed sessions' win by the count, with the
        drops the count room posted to them after their close."""
        sessions = list(
            TableSession.objects.filter(shift=shift, table__game=GAME)
            .exclude(status=TableSession.Status.OPEN)
            .select_related("table")
        )
        tables = {
            s.table.code: s.table
            for s in TableSession.objects.filter(shift=shift, table__game=GAME).select_related(
                "table"
            )
        }
        if not tables:
            return {"tables": [], "games": [], "players": []}
        # Win by count with the count's drops (``casino.floor.figures.with_count``).
        counted = figures.sessions_counted(sessions)
        win: dict[str, Decimal] = defaultdict(Decimal)
        for s in sessions:
            with_count = counted[s.pk]
            win[s.table.code] += with_count.win_by_count if with_count else ZERO
        ratings = shift_ratings(shift)
        by_table: dict[str, list[Rating]] = defaultdict(list)
        by_player: dict[int, list[Rating]] = defaultdict(list)
        for rating in ratings:
            by_table[rating.session.table.code].append(rating)
            by_player[rating.player_id].append(rating)
        table_lines = [
            {
                "key": code,
                "label": code,
                "game": GAME,
                "sums": _sums(by_table[code], win.get(code) if sessions else None),
            }
            for code in sorted(tables)
        ]
        game_line = {
            "key": GAME,
            "label": str(self.label),
            "sums": _sums(ratings, sum(win.values(), ZERO)),
        }
        players = []
        for rated in by_player.values():
            player = rated[0].player
            known = [r.actual_win for r in rated if r.actual_win is not None]
            seconds = sum((r.ended_at - r.started_at).total_seconds() for r in rated)
            players.append(
                {
                    "key": player.membership_number,
                    "label": player.name,
                    "sums": _sums(rated, sum(known, ZERO) if known else None),
                    "hands": sum(r.decisions for r in rated),
                    "minutes": round(seconds / 60),
                }
            )
        return {"tables": table_lines, "games": [game_line], "players": players}


REPORTS = TableGamesReports()
