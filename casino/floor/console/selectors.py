"""What the console reads, scoped to the venues the user works at.

A ``*_for`` returns ``None`` for an object at another venue exactly as for one that does
not exist, so the views answer both with 404. Every read loads the rows it is shown with
(``select_related`` / ``prefetch_related``): a page costs the same few queries however many
boxes or rounds it shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

from django.core.cache import cache
from django.db.models import (
    Count,
    Prefetch,
    Q,
    QuerySet,
)
from django.db.models.functions import Coalesce

from casino import games
from casino.compiled import SAMPLE_DATE, SAMPLE_KEY, SAMPLE_TEXT, Compiled
from casino.floor import answers, figures
from casino.floor.models import Bet, Box, Round, RoundStatus, TableSession
from casino.floor.outcomes import with_bets, with_boxes
from casino.floor.rules import NoRulesInForce, rules_in_force
from casino.games import BoxInput, RoundResult
from casino.kernel.timezones import venue_today
from casino.players.membership import membership_key
from casino.players.models import Player
from casino.players.selectors import barred_on
from casino.rulesets.models import RulesetVersion
from casino.staff.policy import Capability
from casino.staff.roles import AUDITOR, PLAY, SUPERVISE, can, venue_ids
from casino.venues.limits import Limit, table_limits_in_force, table_upcoming_changes
from casino.venues.models import Table, TableLimitChange, Venue


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
    sessions = (
        TableSession.objects.filter(status=TableSession.Status.OPEN, table__venue_id__in=venues)
        .select_related("table__venue", "dealer")
        .annotate(
            rounds_settled=Count("rounds", filter=settled),
            # Win by ledger so far (``casino.floor.figures``), as the floor and the count show it.
            house_so_far=figures.win_by_ledger_of_session(),
            slips_waiting=Coalesce(answers.slips_waiting(), 0),
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


def venues_where(*, user: Any, capability: frozenset[str]) -> list[Venue]:
    """The venues where the user has ``capability``, by code."""
    ids = [venue_id for venue_id in venue_ids(user) if can(user, capability, venue_id)]
    return list(Venue.objects.filter(pk__in=ids).order_by("code"))


def table_for(*, user: Any, pk: int) -> Table | None:
    return (
        Table.objects.filter(pk=pk, venue_id__in=venue_ids(user))
        .select_related("venue", "ruleset")
        .first()
    )


def open_session_of(table: Table) -> TableSession | None:
    return TableSession.objects.filter(table=table, status=TableSession.Status.OPEN).first()


#: What a session's page shows of it: its table, venue and ruleset, and its people.
PAGE_RELATED = (
    "table__venue",
    "table__ruleset__venue",
    "dealer",
    "opened_by",
    "opening_confirmed_by",
    "closing_counted_by",
    "closed_by",
)
#: What a live partial of the round screen reads of it (asked as the dealer deals): its
#: table, venue and ruleset. Half the cost of the page's join, mostly Django compiling it.
LIVE_RELATED = ("table__venue", "table__ruleset")
#: How long a live partial shows a session's table, venue and rules as they were read
#: (``live_session_for``, ``live_rules_for``). Pages, the preview and the Confirm read them
#: afresh; the user's venues and roles are read on every request.
LIVE_SECONDS = 30


#: The session of a key with its page's related rows, read on every console request: its
#: SQL built once (``casino.compiled``).
_SESSION_OF_KEY = Compiled(
    lambda pk: TableSession.objects.select_related(*PAGE_RELATED).filter(pk=pk).order_by(),
    samples=(SAMPLE_KEY,),
)


def session_for(*, user: Any, pk: int) -> TableSession | None:
    """The session ``pk`` with ``PAGE_RELATED``, if it is at one of the user's venues."""
    session = _SESSION_OF_KEY.first(pk)
    return session if session is not None and session.table.venue_id in venue_ids(user) else None


#: The session of a key with ``LIVE_RELATED``, read when the cache has it no more (a few
#: times a round: a hand is asked once it is whole, some seconds apart): its SQL built once.
_LIVE_SESSION_OF_KEY = Compiled(
    lambda pk: TableSession.objects.select_related(*LIVE_RELATED).filter(pk=pk).order_by(),
    samples=(SAMPLE_KEY,),
)


def live_session_for(*, user: Any, pk: int) -> TableSession | None:
    """``session_for`` for a live partial: the session with ``LIVE_RELATED`` and the version
    of the rules in force at its table, kept together in the shared cache for
    ``LIVE_SECONDS`` (a round's partials come some seconds apart: one cache read each, see
    ``live_rules_for``). Whether it is at the user's venues is asked on every call, of
    the user's venues as this request read them."""
    key = f"console:live:{pk}"
    kept = cache.get(key)
    if kept is None:
        session = _LIVE_SESSION_OF_KEY.first(pk)
        if session is None:
            return None
        kept = (session, _version_in_force(session.table))
        cache.set(key, kept, LIVE_SECONDS)
    session, version = kept
    if session.table.venue_id not in venue_ids(user):
        return None
    setattr(session, _LIVE_VERSION, version)
    return session


#: Where a session read by ``live_session_for`` carries the version it was kept with.
_LIVE_VERSION = "_console_live_rules_version"


def _version_in_force(table: Table) -> RulesetVersion | None:
    try:
        return rules_in_force(table).version
    except NoRulesInForce:
        return None


def live_rules_for(*, session: TableSession) -> Any:
    """``rules_for`` for a live partial: the engine's rules of the version in force at the
    session's table as ``live_session_for`` kept it with the session (the preview and the
    Confirm settle by the version they read themselves). None was in force: asked afresh,
    so a version just brought into force is dealt at once (``NoRulesInForce`` if still
    none)."""
    version = getattr(session, _LIVE_VERSION, None)
    if version is None:
        return rules_in_force(session.table).rules
    return games.get(session.table.game).snapshot(version)  # kept per version by the game


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
        return tuple(table_upcoming_changes(self.table.pk))

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
    limits = table_limits_in_force(table.pk)
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


#: The most membership numbers ``players_by_number`` looks up in one statement: the boxes of
#: the largest table; more are looked up in turns.
NUMBERS_AT_ONCE = 8
#: The venue's players of ``NUMBERS_AT_ONCE`` numbers (one repeated where fewer are looked
#: up) and whether a barring keeps each from play on a date (``barred_today``): read by
#: every preview and Confirm of the round screen, its SQL built once (``casino.compiled``).
_PLAYERS_OF_NUMBERS = Compiled(
    lambda venue_id, on, *numbers: (
        Player.objects.filter(venue_id=venue_id, membership_number__in=numbers)
        .annotate(barred_today=barred_on(on))
        .order_by()
    ),
    samples=(SAMPLE_KEY, SAMPLE_DATE, *(f"{SAMPLE_TEXT}{n}" for n in range(NUMBERS_AT_ONCE))),
)


def players_by_number(*, venue: Venue, numbers: Iterable[str]) -> dict[str, Player]:
    """Players of the venue by stored membership number (``casino.players.membership``), a
    statement for every ``NUMBERS_AT_ONCE`` numbers (one for a round's boxes).

    Look a typed number up with ``membership_key``; one that cannot be a membership number
    (a NUL, ``ß``, another script) finds nobody rather than a look-alike's owner.
    """
    wanted = sorted({key for key in map(membership_key, numbers) if key})
    if not wanted:
        return {}
    found: dict[str, Player] = {}
    for player in _PLAYERS_OF_NUMBERS.in_turns((venue.pk, venue_today(venue)), wanted):
        player.venue = venue  # the eligibility question reads it: no query for it
        found[player.membership_number] = player
    return found


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


def round_in_hand(
    *,
    session: TableSession,
    round_: Round,
    boxes: Sequence[Box] | None,
    bets: Sequence[Bet] | None,
) -> Round | None:
    """A round a service has just written, as ``last_round`` reads it (its boxes by
    position, each with its player and its bets in order), from the ``boxes`` and ``bets``
    the service answered (``RoundWritten``): the Confirm's answer reads nothing back. Read
    when the service answered without them (a repeated key answers what is recorded)."""
    if boxes is None or bets is None:
        return round_for(session=session, pk=round_.pk)
    in_order = sorted(boxes, key=lambda box: box.position)
    with_bets(in_order, sorted(bets, key=lambda bet: bet.pk))
    with_boxes(round_, in_order)
    return round_


def session_rounds(*, session: TableSession) -> list[Round]:
    """Every round of the session, newest first, with boxes, players and bets (3 queries)."""
    return list(_rounds_with_boxes().filter(session=session).order_by("-number"))


def round_for(*, session: TableSession, pk: int) -> Round | None:
    return _rounds_with_boxes().filter(session=session, pk=pk).first()
