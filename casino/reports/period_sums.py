"""A period's roll-up: the tallies of a venue summed per group in one ``GROUP BY``, each group
rated as a shift report rates its cells (``Rater``), the groups added up into lines, and a
line set beside the previous period's (``compared``). ``casino.reports.periods`` (the
periods and their dimensions) and ``casino.reports.trends`` (the monthly lines) read their
figures through it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet, Sum
from django.utils.translation import gettext

from casino.floor import figures
from casino.floor.figures import pct
from casino.floor.kinds import fee_games
from casino.floor.lines import ZERO, figure_line
from casino.floor.models import BetTally
from casino.kernel.plans import custom_plans
from casino.rulesets.rates import VersionRates, rates_of
from casino.venues.models import Venue

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


def tallies_in(venue: Venue, ranges: Iterable[tuple[date, date]]) -> QuerySet[BetTally]:
    """The venue's tallies with bets left in them, in any of the ranges of gaming dates
    (read through their shift, whose gaming date they carry)."""
    return venues_tallies_in([venue], ranges)


def venues_tallies_in(
    venues: Iterable[Venue], ranges: Iterable[tuple[date, date]]
) -> QuerySet[BetTally]:
    """``tallies_in`` of several venues at once (an operating group's), in one queryset."""
    dates = Q()
    for start, end in ranges:
        dates |= Q(shift__gaming_date__range=(start, end))
    return BetTally.objects.filter(dates, venue__in=list(venues), bets__gt=0)


def grouped(tallies: QuerySet, bucket: Any, columns: Sequence[str]) -> list[dict[str, Any]]:
    """The tallies summed per ``bucket`` (a period, a month), ``columns`` and what a group is
    rated by, in one ``GROUP BY``, planned for its own range (``casino.kernel.plans``)."""
    keys = list(dict.fromkeys([*columns, *RATED_BY]))
    query = tallies.annotate(bucket=bucket).values("bucket", *keys).annotate(**TALLY_SUMS)
    with custom_plans(query.db):  # never a prepared statement's generic plan
        return list(query.order_by())


def empty_sums() -> dict[str, Any]:
    """A line's sums before any group is added (``Rater.add``)."""
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


def line_of(sums: dict[str, Any]) -> dict[str, Any]:
    """The line of figures of ``sums`` (``sections.figure_line``), without rounds."""
    line = figure_line(sums)
    line.pop("rounds")  # a tally cannot count rounds (casino.reports.periods' docstring)
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
