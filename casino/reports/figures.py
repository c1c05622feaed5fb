"""Every figure of a shift report (the shift figures), summed by the database.

The report's cells (``ShiftReportCell``) are a copy of the shift's tallies
(casino.floor.services.tallies: the settled bets summed per table session, UTC hour, player,
ruleset version and bet type as each round settled), so a report never reads the shift's
bets one by one. Each section of the report (tables, dealers, games, bet types, hours,
players) is then a GROUP BY over those few cells; rounds are counted on the rounds
themselves, in one GROUP BY, since one round spans several cells; player ratings come from
the seat tallies. Python only divides sums (hold %) and writes them as strings.

- Each figure is defined once, in ``casino.floor.figures``. House win = what the players lost
  = -(sum of the bets' net, the players' view). The commission is inside the net; it is
  also shown on its own. The total is the settled bets': a rated table's win (by its
  count) is shown on its own line (``rated_total``), not added to it.
- Voided rounds are not settled rounds: their bets are in no cell, count in no handle or
  win, and are listed under voids with who asked for the void and who approved it.
- Theoretical win = stake x house edge of the bet type under the ruleset version the
  round was played with (the version's stored figures). A version without figures gives
  no theoretical win: its stakes are "unrated" and the figure reads n/a, naming the
  version. In a fee game players play each other: the house's expected win is the fee it
  takes, so a fee game's theoretical win is its fee and its variance is zero.
- The fluctuation test: house win ~ theoretical win +- 1.96 x SD, where the variance is
  the sum over bets of stake^2 x SD^2 (SD per unit staked from the version's figures).
  Bets are taken as independent (boxes of one round share the dealer's hand, which
  makes the true spread a little wider, so the test errs on the side of flagging).

The work is split by concern: ``cells`` (the tallies copied and rated), ``sections`` (the
performance sections), ``listings`` (payouts, voids, the count) and ``kinds`` (which games
the house banks and which take a fee, and their labels).
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from casino.floor.kinds import fee_games
from casino.floor.lines import figure_line
from casino.kernel.replicas import PRIMARY, replica_reads
from casino.reports.cells import aware, cells_build, cells_rate, sums_transaction, version_rates
from casino.reports.listings import section_payouts, section_sessions, section_voids
from casino.reports.models import ShiftReport, ShiftReportCell
from casino.reports.sections import (
    RoundCounts,
    cell_sums,
    player_order,
    section_bet_types,
    section_dealers,
    section_fee_games,
    section_games,
    section_hours,
    section_players,
    section_rated_games,
    section_tables,
    sums_added,
)
from casino.rulesets.rates import VersionRates
from casino.venues.models import Shift

#: Version of the figures' layout, for readers of stored figures.
#: 2: notes stored as {"kind", "ruleset", "bet_types"} and worded when shown (1: English text).
#: 3: each player's line has its ``actual_win`` (``casino.floor.figures.actual_win``).
LAYOUT = 3

Progress = Callable[[int, str], None]


def shift_figures(report: ShiftReport, *, progress: Progress | None = None) -> dict[str, Any]:
    """Build the report's cells and return all its figures (JSON-ready: strings, not
    decimals). The same rows give the same figures: nothing here depends on when it runs.
    Each step's sums run in transactions of their own (``sums_transaction``), and the
    progress between them is committed, for the page to poll."""
    with replica_reads(caught_up=True):
        return _shift_figures(report, progress or (lambda _percent, _step: None))


def _shift_figures(report: ShiftReport, step: Progress) -> dict[str, Any]:
    shift = Shift.objects.select_related("venue").get(pk=report.shift_id)
    tz = zoneinfo.ZoneInfo(shift.venue.timezone)
    fee = fee_games()

    step(5, gettext_noop("summing the shift's bets"))
    with sums_transaction():
        cells_build(report, shift)
    step(35, gettext_noop("applying each ruleset version's house edge"))
    with sums_transaction():
        rates = version_rates(report)
        cells_rate(report, rates, fee)
    # Just written: read on the primary (the replica has not replayed them yet).
    cells = ShiftReportCell.objects.using(PRIMARY).filter(report=report)

    step(40, gettext_noop("tables, dealers and games"))
    with sums_transaction():
        rounds = RoundCounts.of(shift)
        # The tables of games that deal no rounds: win by the count, theoretical by ratings.
        rated = section_rated_games(shift)
        # The house win of settled bets (``casino.floor.figures``): the rated tables' win, by
        # their count, is not a settled bet's and stands on its own line, as in the dealers
        # and hours.
        total = figure_line(cells.aggregate(**cell_sums()), rounds=rounds.total())
        rated_total = (
            figure_line(
                sums_added(*rated["game_sums"]),
                rounds=sum(line["rounds"] or 0 for line in rated["games"]),
            )
            if rated["game_sums"]
            else None
        )
        tables = section_tables(cells, rounds)
        dealers = section_dealers(cells, rounds)
        games_ = section_games(cells, rounds)
    step(50, gettext_noop("bet types and hours"))
    with sums_transaction():
        bet_types = section_bet_types(cells)
        hours = section_hours(cells, rounds, tz)
    step(60, gettext_noop("player ratings"))
    with sums_transaction():
        players = section_players(cells, shift, fee)
        anonymous = figure_line(cells.filter(player__isnull=True).aggregate(**cell_sums()))
    tables = sorted(tables + rated["tables"], key=lambda line: line["key"])
    games_ += rated["games"]
    players = sorted(players + rated["players"], key=player_order)
    step(65, gettext_noop("voids, payouts and the count"))
    with sums_transaction():
        figures = {
            "layout": LAYOUT,
            "shift": _shift_heading(shift, tz),
            "notes": _notes(rates, fee, cells),
            "total": total,
            "rated_total": rated_total,
            "tables": tables,
            "dealers": dealers,
            "games": games_,
            "bet_types": bet_types,
            "hours": hours,
            "players": players,
            "anonymous": anonymous,
            "fee_games": section_fee_games(cells, rounds, fee),
            "payouts": section_payouts(cells, shift),
            "voids": section_voids(shift),
            "count": section_sessions(shift),
        }
    return jsonable(figures, tz)


def _shift_heading(shift: Shift, tz: zoneinfo.ZoneInfo) -> dict[str, Any]:
    venue = shift.venue
    return {
        "id": shift.pk,
        "venue": venue.code,
        "venue_name": venue.name,
        "currency": venue.currency,
        "grouping": venue.amount_grouping,
        "timezone": venue.timezone,
        # the language its filed copies were written in (the venue's when built)
        "language": venue.language,
        "gaming_date": shift.gaming_date.isoformat(),
        "name": shift.name,
        "starts_at": shift.starts_at.astimezone(tz).isoformat(),
        "ends_at": shift.ends_at.astimezone(tz).isoformat(),
    }


#: A theoretical figure's note: the ruleset version has no house edge for a bet type.
NO_EDGE = "no_edge"
#: A fluctuation range's note: the ruleset version has no SD for a bet type.
NO_SD = "no_sd"


def _notes(rates: list[VersionRates], fee: frozenset[str], cells: QuerySet) -> list[dict[str, Any]]:
    """Why a theoretical figure reads n/a: the versions whose figures are missing, as
    ``{"kind": NO_EDGE or NO_SD, "ruleset": label, "bet_types": [...]}``; ``note_text``
    words one in the language in force when it is shown."""
    played = set(cells.values_list("game", "ruleset_version_id", "bet_type").distinct())
    notes: list[dict[str, Any]] = []
    for rate in rates:
        if rate.game in fee:
            continue
        missing = sorted(
            b
            for g, v, b in played
            if (g, v) == (rate.game, rate.version_id) and b not in rate.edges
        )
        if missing:
            notes.append({"kind": NO_EDGE, "ruleset": rate.label, "bet_types": missing})
        no_sd = sorted(
            b
            for g, v, b in played
            if (g, v) == (rate.game, rate.version_id) and b in rate.edges and b not in rate.sds
        )
        if no_sd:
            notes.append({"kind": NO_SD, "ruleset": rate.label, "bet_types": no_sd})
    return notes


def note_text(note: dict[str, Any] | str) -> str:
    """A note in the active language; a report built before notes were stored so keeps
    its English text."""
    if isinstance(note, str):
        return note
    values = {"ruleset": note.get("ruleset", ""), "bet_types": ", ".join(note.get("bet_types", []))}
    if note.get("kind") == NO_SD:
        return (
            _(
                "n/a (SD not computed for ruleset %(ruleset)s): no fluctuation range for "
                "%(bet_types)s bets"
            )
            % values
        )
    return (
        _(
            "n/a (house edge not computed for ruleset %(ruleset)s): theoretical win is "
            "unavailable for %(bet_types)s bets"
        )
        % values
    )


def theoretical_note(figures: dict[str, Any]) -> str:
    """The text shown in place of a theoretical figure that is unavailable."""
    for note in figures.get("notes", []):
        if isinstance(note, str):
            if note.startswith("n/a (house edge"):
                return note.split(":", 1)[0]
        elif note.get("kind") == NO_EDGE:
            return _("n/a (house edge not computed for ruleset %(ruleset)s)") % {
                "ruleset": note.get("ruleset", "")
            }
    return _("n/a")


def jsonable(value: Any, tz: Any) -> Any:
    """Decimals as strings, datetimes as ISO text in the venue's time zone."""
    if isinstance(value, dict):
        return {k: jsonable(v, tz) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v, tz) for v in value]
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        return aware(value).astimezone(tz).isoformat()
    return value
