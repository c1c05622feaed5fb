"""Management report periods: a venue's figures over a gaming day, a week, a month or a
year to date, or any range of gaming dates, by dimension, beside the previous period; and
a trend of monthly lines.

Everything is read from the tallies (``BetTally``: the settled bets summed per table
session, hour, player, ruleset version and bet type as rounds settle, each with its
shift and so its gaming date), never from the bets. One ``GROUP BY`` per request sums the
tallies of both periods per (period, dimension, game, ruleset version, bet type); Python
then rates each group as a shift report rates its cells (``cells.rates_of``: the house
edge and SD of each bet type of the version; a fee game's theoretical win is its fee,
its variance 0) and rolls the groups up into lines that ``sections.figure_line`` writes
(hold, theoretical, actual - theoretical, the 95% range, flagged).

Rounds are not counted: one round spans several tallies (a tally per box's player and bet
type), so a sum of tallies cannot count rounds, and counting them would read every round
of the period. The lines give bets instead (one per box and bet type).

The previous period of each kind:

- gaming day: the day before;
- week (Monday to the date): the previous week's same days;
- month to date: the previous month's 1st to the same day number, clamped to that
  month's length (31 March compares with 1-28 February, 1-29 in a leap year);
- year to date: the same span last year (29 February clamped to the 28th);
- a range of gaming dates: the range of equal length just before it.

An operating group converts each venue's figures gaming day by gaming day, at that day's
rate (``casino.group``): ``daily_lines`` gives the same sums per gaming date (the tallies'
lines and the count's, by the same functions), never summed a second way.

The roll-up (summing, rating, a line beside the previous one) is
``casino.reports.period_sums``'; the monthly trend, ``casino.reports.trends``.

Dimensions are a table (``DIMENSIONS``): each names the tally columns it groups by and how
its keys are labelled, so a pit is one more entry.

The tables kept for their accounting only deal no round, so they have no tally: their
figures are the count's (``casino.reports.by_count``: drop, win by count, win/drop %),
given on lines of their own (``PeriodFigures.accounting``, and the trend's ``accounting_``
figures), never added to the house win of settled bets. They are per table, pit or game;
a dealer, a player or a bet type has no win by count, so by those they are the venue's.
"""

from __future__ import annotations

import calendar
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Case, F, Value, When
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from casino.floor.figures import pct
from casino.floor.kinds import accounting_games, bet_type_label, game_label
from casino.kernel.replicas import replica_reads
from casino.players.models import Player
from casino.reports import by_count
from casino.reports.period_sums import (
    Rater,
    compared,
    empty_sums,
    grouped,
    line_of,
    tallies_in,
    venues_tallies_in,
)
from casino.venues.models import Pit, Table, Venue

DAY, WEEK, MONTH, YEAR, RANGE = "day", "week", "mtd", "ytd", "range"
KINDS: dict[str, Promise] = {
    DAY: _("Gaming day"),
    WEEK: _("Week to date"),
    MONTH: _("Month to date"),
    YEAR: _("Year to date"),
    RANGE: _("Range of gaming dates"),
}
#: The longest range of gaming dates one request sums (and a year to date is shorter).
MAX_DAYS = 366
CURRENT, PREVIOUS = "current", "previous"


@dataclass(frozen=True)
class Period:
    """A period of gaming dates (both ends included) and the one it is compared with."""

    kind: str
    start: date
    end: date
    previous_start: date
    previous_end: date

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


def _clamped(year: int, month: int, day: int) -> date:
    return date(year, month, min(day, calendar.monthrange(year, month)[1]))


def period_of(kind: str, day: date, end: date | None = None) -> Period:
    """The period of ``kind`` for the gaming date ``day`` (a range: ``day`` to ``end``).

    >>> period_of("mtd", date(2024, 3, 31))
    Period(kind='mtd', start=datetime.date(2024, 3, 1), end=datetime.date(2024, 3, 31), \
previous_start=datetime.date(2024, 2, 1), previous_end=datetime.date(2024, 2, 29))
    """
    if kind == DAY:
        before = day - timedelta(days=1)
        return Period(kind, day, day, before, before)
    if kind == WEEK:
        monday = day - timedelta(days=day.weekday())
        return Period(kind, monday, day, monday - timedelta(days=7), day - timedelta(days=7))
    if kind == MONTH:
        first = day.replace(day=1)
        last_month = first - timedelta(days=1)
        return Period(
            kind,
            first,
            day,
            last_month.replace(day=1),
            _clamped(last_month.year, last_month.month, day.day),
        )
    if kind == YEAR:
        return Period(
            kind,
            date(day.year, 1, 1),
            day,
            date(day.year - 1, 1, 1),
            _clamped(day.year - 1, day.month, day.day),
        )
    if kind == RANGE:
        end = end or day
        start, end = min(day, end), max(day, end)
        length = end - start + timedelta(days=1)
        return Period(kind, start, end, start - length, start - timedelta(days=1))
    raise ValueError(f"{kind!r} is not a period: one of {', '.join(KINDS)}")


# Dimensions

#: A dimension's keys -> (key shown, label) for the venue.
Describe = Callable[[Venue, Sequence[tuple]], dict[tuple, tuple[str, str]]]


@dataclass(frozen=True)
class Dimension:
    """What a period's lines are per: the tally columns grouped by and their labels."""

    code: str
    label: Promise
    columns: tuple[str, ...]
    describe: Describe
    #: Lines in order of the key shown, or of handle (largest first).
    by_handle: bool = False


def _venue_total(venue: Venue, keys: Sequence[tuple]) -> dict[tuple, tuple[str, str]]:
    return {key: (venue.code, venue.name) for key in keys}


def _tables(venue: Venue, keys: Sequence[tuple]) -> dict[tuple, tuple[str, str]]:
    codes = dict(Table.objects.filter(pk__in=[k[0] for k in keys]).values_list("pk", "code"))
    return {key: (codes.get(key[0], f"#{key[0]}"),) * 2 for key in keys}


def _pits(venue: Venue, keys: Sequence[tuple]) -> dict[tuple, tuple[str, str]]:
    pits = {
        pk: (code, name)
        for pk, code, name in Pit.objects.filter(
            pk__in=[k[0] for k in keys if k[0] is not None]
        ).values_list("pk", "code", "name")
    }
    outside = ("", gettext("Tables in no pit"))
    return {key: pits.get(key[0], outside) for key in keys}


def _games(venue: Venue, keys: Sequence[tuple]) -> dict[tuple, tuple[str, str]]:
    return {key: (key[0], game_label(key[0])) for key in keys}


def _bet_types(venue: Venue, keys: Sequence[tuple]) -> dict[tuple, tuple[str, str]]:
    return {key: (f"{key[0]}:{key[1]}", bet_type_label(key[0], key[1])) for key in keys}


def _dealers(venue: Venue, keys: Sequence[tuple]) -> dict[tuple, tuple[str, str]]:
    users = {
        pk: (username, " ".join(filter(None, [first, last])) or username)
        for pk, username, first, last in get_user_model()
        .objects.filter(pk__in=[k[0] for k in keys])
        .values_list("pk", "username", "first_name", "last_name")
    }
    return {key: users.get(key[0], (f"#{key[0]}",) * 2) for key in keys}


def _players(venue: Venue, keys: Sequence[tuple]) -> dict[tuple, tuple[str, str]]:
    members = {
        pk: (number, name)
        for pk, number, name in Player.objects.filter(
            pk__in=[k[0] for k in keys if k[0] is not None]
        ).values_list("pk", "membership_number", "name")
    }
    anonymous = ("", gettext("Anonymous boxes"))
    return {key: members.get(key[0], anonymous) if key[0] else anonymous for key in keys}


DIMENSIONS: dict[str, Dimension] = {
    d.code: d
    for d in [
        Dimension("venue", _("Venue total"), (), _venue_total),
        Dimension("table", _("Table"), ("table_id",), _tables),
        # By the pit each table stands in now: moving a table moves its history with it.
        Dimension("pit", _("Pit"), ("table__pit_id",), _pits),
        Dimension("game", _("Game"), ("game",), _games),
        Dimension("bet_type", _("Bet type"), ("game", "bet_type"), _bet_types),
        Dimension("dealer", pgettext_lazy("staff role", "Dealer"), ("dealer_id",), _dealers),
        Dimension("player", _("Player"), ("player_id",), _players, by_handle=True),
    ]
}


@dataclass(frozen=True)
class PeriodFigures:
    venue: Venue
    period: Period
    dimension: Dimension
    total: dict[str, Any]
    lines: list[dict[str, Any]]
    notes: list[str]
    #: The accounting-only tables' lines (``accounting_figures``) and their total.
    accounting: list[dict[str, Any]] = field(default_factory=list)
    accounting_total: dict[str, Any] = field(default_factory=dict)


def period_figures(*, venue: Venue, period: Period, dimension: str = "venue") -> PeriodFigures:
    """The venue's lines per ``dimension`` over the period, each beside the previous
    period's, and the venue's total line (a pure read, from the replica if there is one)."""
    dim = DIMENSIONS[dimension]
    with replica_reads():
        tallies = tallies_in(
            venue, [(period.start, period.end), (period.previous_start, period.previous_end)]
        )
        bucket = Case(
            When(shift__gaming_date__gte=period.start, then=Value(CURRENT)),
            default=Value(PREVIOUS),
        )
        rows = grouped(tallies, bucket, dim.columns)
        rater = Rater(rows)
        sums: dict[tuple[str, tuple], dict[str, Any]] = {}
        totals = {CURRENT: empty_sums(), PREVIOUS: empty_sums()}
        for row in rows:
            key = tuple(row[column] for column in dim.columns)
            rater.add(sums.setdefault((row["bucket"], key), empty_sums()), row)
            rater.add(totals[row["bucket"]], row)
        keys = sorted({key for _bucket, key in sums}, key=_sortable)
        described = dim.describe(venue, keys)
    empty = line_of(empty_sums())
    lines = []
    for key in keys:
        current = line_of(sums[(CURRENT, key)]) if (CURRENT, key) in sums else empty
        previous = line_of(sums[(PREVIOUS, key)]) if (PREVIOUS, key) in sums else empty
        shown, label = described[key]
        lines.append({"key": shown, "label": label, **compared(current, previous)})
    if dim.by_handle:
        lines.sort(key=lambda line: (-line["handle"], line["key"]))
    else:
        lines.sort(key=lambda line: (line["key"], line["label"]))
    total = {
        "key": venue.code,
        "label": gettext("Total"),
        **compared(line_of(totals[CURRENT]), line_of(totals[PREVIOUS])),
    }
    accounting, accounting_total = accounting_figures(
        venue=venue, period=period, dimension=dimension
    )
    return PeriodFigures(
        venue, period, dim, total, lines, rater.notes(), accounting, accounting_total
    )


#: How the count's table-days are grouped by a dimension (the others: the venue's).
COUNT_KEYS: dict[str, Callable[[by_count.TableDay], tuple]] = {
    "table": lambda day: (day.table_id,),
    "pit": lambda day: (day.pit_id,),
    "game": lambda day: (day.game,),
}


def count_compared(current: dict[str, Any], previous: dict[str, Any]) -> dict[str, Any]:
    """A count line (``by_count.summed``) beside the previous period's, and the change of
    its win by count."""
    change = current["win_by_count"] - previous["win_by_count"]
    return {
        **current,
        "previous_drop": previous["drop"],
        "previous_win_by_count": previous["win_by_count"],
        "previous_win_drop_pct": previous["win_drop_pct"],
        "win_by_count_change": change,
        "win_by_count_change_pct": pct(change, abs(previous["win_by_count"])),
    }


def accounting_dimension(dimension: str) -> Dimension:
    """What the accounting-only tables' lines are per when the lines are per ``dimension``:
    the table, pit or game, or by another the venue."""
    return DIMENSIONS[dimension if dimension in COUNT_KEYS else "venue"]


def accounting_figures(
    *, venue: Venue, period: Period, dimension: str = "venue"
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The lines of the venue's accounting-only tables per ``dimension`` (table, pit or
    game; by another, the venue's) over the period beside the previous one, and their
    total: drop, win by count, win/drop % (module docstring)."""
    dim = accounting_dimension(dimension)
    key = COUNT_KEYS.get(dimension, lambda day: ())
    with replica_reads():
        days = by_count.table_days(
            venue=venue,
            ranges=[(period.start, period.end), (period.previous_start, period.previous_end)],
            games=accounting_games(),
        )
        current = [day for day in days if day.gaming_date >= period.start]
        previous = [day for day in days if day.gaming_date < period.start]
        now, before = by_count.lines_by(current, key), by_count.lines_by(previous, key)
        keys = sorted(now.keys() | before.keys(), key=_sortable)
        described = dim.describe(venue, keys)
    empty = by_count.summed([])
    lines = []
    for found in keys:
        shown, label = described[found]
        lines.append(
            {
                "key": shown,
                "label": label,
                **count_compared(now.get(found, empty), before.get(found, empty)),
            }
        )
    lines.sort(key=lambda line: (line["key"], line["label"]))
    total = {
        "key": venue.code,
        "label": gettext("Total"),
        **count_compared(by_count.summed(current), by_count.summed(previous)),
    }
    return lines, total


def daily_lines(
    *, venue: Venue, start: date, end: date, dimension: str = "venue"
) -> list[dict[str, Any]]:
    """The venue's lines per gaming date from ``start`` to ``end`` and per ``dimension``
    (venue, pit or game): each a line of ``period_figures`` (its handle and house win,
    summed and rated the same way) and of ``accounting_figures`` (the accounting-only
    tables' drop and win by count) for one gaming date, keyed ``gaming_date``, ``key``
    and ``label``; a key with only one of the two has the other's figures at zero."""
    return venues_daily_lines(venues=[venue], start=start, end=end, dimension=dimension)[venue.pk]


def venues_daily_lines(
    *, venues: Sequence[Venue], start: date, end: date, dimension: str = "venue"
) -> dict[int, list[dict[str, Any]]]:
    """``daily_lines`` of each of ``venues``, by the venue's id: the tallies of them all
    summed in one ``GROUP BY`` (per venue, gaming date, dimension and what a group is rated
    by), so an operating group's venues are read in one pass of the tallies, not one each;
    the count's table-days and the labels read per venue."""
    dim = DIMENSIONS[dimension]
    count_key = COUNT_KEYS.get(dimension, lambda day: ())
    answer: dict[int, list[dict[str, Any]]] = {}
    with replica_reads():
        rows = grouped(
            venues_tallies_in(venues, [(start, end)]),
            F("shift__gaming_date"),
            ("venue_id", *dim.columns),
        )
        rater = Rater(rows)
        sums: dict[int, dict[tuple[date, tuple], dict[str, Any]]] = {v.pk: {} for v in venues}
        for row in rows:
            key = tuple(row[column] for column in dim.columns)
            rater.add(sums[row["venue_id"]].setdefault((row["bucket"], key), empty_sums()), row)
        for venue in venues:
            answer[venue.pk] = _daily_lines_of(venue, start, end, dim, count_key, sums[venue.pk])
    return answer


def _daily_lines_of(
    venue: Venue,
    start: date,
    end: date,
    dim: Dimension,
    count_key: Callable[[by_count.TableDay], tuple],
    sums: dict[tuple[date, tuple], dict[str, Any]],
) -> list[dict[str, Any]]:
    """One venue's daily lines: its tallies' ``sums`` per (gaming date, key) beside its
    count's per gaming date, labelled."""
    days = by_count.table_days(venue=venue, ranges=[(start, end)], games=accounting_games())
    per_date: dict[date, list[by_count.TableDay]] = {}
    for day in days:
        per_date.setdefault(day.gaming_date, []).append(day)
    counted = {
        (gaming_date, key): line
        for gaming_date, found in per_date.items()
        for key, line in by_count.lines_by(found, count_key).items()
    }
    keys = sorted({key for _date, key in sums.keys() | counted.keys()}, key=_sortable)
    described = dim.describe(venue, keys)
    empty_count = by_count.summed([])
    lines = []
    for gaming_date, key in sorted(
        sums.keys() | counted.keys(), key=lambda k: (k[0], _sortable(k[1]))
    ):
        bets = line_of(sums.get((gaming_date, key)) or empty_sums())
        count = counted.get((gaming_date, key), empty_count)
        shown, label = described[key]
        lines.append(
            {
                "gaming_date": gaming_date,
                "key": shown,
                "label": label,
                "handle": bets["handle"],
                "house_win": bets["house_win"],
                "drop": count["drop"],
                "win_by_count": count["win_by_count"],
            }
        )
    return lines


def _sortable(key: tuple) -> tuple:
    return tuple((value is None, "" if value is None else str(value)) for value in key)


__all__ = [
    "DIMENSIONS",
    "KINDS",
    "Period",
    "PeriodFigures",
    "accounting_figures",
    "daily_lines",
    "period_figures",
    "period_of",
    "venues_daily_lines",
]
