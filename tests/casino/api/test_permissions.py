"""Who may call what: every endpoint x role x venue, with the exact status of each cell.

The rule the table follows:
- anonymous: 401 (token auth answers first, with ``WWW-Authenticate: Token``);
- a role that may not make the call at all: 403, at any venue (checked before any lookup);
- an object at a venue the user does not work at: 404, exactly as for one that does not
  exist (lists simply leave it out);
- the service's own check (approving a void needs a supervisor): 403;
- otherwise the success status.
A refused call changes nothing (every floor table is compared before and after), and a
read never writes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal as D
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from casino.audit.models import AuditEvent
from casino.cage.models import CageCount, CashTransaction, FrontMoney, Slip
from casino.cage.services.cash import cash_record
from casino.cage.services.credit_lines import credit_line_approve, credit_line_propose
from casino.cage.services.front_money import front_money_deposit
from casino.cage.services.inventory import cage_count_record
from casino.cage.services.manual import manual_series_issue
from casino.cage.services.markers import marker_issue_at_cage, marker_pay
from casino.cage.services.patrons import unknown_patron_create
from casino.cage.services.slips import (
    slip_confirm_dealer,
    slip_confirm_supervisor,
    slip_issue,
    slip_request,
)
from casino.compliance.services import case_open
from casino.count.models import DropBox
from casino.floor.models import Bet, Box, Round, TableSession
from casino.floor.services.closing import session_close
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import drop_record, session_open, shift_current
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void_request
from casino.games import BoxInput
from casino.ledger.models import Drop, LedgerEntry
from casino.players.models import Player
from casino.reports.models import ShiftReport
from casino.reports.services import report_request
from casino.rulesets.models import Ruleset
from casino.staff.roles import (
    AUDITOR,
    CAGE,
    CASHIER,
    COMPLIANCE,
    COMPLIANCE_WORK,
    COUNT_FIGURES,
    COUNT_TEAM,
    DEALER,
    MANAGE,
    MANAGER,
    PLAY,
    READ,
    SUPERVISE,
    SUPERVISOR,
)
from casino.venues.models import Shift, Table, TableLimit, TableRulesetChange, Venue
from casino.venues.services.table_rulesets import ruleset_change_request
from casino.venues.services.tables import table_create
from tablegames.services import venue_ruleset_from_preset
from tests.casino.api import NIU_8, NIU_9, client_for, credentials
from tests.factories import PlayerFactory, staff

pytestmark = pytest.mark.django_db

ANONYMOUS = "anonymous"
ROLES = (DEALER, SUPERVISOR, MANAGER, AUDITOR, CAGE, ANONYMOUS)
OWN, OTHER = "own", "other"


@dataclass
class Side:
    """One venue's staff and table: the caller's own venue, or the other one."""

    venue: Venue
    table: Table
    dealer: Any
    supervisor: Any
    #: A second supervisor: requests the voids and signs the slips the caller takes on.
    second: Any
    #: The cage's cashier: issues the slips the table signs.
    cashier: Any = None


@dataclass
class Call:
    path: str
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    #: For a list: the id of the object made at the venue (listed only at one's own).
    listed_id: int | None = None


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    make: Callable[[Side], Call]
    ok: int = 200
    #: The roles the view lets through (its role check, before any lookup).
    gate: frozenset[str] = READ
    #: The roles the service lets do it (the same, except approving a void).
    allowed: frozenset[str] | None = None
    is_list: bool = False
    #: Whether the call names a venue's object (the other venue's: not found); a search
    #: across the venues the caller reads names none.
    venue_bound: bool = True

    def expected(self, role: str, venue: str) -> int:
        if role == ANONYMOUS:
            return 401
        if role not in self.gate:
            return 403
        if venue == OTHER and not self.is_list and self.venue_bound:
            return 404
        if role not in (self.allowed or self.gate):
            return 403
        return self.ok


# The things each call needs, made through the services at the side's venue.


def _link_to_itself(player: Any) -> Call:
    return Call(
        f"/api/v1/players/{player.pk}/link/", {"other": player.pk, "reason": "passport seen"}
    )


def _session(side: Side) -> TableSession:
    return session_open(
        table=side.table,
        counted_by=side.dealer,
        confirmed_by=side.supervisor,
        opening_chips={"100000": 10},
    )


def _gaming_date(side: Side) -> str:
    return shift_current(venue=side.venue).gaming_date.isoformat()


def _box(side: Side) -> DropBox:
    """The drop box of a session of the side's table (its session open)."""
    return DropBox.objects.get(box_sessions__session=_session(side))


def _round(side: Side, session: TableSession | None = None) -> Round:
    round_, _result = round_create(
        session=session or _session(side),
        user=side.dealer,
        dealer_cards=NIU_8,
        boxes=[BoxInput(position=1, cards=NIU_9, stakes={"single": D("100000")})],
    )
    return round_


def _settled_round(side: Side) -> Round:
    round_ = _round(side)
    round_settle(round_=round_, user=side.dealer, key=f"settle-{round_.pk}")
    return round_


def _void_requested(side: Side) -> Round:
    round_ = _settled_round(side)
    round_void_request(round_=round_, user=side.second, reason="misdeal")
    return round_


def _slip(side: Side, issued: bool = False, kind: str = "fill", signed: bool = False) -> Slip:
    slip = slip_request(
        session=_session(side), user=side.supervisor, kind=kind, chips={"100000": 5}
    )
    if issued or signed:
        slip = slip_issue(slip=slip, user=side.cashier)
    if signed:  # signed out at the table by its dealer and the second supervisor
        slip = slip_confirm_dealer(slip=slip, user=side.dealer)
        slip = slip_confirm_supervisor(slip=slip, user=side.second)
    return slip


def _drop(side: Side) -> Drop:
    return drop_record(session=_session(side), user=side.supervisor, amount=D("50000"))


def _reversal_of(drop: Drop) -> Call:
    path = f"/api/v1/sessions/{drop.session_id}/drop/{drop.pk}/reverse/"
    return Call(path, {"reason": "counted twice"})


def _closed_session(side: Side) -> TableSession:
    session = _session(side)
    return session_close(
        session=session,
        counted_by=side.dealer,
        confirmed_by=side.supervisor,
        closing_chips={"100000": 10},
    )


def _player(side: Side) -> Player:
    return PlayerFactory(venue=side.venue)


def _ruleset_id(side: Side) -> int:
    return side.table.ruleset_id


def _alt_ruleset(side: Side) -> Ruleset:
    ruleset, _created = Ruleset.objects.get_or_create(
        venue=side.venue, game="niuniu", code="alt", defaults={"name": "Alt"}
    )
    return ruleset


def _ruleset_change(side: Side) -> TableRulesetChange:
    """A change of the side's table to another ruleset, asked by a second manager there."""
    asker = staff(f"{side.venue.code}-asker", MANAGER, side.venue)
    return ruleset_change_request(
        table=side.table, user=asker, ruleset=_alt_ruleset(side), reason="a new sheet"
    )


def _event(side: Side) -> AuditEvent:
    _session(side)
    return AuditEvent.objects.filter(venue=side.venue).latest("pk")


def _cash(side: Side) -> CashTransaction:
    return cash_record(session=_session(side), user=side.dealer, amount="50000")


def _front_money(side: Side) -> FrontMoney:
    """A deposit of 1,000,000 for a new member of the side's venue, by its cashier."""
    cashier = side.cashier or staff(f"{side.venue.code}-fm-cashier", CAGE, side.venue)
    return front_money_deposit(
        venue=side.venue, player=_player(side), user=cashier, amount="1000000"
    )


def _shift_id(side: Side) -> int:
    return _session(side).shift_id


def _report(side: Side) -> ShiftReport:
    return report_request(shift_id=_shift_id(side), send=False)


def _rating_call(side: Side) -> Call:
    """A rating of a player's half hour at an open blackjack table of the side's venue."""
    editor = staff(f"{side.venue.code}-bj-editor", MANAGER, side.venue)
    approver = staff(f"{side.venue.code}-bj-approver", MANAGER, side.venue)
    version = venue_ruleset_from_preset(
        venue=side.venue, preset_code="blackjack-6deck", editor=editor, approver=approver
    )
    table = table_create(
        venue=side.venue,
        user=editor,
        code="BJ9",
        game="tablegames",
        ruleset=version.ruleset,
        seats=7,
        chip_denominations=["100000"],
        limits={"bet": {"min_stake": D("10000"), "max_stake": D("1000000")}},
    )
    session = session_open(
        table=table,
        counted_by=side.supervisor,
        confirmed_by=side.second,
        opening_chips={"100000": 10},
    )
    opened = session.opened_at - timedelta(hours=1)
    TableSession.objects.filter(pk=session.pk).update(opened_at=opened)
    body = {
        "player": _player(side).pk,
        "average_bet": "100000",
        "started_at": opened.isoformat(),
        "ended_at": (opened + timedelta(minutes=30)).isoformat(),
    }
    return Call(f"/api/v1/sessions/{session.pk}/ratings/", body)


def _series(side: Side, kind: str = "round") -> Any:
    """A manual series of the side's table, issued by its cashier."""
    return manual_series_issue(
        table=side.table, user=side.cashier, kind=kind, prefix=f"{kind[0]}-", first=1, last=9
    )


def _paper_slip_call(side: Side) -> Call:
    series, session = _series(side, "fill"), _session(side)
    body = {
        "number": 1,
        "session": session.pk,
        "written_at": timezone.now().isoformat(),
        "chips": {"100000": 2},
        "cashier": side.cashier.username,
        "dealer": side.dealer.username,
        "supervisor": side.second.username,
    }
    return Call(f"/api/v1/manual-series/{series.pk}/slips/", body)


def _paper_round_call(side: Side) -> Call:
    series, session = _series(side), _session(side)
    body = {
        "number": 1,
        "session": session.pk,
        "written_at": timezone.now().isoformat(),
        "dealer_cards": NIU_8,
        "boxes": [{"position": 1, "cards": NIU_9, "bets": {"single": "100000"}}],
    }
    return Call(f"/api/v1/manual-series/{series.pk}/rounds/", body)


#: Who reads the manual series (the slip report's readers), who issues one.
MANUAL_READ = frozenset({SUPERVISOR, MANAGER, AUDITOR, CAGE})


def _case_call(side: Side) -> Call:
    """A suspicious-activity case at the side's venue, opened by its compliance officer."""
    officer = staff(f"{side.venue.code}-compliance", COMPLIANCE, side.venue)
    case = case_open(venue=side.venue, user=officer, player=_player(side), grounds="split cash")
    return Call(f"/api/v1/compliance/cases/{case.pk}/")


MANUAL_ISSUE = frozenset({MANAGER, CAGE})


def _credit_player(side: Side) -> Player:
    """A member of the side's venue with a credit limit of 10,000,000 (two managers)."""
    player = _player(side)
    line = credit_line_propose(
        venue=side.venue,
        player=player,
        user=staff(f"{side.venue.code}-credit-proposer", MANAGER, side.venue),
        limit="10000000",
    )
    credit_line_approve(
        line=line, user=staff(f"{side.venue.code}-credit-approver", MANAGER, side.venue)
    )
    return player


def _proposed_line(side: Side) -> Any:
    return credit_line_propose(
        venue=side.venue,
        player=_player(side),
        user=staff(f"{side.venue.code}-credit-proposer", MANAGER, side.venue),
        limit="10000000",
    )


def _marker_body(side: Side, signer: Any) -> dict[str, Any]:
    return {
        "player": _credit_player(side).pk,
        "amount": "1000000",
        "player_signed": True,
        "supervisor": credentials(signer),
    }


def _unknown_patron(side: Side) -> Any:
    return unknown_patron_create(venue=side.venue, user=side.supervisor, description="red hat")


def _cage_marker(side: Side) -> Any:
    return marker_issue_at_cage(
        venue=side.venue,
        player=_credit_player(side),
        user=side.cashier,
        supervisor=side.supervisor,
        amount="2000000",
        player_signed=True,
    )


def _marker_payment(side: Side) -> Any:
    return marker_pay(marker=_cage_marker(side), user=side.cashier, amount="1000", method="cash")


READ_CAGE = CASHIER | SUPERVISE | {AUDITOR}
_EXCHANGE = {"chips": {"100000": 1}, "notes": {"100000": 1}}
_COUNTERS = iter(range(1, 1_000_000))


def _cage_count(side: Side) -> CageCount:
    """A count of the cage waiting for its second signature, by a counter of its own."""
    counter = staff(f"{side.venue.code}-counter-{next(_COUNTERS)}", CAGE, side.venue)
    return cage_count_record(
        venue=side.venue, user=counter, kind="opening", counted={"chips": {"100000": 10}}
    )


def _with_notes(side: Side) -> int:
    """The side's venue, its cage counting 100,000 notes."""
    side.venue.note_denominations = ["100000"]
    side.venue.save(update_fields=["note_denominations"])
    return side.venue.pk


def _listed(path: str, make: Callable[[Side], Any]) -> Callable[[Side], Call]:
    def call(side: Side) -> Call:
        obj = make(side)
        return Call(path, listed_id=obj if isinstance(obj, int) else obj.pk)

    return call


ENDPOINTS = [
    # Reads: every role at its own venues.
    Endpoint("venues list", "GET", _listed("/api/v1/venues/", lambda s: s.venue), is_list=True),
    Endpoint("venue", "GET", lambda s: Call(f"/api/v1/venues/{s.venue.pk}/")),
    Endpoint("tables list", "GET", _listed("/api/v1/tables/", lambda s: s.table), is_list=True),
    Endpoint("table", "GET", lambda s: Call(f"/api/v1/tables/{s.table.pk}/")),
    Endpoint("players list", "GET", _listed("/api/v1/players/", _player), is_list=True),
    Endpoint("player", "GET", lambda s: Call(f"/api/v1/players/{_player(s).pk}/")),
    # A player's rated play: the venue's report readers (the capability it declares).
    # What the day's screens read: the venue's report readers.
    *(
        Endpoint(
            f"day's {what}",
            "GET",
            lambda s, what=what: Call(f"/api/v1/venues/{s.venue.pk}/{what}/"),
            gate=frozenset({SUPERVISOR, MANAGER, AUDITOR}),
        )
        for what in ("cash-transactions", "cash-report", "cash-alerts", "ratings", "periods")
    ),
    Endpoint(
        "day's figures",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/figures/{_gaming_date(s)}/"),
        gate=frozenset({SUPERVISOR, MANAGER, AUDITOR}),
    ),
    Endpoint(
        "day's reconciliation",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/reconciliation/{_gaming_date(s)}/"),
        gate=frozenset({SUPERVISOR, MANAGER, AUDITOR}),
    ),
    Endpoint(
        "player history",
        "GET",
        lambda s: Call(f"/api/v1/players/{_player(s).pk}/history/"),
        gate=frozenset({SUPERVISOR, MANAGER, AUDITOR}),
    ),
    # Possible duplicates across the venues whose players the caller reads: not a venue's.
    Endpoint(
        "player duplicates",
        "GET",
        lambda s: Call("/api/v1/players/duplicates/?name=Nobody"),
        gate=frozenset({SUPERVISOR, MANAGER, AUDITOR}),
        venue_bound=False,
    ),
    # Linking a membership to another venue's (here to itself: refused by the service) and
    # taking one out of its person (here one in none: refused too): managers.
    Endpoint(
        "link player",
        "POST",
        lambda s: _link_to_itself(_player(s)),
        gate=MANAGE,
        ok=400,
    ),
    Endpoint(
        "unlink player",
        "POST",
        lambda s: Call(f"/api/v1/players/{_player(s).pk}/unlink/", {"reason": "not the same"}),
        gate=MANAGE,
        ok=409,
    ),
    Endpoint("rulesets list", "GET", _listed("/api/v1/rulesets/", _ruleset_id), is_list=True),
    Endpoint("ruleset", "GET", lambda s: Call(f"/api/v1/rulesets/{_ruleset_id(s)}/")),
    Endpoint(
        "ruleset version", "GET", lambda s: Call(f"/api/v1/rulesets/{_ruleset_id(s)}/versions/1/")
    ),
    Endpoint("sessions list", "GET", _listed("/api/v1/sessions/", _session), is_list=True),
    Endpoint("session", "GET", lambda s: Call(f"/api/v1/sessions/{_session(s).pk}/")),
    Endpoint("rounds list", "GET", _listed("/api/v1/rounds/", _round), is_list=True),
    Endpoint("round", "GET", lambda s: Call(f"/api/v1/rounds/{_round(s).pk}/")),
    Endpoint(
        "round ledger", "GET", lambda s: Call(f"/api/v1/rounds/{_settled_round(s).pk}/ledger/")
    ),
    Endpoint("slips list", "GET", _listed("/api/v1/slips/", _slip), is_list=True),
    Endpoint("slip", "GET", lambda s: Call(f"/api/v1/slips/{_slip(s).pk}/")),
    Endpoint("slip ledger", "GET", lambda s: Call(f"/api/v1/slips/{_slip(s).pk}/ledger/")),
    Endpoint(
        "session drops", "GET", lambda s: Call(f"/api/v1/sessions/{_drop(s).session_id}/drop/")
    ),
    # The audit trail: its managers and auditors, as in the admin (cash thresholds and
    # comp amounts are in it), refused to every other role before any lookup.
    Endpoint(
        "audit list",
        "GET",
        _listed("/api/v1/audit/", _event),
        is_list=True,
        gate=frozenset({MANAGER, AUDITOR}),
    ),
    Endpoint(
        "audit event",
        "GET",
        lambda s: Call(f"/api/v1/audit/{_event(s).pk}/"),
        gate=frozenset({MANAGER, AUDITOR}),
    ),
    Endpoint("gaming day", "GET", lambda s: Call(f"/api/v1/venues/{s.venue.pk}/gaming-day/")),
    # The count: its figures for the count team and the venue's supervisors, managers and
    # auditors; its writes for the count team only (none of the roles here).
    Endpoint(
        "count day",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/count/{_gaming_date(s)}/"),
        gate=COUNT_FIGURES,
    ),
    Endpoint(
        "count figures",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/count/{_gaming_date(s)}/figures/"),
        gate=COUNT_FIGURES,
    ),
    Endpoint(
        "close the count",
        "POST",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/count/{_gaming_date(s)}/close/", {}),
        gate=COUNT_TEAM,
    ),
    Endpoint(
        "reopen the count",
        "POST",
        lambda s: Call(
            f"/api/v1/venues/{s.venue.pk}/count/{_gaming_date(s)}/reopen/", {"reason": "box"}
        ),
        gate=MANAGE,
        # Through to the service, which finds nothing to reopen: the count is not closed.
        ok=409,
    ),
    Endpoint(
        "count a box",
        "POST",
        lambda s: Call(f"/api/v1/drop-boxes/{_box(s).pk}/counts/", {"chips": {"100000": 10}}),
        gate=COUNT_TEAM,
        ok=201,
    ),
    # Playing: dealers, supervisors, managers.
    Endpoint(
        "open session",
        "POST",
        lambda s: Call(
            "/api/v1/sessions/",
            {
                "table": s.table.pk,
                "opening_chips": {"100000": 1},
                "confirmed_by": credentials(s.second),
            },
        ),
        ok=201,
        gate=PLAY,
    ),
    Endpoint(
        "deal round",
        "POST",
        lambda s: Call(
            "/api/v1/rounds/",
            {
                "session": _session(s).pk,
                "dealer_cards": NIU_8,
                "boxes": [{"position": 1, "cards": NIU_9, "bets": {"single": "100000"}}],
            },
        ),
        ok=201,
        gate=PLAY,
    ),
    Endpoint(
        "settle round",
        "POST",
        lambda s: Call(
            f"/api/v1/rounds/{_round(s).pk}/settle/", headers={"HTTP_IDEMPOTENCY_KEY": "k"}
        ),
        gate=PLAY,
    ),
    Endpoint(
        "request void",
        "POST",
        lambda s: Call(f"/api/v1/rounds/{_settled_round(s).pk}/void/", {"reason": "misdeal"}),
        ok=202,
        gate=PLAY,
    ),
    Endpoint(
        "approve void",
        "POST",
        lambda s: Call(f"/api/v1/rounds/{_void_requested(s).pk}/void/", {}),
        gate=PLAY,
        allowed=SUPERVISE,
    ),
    # Supervising: supervisors and managers (a dealer may request a slip).
    Endpoint(
        "close session",
        "POST",
        lambda s: Call(
            f"/api/v1/sessions/{_session(s).pk}/close/",
            {"closing_chips": {"100000": 10}, "counted_by": credentials(s.dealer)},
        ),
        gate=SUPERVISE,
    ),
    Endpoint(
        "record drop",
        "POST",
        lambda s: Call(f"/api/v1/sessions/{_session(s).pk}/drop/", {"amount": "50000"}),
        ok=201,
        gate=SUPERVISE,
    ),
    Endpoint(
        "reverse drop",
        "POST",
        lambda s: _reversal_of(_drop(s)),
        ok=201,
        gate=SUPERVISE,
    ),
    Endpoint(
        "reconcile session",
        "POST",
        lambda s: Call(f"/api/v1/sessions/{_closed_session(s).pk}/reconcile/"),
        gate=SUPERVISE,
    ),
    Endpoint(
        "request slip",
        "POST",
        lambda s: Call(
            "/api/v1/slips/",
            {"session": _session(s).pk, "kind": "credit", "chips": {"100000": 2}},
        ),
        ok=201,
        gate=PLAY,
    ),
    Endpoint(
        "issue slip",
        "POST",
        lambda s: Call(f"/api/v1/slips/{_slip(s).pk}/issue/", {"runner": "Lan"}),
        gate=CASHIER,
    ),
    Endpoint(
        "dealer signs slip",
        "POST",
        lambda s: Call(f"/api/v1/slips/{_slip(s, issued=True).pk}/confirm-dealer/"),
        gate=PLAY,
    ),
    Endpoint(
        "supervisor signs slip",
        "POST",
        lambda s: Call(f"/api/v1/slips/{_slip(s, issued=True).pk}/confirm-supervisor/"),
        gate=SUPERVISE,
    ),
    Endpoint(
        "receive credit",
        "POST",
        lambda s: Call(f"/api/v1/slips/{_slip(s, kind='credit', signed=True).pk}/receive/"),
        gate=CASHIER,
    ),
    Endpoint(
        "void slip",
        "POST",
        lambda s: Call(f"/api/v1/slips/{_slip(s).pk}/void/", {"reason": "wrong table"}),
        gate=CASHIER | SUPERVISE,
    ),
    # Markers: a member's credit for the cage and the pit, the aging for report readers;
    # a marker at a table by those who play, at the cage and its payments by the cashier,
    # credit limits and a payment's reversal by managers.
    Endpoint(
        "player credit",
        "GET",
        lambda s: Call(f"/api/v1/players/{_credit_player(s).pk}/credit/"),
        gate=CASHIER | SUPERVISE | {AUDITOR},
    ),
    Endpoint(
        "marker aging",
        "GET",
        lambda s: Call(f"/api/v1/venues/{_cage_marker(s).venue_id}/marker-aging/"),
        gate=frozenset({SUPERVISOR, MANAGER, AUDITOR}),
    ),
    Endpoint(
        "marker terms",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/marker-terms/"),
        gate=frozenset({SUPERVISOR, MANAGER, AUDITOR}),
    ),
    Endpoint(
        "set marker terms",
        "POST",
        lambda s: Call(
            f"/api/v1/venues/{s.venue.pk}/marker-terms/", {"term_days": 45, "credit_drop": True}
        ),
        ok=201,
        gate=MANAGE,
    ),
    Endpoint(
        "propose credit limit",
        "POST",
        lambda s: Call(f"/api/v1/players/{_player(s).pk}/credit-lines/", {"limit": "5000000"}),
        ok=201,
        gate=MANAGE,
    ),
    Endpoint(
        "approve credit limit",
        "POST",
        lambda s: Call(f"/api/v1/credit-lines/{_proposed_line(s).pk}/approve/"),
        gate=MANAGE,
    ),
    Endpoint(
        "marker at a table",
        "POST",
        lambda s: Call(f"/api/v1/sessions/{_session(s).pk}/markers/", _marker_body(s, s.second)),
        ok=201,
        gate=PLAY,
    ),
    Endpoint(
        "marker at the cage",
        "POST",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/markers/", _marker_body(s, s.supervisor)),
        ok=201,
        gate=CASHIER,
    ),
    Endpoint(
        "marker payment",
        "POST",
        lambda s: Call(
            f"/api/v1/markers/{_cage_marker(s).pk}/payments/", {"amount": "5000", "method": "chips"}
        ),
        ok=201,
        gate=CASHIER,
    ),
    Endpoint(
        "reverse marker payment",
        "POST",
        lambda s: Call(
            f"/api/v1/marker-payments/{_marker_payment(s).pk}/reverse/", {"reason": "mistake"}
        ),
        ok=201,
        gate=MANAGE,
    ),
    # Managing: managers.
    Endpoint(
        "create table",
        "POST",
        lambda s: Call(
            "/api/v1/tables/",
            {
                "venue": s.venue.pk,
                "code": "NN9",
                "game": "niuniu",
                "ruleset": s.table.ruleset_id,
                "seats": 6,
                "chip_denominations": ["100000", "10000"],
                "limits": {"single": {"min_stake": "10000", "max_stake": "1000000"}},
            },
        ),
        ok=201,
        gate=MANAGE,
    ),
    Endpoint(
        "change table",
        "PATCH",
        lambda s: Call(f"/api/v1/tables/{s.table.pk}/", {"status": "inactive"}),
        gate=MANAGE,
    ),
    Endpoint(
        "ruleset changes list",
        "GET",
        _listed("/api/v1/table-ruleset-changes/", _ruleset_change),
        is_list=True,
    ),
    Endpoint(
        "ruleset change",
        "GET",
        lambda s: Call(f"/api/v1/table-ruleset-changes/{_ruleset_change(s).pk}/"),
    ),
    Endpoint(
        "request ruleset change",
        "POST",
        lambda s: Call(
            "/api/v1/table-ruleset-changes/",
            {"table": s.table.pk, "ruleset": _alt_ruleset(s).pk, "reason": "a new sheet"},
        ),
        ok=201,
        gate=MANAGE,
    ),
    Endpoint(
        "approve ruleset change",
        "POST",
        lambda s: Call(f"/api/v1/table-ruleset-changes/{_ruleset_change(s).pk}/approve/"),
        gate=MANAGE,
    ),
    Endpoint(
        "refuse ruleset change",
        "POST",
        lambda s: Call(
            f"/api/v1/table-ruleset-changes/{_ruleset_change(s).pk}/refuse/", {"note": "no"}
        ),
        gate=MANAGE,
    ),
    Endpoint(
        "create player",
        "POST",
        lambda s: Call(
            "/api/v1/players/", {"venue": s.venue.pk, "membership_number": "N1", "name": "Ann"}
        ),
        ok=201,
        gate=MANAGE,
    ),
    Endpoint(
        "change player",
        "PATCH",
        lambda s: Call(f"/api/v1/players/{_player(s).pk}/", {"status": "barred"}),
        gate=MANAGE,
    ),
    # The day's writes: the table's cash, ratings, the shift's report.
    Endpoint(
        "record cash",
        "POST",
        lambda s: Call(f"/api/v1/sessions/{_session(s).pk}/cash-transactions/", {"amount": "1000"}),
        ok=201,
        gate=PLAY,
    ),
    Endpoint(
        "void cash",
        "POST",
        lambda s: Call(f"/api/v1/cash-transactions/{_cash(s).pk}/void/", {"reason": "typed twice"}),
        gate=SUPERVISE,
    ),
    # Front money (casino/cage/front_money_api.py).
    Endpoint(
        "read front money",
        "GET",
        lambda s: Call(f"/api/v1/players/{_player(s).pk}/front-money/"),
    ),
    Endpoint(
        "deposit front money",
        "POST",
        lambda s: Call(f"/api/v1/players/{_player(s).pk}/front-money/deposit/", {"amount": "1000"}),
        ok=201,
        gate=CASHIER,
    ),
    Endpoint(
        "return front money",
        "POST",
        lambda s: Call(
            f"/api/v1/players/{_front_money(s).player_id}/front-money/return/", {"amount": "1000"}
        ),
        ok=201,
        gate=CASHIER,
    ),
    Endpoint(
        "draw front money",
        "POST",
        lambda s: Call(
            f"/api/v1/sessions/{_session(s).pk}/front-money-draws/",
            {"player": _front_money(s).player_id, "amount": "1000"},
        ),
        ok=201,
        gate=PLAY,
    ),
    Endpoint(
        "reverse front money",
        "POST",
        lambda s: Call(f"/api/v1/front-money/{_front_money(s).pk}/reverse/", {"reason": "twice"}),
        ok=201,
        gate=MANAGE,
    ),
    Endpoint(
        "front money balances",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/front-money/"),
        gate=frozenset({SUPERVISOR, MANAGER, AUDITOR}),
    ),
    Endpoint("rate a player", "POST", _rating_call, ok=201, gate=SUPERVISE),
    # The cage's inventory: read by its cashiers, supervisors, managers and auditors; counted
    # and signed by a cashier or a manager; the window and the vault are the cashier's.
    Endpoint(
        "cage inventory",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/cage/"),
        gate=READ_CAGE,
    ),
    Endpoint(
        "cage movements",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/cage/movements/"),
        gate=READ_CAGE,
    ),
    Endpoint(
        "count the cage",
        "POST",
        lambda s: Call(
            f"/api/v1/venues/{s.venue.pk}/cage/counts/",
            {"kind": "opening", "counted": {"chips": {"100000": 10}}},
        ),
        gate=CASHIER | MANAGE,
        ok=201,
    ),
    Endpoint(
        "sign a cage count",
        "POST",
        lambda s: Call(f"/api/v1/cage-counts/{_cage_count(s).pk}/sign/"),
        gate=CASHIER | MANAGE,
    ),
    Endpoint(
        "chip purchase",
        "POST",
        lambda s: Call(f"/api/v1/venues/{_with_notes(s)}/cage/purchases/", _EXCHANGE),
        gate=CASHIER,
        ok=201,
    ),
    Endpoint(
        "chip redemption",
        "POST",
        lambda s: Call(f"/api/v1/venues/{_with_notes(s)}/cage/redemptions/", _EXCHANGE),
        gate=CASHIER,
        ok=201,
    ),
    Endpoint(
        "vault transfer",
        "POST",
        lambda s: Call(
            f"/api/v1/venues/{s.venue.pk}/cage/vault-transfers/",
            {"kind": "to_vault", "moved": {"chips": {"100000": 1}}},
        ),
        gate=CASHIER,
        ok=201,
    ),
    # The multiple transaction log: the cage's readers; an unknown patron linked by the pit.
    Endpoint(
        "cash log",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/cash-log/"),
        gate=READ_CAGE,
    ),
    Endpoint(
        "link an unknown patron",
        "POST",
        lambda s: Call(
            f"/api/v1/unknown-patrons/{_unknown_patron(s).pk}/link/",
            {"member": _player(s).membership_number},
        ),
        gate=SUPERVISE,
    ),
    Endpoint(
        "chip liability",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/cage/chip-liability/"),
        gate=frozenset({SUPERVISOR, MANAGER, AUDITOR}),
    ),
    Endpoint(
        "build shift report",
        "POST",
        lambda s: Call(f"/api/v1/shifts/{_shift_id(s)}/report/"),
        ok=202,
        gate=MANAGE,
    ),
    Endpoint(
        "shift report",
        "GET",
        lambda s: Call(f"/api/v1/shift-reports/{_report(s).pk}/"),
        gate=frozenset({SUPERVISOR, MANAGER, AUDITOR}),
    ),
    # When the system is down: the series read by the slip report's readers, issued by a
    # manager or the cage, its papers entered afterwards by the pit's supervisors.
    Endpoint(
        "manual series list",
        "GET",
        lambda s: Call(f"/api/v1/manual-series/?venue={_series(s).venue_id}"),
        gate=MANUAL_READ,
    ),
    Endpoint(
        "issue manual series",
        "POST",
        lambda s: Call(
            "/api/v1/manual-series/",
            {"table": s.table.pk, "kind": "fill", "prefix": "F-", "first": 1, "last": 5},
        ),
        ok=201,
        gate=MANUAL_ISSUE,
    ),
    Endpoint(
        "manual series",
        "GET",
        lambda s: Call(f"/api/v1/manual-series/{_series(s).pk}/"),
        gate=MANUAL_READ,
    ),
    Endpoint("enter paper slip", "POST", _paper_slip_call, ok=201, gate=SUPERVISE),
    Endpoint("enter round sheet", "POST", _paper_round_call, ok=201, gate=SUPERVISE),
    Endpoint(
        "record paper spoiled",
        "POST",
        lambda s: Call(
            f"/api/v1/manual-series/{_series(s).pk}/spoiled/", {"number": 2, "reason": "torn"}
        ),
        ok=201,
        gate=SUPERVISE,
    ),
    Endpoint(
        "day's manual papers",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/manual/{_gaming_date(s)}/"),
        gate=MANUAL_READ,
    ),
    # Suspicious-activity cases: the venue's compliance staff only, no floor role.
    Endpoint(
        "venue's suspicious-activity cases",
        "GET",
        lambda s: Call(f"/api/v1/venues/{s.venue.pk}/compliance/cases/"),
        gate=COMPLIANCE_WORK,
    ),
    Endpoint("suspicious-activity case", "GET", _case_call, gate=COMPLIANCE_WORK),
]

_FLOOR_MODELS = (
    Venue,
    Table,
    TableLimit,
    TableRulesetChange,
    Player,
    Shift,
    TableSession,
    Round,
    Box,
    Bet,
    LedgerEntry,
    Slip,
    Drop,
    AuditEvent,
)


def floor_state() -> dict[str, list[dict]]:
    """Every row of the floor's tables: a refused call must leave them all as they were."""
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in _FLOOR_MODELS}


def test_the_matrix_covers_every_route():
    from django.urls import get_resolver

    api = get_resolver().url_patterns
    routes = {
        (str(p.pattern), method)
        for include in api
        if str(include.pattern) == "api/v1/"
        for p in include.url_patterns
        # Logging in needs an account, not a floor role: tests/casino/logins/test_api_auth.py.
        if p.name != "no-such-endpoint" and not p.name.startswith("auth-")
        for method in ("GET", "POST", "PATCH")
        if hasattr(p.callback.view_class, method.lower())
    }
    # One row per route and method, and two for the void route (request, approve).
    assert len(routes) == len(ENDPOINTS) - 1


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e.name for e in ENDPOINTS])
def test_every_role_at_every_venue(floor, cashier, endpoint):
    sides = {
        OWN: Side(
            floor.venue,
            floor.table,
            floor.dealer,
            floor.supervisor,
            floor.supervisor2,
            cashier,
        ),
        OTHER: Side(
            floor.other_venue,
            floor.other_table,
            floor.other_dealer,
            floor.other_supervisor,
            staff("other-supervisor2", SUPERVISOR, floor.other_venue),
            staff("other-cashier", CAGE, floor.other_venue),
        ),
    }
    users = {
        DEALER: floor.dealer,
        SUPERVISOR: floor.supervisor,
        MANAGER: floor.manager,
        AUDITOR: floor.auditor,
        CAGE: cashier,
        ANONYMOUS: None,
    }
    wrong = []
    for role in ROLES:
        for venue in (OWN, OTHER):
            want = endpoint.expected(role, venue)
            # A read or a refusal must leave every row as it was.
            unchanged = endpoint.method == "GET" or want >= 400
            # Each cell from the same starting point: made and undone in a savepoint.
            with transaction.atomic():
                call = endpoint.make(sides[venue])
                before = floor_state() if unchanged else None
                client = client_for(users[role])
                response = getattr(client, endpoint.method.lower())(
                    call.path, call.body, **call.headers
                )
                after = floor_state() if unchanged else None
                transaction.set_rollback(True)
            body = response.json()
            if response.status_code != want:
                wrong.append((role, venue, response.status_code, want, body))
                continue
            if response.status_code >= 400:
                assert set(body) == {"error", "detail", "field"}, body
            assert before == after, f"{role} at {venue}: the call changed the floor"
            if endpoint.is_list and response.status_code == 200:
                ids = [row["id"] for row in body["results"]]
                assert (call.listed_id in ids) == (venue == OWN), (role, venue, ids)
    assert not wrong, "\n".join(
        f"{role:10} {venue:5} got {got}, want {want}: {body}"
        for role, venue, got, want, body in wrong
    )
