"""A venue's trend: monthly lines of the last 12 months up to a gaming date, of one table,
one game or the whole venue, read from the tallies as a period's lines are
(``casino.reports.period_sums``), the accounting-only tables' count beside them."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db.models import DateField
from django.db.models.functions import Cast, TruncMonth
from django.utils.translation import gettext

from casino.floor.kinds import accounting_games, game_label
from casino.kernel.replicas import replica_reads
from casino.reports import by_count
from casino.reports.period_sums import Rater, empty_sums, grouped, line_of, tallies_in
from casino.venues.models import Table, Venue

TREND_MONTHS = 12


def trend_months(day: date, months: int = TREND_MONTHS) -> list[date]:
    """The first days of the ``months`` months ending with ``day``'s."""
    first = day.replace(day=1)
    out = []
    for _n in range(months):
        out.append(first)
        first = (first - timedelta(days=1)).replace(day=1)
    return out[::-1]


def trend(
    *, venue: Venue, day: date, table_id: int | None = None, game: str | None = None
) -> list[dict[str, Any]]:
    """Monthly lines of the last 12 months up to ``day`` (the last month to that date),
    of one table, one game or the whole venue; a month without play reads zero. Each
    line has the accounting-only tables' drop and win by count beside (``accounting_``)."""
    months = trend_months(day)
    with replica_reads():
        tallies = tallies_in(venue, [(months[0], day)])
        if table_id is not None:
            tallies = tallies.filter(table_id=table_id)
        if game is not None:
            tallies = tallies.filter(game=game)
        month = Cast(TruncMonth("shift__gaming_date"), output_field=DateField())
        rows = grouped(tallies, month, ())
        rater = Rater(rows)
        sums: dict[date, dict[str, Any]] = {}
        for row in rows:
            rater.add(sums.setdefault(_as_date(row["bucket"]), empty_sums()), row)
        accounting = accounting_games() & ({game} if game is not None else accounting_games())
        days = by_count.table_days(
            venue=venue, ranges=[(months[0], day)], games=accounting, table_id=table_id
        )
        counted = by_count.lines_by(days, lambda table_day: table_day.gaming_date.replace(day=1))
    empty = by_count.summed([])
    return [
        {
            "key": f"{first:%Y-%m}",
            "month": first,
            **line_of(sums.get(first) or empty_sums()),
            # the accounting-only tables, beside the settled bets, never added to them
            "accounting_drop": counted.get(first, empty)["drop"],
            "accounting_win_by_count": counted.get(first, empty)["win_by_count"],
        }
        for first in months
    ]


def _as_date(value: Any) -> date:
    return value.date() if hasattr(value, "date") and callable(value.date) else value


def trend_choices(venue: Venue) -> list[tuple[str, str]]:
    """The page's trend choices: "" (the venue), "table:<code>" or "game:<code>"."""
    tables = Table.objects.filter(venue=venue)
    with replica_reads():
        codes = list(tables.order_by("code").values_list("code", flat=True))
        games_played = list(tables.order_by("game").values_list("game", flat=True).distinct())
    choices = [("", gettext("The whole venue"))]
    for code in codes:
        choices.append((f"table:{code}", gettext("Table %(code)s") % {"code": code}))
    for code in games_played:
        choices.append((f"game:{code}", gettext("Game: %(game)s") % {"game": game_label(code)}))
    return choices


def trend_of(venue: Venue, choice: str, day: date) -> list[dict[str, Any]]:
    """The trend the page's choice names (an unknown table or game: the venue's)."""
    kind, _colon, code = choice.partition(":")
    if kind == "table":
        with replica_reads():
            table = Table.objects.filter(venue=venue, code=code).values_list("pk", flat=True)
            table_id = table.first()
        if table_id is not None:
            return trend(venue=venue, day=day, table_id=table_id)
    if kind == "game" and code:
        return trend(venue=venue, day=day, game=code)
    return trend(venue=venue, day=day)
