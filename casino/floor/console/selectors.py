"""What the console reads, scoped to the venues the user works at.

A ``*_for`` returns ``None`` for an object at another venue exactly as for one that does
not exist, so the views answer both with 404. Every read loads the rows it is shown with
(``select_related`` / ``prefetch_related``): a page costs the same few queries however many
boxes or rounds it shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cached_property
from typing import Any

from django.db.models import (
    Count,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from casino import games
from casino.cage.models import Slip, SlipStatus, slip_label
from casino.floor import figures
from casino.floor.models import Bet, Box, Round, RoundStatus, TableSession
from casino.floor.rules import rules_in_force
from casino.floor.selectors import barred_on
from casino.games import BoxInput, RoundResult
from casino.kernel.timezones import venue_today
from casino.players.membership import membership_key
from casino.players.models import Player
from casino.rulesets.models import RulesetVersion
from casino.staff.policy import Capability
from casino.staff.roles import AUDITOR, PLAY, SUPERVISE, can, venue_ids
from casino.venues.limits import Limit, limits_in_force, upcoming_changes
from casino.venues.models import Shift, Table, TableLimitChange, Venue


def console_of(game: str) -> games.GameConsole | None:
    """The round screen a game registers, or ``None`` for a game not installed."""
    try:
        return games.get(game).console
    except LookupError:
        return None


@dataclass(frozen=True)
class TableLine:
    """A table as the console's home lists it: its open session (or None), and whether its
    game is dealt from this console (a round screen is installed for it)."""

    table: Table
    open_session: TableSession | None
    in_console: bool


@dataclass(frozen=True)
class VenueTables:
    venue: Venue
    tables: list[TableLine]
    can_play: bool


@dataclass(frozen=True)
class PitLine:
    """A live session as the pit view lists it (its figures annotated by the query), with
    whether the user deals at its venue and whether its game is dealt from this console."""

    session: TableSession
    can_play: bool
    in_console: bool


def tables_for(*, user: Any) -> list[VenueTables]:
    """The tables at the user's venues, each with its open session (or ``None``)."""
    open_sessions = TableSession.objects.filter(status=TableSession.Status.OPEN).select_related(
        "dealer"
    )
    tables = (
        Table.objects.filter(venue_id__in=venue_ids(user))
        .select_related("venue")
        .prefetch_related(Prefetch("sessions", queryset=open_sessions, to_attr="open_sessions"))
        .order_by("venue__code", "code")
    )
    by_venue: dict[int, VenueTables] = {}
    for table in tables:
        group = by_venue.get(table.venue_id)
        if group is None:
            group = by_venue[table.venue_id] = VenueTables(
                venue=table.venue, tables=[], can_play=can(user, PLAY, table.venue_id)
            )
        group.tables.append(
            TableLine(
                table=table,
                open_session=table.open_sessions[0] if table.open_sessions else None,
                in_console=console_of(table.game) is not None,
            )
        )
    return list(by_venue.values())


#: Who the pit view is for: those who watch the floor rather than deal at one table.
PIT = SUPERVISE | {AUDITOR}
#: Who reads a venue's slip report: its cashiers, supervisors, managers and auditors.
SLIP_REPORT = Capability.READ_SLIP_REPORT.roles


def pit_for(*, user: Any) -> list[PitLine]:
    """The live sessions at the venues where the user watches the floor (a supervisor, a
    manager, an auditor), each with its settled rounds, what the house made in them and its
    slips waiting for the cage (two queries whatever the number of tables)."""
    venues = [venue_id for venue_id in venue_ids(user) if can(user, PIT, venue_id)]
    if not venues:
        return []
    settled = Q(rounds__status=RoundStatus.SETTLED)
    waiting = (
        Slip.objects.filter(
            session=OuterRef("pk"), status__in=[SlipStatus.REQUESTED, SlipStatus.ISSUED]
        )
        .order_by()
        .values("session")
        .annotate(count=Count("pk"))
        .values("count")
    )
    sessions = (
        TableSession.objects.filter(status=TableSession.Status.OPEN, table__venue_id__in=venues)
        .select_related("table__venue", "dealer")
        .annotate(
            rounds_settled=Count("rounds", filter=settled),
            # Win by ledger so far (``casino.floor.figures``), as the floor and the count show it.
            house_so_far=figures.win_by_ledger_of_session(),
            slips_waiting=Coalesce(Subquery(waiting, output_field=IntegerField()), 0),
        )
        .order_by("table__venue__code", "table__code")
    )
    return [
        PitLine(
            session=session,
            can_play=can(user, PLAY, session.table.venue_id),
            in_console=console_of(session.table.game) is not None,
        )
        for session in sessions
    ]


def table_for(*, user: Any, pk: int) -> Table | None:
    return (
        Table.objects.filter(pk=pk, venue_id__in=venue_ids(user))
        .select_related("venue", "ruleset")
        .first()
    )


def open_session_of(table: Table) -> TableSession | None:
    return TableSession.objects.filter(table=table, status=TableSession.Status.OPEN).first()


def session_for(*, user: Any, pk: int) -> TableSession | None:
    return (
        TableSession.objects.filter(pk=pk, table__venue_id__in=venue_ids(user))
        .select_related(
            "table__venue",
            "table__ruleset__venue",
            "dealer",
            "opened_by",
            "opening_confirmed_by",
            "closing_counted_by",
            "closed_by",
        )
        .first()
    )


@dataclass(frozen=True)
class Screen:
    """A table's rules as the round screen needs them: the version in force, bets offered,
    limits, deposits, the boxes the game deals to, and the game's screen."""

    session: TableSession
    console: games.GameConsole
    rules: Any  # the engine's frozen ruleset in force, rounding unit and mode included
    version: RulesetVersion  # the version ``rules`` are of, its ruleset loaded
    bet_types: tuple[str, ...]
    limits: dict[str, Limit]
    deposit_multiples: dict[str, Decimal]
    positions: tuple[int, ...]

    @cached_property
    def upcoming_limits(self) -> tuple[TableLimitChange, ...]:
        """The table's scheduled changes of limits not yet in force, soonest first: read
        when the round screen's head shows them, not by the partials a dealer waits for."""
        return tuple(upcoming_changes([self.table.pk]).get(self.table.pk, ()))

    @property
    def table(self) -> Table:
        return self.session.table

    @property
    def venue(self) -> Venue:
        return self.session.table.venue

    @property
    def rounding_unit(self) -> Decimal:
        return self.rules.rounding_unit


def rules_for(*, session: TableSession) -> Any:
    """The engine's rules in force at the session's table (``casino.floor.rules``)."""
    return rules_in_force(session.table).rules


def screen_for(*, session: TableSession) -> Screen:
    """The rules in force at the session's table and its limits in force (two queries)."""
    table = session.table
    adapter = games.get(table.game)
    in_force = rules_in_force(table)
    rules = in_force.rules
    bet_types = adapter.offered_bet_types(rules)
    limits = limits_in_force([table.pk]).get(table.pk, {})
    console = adapter.console
    return Screen(
        session=session,
        console=console,
        rules=rules,
        version=in_force.version,
        bet_types=bet_types,
        limits=limits,
        deposit_multiples=dict(console.deposit_multiples(rules, bet_types)),
        positions=console.positions(adapter.boxes_dealt(rules, table.seats)),
    )


def settlement_preview(
    *, screen: Screen, dealer_cards: str, boxes: Sequence[BoxInput]
) -> RoundResult:
    """How a round as typed would settle under the rules on the screen; writes nothing.

    ``casino.floor.services.rounds.round_preview`` does the same after loading the session, the
    limits and the rules again; the console has them already (``screen_for``) and has
    checked the limits (with the floor's own ``check_stake``) and players, so it asks the
    game directly and saves those three queries on the request a dealer waits for.
    Confirming goes through the services, which check everything again.
    """
    adapter = games.get(screen.table.game)
    return adapter.evaluate_round(rules=screen.rules, dealer_cards=dealer_cards, boxes=boxes)


def players_by_number(*, venue: Venue, numbers: Iterable[str]) -> dict[str, Player]:
    """Players of the venue by stored membership number (``casino.players.membership``), in
    one query.

    Look a typed number up with ``membership_key``; one that cannot be a membership number
    (a NUL, ``ß``, another script) finds nobody rather than a look-alike's owner.
    """
    wanted = {key for key in map(membership_key, numbers) if key}
    if not wanted:
        return {}
    # ``barred_today``: whether a barring keeps them from play on the venue's date.
    found = Player.objects.filter(venue=venue, membership_number__in=wanted).annotate(
        barred_today=barred_on(venue_today(venue))
    )
    for player in found:
        player.venue = venue  # the eligibility question reads it: no query for it
    return {player.membership_number: player for player in found}


def _rounds_with_boxes() -> QuerySet[Round]:
    return Round.objects.select_related(
        "settled_by", "voided_by", "void_requested_by"
    ).prefetch_related(
        Prefetch("boxes", queryset=Box.objects.select_related("player").order_by("position")),
        Prefetch("boxes__bets", queryset=Bet.objects.order_by("pk")),
    )


def last_round(*, session: TableSession) -> Round | None:
    """The session's latest round with its boxes, players and bets."""
    return _rounds_with_boxes().filter(session=session).order_by("-number").first()


def session_rounds(*, session: TableSession) -> list[Round]:
    """Every round of the session, newest first, with boxes, players and bets (3 queries)."""
    return list(_rounds_with_boxes().filter(session=session).order_by("-number"))


def round_for(*, session: TableSession, pk: int) -> Round | None:
    return _rounds_with_boxes().filter(session=session, pk=pk).first()


_SLIP_PEOPLE = (
    "requested_by",
    "issued_by",
    "dealer_confirmed_by",
    "supervisor_confirmed_by",
    "received_by",
    "verified_by",
    "voided_by",
)


def _slips() -> QuerySet[Slip]:
    # The session's dealer: who may sign a slip's dealer line, named when another may not.
    return Slip.objects.select_related(
        "venue", "session__table", "session__shift", "session__dealer", *_SLIP_PEOPLE
    )


def slip_lines(slip: Slip) -> list[tuple[Decimal, int, Decimal]]:
    """The slip's chips: (denomination, count, amount), the highest first (the templates'
    ``slip|chip_lines``)."""
    lines = [
        (Decimal(value), int(count), Decimal(value) * int(count))
        for value, count in slip.chips.items()
    ]
    return sorted(lines, key=lambda line: line[0], reverse=True)


def session_slips(*, session: TableSession) -> list[Slip]:
    return list(_slips().filter(session=session).order_by("-year", "-number"))


def session_slip_for(*, session: TableSession, pk: int) -> Slip | None:
    """A slip of the session (``None`` for one of another session, or none)."""
    return Slip.objects.filter(session=session, pk=pk).first()


# The cage


def venue_for(*, user: Any, pk: int) -> Venue | None:
    """A venue the user works at (``None`` for another one, or none)."""
    if pk not in venue_ids(user):
        return None
    return Venue.objects.filter(pk=pk).first()


def venues_where(*, user: Any, capability: frozenset[str]) -> list[Venue]:
    """The venues where the user has ``capability``, by code."""
    ids = [venue_id for venue_id in venue_ids(user) if can(user, capability, venue_id)]
    return list(Venue.objects.filter(pk__in=ids).order_by("code"))


def current_gaming_date(*, venue: Venue) -> date | None:
    """The gaming day of the venue's latest shift begun by now (``None`` before its first)."""
    shift = (
        Shift.objects.filter(venue=venue, starts_at__lte=timezone.now())
        .order_by("-starts_at")
        .first()
    )
    return shift.gaming_date if shift is not None else None


@dataclass(frozen=True)
class CageLists:
    """What the cage's screen lists: requests to issue, slips out, the day's finished ones."""

    waiting: list[Slip]
    travelling: list[Slip]
    finished: list[Slip]
    gaming_date: date | None


def cage_lists(*, venue: Venue) -> CageLists:
    """The venue's slips waiting to be issued (oldest first), issued and not yet posted, and
    the current gaming day's posted and voided ones (three queries)."""
    slips = _slips().filter(venue=venue)
    gaming_date = current_gaming_date(venue=venue)
    finished = slips.filter(status__in=[SlipStatus.VERIFIED, SlipStatus.VOID])
    if gaming_date is None:
        finished = finished.none()
    else:
        finished = finished.filter(session__shift__gaming_date=gaming_date)
    return CageLists(
        waiting=list(slips.filter(status=SlipStatus.REQUESTED).order_by("year", "number")),
        travelling=list(slips.filter(status=SlipStatus.ISSUED).order_by("year", "number")),
        finished=list(finished.order_by("-year", "-number")),
        gaming_date=gaming_date,
    )


def cage_slip_for(*, venue: Venue, pk: int) -> Slip | None:
    return Slip.objects.filter(venue=venue, pk=pk).first()


def slip_for(*, user: Any, pk: int) -> Slip | None:
    """A slip at one of the user's venues, with its people."""
    return _slips().filter(venue_id__in=venue_ids(user), pk=pk).first()


# The slip report


@dataclass(frozen=True)
class SlipDay:
    """A gaming day's slips at a venue: every one by number, the numbers missing from the
    day's range and the totals posted."""

    venue: Venue
    gaming_date: date
    slips: list[Slip]
    issued: list[Slip]
    verified: list[Slip]
    voided: list[Slip]
    missing: list[str]
    fills: Decimal
    credits: Decimal


def slip_day(*, venue: Venue, gaming_date: date) -> SlipDay:
    """The slips of the venue's sessions of ``gaming_date`` (by their shift's gaming day).

    Missing numbers: for each year the day's slips are numbered in, every number from the one
    after the highest number stored below the day's first, to the day's last, that no slip
    at the venue holds (a number is allocated only with its slip, so a gap is a slip row
    gone or never written; it is reported on the day after it).
    """
    slips = list(
        _slips()
        .filter(venue=venue, session__shift__gaming_date=gaming_date)
        .order_by("year", "number")
    )
    missing: list[str] = []
    years = sorted({slip.year for slip in slips})
    for year in years:
        numbers = [slip.number for slip in slips if slip.year == year]
        stored = Slip.objects.filter(venue=venue, year=year)
        before = stored.filter(number__lt=min(numbers)).aggregate(n=Max("number"))["n"] or 0
        held = set(
            stored.filter(number__gt=before, number__lte=max(numbers)).values_list(
                "number", flat=True
            )
        )
        missing += [
            slip_label(year, number)
            for number in range(before + 1, max(numbers) + 1)
            if number not in held
        ]
    verified = [slip for slip in slips if slip.status == SlipStatus.VERIFIED]
    return SlipDay(
        venue=venue,
        gaming_date=gaming_date,
        slips=slips,
        issued=[slip for slip in slips if slip.issued_by_id is not None],
        verified=verified,
        voided=[slip for slip in slips if slip.status == SlipStatus.VOID],
        missing=missing,
        fills=sum((s.amount for s in verified if s.kind == Slip.Kind.FILL), Decimal(0)),
        credits=sum((s.amount for s in verified if s.kind == Slip.Kind.CREDIT), Decimal(0)),
    )
