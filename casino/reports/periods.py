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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Case, DateField, Q, QuerySet, Sum, Value, When
from django.db.models.functions import Cast, TruncMonth
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from casino.floor import figures
from casino.floor.kinds import accounting_games, bet_type_label, fee_games, game_label
from casino.floor.lines import ZERO, figure_line, pct
from casino.floor.models import BetTally
from casino.kernel.replicas import replica_reads
from casino.players.models import Player
from casino.reports import by_count
from casino.rulesets.rates import VersionRates, rates_of
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
TREND_MONTHS = 12
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

# Sums and rates

#: The columns a group is rated by: a version's house edge and SD are per bet type.
RATED_BY = ("game", "ruleset_version_id", "bet_type")
#: What each group sums (``s_`` names: a sum may not be named like the field it sums).
TALLY_SUMS = {
    "s_bets": Sum("bets"),
    "s_handle": Sum("handle"),
    "s_stake_squared": Sum("stake_squared"),
    "s_player_result": Sum("player_result"),
    "s_commission": Sum("commission"),
    "s_volume": Sum("volume"),
}


def _tallies(venue: Venue, ranges: Iterable[tuple[date, date]]) -> QuerySet[BetTally]:
    """The venue's tallies with bets left in them, in any of the ranges of gaming dates
    (read through their shift, whose gaming date they carry)."""
    dates = Q()
    for start, end in ranges:
        dates |= Q(shift__gaming_date__range=(start, end))
    return BetTally.objects.filter(dates, venue=venue, bets__gt=0)


def _grouped(tallies: QuerySet, bucket: Any, columns: Sequence[str]) -> list[dict[str, Any]]:
    keys = list(dict.fromkeys([*columns, *RATED_BY]))
    return list(
        tallies.annotate(bucket=bucket).values("bucket", *keys).annotate(**TALLY_SUMS).order_by()
    )


def _empty() -> dict[str, Any]:
    return {
        "t_bets": 0,
        "t_handle": ZERO,
        "t_player_result": ZERO,
        "t_commission": ZERO,
        "t_volume": ZERO,
        "t_theoretical_win": None,
        "t_unrated_handle": ZERO,
        "t_win_variance": None,
        "t_unvaried_handle": ZERO,
    }


class Rater:
    """Theoretical win and win variance of a group of tallies, as ``cells.cells_rate``
    gives a cell's: stake x house edge and stake^2 x SD^2 of the bet type under the
    version; a fee game's fee and 0; nothing for a version without figures."""

    def __init__(self, rows: Iterable[dict[str, Any]]) -> None:
        used = sorted({(row["game"], row["ruleset_version_id"]) for row in rows})
        self.rates: dict[tuple[str, int], VersionRates] = {
            (rate.game, rate.version_id): rate for rate in rates_of(used)
        }
        self.fee = fee_games()
        self.unrated: dict[str, set[str]] = {}

    def add(self, sums: dict[str, Any], row: dict[str, Any]) -> None:
        """Add the group ``row`` to the line's ``sums`` (``sections.cell_sums`` names)."""
        handle = row["s_handle"] or ZERO
        sums["t_bets"] += row["s_bets"] or 0
        sums["t_handle"] += handle
        sums["t_player_result"] += row["s_player_result"] or ZERO
        sums["t_commission"] += row["s_commission"] or ZERO
        sums["t_volume"] += row["s_volume"] or ZERO
        theoretical, variance = self.rate(row)
        if theoretical is None:
            sums["t_unrated_handle"] += handle
        else:
            sums["t_theoretical_win"] = (sums["t_theoretical_win"] or ZERO) + theoretical
        if variance is None:
            sums["t_unvaried_handle"] += handle
        else:
            sums["t_win_variance"] = (sums["t_win_variance"] or ZERO) + variance

    def rate(self, row: dict[str, Any]) -> tuple[Decimal | None, Decimal | None]:
        game, bet_type = row["game"], row["bet_type"]
        if game in self.fee:
            return row["s_commission"] or ZERO, ZERO
        rate = self.rates.get((game, row["ruleset_version_id"]))
        edge = rate.edges.get(bet_type) if rate else None
        if edge is None:
            label = rate.label if rate else f"{game} #{row['ruleset_version_id']}"
            self.unrated.setdefault(label, set()).add(bet_type)
            return None, None
        sd = rate.sds.get(bet_type)
        handle = row["s_handle"] or ZERO
        variance = (row["s_stake_squared"] or ZERO) * sd * sd if sd is not None else None
        return figures.theoretical_win(handle, edge), variance

    def notes(self) -> list[str]:
        return [
            gettext(
                "n/a: no house edge for ruleset %(version)s (%(bets)s bets), "
                "so no theoretical win where it was played"
            )
            % {"version": label, "bets": ", ".join(sorted(bets))}
            for label, bets in sorted(self.unrated.items())
        ]


def _line(sums: dict[str, Any]) -> dict[str, Any]:
    line = figure_line(sums)
    line.pop("rounds")  # a tally cannot count rounds (module docstring)
    return line


def compared(current: dict[str, Any], previous: dict[str, Any]) -> dict[str, Any]:
    """The current line with the previous period's handle, house win and hold, and the
    differences: amounts and percent of the previous amount, hold in points."""
    handle_change = current["handle"] - previous["handle"]
    win_change = current["house_win"] - previous["house_win"]
    hold, previous_hold = current["hold_pct"], previous["hold_pct"]
    return {
        **current,
        "previous_handle": previous["handle"],
        "previous_house_win": previous["house_win"],
        "previous_hold_pct": previous_hold,
        "handle_change": handle_change,
        "handle_change_pct": pct(handle_change, abs(previous["handle"])),
        "house_win_change": win_change,
        "house_win_change_pct": pct(win_change, abs(previous["house_win"])),
        "hold_change_pts": hold - previous_hold
        if hold is not None and previous_hold is not None
        else None,
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
        tallies = _tallies(
            venue, [(period.start, period.end), (period.previous_start, period.previous_end)]
        )
        bucket = Case(
            When(shift__gaming_date__gte=period.start, then=Value(CURRENT)),
            default=Value(PREVIOUS),
        )
        rows = _grouped(tallies, bucket, dim.columns)
        rater = Rater(rows)
        sums: dict[tuple[str, tuple], dict[str, Any]] = {}
        totals = {CURRENT: _empty(), PREVIOUS: _empty()}
        for row in rows:
            key = tuple(row[column] for column in dim.columns)
            rater.add(sums.setdefault((row["bucket"], key), _empty()), row)
            rater.add(totals[row["bucket"]], row)
        keys = sorted({key for _bucket, key in sums}, key=_sortable)
        described = dim.describe(venue, keys)
    empty = _line(_empty())
    lines = []
    for key in keys:
        current = _line(sums[(CURRENT, key)]) if (CURRENT, key) in sums else empty
        previous = _line(sums[(PREVIOUS, key)]) if (PREVIOUS, key) in sums else empty
        shown, label = described[key]
        lines.append({"key": shown, "label": label, **compared(current, previous)})
    if dim.by_handle:
        lines.sort(key=lambda line: (-line["handle"], line["key"]))
    else:
        lines.sort(key=lambda line: (line["key"], line["label"]))
    total = {
        "key": venue.code,
        "label": gettext("Total"),
        **compared(_line(totals[CURRENT]), _line(totals[PREVIOUS])),
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


def _sortable(key: tuple) -> tuple:
    return tuple((value is None, "" if value is None else str(value)) for value in key)


# Trend


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
        tallies = _tallies(venue, [(months[0], day)])
        if table_id is not None:
            tallies = tallies.filter(table_id=table_id)
        if game is not None:
            tallies = tallies.filter(game=game)
        month = Cast(TruncMonth("shift__gaming_date"), output_field=DateField())
        rows = _grouped(tallies, month, ())
        rater = Rater(rows)
        sums: dict[date, dict[str, Any]] = {}
        for row in rows:
            rater.add(sums.setdefault(_as_date(row["bucket"]), _empty()), row)
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
            **_line(sums.get(first) or _empty()),
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


__all__ = [
    "DIMENSIONS",
    "KINDS",
    "Period",
    "PeriodFigures",
    "accounting_figures",
    "compared",
    "period_figures",
    "period_of",
    "trend",
    "trend_of",
]
