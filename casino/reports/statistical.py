"""The regulators' statistical report: win, drop and win/drop % per table and per game for
the gaming day, the month to date and the year to date, each beside the same period last
year (as COMAR 36.05.03.25 asks, and Nevada's and New Jersey's rules alike).

Win is the win by count (``casino.reports.by_count``: closer - opener + credits - fills +
drop), the regulators' definition, not the house win of settled bets; every table of the
venue is in it, dealt or kept for its accounting only. A table-day not closed yet has no
win and is counted as open. A game's lines are per type of game: a game that names the
game each of its tables plays (``GameReports.game_names``: blackjack, roulette) has a
line for each.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from casino import games
from casino.floor.kinds import game_label
from casino.kernel.replicas import replica_reads
from casino.reports.by_count import TableDay, lines_by, summed, table_days
from casino.reports.periods import DAY, MONTH, YEAR, _clamped
from casino.venues.models import Venue

SPANS: dict[str, Promise] = {
    DAY: _("Gaming day"),
    MONTH: _("Month to date"),
    YEAR: _("Year to date"),
}


def span_of(kind: str, day: date) -> tuple[date, date]:
    """The gaming dates of the span ``kind`` ending on ``day``."""
    if kind == DAY:
        return day, day
    if kind == MONTH:
        return day.replace(day=1), day
    return date(day.year, 1, 1), day


def last_year(start: date, end: date) -> tuple[date, date]:
    """The same gaming dates a year before (29 February read as the 28th).

    >>> last_year(date(2024, 2, 1), date(2024, 2, 29))
    (datetime.date(2023, 2, 1), datetime.date(2023, 2, 28))
    """
    return (
        _clamped(start.year - 1, start.month, start.day),
        _clamped(end.year - 1, end.month, end.day),
    )


@dataclass(frozen=True)
class Span:
    kind: str
    label: Promise
    start: date
    end: date
    last_start: date
    last_end: date
    #: Lines per table, per game and the venue's total: key, label, game, then the
    #: figures of this year (``drop``, ``win_by_count``, ``win_drop_pct``, ``open_days``)
    #: and last year's (``last_`` before each name).
    tables: list[dict[str, Any]]
    games: list[dict[str, Any]]
    total: dict[str, Any]


@dataclass(frozen=True)
class StatisticalReport:
    venue: Venue
    day: date
    spans: list[Span]


def _beside(current: dict[str, Any], last: dict[str, Any]) -> dict[str, Any]:
    return {**current, **{f"last_{name}": value for name, value in last.items()}}


def game_of(days: list[TableDay]) -> dict[int, tuple[str, str]]:
    """Each table's game as the report's lines per game are of: (code, name), the name
    that its game gives the table (``GameReports.game_names``: blackjack, roulette...) or
    else the game's label."""
    tables: dict[str, set[int]] = {}
    for day in days:
        tables.setdefault(day.game, set()).add(day.table_id)
    found = {}
    for code, ids in tables.items():
        try:
            reports = games.get(code).reports
        except LookupError:  # a game no longer installed
            names = {}
        else:
            names = reports.game_names(sorted(ids))
        for table_id in ids:
            name = names.get(table_id) or game_label(code)
            found[table_id] = (f"{code}:{name}" if table_id in names else code, name)
    return found


def _span(kind: str, day: date, days: list[TableDay], named: dict[int, tuple[str, str]]) -> Span:
    start, end = span_of(kind, day)
    last_start, last_end = last_year(start, end)
    now = [d for d in days if start <= d.gaming_date <= end]
    then = [d for d in days if last_start <= d.gaming_date <= last_end]
    empty = summed([])
    tables_now = lines_by(now, lambda d: (d.table_code, d.table_id))
    tables_then = lines_by(then, lambda d: (d.table_code, d.table_id))
    tables = [
        {
            "key": code,
            "label": code,
            "game": named[table_id][1],
            **_beside(
                tables_now.get((code, table_id), empty), tables_then.get((code, table_id), empty)
            ),
        }
        for code, table_id in sorted(tables_now.keys() | tables_then.keys())
    ]
    games_now = lines_by(now, lambda d: named[d.table_id])
    games_then = lines_by(then, lambda d: named[d.table_id])
    game_lines = [
        {
            "key": key,
            "label": name,
            "game": name,
            **_beside(games_now.get((key, name), empty), games_then.get((key, name), empty)),
        }
        for key, name in sorted(games_now.keys() | games_then.keys())
    ]
    return Span(
        kind=kind,
        label=SPANS[kind],
        start=start,
        end=end,
        last_start=last_start,
        last_end=last_end,
        tables=tables,
        games=game_lines,
        total={"key": "", "label": "", "game": "", **_beside(summed(now), summed(then))},
    )


def statistical_report(*, venue: Venue, day: date) -> StatisticalReport:
    """The venue's statistical report for the gaming date ``day`` (a pure read, from the
    replica if there is one): the year to date and last year's same dates hold every
    other span, so their table-days are read once."""
    year_start, year_end = span_of(YEAR, day)
    with replica_reads():
        days = table_days(
            venue=venue, ranges=[(year_start, year_end), last_year(year_start, year_end)]
        )
        named = game_of(days)
        spans = [_span(kind, day, days, named) for kind in SPANS]
    return StatisticalReport(venue=venue, day=day, spans=spans)
