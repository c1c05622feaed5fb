"""A player's rated play: their sessions at the tables, rated from the tallies for the card
games and by each game's own ratings (``rated_play``) for the games rated by hand.

A line is one table session: rounds and hands, time at the table (first deal to last
settlement), average bet, handle, theoretical win and actual win, each figure as
``casino.floor.figures`` defines it (theoretical win: the handle at each ruleset version's house
edge per bet type, a fee game's its fee; actual win: the house's from the player). The
totals add the lines up; their average bet is ``figures.average_bet_over_time`` (a rating
by hand has an average bet and a time, not a handle).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Sum

from casino import games
from casino.floor import figures
from casino.floor.figures import CENT
from casino.floor.kinds import fee_games, game_label
from casino.floor.lines import ZERO, figure_line
from casino.floor.models import BetTally, SeatTally, TableSession
from casino.players.models import Comp, Player
from casino.rulesets.rates import rates_of

#: The most lines a player's page shows (newest first); the totals count every line.
MAX_LINES = 200


@dataclass
class PlayerHistory:
    player: Player
    date_from: date
    date_to: date
    lines: list[dict[str, Any]] = field(default_factory=list)
    totals: dict[str, Any] = field(default_factory=dict)


def _tally_lines(player_id: int, date_from: date, date_to: date) -> list[dict[str, Any]]:
    rows = list(
        BetTally.objects.filter(
            player_id=player_id, shift__gaming_date__gte=date_from, shift__gaming_date__lte=date_to
        )
        .values("session_id", "game", "ruleset_version_id", "bet_type")
        .annotate(
            t_bets=Sum("bets"),
            t_handle=Sum("handle"),
            t_player_result=Sum("player_result"),
            t_commission=Sum("commission"),
            t_volume=Sum("volume"),
        )
        .order_by()
    )
    if not rows:
        return []
    rates = {
        (r.game, r.version_id): r
        for r in rates_of(sorted({(row["game"], row["ruleset_version_id"]) for row in rows}))
    }
    fee = fee_games()
    sums: dict[int, dict[str, Any]] = defaultdict(
        lambda: {
            "t_bets": 0,
            "t_handle": ZERO,
            "t_player_result": ZERO,
            "t_commission": ZERO,
            "t_volume": ZERO,
            "t_theoretical_win": ZERO,
            "t_unrated_handle": ZERO,
        }
    )
    for row in rows:
        line = sums[row["session_id"]]
        for key in ("t_bets", "t_handle", "t_player_result", "t_commission", "t_volume"):
            line[key] += row[key] or 0
        if row["game"] in fee:
            line["t_theoretical_win"] += row["t_commission"] or ZERO
            continue
        rate = rates.get((row["game"], row["ruleset_version_id"]))
        edge = rate.edges.get(row["bet_type"]) if rate else None
        if edge is None:
            line["t_unrated_handle"] += row["t_handle"] or ZERO
        else:
            line["t_theoretical_win"] += figures.theoretical_win(row["t_handle"] or ZERO, edge)
    sessions = {
        s.pk: s
        for s in TableSession.objects.filter(pk__in=list(sums))
        .select_related("table", "shift")
        .order_by()
    }
    seats = {
        seat.session_id: seat
        for seat in SeatTally.objects.filter(player_id=player_id, session_id__in=list(sums))
    }
    lines = []
    for session_id, session_sums in sums.items():
        session = sessions[session_id]
        seat = seats.get(session_id)
        line = figure_line(session_sums, rounds=seat.rounds if seat else None)
        game = session.table.game
        actual = (
            figures.actual_win(banked_result=ZERO, fees=line["commission"])
            if game in fee
            else figures.actual_win(banked_result=line["player_result"], fees=ZERO)
        )
        started = seat.first_dealt_at if seat else session.opened_at
        ended = seat.last_settled_at if seat else (session.closed_at or session.opened_at)
        lines.append(
            {
                "source": "tallies",
                "session_id": session_id,
                "table_code": session.table.code,
                "game": game,
                "game_label": game_label(game),
                "gaming_date": session.shift.gaming_date,
                "started_at": started,
                "ended_at": ended,
                "minutes": round((ended - started).total_seconds() / 60),
                "rounds": seat.rounds if seat else None,
                "hands": seat.hands if seat else None,
                "decisions": seat.hands if seat else None,
                "handle": line["handle"],
                "average_bet": figures.average_bet(line["handle"], line["bets"]),
                "theoretical_win": line["theoretical_win"],
                "actual_win": actual,
            }
        )
    return lines


def _rated_lines(player_id: int, date_from: date, date_to: date) -> list[dict[str, Any]]:
    """The lines of the games whose play is rated by hand (``GameReports.rated_play``)."""
    lines = []
    for game in games.all_games():
        rated = game.reports.rated_play(
            player_ids=[player_id], date_from=date_from, date_to=date_to
        )
        for play in rated:
            minutes = round((play.ended_at - play.started_at).total_seconds() / 60)
            lines.append(
                {
                    "source": "rating",
                    "session_id": play.session_id,
                    "table_code": play.table_code,
                    "game": play.game,
                    "game_label": game_label(play.game),
                    "gaming_date": None,
                    "started_at": play.started_at,
                    "ended_at": play.ended_at,
                    "minutes": minutes,
                    "rounds": None,
                    "hands": None,
                    "decisions": play.decisions,
                    "handle": None,
                    "average_bet": play.average_bet,
                    "theoretical_win": play.theoretical_win.quantize(CENT),
                    "actual_win": play.actual_win,
                }
            )
    return lines


def _totals(lines: list[dict[str, Any]]) -> dict[str, Any]:
    minutes = sum(line["minutes"] for line in lines)
    return {
        "sessions": len(lines),
        "minutes": minutes,
        "rounds": sum(line["rounds"] or 0 for line in lines),
        "handle": sum((line["handle"] or ZERO for line in lines), ZERO),
        "average_bet": figures.average_bet_over_time(
            (line["average_bet"], line["minutes"]) for line in lines
        ),
        "theoretical_win": sum(
            (line["theoretical_win"] for line in lines if line["theoretical_win"] is not None),
            ZERO,
        ),
        "unrated_lines": sum(1 for line in lines if line["theoretical_win"] is None),
        "actual_win": sum(
            (line["actual_win"] for line in lines if line["actual_win"] is not None), ZERO
        ),
    }


def player_history(*, player: Player, date_from: date, date_to: date) -> PlayerHistory:
    """The player's rated play over gaming dates ``date_from`` to ``date_to`` (inclusive)."""
    lines = _tally_lines(player.pk, date_from, date_to) + _rated_lines(
        player.pk, date_from, date_to
    )
    lines.sort(key=lambda line: line["started_at"], reverse=True)
    return PlayerHistory(
        player=player,
        date_from=date_from,
        date_to=date_to,
        lines=lines[:MAX_LINES],
        totals=_totals(lines),
    )


def theoretical_win(*, player: Player, date_from: date, date_to: date) -> Decimal:
    """The player's theoretical win over the gaming dates (the lines that have one)."""
    return player_history(player=player, date_from=date_from, date_to=date_to).totals[
        "theoretical_win"
    ]


def comps_issued(*, player: Player, date_from: date, date_to: date) -> Decimal:
    """What the player was given in comps over the gaming dates."""
    total = Comp.objects.filter(
        player=player, gaming_date__gte=date_from, gaming_date__lte=date_to
    ).aggregate(t=Sum("amount"))["t"]
    return total or ZERO
