"""The performance sections of a shift report (tables, dealers, games, bet types, hours,
players, fee games), each a GROUP BY over the report's cells, and the line every section
shows: hold, theoretical win and the fluctuation range."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, QuerySet, Sum

from casino import games
from casino.floor import figures
from casino.floor.figures import pct
from casino.floor.kinds import bet_type_label, game_label
from casino.floor.lines import ZERO, figure_line
from casino.floor.models import Round, RoundStatus, SeatTally
from casino.kernel.timezones import LocalHour
from casino.reports.cells import aware
from casino.venues.models import Shift


def cell_sums() -> dict[str, Any]:
    """The sums every section takes over its cells (``t_`` names: a sum may not be named
    like the field it sums)."""
    return {
        "t_bets": Sum("bets"),
        "t_handle": Sum("handle"),
        "t_player_result": Sum("player_result"),
        "t_commission": Sum("commission"),
        "t_volume": Sum("volume"),
        "t_theoretical_win": Sum("theoretical_win"),
        "t_unrated_handle": Sum("handle", filter=Q(theoretical_win__isnull=True)),
        "t_win_variance": Sum("win_variance"),
        "t_unvaried_handle": Sum("handle", filter=Q(win_variance__isnull=True)),
    }


@dataclass(frozen=True)
class RoundCounts:
    """The shift's settled rounds counted per table, dealer, game and local hour (the
    venue's, as the tallies bucket them) in one pass (a round spans several cells, so
    cells cannot count rounds)."""

    rows: list[tuple[int, int, str, datetime, int]]

    @classmethod
    def of(cls, shift: Shift) -> RoundCounts:
        rows = (
            Round.objects.filter(session__shift=shift, status=RoundStatus.SETTLED)
            .values_list(
                "session__table_id",
                "dealer_id",
                "game",
                LocalHour("settled_at", "session__table__venue__timezone"),
            )
            .annotate(n=Count("pk"))
            .order_by()
        )
        return cls([(*row[:3], aware(row[3]), row[4]) for row in rows])

    def total(self) -> int:
        return sum(row[-1] for row in self.rows)

    def by(self, column: int, games_: frozenset[str] | None = None) -> dict[Any, int]:
        """Rounds per table (0), dealer (1), game (2) or hour (3), of some games only."""
        counted: dict[Any, int] = defaultdict(int)
        for row in self.rows:
            if games_ is None or row[2] in games_:
                counted[row[column]] += row[-1]
        return counted


TABLE, DEALER, GAME, HOUR = range(4)


def section_tables(cells: QuerySet, rounds: RoundCounts) -> list[dict[str, Any]]:
    counted = rounds.by(TABLE)
    rows = (
        cells.values("table_id", "table__code", "table__game")
        .annotate(**cell_sums())
        .order_by("table__code")
    )
    return [
        {
            "key": row["table__code"],
            "label": row["table__code"],
            "game": row["table__game"],
            **figure_line(row, rounds=counted.get(row["table_id"], 0)),
        }
        for row in rows
    ]


def section_dealers(cells: QuerySet, rounds: RoundCounts) -> list[dict[str, Any]]:
    counted = rounds.by(DEALER)
    rows = (
        cells.values("dealer_id", "dealer__username", "dealer__first_name", "dealer__last_name")
        .annotate(**cell_sums())
        .order_by("dealer__username")
    )
    return [
        {
            "key": row["dealer__username"],
            "label": " ".join(filter(None, [row["dealer__first_name"], row["dealer__last_name"]]))
            or row["dealer__username"],
            **figure_line(row, rounds=counted.get(row["dealer_id"], 0)),
        }
        for row in rows
    ]


def section_games(cells: QuerySet, rounds: RoundCounts) -> list[dict[str, Any]]:
    counted = rounds.by(GAME)
    rows = cells.values("game").annotate(**cell_sums()).order_by("game")
    return [
        {
            "key": row["game"],
            "label": game_label(row["game"]),
            **figure_line(row, rounds=counted.get(row["game"], 0)),
        }
        for row in rows
    ]


def section_bet_types(cells: QuerySet) -> list[dict[str, Any]]:
    """Per game and bet type. Rounds are not given: several boxes of one round may take
    the same bet type, and counting distinct rounds would read every bet again; the
    number of bets (one per box that took the type) says how often it was played."""
    rows = cells.values("game", "bet_type").annotate(**cell_sums()).order_by("game", "bet_type")
    return [
        {
            "key": f"{row['game']}:{row['bet_type']}",
            "label": bet_type_label(row["game"], row["bet_type"]),
            "game": row["game"],
            "bet_type": row["bet_type"],
            **figure_line(row),
        }
        for row in rows
    ]


def section_hours(cells: QuerySet, rounds: RoundCounts, tz: Any) -> list[dict[str, Any]]:
    """Per hour on the venue's clocks (each cell's hour is the start of a local hour),
    labelled with its start (``15:00``); an hour the clocks repeat when they go back is
    told apart by its offset from UTC (``02:00 +09:30``)."""
    counted = rounds.by(HOUR)
    rows = cells.values("hour").annotate(**cell_sums()).order_by("hour")
    lines = []
    hours = [aware(row["hour"]) for row in rows]
    for row, hour, label in zip(rows, hours, hour_labels(hours, tz), strict=True):
        lines.append(
            {
                "key": hour.isoformat(),
                "label": label,
                "local": hour.astimezone(tz).isoformat(),
                **figure_line(row, rounds=counted.get(hour, 0)),
            }
        )
    return lines


def hour_labels(hours: list[datetime], tz: Any) -> list[str]:
    """Each hour's start on the zone's clocks (``15:00``), with its offset from UTC where
    the clocks show one start twice (``02:00 +10:30``, ``02:00 +09:30``)."""
    locals_ = [hour.astimezone(tz) for hour in hours]
    labels = [f"{local:%H:%M}" for local in locals_]
    shown = []
    for local, label in zip(locals_, labels, strict=True):
        if labels.count(label) > 1:
            offset = f"{local:%z}"
            label = f"{label} {offset[:3]}:{offset[3:5]}"
        shown.append(label)
    return shown


def fee_sums(fee: frozenset[str]) -> dict[str, Any]:
    """The sums a player's actual win needs beside ``cell_sums``: their result and the
    fees taken in the games played between players (``fee``)."""
    in_fee = Q(game__in=fee)
    return {
        "t_fee_result": Sum("player_result", filter=in_fee),
        "t_fee_commission": Sum("commission", filter=in_fee),
    }


def player_actual_win(sums: dict[str, Any]) -> Decimal:
    """``casino.floor.figures.actual_win`` of a player's sums (``cell_sums`` and ``fee_sums``)."""
    fee_result = sums.get("t_fee_result") or ZERO
    return figures.actual_win(
        banked_result=(sums.get("t_player_result") or ZERO) - fee_result,
        fees=sums.get("t_fee_commission"),
    )


def section_players(cells: QuerySet, shift: Shift, fee: frozenset[str]) -> list[dict[str, Any]]:
    """Player ratings: rounds, hands, time at the table, average bet, theoretical and
    actual win. Time at the table: from a player's first deal to their last settlement
    at each table session, added up over the sessions."""
    played = {row[0]: row[1:] for row in _player_time(shift)}
    rows = (
        cells.filter(player__isnull=False)
        .values("player_id", "player__membership_number", "player__name")
        .annotate(**cell_sums(), **fee_sums(fee))
        .order_by("player__membership_number")
    )
    lines = []
    for row in rows:
        rounds, hands, seconds = played.get(row["player_id"], (0, 0, 0))
        line = figure_line(row, rounds=int(rounds))
        line.update(
            key=row["player__membership_number"],
            label=row["player__name"],
            hands=int(hands),
            minutes=round(float(seconds or 0) / 60),
            average_bet=figures.average_bet(line["handle"], line["bets"]),
            actual_win=player_actual_win(row),
        )
        lines.append(line)
    lines.sort(key=player_order)
    return lines


def _player_time(shift: Shift) -> list[tuple]:
    """Per player: rounds, hands (boxes) and seconds at the tables, from the seat tallies
    (a round counted once per member and table session, as it settled)."""
    seconds = ExpressionWrapper(
        F("last_settled_at") - F("first_dealt_at"), output_field=DurationField()
    )
    rows = (
        SeatTally.objects.filter(shift=shift, rounds__gt=0)
        .values("player_id")
        .annotate(rounds=Sum("rounds"), hands=Sum("hands"), time=Sum(seconds))
        .order_by()
    )
    return [
        (row["player_id"], row["rounds"], row["hands"], row["time"].total_seconds()) for row in rows
    ]


def section_fee_games(cells: QuerySet, rounds: RoundCounts, fee: frozenset[str]) -> dict:
    """The games where the house takes a fee: rounds, volume between players, fees, per table."""
    counted = rounds.by(TABLE, fee)
    fee_cells = cells.filter(game__in=fee)
    rows = (
        fee_cells.values("table_id", "table__code", "game")
        .annotate(t_volume=Sum("volume"), t_fees=Sum("commission"), t_seats=Sum("bets"))
        .order_by("table__code")
    )
    total = fee_cells.aggregate(
        t_volume=Sum("volume"), t_fees=Sum("commission"), t_seats=Sum("bets")
    )

    def line(row: dict[str, Any], rounds: int) -> dict[str, Any]:
        volume, fees = row["t_volume"] or ZERO, row["t_fees"] or ZERO
        return {
            "rounds": rounds,
            "seats": row["t_seats"] or 0,
            "volume": volume,
            "fees": fees,
            "fee_pct": pct(fees, volume),
        }

    return {
        "tables": [
            {
                "key": row["table__code"],
                "label": row["table__code"],
                "game": row["game"],
                **line(row, counted.get(row["table_id"], 0)),
            }
            for row in rows
        ],
        "total": line(total, sum(counted.values())) if fee_cells.exists() else None,
    }


def section_rated_games(shift: Shift) -> dict[str, list[dict[str, Any]]]:
    """The lines of the games that deal no rounds, which have no tallies: each game's
    ``GameReports.shift_lines`` gives its tables, its game and its rated players as sums,
    made into lines here like every other section's."""
    found: dict[str, list[dict[str, Any]]] = {
        "tables": [],
        "games": [],
        "players": [],
        "game_sums": [],
    }
    for game in games.all_games():
        for section, lines in game.reports.shift_lines(shift).items():
            for given in lines:
                if section == "games":
                    found["game_sums"].append(given["sums"])
                line = {k: v for k, v in given.items() if k != "sums"}
                line.update(figure_line(given["sums"], rounds=line.pop("rounds", 0)))
                if section == "players":
                    line["average_bet"] = figures.average_bet(line["handle"], line["bets"])
                    line["actual_win"] = player_actual_win(given["sums"])
                found[section].append(line)
    return found


def sums_added(*sums: dict[str, Any]) -> dict[str, Any]:
    """Sections' sums added key by key (a key none of them has stays None)."""
    keys = {key for one in sums for key in one}
    added: dict[str, Any] = {}
    for key in keys:
        values = [one[key] for one in sums if one.get(key) is not None]
        added[key] = sum(values[1:], values[0]) if values else None
    return added


def player_order(line: dict[str, Any]) -> tuple:
    """Player ratings, the highest theoretical win first."""
    theoretical = line["theoretical_win"]
    return (-(theoretical if theoretical is not None else ZERO), -line["handle"], line["key"])
