"""Who gets what: every URL of the project x every role x their own venue and another one.

``ROUTES`` names every URL pattern the resolver knows (a test walks it and fails on a
pattern the table does not name, or names one that is gone) with what each caller gets,
which is what the view's declared capability (``casino/staff/policy.py``) names:
- the console and the reports send an anonymous caller to the login page, answer 404 for
  another venue's table, session or report, and 403 to a role without the right there;
- the API answers 401 to an anonymous caller, 403 to a role without the right (before any
  lookup), 404 for another venue's object, and leaves other venues out of its lists;
- the admin sends non-staff to its login page and answers 403 to staff without the model
  permission; a venue's staff find only their venues' rows (another venue's object is not
  found, which Django's admin answers with a redirect to its index).
On top of the status of each cell: no response is a 500; no response to a venue's staff
carries a trace of another venue (its name and codes, its players and staff, its admin
links), nor does any response to an anonymous caller; a refused POST or PATCH writes no
row; and POSTs without a CSRF token are refused. The callers are the four roles and a
staff member without one, all at the own venue, an anonymous caller and a superuser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal as D
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from django_celery_beat.models import ClockedSchedule, CrontabSchedule, SolarSchedule

from baccarat.models import BaccaratRulesetVersion, CommissionCollection, Shoe
from baccarat.services import commission_collect, shoe_start
from casino.audit.models import AuditEvent
from casino.cage.models import Slip
from casino.cage.services.cash import cash_record
from casino.cage.services.credit_lines import credit_line_approve, credit_line_propose
from casino.cage.services.front_money import front_money_deposit
from casino.cage.services.inventory import cage_count_record, cage_count_sign
from casino.cage.services.manual import manual_series_issue
from casino.cage.services.markers import marker_issue_at_cage, marker_pay
from casino.cage.services.patrons import unknown_patron_create
from casino.cage.services.slips import slip_request
from casino.cage.services.thresholds import thresholds_propose
from casino.compliance.services import case_open
from casino.count.models import DropBox
from casino.floor.models import Round, TableSession
from casino.floor.services.closing import session_close, session_figures
from casino.floor.services.limits import limit_change_schedule
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import drop_record, session_open, shift_current
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.integrity.investigation_steps import investigation_note_add
from casino.integrity.investigations import investigations_sync
from casino.integrity.models import FluctuationInvestigation, InvestigationNote
from casino.ledger.models import Drop, LedgerEntry
from casino.players.models import Player
from casino.reports import outputs
from casino.reports.models import ShiftReport
from casino.reports.schedules import schedules_install
from casino.reports.services import report_build, report_request
from casino.rulesets.models import Ruleset
from casino.simulation import chips_for
from casino.staff.logins import login_record, token_issue
from casino.staff.models import ApiToken, LoginAttempt
from casino.staff.policy import Capability, capability_of
from casino.staff.roles import (
    AUDITOR,
    CAGE,
    CASHIER,
    COMPLIANCE,
    COMPLIANCE_WORK,
    COUNT,
    COUNT_FIGURES,
    COUNT_TEAM,
    DEALER,
    GROUP_MANAGER,
    MANAGE,
    MANAGER,
    PLAY,
    READ,
    ROLE_PERMISSIONS,
    SUPERVISE,
    SUPERVISOR,
    grant,
    role_group,
    role_permissions,
)
from casino.venues.models import (
    GamingDay,
    Pit,
    Shift,
    Table,
    TableLimitChange,
    TableRulesetChange,
    Venue,
)
from casino.venues.services.pits import pit_create
from casino.venues.services.table_rulesets import ruleset_change_request
from casino.venues.services.tables import table_create
from maubinh.models import MauBinhRulesetVersion
from niuniu.models import NiuNiuRulesetVersion
from tablegames.models import TableGameRulesetVersion
from tablegames.services import venue_ruleset_from_preset
from tests.baccarat.conftest import baccarat_ruleset, baccarat_table
from tests.casino.api import NIU_8, NIU_9
from tests.factories import PlayerFactory, UserFactory, VenueFactory, niuniu_table, staff
from tests.maubinh.conftest import TEST_DEALS, maubinh_table
from tests.maubinh.test_rounds import SEAT_1, SEAT_2

pytestmark = pytest.mark.django_db

ANONYMOUS, STAFF, SUPERUSER, BOTH = "anonymous", "staff", "superuser", "both"
#: Every caller: the six floor roles at the own venue, staff there with no role (the admin
#: lets any staff member in, the model permissions decide), a superuser working at no venue.
#: (``test_a_member_is_at_each_venue_what_they_are_there`` adds one with a role at each.)
CALLERS = (ANONYMOUS, DEALER, SUPERVISOR, MANAGER, AUDITOR, CAGE, COUNT, STAFF, SUPERUSER)
VENUE_STAFF = frozenset({DEALER, SUPERVISOR, MANAGER, AUDITOR, CAGE, COUNT, STAFF})
ADMIN_STAFF = frozenset({SUPERVISOR, MANAGER, AUDITOR, STAFF, SUPERUSER})
#: "Supervisors, managers and auditors of a venue read its reports" (casino/reports/views.py).
REPORT_READ = frozenset({SUPERVISOR, MANAGER, AUDITOR})
OWN, OTHER, ANY = "own", "other", "any"
#: Capabilities no floor role is needed for, or the admin's model permissions decide.
UNSCOPED = (Capability.PUBLIC, Capability.SIGNED_IN, Capability.ADMIN)
PASSWORD = "pw-for-tests"  # tests/factories.py
OPENING = {"100000": 50}


# What a cell answers


@dataclass(frozen=True)
class Redirect:
    to: str
    exact: bool = False
    status: int = 302


LOGIN = Redirect(f"{settings.LOGIN_URL}?next=")
ADMIN_LOGIN = Redirect("/admin/login/?next=")
#: Django's admin answers an object its queryset does not hold with a redirect to its index.
ADMIN_HOME = Redirect("/admin/", exact=True)
#: 200 with an empty ``results`` list (an API list or the admin's autocomplete).
EMPTY = "200, nothing listed"

Outcome = int | Redirect | str
#: (role, venue) -> what the cell answers; for a POST, None where the call is allowed.
Rule = Callable[[str, str], Outcome | None]


def works_at(role: str, venue: str) -> bool:
    """Whether the caller works at the venue the path names (ANY: a path naming none)."""
    return role in VENUE_STAFF and venue != OTHER


def everyone(outcome: Outcome) -> Rule:
    return lambda role, venue: outcome


def signed_in(outcome: Outcome, *, anonymous: Outcome) -> Rule:
    return lambda role, venue: anonymous if role == ANONYMOUS else outcome


def console(ok: Outcome | None = 200) -> Rule:
    """casino/floor/console/views.py: login, then the venue (404), then the dealer's role (403)."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return LOGIN
        if not works_at(role, venue):
            return 404
        return ok if role in PLAY else 403

    return rule


def count_team(ok: Outcome | None = 200, capability: frozenset[str] = COUNT_TEAM) -> Rule:
    """casino/count/views.py: login, then the venue (404), then the count team's role
    there (403); the figures also to the pit's supervisors, managers and auditors."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return LOGIN
        if not works_at(role, venue):
            return 404
        return ok if role in capability else 403

    return rule


def read_only(ok: Outcome | None = 200) -> Rule:
    """casino/floor/console/pit.py: login, then the venue (404), then any role there (403)."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return LOGIN
        if not works_at(role, venue):
            return 404
        return ok if role in READ else 403

    return rule


def cashier_page(ok: Outcome | None = 200) -> Rule:
    """casino/cage/views/cage.py: login, then the venue (404), then the cashier's role (403)."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return LOGIN
        if not works_at(role, venue):
            return 404
        return ok if role in CASHIER else 403

    return rule


def counter_page(ok: Outcome | None = 200) -> Rule:
    """casino/cage/views/inventory.py: login, the venue (404), then a cashier or a manager
    (403)."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return LOGIN
        if not works_at(role, venue):
            return 404
        return ok if role in CASHIER | MANAGE else 403

    return rule


def pit_runner(ok: Outcome | None = 200) -> Rule:
    """casino/floor/console/floor.py: login, the venue (404), then a supervisor named to the pit
    or a manager of the venue (403)."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return LOGIN
        if not works_at(role, venue):
            return 404
        return ok if role in SUPERVISE else 403

    return rule


def series_issuer(ok: Outcome | None = 200) -> Rule:
    """A manual series' issue and print: the venue (404), then its managers and cashiers."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return LOGIN
        if not works_at(role, venue):
            return 404
        return ok if role in MANAGE | CASHIER else 403

    return rule


def compliance_page(ok: Outcome | None = 200) -> Rule:
    """casino/compliance/views.py: login, then the venue (404), then its compliance staff
    (403 to every floor role: the player's dealer and supervisor, the managers, everyone)."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return LOGIN
        if not works_at(role, venue):
            return 404
        return ok if role in COMPLIANCE_WORK else 403

    return rule


def slip_report(ok: Outcome | None = 200) -> Rule:
    """The slip report: the venue (404), then its cashiers, supervisors, managers and
    auditors (403 to anyone else)."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return LOGIN
        if not works_at(role, venue):
            return 404
        return ok if role in CASHIER | SUPERVISE | {AUDITOR} else 403

    return rule


def patron_recorder(ok: Outcome | None = 200) -> Rule:
    """An unknown patron recorded on the cage's screen: the venue (404), then its cashiers
    and supervisors (403 to anyone else: a dealer records one at the table)."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return LOGIN
        if not works_at(role, venue):
            return 404
        return ok if role in CASHIER | SUPERVISE else 403

    return rule


def reports(ok: Outcome | None = 200, capability: frozenset[str] = REPORT_READ) -> Rule:
    """casino/reports/views.py: another venue is not found, another role forbidden."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return LOGIN
        if not works_at(role, venue):
            return 404
        if role not in REPORT_READ:
            return 403
        return ok if role in capability else 403

    return rule


def group_page(ok: Outcome = 200) -> Rule:
    """casino/group/views.py: login, then a reader of a venue of the group (403 to anyone
    else, a superuser with no group role too)."""

    def rule(role: str, venue: str) -> Outcome:
        if role == ANONYMOUS:
            return LOGIN
        return ok if role in REPORT_READ or role == BOTH else 403

    return rule


def api(ok: Outcome | None = 200, capability: frozenset[str] = READ, listing=False) -> Rule:
    """casino/api/permissions.py: the role before any lookup, then the venue."""

    def rule(role: str, venue: str) -> Outcome | None:
        if role == ANONYMOUS:
            return 401
        if role not in capability:
            return 403
        if not works_at(role, venue):
            return EMPTY if listing else 404
        return ok

    return rule


def admin_site(staff_rule: Rule) -> Rule:
    """Every admin URL sends non-staff to the admin's login page first."""

    def rule(role: str, venue: str) -> Outcome | None:
        return staff_rule(role, venue) if role in ADMIN_STAFF else ADMIN_LOGIN

    return rule


# The venues: the caller's own and another one, each with a floor that has been played on


@dataclass
class Side:
    """One venue and what is on its floor. ``mark`` is in its code, names and usernames."""

    mark: str
    venue: Venue
    dealer: Any
    supervisor: Any
    supervisor2: Any
    manager: Any
    auditor: Any
    cage: Any
    count: Any
    staff: Any
    table: Table  # Niu Niu, with a session open
    free_table: Table  # Niu Niu, closed
    alt_ruleset: Ruleset  # another Niu Niu ruleset of the venue
    ruleset_change: TableRulesetChange  # free_table to alt_ruleset, asked by a second manager
    mb_table: Table  # Mau Binh, with a session open
    player: Player
    shift: Shift  # today's, with its report built
    spare_shift: Shift  # an earlier one, with no report
    closed_session: TableSession
    session: TableSession
    mb_session: TableSession
    round: Round  # settled, in ``session``
    slip: Slip  # requested, in ``mb_session`` (``session`` has nothing left to close it)
    drop: Drop  # entered in ``session``, not reversed
    report: ShiftReport
    event: AuditEvent
    entry: LedgerEntry
    nn_version: NiuNiuRulesetVersion
    mb_version: MauBinhRulesetVersion
    token: ApiToken  # the dealer's
    login: LoginAttempt  # a failed login of the dealer's
    #: A round's form as the console previewed it (with its digest): Confirm would settle it.
    round_form: dict = field(default_factory=dict)
    mb_round_form: dict = field(default_factory=dict)
    #: Opened by a flag of ``report`` (its total, flagged for the test), with a note.
    investigation: FluctuationInvestigation | None = None
    note: InvestigationNote | None = None
    #: The integrity run of today's tallies: its result for ``table`` (its rounds' page).
    integrity_result: Any = None
    #: A buy-in recorded in ``session``, and thresholds proposed by a second manager.
    cash_tx: Any = None
    cash_version: Any = None
    #: A front money deposit of ``player`` at the cage.
    front_money: Any = None
    #: ``player``'s credit limit proposed (a second one approved before it), a marker of
    #: theirs issued at the cage and a payment of it.
    credit_line: Any = None
    marker: Any = None
    marker_payment: Any = None
    unknown_patron: Any = None
    #: A cage shift opened by a count of the cage's cashier, signed by the manager.
    cage_shift: Any = None
    #: An open session at a rated table game's table, and the version of its ruleset.
    tg_session: TableSession | None = None
    tg_version: TableGameRulesetVersion | None = None
    #: An open session at a Baccarat table whose commission is owed in the commission box.
    bac_session: TableSession | None = None
    bac_round_form: dict = field(default_factory=dict)
    #: Its ruleset's version, the shoe started after its commission box was collected.
    bac_version: BaccaratRulesetVersion | None = None
    bac_shoe: Shoe | None = None
    bac_collection: CommissionCollection | None = None
    #: The venue's pit (``table`` in it, run by ``supervisor``) and a change of limits.
    pit: Pit | None = None
    limit_change: TableLimitChange | None = None
    #: A manual series of round sheets for ``table`` (the system-down paper).
    series: Any = None
    #: A suspicious-activity case about ``player``, opened by the venue's compliance officer.
    case: Any = None


@dataclass
class World:
    own: Side
    other: Side
    superuser: Any
    #: A manager at the own venue who deals at the other one.
    both: Any
    group: Group
    beat: dict[str, int]
    #: The two venues as one operating group, a group manager's proposed rate, the group's
    #: records (``casino.group``).
    operating: Any = None
    rate: Any = None
    #: A logged-in session per caller, made once: a cell's client only sets the cookie.
    session_keys: dict[str, str] = field(default_factory=dict)
    traces: dict[str, list[str]] = field(default_factory=dict)

    def user(self, role: str) -> Any:
        if role == SUPERUSER:
            return self.superuser
        if role == BOTH:
            return self.both
        return getattr(self.own, "staff" if role == STAFF else role)

    def side(self, venue: str) -> Side:
        return self.other if venue == OTHER else self.own


def _settled_round(session: TableSession, side_dealer: Any, player: Player) -> Round:
    round_, _result = round_create(
        session=session,
        user=side_dealer,
        dealer_cards=NIU_8,
        boxes=[
            BoxInput(position=1, cards=NIU_9, stakes={"single": D("100000")}, player_id=player.pk)
        ],
    )
    settled, _result = round_settle(round_=round_, user=side_dealer, key=f"settle-{round_.pk}")
    return settled


def _closed(session: TableSession, supervisor: Any) -> TableSession:
    figures = session_figures(session)
    tray = session.opening_total + figures["fills"] - figures["credits"] + figures["win_by_ledger"]
    return session_close(
        session=session,
        counted_by=session.dealer,
        confirmed_by=supervisor,
        closing_chips=chips_for(tray, session.table.chip_denominations),
    )


def build_side(mark: str) -> Side:
    venue = VenueFactory(
        code=mark, name=f"{mark.title()} Club", rounding_unit=D("1000"), language="en"
    )
    dealer = staff(f"{mark}-dealer", DEALER, venue)
    supervisor = staff(f"{mark}-supervisor", SUPERVISOR, venue)
    bare = UserFactory(username=f"{mark}-staff", is_staff=True)
    venue.staff.add(bare)
    table = niuniu_table(venue, code=f"{mark.upper()}-NN")
    mb_table = maubinh_table(venue, code=f"{mark.upper()}-MB")
    player = PlayerFactory(
        venue=venue, membership_number=f"{mark.upper()}-1", name=f"{mark.title()} Player"
    )
    shift = shift_current(venue=venue)
    closed = session_open(
        table=table, counted_by=dealer, confirmed_by=supervisor, opening_chips=OPENING, shift=shift
    )
    _settled_round(closed, dealer, player)
    closed = _closed(closed, supervisor)
    session = session_open(
        table=table,
        counted_by=dealer,
        confirmed_by=supervisor,
        opening_chips=OPENING,
        discrepancy_reason="the tray is made up to the opener",
        shift=shift,
    )
    round_ = _settled_round(session, dealer, player)
    mb_session = session_open(
        table=mb_table, counted_by=dealer, confirmed_by=supervisor, opening_chips=OPENING
    )
    report = report_request(shift_id=shift.pk, send=False)
    free_table = niuniu_table(venue, code=f"{mark.upper()}-FREE")
    alt_ruleset = Ruleset.objects.create(
        venue=venue, game="niuniu", code=f"{mark}-alt", name=f"{mark.title()} Alt"
    )
    ruleset_change = ruleset_change_request(
        table=free_table,
        user=staff(f"{mark}-manager2", MANAGER, venue),
        ruleset=alt_ruleset,
        reason="a new sheet",
    )
    side = Side(
        mark=mark,
        venue=venue,
        dealer=dealer,
        supervisor=supervisor,
        supervisor2=staff(f"{mark}-supervisor2", SUPERVISOR, venue),
        manager=staff(f"{mark}-manager", MANAGER, venue),
        auditor=staff(f"{mark}-auditor", AUDITOR, venue),
        cage=staff(f"{mark}-cage", CAGE, venue),
        count=staff(f"{mark}-count", COUNT, venue),
        staff=bare,
        table=table,
        free_table=free_table,
        alt_ruleset=alt_ruleset,
        ruleset_change=ruleset_change,
        mb_table=mb_table,
        player=player,
        shift=shift,
        spare_shift=shift_current(venue=venue, at=timezone.now() - timedelta(days=3)),
        closed_session=closed,
        session=session,
        mb_session=mb_session,
        round=round_,
        slip=slip_request(session=mb_session, user=supervisor, kind="fill", chips={"100000": 5}),
        drop=drop_record(session=session, user=supervisor, amount=D("50000")),
        report=report_build(report_id=report.pk, email=False),
        event=AuditEvent.objects.filter(venue=venue).latest("pk"),
        entry=LedgerEntry.objects.filter(venue=venue).earliest("pk"),
        nn_version=NiuNiuRulesetVersion.objects.get(ruleset=table.ruleset),
        mb_version=MauBinhRulesetVersion.objects.get(ruleset=mb_table.ruleset),
        token=token_issue(user=dealer, device=f"{mark}-tablet")[0],
        login=login_record(
            username=dealer.username,
            address="192.0.2.1",
            user_agent="tablet",
            entry_point=LoginAttempt.EntryPoint.API,
            outcome=LoginAttempt.Outcome.FAILED,
        ),
    )
    side.investigation = _investigation(side.report)
    side.integrity_result = _integrity_result(side)
    side.note = investigation_note_add(
        investigation=side.investigation, user=side.manager, text=f"{mark} note"
    )
    side.cash_tx = cash_record(session=session, user=dealer, player=player, amount=D("500000"))
    side.front_money = front_money_deposit(
        venue=venue, player=player, user=side.cage, amount=D("1000000")
    )
    credit_line_approve(
        line=credit_line_propose(
            venue=venue, player=player, user=ruleset_change.requested_by, limit=D("50000000")
        ),
        user=side.manager,
    )
    side.credit_line = credit_line_propose(
        venue=venue, player=player, user=ruleset_change.requested_by, limit=D("60000000")
    )
    side.marker = marker_issue_at_cage(
        venue=venue,
        player=player,
        user=side.cage,
        supervisor=side.supervisor,
        amount=D("2000000"),
        player_signed=True,
    )
    side.marker_payment = marker_pay(
        marker=side.marker, user=side.cage, amount=D("1000"), method="cash"
    )
    side.unknown_patron = unknown_patron_create(
        venue=venue, user=side.cage, description=f"{side.mark} in a grey jacket"
    )
    opening = cage_count_record(
        venue=venue, user=side.cage, kind="opening", counted={"chips": {"100000": 10}}
    )
    side.cage_shift = cage_count_sign(count=opening, user=side.manager).shift
    side.cash_version = thresholds_propose(
        venue=venue,
        user=ruleset_change.requested_by,
        logging_threshold=D("30000000"),
        reporting_threshold=D("100000000"),
    )
    side.tg_version = venue_ruleset_from_preset(
        venue=venue,
        preset_code="blackjack-6deck",
        editor=side.manager,
        approver=staff(f"{mark}-tg-approver", MANAGER, venue),
    )
    bj_table = table_create(
        venue=venue,
        user=side.manager,
        code=f"{mark.upper()}-BJ",
        game="tablegames",
        ruleset=side.tg_version.ruleset,
        seats=7,
        chip_denominations=["100000", "10000"],
        limits={"bet": {"min_stake": D("10000"), "max_stake": D("1000000")}},
    )
    side.tg_session = session_open(
        table=bj_table, counted_by=dealer, confirmed_by=supervisor, opening_chips=OPENING
    )
    bac_ruleset = baccarat_ruleset(
        venue,
        side.manager,
        staff(f"{mark}-bac-approver", MANAGER, venue),
        code=f"{mark}-bac",
        collection="box",
    )
    side.bac_version = BaccaratRulesetVersion.objects.get(ruleset=bac_ruleset)
    side.bac_session = session_open(
        table=baccarat_table(venue, bac_ruleset, code=f"{mark.upper()}-BAC"),
        counted_by=dealer,
        confirmed_by=supervisor,
        opening_chips=OPENING,
    )
    banker_wins, _result = round_create(
        session=side.bac_session,
        user=dealer,
        dealer_cards="2S 9H 3C KD",  # a natural 9 for the Banker: 5% owed in the box
        boxes=[BoxInput(position=1, cards="", stakes={"banker": D("100000")})],
    )
    round_settle(round_=banker_wins, user=dealer, key=f"settle-{banker_wins.pk}")
    side.bac_collection = commission_collect(session=side.bac_session, position=1, user=dealer)
    side.bac_shoe = shoe_start(session=side.bac_session, user=dealer)
    side.pit = pit_create(
        user=side.manager,
        venue=venue,
        code=f"{mark}-pit",
        name=f"{mark.title()} Pit",
        supervisors=[supervisor],
        tables=[table],
    )
    side.limit_change = limit_change_schedule(
        user=supervisor,
        table=table,
        bet_type="single",
        min_stake=D("20000"),
        max_stake=D("5000000"),
        effective_at=timezone.now() + timedelta(days=1),
        reason="a high-limit evening",
    )
    side.series = manual_series_issue(
        table=table, user=side.manager, kind="round", prefix=f"{mark}-R-", first=1, last=3
    )
    side.case = case_open(
        venue=venue,
        user=staff(f"{mark}-compliance", COMPLIANCE, venue),
        player=player,
        grounds=f"{mark} cash in split across tables",
    )
    return side


def _integrity_result(side: Side) -> Any:
    from casino.integrity.runs import integrity_run

    day = side.shift.gaming_date
    run = integrity_run(venue=side.venue, date_from=day, date_to=day)
    return run.results.filter(scope="table", table=side.table).first()


def _investigation(report: ShiftReport) -> FluctuationInvestigation:
    """The report's total flagged (the figures as a wild shift would leave them)."""
    total = {**report.figures["total"], "flagged": True}
    ShiftReport.objects.filter(pk=report.pk).update(figures={**report.figures, "total": total})
    report.refresh_from_db()
    (investigation,) = investigations_sync(report)
    return investigation


ROUND_FORM = {
    "key": "0123456789abcdef0123456789abcdef",
    "dealer-cards": NIU_8,
    "box-1-cards": NIU_9,
    "box-1-single": "100,000",
}
MB_ROUND_FORM = {
    "key": "fedcba9876543210fedcba9876543210",
    "stake": "10,000",
    **{
        f"seat-{position}-{row}": cards
        for position, seat in ((1, SEAT_1), (2, SEAT_2))
        for row, cards in zip(("back", "middle", "front"), seat.split(" / "), strict=True)
    },
}

BAC_ROUND_FORM = {
    "key": "0123456789abcdef0123456789abcdee",
    **{"bac-p1": "2S", "bac-b1": "9H", "bac-p2": "3C", "bac-b2": "KD"},
    "box-1-banker": "100,000",
}


def previewed(side: Side) -> None:
    """The side's round forms with the digest the console's preview gives them."""
    client = Client()
    client.force_login(side.dealer)
    for name, data, attribute, session in (
        ("preview", ROUND_FORM, "round_form", side.session),
        ("preview", MB_ROUND_FORM, "mb_round_form", side.mb_session),
        ("preview", BAC_ROUND_FORM, "bac_round_form", side.bac_session),
    ):
        page = client.post(reverse(f"console:{name}", args=[session.pk]), data)
        assert page.status_code == 200, page.content.decode()[:2000]
        digest = re.search(r'name="digest" value="([0-9a-f]+)"', page.content.decode())[1]
        setattr(side, attribute, {**data, "digest": digest})


def build_group(world: World) -> None:
    """The own and the other venue in one operating group, its group manager (no venue role)
    and a rate they proposed (a second group manager would approve it)."""
    from casino.group.services import group_create, group_role_grant, group_venue_add, rate_propose

    group = group_create(
        user=world.superuser, code="antipodes", name="Antipodes group", reporting_currency="USD"
    )
    for side, country in ((world.own, "AU"), (world.other, "NZ")):
        group_venue_add(user=world.superuser, group=group, venue=side.venue, country=country)
    proposer = UserFactory(username="group-proposer")
    group_role_grant(user=world.superuser, group=group, member=proposer, role=GROUP_MANAGER)
    world.operating = group
    world.rate = rate_propose(
        group=group,
        user=proposer,
        day=world.own.shift.gaming_date,
        from_currency=world.own.venue.currency,
        rate="0.00004",
        source="a bank's fixing",
    )


def build_world() -> World:
    real_pdf, outputs.render_pdf = outputs.render_pdf, lambda figures, svgs: b"%PDF-1.7 stub"
    try:
        with override_settings(MAUBINH_HOUSE_TAKE_DEALS=TEST_DEALS):
            own, other = build_side("quokka"), build_side("wombat")
    finally:
        outputs.render_pdf = real_pdf
    previewed(own)
    previewed(other)
    periodic, _created = schedules_install()
    world = World(
        own=own,
        other=other,
        superuser=UserFactory(username="root", is_staff=True, is_superuser=True),
        both=staff("two-hats", MANAGER, own.venue),
        group=role_group(MANAGER),
        beat={
            "periodictask": periodic.pk,
            "intervalschedule": periodic.interval_id,
            "crontabschedule": CrontabSchedule.objects.create(minute="0", hour="6").pk,
            "solarschedule": SolarSchedule.objects.create(
                event="sunrise", latitude=D("21.03"), longitude=D("105.85")
            ).pk,
            "clockedschedule": ClockedSchedule.objects.create(clocked_time=timezone.now()).pk,
        },
    )
    grant(world.both, other.venue, DEALER)
    build_group(world)
    for role in (*CALLERS, BOTH):
        if role != ANONYMOUS:
            client = Client()
            client.force_login(world.user(role))
            world.session_keys[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return world


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Both venues, made once for the module in a transaction rolled back at its end; each
    test runs in a savepoint on top of it."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


# The table of routes


@dataclass(frozen=True)
class Route:
    path: Callable[[World, Side], str]
    get: Rule
    #: Whether the path names a venue's object (a cell per venue) or none (one cell).
    venue_bound: bool = True
    #: A POST (or PATCH) that changes something: who is refused, and the body it sends.
    post: Rule | None = None
    body: Callable[[World, Side], dict] = lambda world, side: {}
    method: str = "post"
    json: bool = False
    #: Sent with every request of the route (its GET too), as request META keys.
    headers: dict[str, str] = field(default_factory=dict)
    #: What an allowed 200 at the caller's own venue shows of it.
    shows: Callable[[World, Side], str] | None = None
    #: Whether a superuser's 200 shows ``shows`` of both venues (a list of every venue).
    lists_every_venue: bool = False
    #: An API list: the id of the side's object, listed at its own venue only.
    listed: Callable[[Side], int] | None = None


def mark(world: World, side: Side) -> str:
    return side.mark


def _console(name: str, *ids: Callable[[Side], int]) -> Callable[[World, Side], str]:
    return lambda world, side: reverse(f"console:{name}", args=[get(side) for get in ids])


def _session(side: Side) -> int:
    return side.session.pk


def _mb_session(side: Side) -> int:
    return side.mb_session.pk


def _bac_session(side: Side) -> int:
    return side.bac_session.pk


def _tg_session(side: Side) -> int:
    return side.tg_session.pk


def _count(name: str, *ids: Callable[[Side], int]) -> Callable[[World, Side], str]:
    """A count page of the side's venue and gaming day (``ids``: what follows them)."""
    return lambda world, side: reverse(
        f"console:{name}",
        args=[side.venue.pk, side.shift.gaming_date.isoformat(), *[get(side) for get in ids]],
    )


def _box(side: Side) -> int:
    """The drop box of the side's open session (in use at its table)."""
    return DropBox.objects.get(box_sessions__session=side.session).pk


def _round_form(world: World, side: Side) -> dict:
    return side.round_form


def _mb_form(world: World, side: Side) -> dict:
    return side.mb_round_form


def _signed(world: World, side: Side, **data: Any) -> dict:
    """A form a supervisor of the caller's own venue signs with their password."""
    return {"supervisor": world.own.supervisor.username, "password": PASSWORD, **data}


def _confirmed(world: World, side: Side, **data: Any) -> dict:
    """A count the own venue's second supervisor confirms (whoever calls counted it)."""
    return {"supervisor": world.own.supervisor2.username, "password": PASSWORD, **data}


def _credentials(user: Any) -> dict:
    return {"username": user.username, "password": PASSWORD}


CONSOLE_ROUTES = {
    "console:home": Route(
        lambda world, side: reverse("console:home"),
        signed_in(200, anonymous=LOGIN),
        venue_bound=False,
        shows=mark,
    ),
    # Forgets the language cookie; the same for anyone.
    "console:language-of-venue": Route(
        lambda world, side: reverse("console:language-of-venue"), everyone(405), venue_bound=False
    ),
    # The lock screen's lock, the page's beat and the unlock take a POST only (the unlock's
    # refusals are login attempts, recorded).
    "console:lock": Route(
        lambda world, side: reverse("console:lock"), everyone(405), venue_bound=False
    ),
    "console:active": Route(
        lambda world, side: reverse("console:active"), everyone(405), venue_bound=False
    ),
    "console:unlock": Route(
        lambda world, side: reverse("console:unlock"), everyone(405), venue_bound=False
    ),
    "console:pin": Route(
        lambda world, side: reverse("console:pin"),
        signed_in(200, anonymous=LOGIN),
        venue_bound=False,
    ),
    # Read-only: any role at the venue reads it; a POST is refused to everyone.
    "console:watch": Route(
        _console("watch", _session),
        read_only(),
        post=read_only(403),
        shows=mark,
    ),
    "console:open": Route(
        lambda world, side: reverse("console:open", args=[side.free_table.pk]),
        console(),
        post=console(None),
        body=lambda world, side: _confirmed(world, side, **{"chips-100000": "50"}),
        shows=mark,
    ),
    "console:round": Route(_console("round", _session), console(), shows=mark),
    "console:hand": Route(_console("hand", _session), console(), shows=mark),
    "console:stakes": Route(_console("stakes", _session), console(), shows=mark),
    "console:player": Route(_console("player", _session), console(), shows=mark),
    "console:preview": Route(
        _console("preview", _session), everyone(405), post=console(None), body=_round_form
    ),
    "console:confirm": Route(
        _console("confirm", _session), everyone(405), post=console(None), body=_round_form
    ),
    "console:mb-seat": Route(_console("mb-seat", _mb_session), console(), shows=mark),
    "console:mb-arrange": Route(
        _console("mb-arrange", _mb_session), everyone(405), post=console(None), body=_mb_form
    ),
    "console:bac-deal": Route(_console("bac-deal", _bac_session), console(), shows=mark),
    "console:bac-stakes": Route(_console("bac-stakes", _bac_session), console(), shows=mark),
    "console:bac-player": Route(_console("bac-player", _bac_session), console(), shows=mark),
    # A new shoe and a collection from the commission box: the dealer's, refused to the rest.
    "console:bac-shoe": Route(
        _console("bac-shoe", _bac_session), everyone(405), post=console(None)
    ),
    "console:bac-collect": Route(
        _console("bac-collect", _bac_session),
        everyone(405),
        post=console(None),
        body=lambda world, side: {"box": "1"},
    ),
    # A rated table game's rating is a supervisor's (POST only).
    "console:tablegames-rate": Route(
        _console("tablegames-rate", _tg_session),
        everyone(405),
        post=lambda role, venue: (
            console(None)(role, venue) or (403 if role not in SUPERVISE else None)
        ),
        body=lambda world, side: {
            "player": side.player.membership_number,
            "average_bet": "100000",
            "started_at": timezone.localtime(side.tg_session.opened_at).isoformat(),
            "ended_at": timezone.localtime(timezone.now()).isoformat(),
        },
    ),
    "console:history": Route(_console("history", _session), console(), shows=mark),
    # Without htmx a round's detail is its place in the history.
    "console:round-detail": Route(
        _console("round-detail", _session, lambda side: side.round.pk),
        console(Redirect("/console/sessions/")),
    ),
    "console:void": Route(
        _console("void", _session, lambda side: side.round.pk),
        everyone(405),
        post=console(None),
        body=lambda world, side: _signed(world, side, reason="misdeal"),
    ),
    "console:slips": Route(
        _console("slips", _session),
        console(),
        post=console(None),
        body=lambda world, side: {"kind": "fill", "chips-100000": "5", "seen": "1"},
        shows=mark,
    ),
    # Voiding a requested slip at the table is a supervisor's: the dealer's POST is refused
    # by the service (403).
    "console:slip-step": Route(
        _console("slip-step", _mb_session, lambda side: side.slip.pk, lambda side: "void"),
        everyone(405),
        post=lambda role, venue: (
            console(None)(role, venue) or (403 if role not in SUPERVISE else None)
        ),
        body=lambda world, side: {"reason": "asked twice"},
    ),
    "console:cash": Route(
        _console("cash", _session),
        console(),
        post=console(None),
        body=lambda world, side: {"amount": "100,000", "key": "c" * 32},
        shows=mark,
    ),
    # A draw against front money at the table: whoever runs the table.
    "console:front-money": Route(
        _console("front-money", _session),
        console(),
        post=console(None),
        body=lambda world, side: {
            "player": side.player.membership_number,
            "amount": "100,000",
        },
        shows=mark,
    ),
    "console:markers": Route(
        _console("markers", _session),
        console(),
        post=console(None),
        body=lambda world, side: {"player": side.player.membership_number, "amount": "1000"},
        shows=mark,
    ),
    # Voiding a buy-in is a supervisor's: the dealer's POST is refused by the service (403).
    "console:cash-void": Route(
        _console("cash-void", _session, lambda side: side.cash_tx.pk),
        everyone(405),
        post=lambda role, venue: (
            console(None)(role, venue) or (403 if role not in SUPERVISE else None)
        ),
        body=lambda world, side: {"reason": "typed twice"},
    ),
    # Any role at the venue reads the session's dealers; a supervisor records a relief.
    "console:dealers": Route(
        _console("dealers", _session),
        read_only(),
        post=lambda role, venue: (
            read_only(None)(role, venue) or (403 if role not in SUPERVISE else None)
        ),
        body=lambda world, side: {"dealer": side.supervisor2.pk},
        shows=mark,
    ),
    # The floor view (casino/floor/console/floor.py): a pit's supervisors and the venue's managers.
    "console:pits": Route(
        lambda world, side: reverse("console:pits"),
        lambda role, venue: LOGIN if role == ANONYMOUS else (200 if role in SUPERVISE else 403),
        venue_bound=False,
    ),
    "console:pit": Route(
        lambda world, side: reverse("console:pit", args=[side.pit.pk]),
        pit_runner(),
        shows=mark,
    ),
    "console:limit-schedule": Route(
        lambda world, side: reverse("console:limit-schedule", args=[side.pit.pk]),
        everyone(405),
        post=pit_runner(None),
        body=lambda world, side: {
            "table": side.table.pk,
            "bet_type": "single",
            "min_stake": "20,000",
            "max_stake": "5,000,000",
            "effective_at": (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
            "reason": "evening",
        },
    ),
    # The cage's screens are the cashier's alone (casino/cage/views/cage.py).
    "console:cage-home": Route(
        lambda world, side: reverse("console:cage-home"),
        lambda role, venue: LOGIN if role == ANONYMOUS else (200 if role in CASHIER else 403),
        venue_bound=False,
    ),
    "console:cage": Route(
        lambda world, side: reverse("console:cage", args=[side.venue.pk]),
        cashier_page(),
        shows=mark,
    ),
    "console:cage-markers": Route(
        lambda world, side: reverse("console:cage-markers", args=[side.venue.pk]),
        cashier_page(),
        shows=mark,
    ),
    "console:cage-marker-issue": Route(
        lambda world, side: reverse("console:cage-marker-issue", args=[side.venue.pk]),
        everyone(405),
        post=cashier_page(None),
        body=lambda world, side: {"player": side.player.membership_number, "amount": "1000"},
    ),
    "console:cage-marker-pay": Route(
        lambda world, side: reverse(
            "console:cage-marker-pay", args=[side.venue.pk, side.marker.pk]
        ),
        everyone(405),
        post=cashier_page(None),
        body=lambda world, side: {"amount": "1000", "method": "cash"},
    ),
    "console:cage-step": Route(
        lambda world, side: reverse(
            "console:cage-step", args=[side.venue.pk, side.slip.pk, "issue"]
        ),
        everyone(405),
        post=cashier_page(None),
        body=lambda world, side: {"runner": "Lan"},
    ),
    "console:cage-front-money": Route(
        lambda world, side: reverse("console:cage-front-money", args=[side.venue.pk]),
        cashier_page(),
        post=cashier_page(None),
        body=lambda world, side: {
            "action": "deposit",
            "player": side.player.membership_number,
            "amount": "100,000",
        },
        shows=mark,
    ),
    # The cage's inventory: its cashiers' and the venue's managers' (casino/cage/views/
    # inventory.py); the window and the vault are the cashier's, as their services say.
    "console:cage-inventory": Route(
        lambda world, side: reverse("console:cage-inventory", args=[side.venue.pk]),
        counter_page(),
        shows=mark,
    ),
    "console:cage-count": Route(
        lambda world, side: reverse("console:cage-count", args=[side.venue.pk]),
        everyone(405),
        post=counter_page(None),
        body=lambda world, side: {"kind": "closing", "chips-100000": "10"},
    ),
    "console:cage-count-sign": Route(
        lambda world, side: reverse(
            "console:cage-count-sign", args=[side.venue.pk, _pending_cage_count(side)]
        ),
        everyone(405),
        post=counter_page(None),
    ),
    "console:cage-movement": Route(
        lambda world, side: reverse("console:cage-movement", args=[side.venue.pk, "to-vault"]),
        everyone(405),
        post=cashier_page(None),
        body=lambda world, side: {"chips-100000": "1"},
    ),
    # Any role at the slip's venue prints it.
    "console:slip-pdf": Route(
        lambda world, side: reverse("console:slip-pdf", args=[side.slip.pk]), read_only()
    ),
    "console:slip-report": Route(
        lambda world, side: reverse("console:slip-report", args=[side.venue.pk]),
        slip_report(),
        shows=mark,
    ),
    "console:slip-report-csv": Route(
        lambda world, side: reverse("console:slip-report-csv", args=[side.venue.pk]),
        slip_report(),
    ),
    # The multiple transaction log: read as the slip report is (the cage's readers).
    "console:cash-log": Route(
        lambda world, side: reverse("console:cash-log", args=[side.venue.pk]),
        slip_report(),
        shows=mark,
    ),
    "console:cash-log-csv": Route(
        lambda world, side: reverse("console:cash-log-csv", args=[side.venue.pk]),
        slip_report(),
    ),
    # The day's unknown patrons: read as the cash log is; recorded by the cage and the
    # supervisors, linked to a member by a supervisor or a manager.
    "console:cage-unknown-patrons": Route(
        lambda world, side: reverse("console:cage-unknown-patrons", args=[side.venue.pk]),
        slip_report(),
        shows=mark,
    ),
    "console:cage-unknown-patron-record": Route(
        lambda world, side: reverse("console:cage-unknown-patron-record", args=[side.venue.pk]),
        everyone(405),
        post=patron_recorder(None),
        body=lambda world, side: {"description": "a woman about 30, red scarf"},
    ),
    "console:cage-unknown-patron-link": Route(
        lambda world, side: reverse(
            "console:cage-unknown-patron-link", args=[side.venue.pk, side.unknown_patron.pk]
        ),
        everyone(405),
        post=pit_runner(None),
        body=lambda world, side: {"member": side.player.membership_number},
    ),
    # When the system is down: the series and late entries read as the slip report is;
    # a series issued and printed by a manager or the cage, its papers entered by the pit.
    "console:manual": Route(
        lambda world, side: reverse("console:manual", args=[side.venue.pk]),
        slip_report(),
        shows=mark,
    ),
    "console:manual-series-issue": Route(
        lambda world, side: reverse("console:manual-series-issue", args=[side.venue.pk]),
        everyone(405),
        post=series_issuer(None),
        body=lambda world, side: {
            "table": side.table.pk,
            "kind": "fill",
            "prefix": f"{side.mark}-F-",
            "first": "1",
            "last": "5",
        },
    ),
    "console:manual-series": Route(
        lambda world, side: reverse("console:manual-series", args=[side.series.pk]),
        slip_report(),
        shows=mark,
    ),
    "console:manual-series-print": Route(
        lambda world, side: reverse("console:manual-series-print", args=[side.series.pk]),
        series_issuer(),
        shows=mark,
    ),
    "console:manual-series-pdf": Route(
        lambda world, side: (
            reverse("console:manual-series-pdf", args=[side.series.pk]) + "?from=1&to=1"
        ),
        series_issuer(),
    ),
    "console:manual-paper-enter": Route(
        lambda world, side: reverse("console:manual-paper-enter", args=[side.series.pk]),
        everyone(405),
        post=pit_runner(None),
        body=lambda world, side: {
            "number": "1",
            "written_at": timezone.now().isoformat(),
            "dealer_cards": NIU_9,
            "box-1-cards": NIU_8,
            "box-1-bet": "single",
            "box-1-stake": "100000",
        },
    ),
    "console:manual-paper-spoil": Route(
        lambda world, side: reverse("console:manual-paper-spoil", args=[side.series.pk]),
        everyone(405),
        post=pit_runner(None),
        body=lambda world, side: {"spoil_number": "2", "reason": "torn"},
    ),
    "console:drop-reverse": Route(
        _console("drop-reverse", _session, lambda side: side.drop.pk),
        everyone(405),
        post=console(None),
        body=lambda world, side: _signed(world, side, reason="counted twice"),
    ),
    "console:close": Route(
        _console("close", _session),
        console(),
        post=console(None),
        body=lambda world, side: _confirmed(world, side, **{"chips-100000": "50"}),
        shows=mark,
    ),
    # The count: its team's pages; the venues it lists are the caller's own.
    "console:count-home": Route(
        lambda world, side: reverse("console:count-home"),
        signed_in(200, anonymous=LOGIN),
        venue_bound=False,
    ),
    "console:count-day": Route(_count("count-day"), count_team(), shows=mark),
    "console:count-box": Route(
        _count("count-box", _box),
        count_team(),
        post=count_team(None),
        body=lambda world, side: {"chips-100000": "5"},
        shows=mark,
    ),
    "console:count-close": Route(_count("count-close"), everyone(405), post=count_team(None)),
    # A closed count that left a box out is reopened by a manager, from the figures' page.
    "console:count-reopen": Route(
        _count("count-reopen"),
        everyone(405),
        post=count_team(None, capability=MANAGE),
        body=lambda world, side: {"reason": "a box left out"},
    ),
    "console:count-figures": Route(
        _count("count-figures"), count_team(capability=COUNT_FIGURES), shows=mark
    ),
}

REPORT_ROUTES = {
    "reports:dashboard": Route(
        lambda world, side: f"{reverse('reports:dashboard')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:report": Route(
        lambda world, side: reverse("reports:report", args=[side.report.pk]), reports(), shows=mark
    ),
    "reports:cash": Route(
        lambda world, side: f"{reverse('reports:cash')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:marker_aging": Route(
        lambda world, side: f"{reverse('reports:marker_aging')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:marker_aging_csv": Route(
        lambda world, side: f"{reverse('reports:marker_aging_csv')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:credit_line_propose": Route(
        lambda world, side: f"{reverse('reports:credit_line_propose')}?venue={side.venue.code}",
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
        body=lambda world, side: {"player": side.player.membership_number, "limit": "1000000"},
    ),
    "reports:marker_terms": Route(
        lambda world, side: f"{reverse('reports:marker_terms')}?venue={side.venue.code}",
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
        body=lambda world, side: {"term_days": "45", "credit_drop": "1"},
    ),
    "reports:credit_line_approve": Route(
        lambda world, side: (
            reverse("reports:credit_line_approve", args=[side.credit_line.pk])
            + f"?venue={side.venue.code}"
        ),
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
    ),
    "reports:cash_csv": Route(
        lambda world, side: f"{reverse('reports:cash_csv')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:front_money": Route(
        lambda world, side: f"{reverse('reports:front_money')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:front_money_csv": Route(
        lambda world, side: f"{reverse('reports:front_money_csv')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    # A reversal is a manager's: the service refuses the other readers (403).
    "reports:front_money_reverse": Route(
        lambda world, side: (
            reverse("reports:front_money_reverse", args=[side.front_money.pk])
            + f"?venue={side.venue.code}"
        ),
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
        body=lambda world, side: {"reason": "entered twice"},
    ),
    "reports:cash_thresholds": Route(
        lambda world, side: f"{reverse('reports:cash_thresholds')}?venue={side.venue.code}",
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
        body=lambda world, side: {"logging_threshold": "1000", "reporting_threshold": "2000"},
    ),
    "reports:cage_shifts": Route(
        lambda world, side: f"{reverse('reports:cage_shifts')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:cage_shift": Route(
        lambda world, side: reverse("reports:cage_shift", args=[side.cage_shift.pk]),
        reports(),
        shows=mark,
    ),
    "reports:cage_shift_csv": Route(
        lambda world, side: reverse("reports:cage_shift_csv", args=[side.cage_shift.pk]),
        reports(),
        shows=mark,
    ),
    "reports:chip_liability": Route(
        lambda world, side: f"{reverse('reports:chip_liability')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:chip_liability_csv": Route(
        lambda world, side: f"{reverse('reports:chip_liability_csv')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:cash_thresholds_approve": Route(
        lambda world, side: (
            reverse("reports:cash_thresholds_approve", args=[side.cash_version.pk])
            + f"?venue={side.venue.code}"
        ),
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
    ),
    # The group's figures (casino/group/views.py): a venue's readers read their venue's lines;
    # anyone else is told who reads them (403); only a group manager writes a rate.
    "group:dashboard": Route(
        lambda world, side: f"{reverse('group:dashboard')}?group={world.operating.code}",
        group_page(),
        venue_bound=False,
    ),
    "group:dashboard_csv": Route(
        lambda world, side: f"{reverse('group:dashboard_csv')}?group={world.operating.code}",
        group_page(),
        venue_bound=False,
    ),
    "group:rate_propose": Route(
        lambda world, side: reverse("group:rate_propose"),
        signed_in(405, anonymous=LOGIN),
        venue_bound=False,
        post=signed_in(403, anonymous=LOGIN),
        body=lambda world, side: {
            "group": world.operating.code,
            "day": "2026-12-03",
            "from_currency": side.venue.currency,
            "rate": "0.00004",
            "source": "a bank's fixing",
        },
    ),
    "group:rate_approve": Route(
        lambda world, side: reverse("group:rate_approve", args=[world.rate.pk]),
        signed_in(405, anonymous=LOGIN),
        venue_bound=False,
        post=signed_in(403, anonymous=LOGIN),
        body=lambda world, side: {"group": world.operating.code},
    ),
    "reports:periods": Route(
        lambda world, side: f"{reverse('reports:periods')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:periods_csv": Route(
        lambda world, side: f"{reverse('reports:periods_csv')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:reconciliation": Route(
        lambda world, side: f"{reverse('reports:reconciliation')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:reconciliation_file": Route(
        lambda world, side: (
            f"{reverse('reports:reconciliation_file', args=['csv'])}?venue={side.venue.code}"
        ),
        reports(),
        shows=mark,
    ),
    "reports:statistical": Route(
        lambda world, side: f"{reverse('reports:statistical')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:statistical_file": Route(
        lambda world, side: (
            f"{reverse('reports:statistical_file', args=['csv'])}?venue={side.venue.code}"
        ),
        reports(),
        shows=mark,
    ),
    "reports:file": Route(
        lambda world, side: reverse("reports:file", args=[side.report.pk, outputs.CSV_NAME]),
        reports(),
        shows=mark,
    ),
    "reports:rebuild": Route(
        lambda world, side: reverse("reports:rebuild", args=[side.report.pk]),
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
    ),
    "reports:build": Route(
        lambda world, side: reverse("reports:build", args=[side.spare_shift.pk]),
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
    ),
    "reports:investigations": Route(
        lambda world, side: f"{reverse('reports:investigations')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:investigation_log": Route(
        lambda world, side: f"{reverse('reports:investigation_log')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:investigation": Route(
        lambda world, side: reverse("reports:investigation", args=[side.investigation.pk]),
        reports(),
        shows=mark,
    ),
    # Each step is its service's to refuse: a reader who is not a manager is forbidden.
    "reports:investigation_step": Route(
        lambda world, side: reverse(
            "reports:investigation_step", args=[side.investigation.pk, "note"]
        ),
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
        body=lambda world, side: {"text": "seen on the tape"},
    ),
    # Game integrity: the venue's managers and auditors (its supervisors read no tests).
    "reports:integrity": Route(
        lambda world, side: f"{reverse('reports:integrity')}?venue={side.venue.code}",
        reports(capability=frozenset({MANAGER, AUDITOR})),
        shows=mark,
    ),
    "reports:integrity_rounds": Route(
        lambda world, side: reverse("reports:integrity_rounds", args=[side.integrity_result.pk]),
        reports(capability=frozenset({MANAGER, AUDITOR})),
        shows=mark,
    ),
    "reports:integrity_run": Route(
        lambda world, side: reverse("reports:integrity_run"),
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=frozenset({MANAGER})),
        body=lambda world, side: {"venue": side.venue.code, "from": "2026-01-01"},
    ),
    # Players and comps: the venue's report readers; each change is its service's to refuse.
    "reports:players": Route(
        lambda world, side: f"{reverse('reports:players')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:player": Route(
        lambda world, side: reverse("reports:player", args=[side.player.pk]),
        reports(),
        shows=mark,
    ),
    "reports:player_step": Route(
        lambda world, side: reverse("reports:player_step", args=[side.player.pk, "bar"]),
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
        body=lambda world, side: {"reason": "cheating", "starts_on": "2026-01-01"},
    ),
    "reports:exclusion_areas": Route(
        lambda world, side: f"{reverse('reports:exclusion_areas')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:exclusion_area_step": Route(
        lambda world, side: reverse("reports:exclusion_area_step", args=[side.venue.pk, "propose"]),
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
        body=lambda world, side: {
            "code": f"area-{side.venue.code}",
            "name": f"Area of {side.venue.name}",
            "venues": str(side.venue.pk),
        },
    ),
    "reports:comps": Route(
        lambda world, side: f"{reverse('reports:comps')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:comps_csv": Route(
        lambda world, side: f"{reverse('reports:comps_csv')}?venue={side.venue.code}",
        reports(),
    ),
    "reports:comp_policy": Route(
        lambda world, side: f"{reverse('reports:comp_policy')}?venue={side.venue.code}",
        reports(),
        shows=mark,
    ),
    "reports:comp_policy_step": Route(
        lambda world, side: reverse("reports:comp_policy_step", args=[side.venue.pk, "propose"]),
        signed_in(405, anonymous=LOGIN),
        post=reports(None, capability=MANAGE),
        body=lambda world, side: {
            "reinvestment_pct": "20",
            "supervisor_limit": "100000",
            "manager_limit": "500000",
        },
    ),
}

SITE_ROUTES = {
    "/": Route(lambda world, side: "/", everyone(Redirect("/console/")), venue_bound=False),
    "set_language": Route(
        lambda world, side: reverse("set_language"), everyone(Redirect("/")), venue_bound=False
    ),
    "login": Route(
        lambda world, side: reverse("login"),
        signed_in(Redirect(settings.LOGIN_REDIRECT_URL, exact=True), anonymous=200),
        venue_bound=False,
    ),
    "logout": Route(lambda world, side: reverse("logout"), everyone(405), venue_bound=False),
    # The second factor's pages (casino/staff/views.py): every caller here has given it
    # (tests/second_factor.py), or needs none; each page sends them on.
    **{
        name: Route(
            lambda world, side, name=name: reverse(name),
            signed_in(Redirect("/", exact=True), anonymous=LOGIN),
            venue_bound=False,
        )
        for name in (
            "second-factor-verify",
            "second-factor-enrol",
            "second-factor-recovery-codes",
        )
    },
    # The icon browsers ask for on every page, the login page included.
    "favicon": Route(lambda world, side: reverse("favicon"), everyone(200), venue_bound=False),
    # The probes need no login (casino/ops/views.py): /readyz fails here, as no Celery beat
    # runs beside the suite to write its heartbeat. /metrics answers by address alone, every
    # venue's figures to the monitoring address (tests/casino/ops/test_metrics.py), and
    # nothing to these callers, who come from another address.
    "healthz": Route(lambda world, side: reverse("healthz"), everyone(200), venue_bound=False),
    "readyz": Route(lambda world, side: reverse("readyz"), everyone(503), venue_bound=False),
    "metrics": Route(
        lambda world, side: reverse("metrics"),
        everyone(404),
        venue_bound=False,
        headers={"REMOTE_ADDR": "192.0.2.10"},
    ),
    # The API's description is for the API's callers (casino/api/docs.py): the schema as
    # the API answers, the Swagger page sends a browser to log in first.
    "schema": Route(lambda world, side: reverse("schema"), api(), venue_bound=False),
    "api-docs": Route(
        lambda world, side: reverse("api-docs"),
        lambda role, venue: LOGIN if role == ANONYMOUS else api()(role, venue),
        venue_bound=False,
    ),
}


def _api(name: str, *ids: Callable[[Side], int]) -> Callable[[World, Side], str]:
    return lambda world, side: reverse(f"api:{name}", args=[get(side) for get in ids])


def _api_list(name: str, query: str, listed: Callable[[Side], int], **post: Any) -> Route:
    """A list: unfiltered at the own venue (its object in, the other's out), filtered by the
    other venue's object there (nothing listed)."""

    def path(world: World, side: Side) -> str:
        url = reverse(f"api:{name}")
        return f"{url}?{query.format(side=side)}" if side is world.other else url

    return Route(path, api(listing=True), listed=listed, json=True, **post)


#: The cage's inventory: its cashiers, supervisors, managers and auditors.
CAGE_READ = CASHIER | SUPERVISE | {AUDITOR}


def _pending_cage_count(side: Side) -> int:
    """A closing count of the side's open cage shift, by its manager, waiting for a second
    signature."""
    return cage_count_record(
        venue=side.venue, user=side.manager, kind="closing", counted={"chips": {"100000": 10}}
    ).pk


def _write(gate: frozenset[str]) -> Rule:
    return api(None, capability=gate)


API_POST_ONLY = signed_in(405, anonymous=401)


#: casino/count/api.py: the count's readers before any lookup (403), then the venue.
_count_read = api(capability=COUNT_FIGURES)
#: The audit trail: whoever the admin shows it to (the roles with ``view_auditevent``).
AUDIT_READ = frozenset({MANAGER, AUDITOR})


def _api_count(name: str) -> Callable[[World, Side], str]:
    return lambda world, side: reverse(
        f"api:{name}", args=[side.venue.pk, side.shift.gaming_date.isoformat()]
    )


def _own_token(role: str, venue: str) -> Outcome | None:
    """Revoking a token: the dealer's own (the side's token is theirs); anyone else's is
    not found, whatever the caller's role."""
    if role == ANONYMOUS:
        return 401
    return None if role == DEALER and venue == OWN else 404


API_ROUTES = {
    "api:venue-list": Route(
        _api("venue-list"), api(), venue_bound=False, listed=lambda side: side.venue.pk
    ),
    "api:venue-detail": Route(_api("venue-detail", lambda side: side.venue.pk), api(), shows=mark),
    # The venue's tables are open: a plan of shifts keeping the day's start is taken.
    "api:venue-gaming-day": Route(
        _api("venue-gaming-day", lambda side: side.venue.pk),
        api(),
        post=_write(MANAGE),
        method="put",
        json=True,
        body=lambda world, side: {
            "gaming_day_starts": "06:00",
            "shifts": [{"name": "Early", "starts": "06:00"}, {"name": "Late", "starts": "18:00"}],
        },
        shows=mark,
    ),
    "api:table-list": _api_list(
        "table-list",
        "venue={side.venue.pk}",
        lambda side: side.table.pk,
        post=_write(MANAGE),
        body=lambda world, side: {
            "venue": side.venue.pk,
            "code": "INTRUDER",
            "game": "niuniu",
            "ruleset": side.table.ruleset_id,
            "seats": 6,
            "chip_denominations": ["100000", "10000"],
            "limits": {"single": {"min_stake": "10000", "max_stake": "1000000"}},
        },
    ),
    "api:table-detail": Route(
        _api("table-detail", lambda side: side.table.pk),
        api(),
        post=_write(MANAGE),
        method="patch",
        json=True,
        body=lambda world, side: {"status": "inactive"},
        shows=mark,
    ),
    "api:table-ruleset-change-list": _api_list(
        "table-ruleset-change-list",
        "table={side.free_table.pk}",
        lambda side: side.ruleset_change.pk,
        post=_write(MANAGE),
        body=lambda world, side: {
            "table": side.table.pk,
            "ruleset": side.alt_ruleset.pk,
            "reason": "a new sheet",
        },
    ),
    "api:table-ruleset-change-detail": Route(
        _api("table-ruleset-change-detail", lambda side: side.ruleset_change.pk),
        api(),
        shows=mark,
    ),
    "api:table-ruleset-change-approve": Route(
        _api("table-ruleset-change-approve", lambda side: side.ruleset_change.pk),
        API_POST_ONLY,
        post=_write(MANAGE),
        json=True,
    ),
    "api:table-ruleset-change-refuse": Route(
        _api("table-ruleset-change-refuse", lambda side: side.ruleset_change.pk),
        API_POST_ONLY,
        post=_write(MANAGE),
        json=True,
        body=lambda world, side: {"note": "not this season"},
    ),
    "api:player-list": _api_list(
        "player-list",
        "venue={side.venue.pk}",
        lambda side: side.player.pk,
        post=_write(MANAGE),
        body=lambda world, side: {
            "venue": side.venue.pk,
            "membership_number": "N1",
            "name": "Intruder",
        },
    ),
    "api:player-detail": Route(
        _api("player-detail", lambda side: side.player.pk),
        api(),
        post=_write(MANAGE),
        method="patch",
        json=True,
        body=lambda world, side: {"status": "barred"},
        shows=mark,
    ),
    # A player's rated play: the venue's report readers (before any lookup, then the venue).
    "api:player-history": Route(
        _api("player-history", lambda side: side.player.pk),
        api(capability=REPORT_READ),
        shows=mark,
    ),
    # Possible duplicates across the venues the caller reads the players of (not a venue's).
    "api:player-duplicates": Route(
        lambda world, side: reverse("api:player-duplicates") + "?name=Nobody",
        api(capability=REPORT_READ),
        venue_bound=False,
    ),
    # A membership linked to another venue's, or taken out of its person: a manager's.
    "api:player-link": Route(
        _api("player-link", lambda side: side.player.pk),
        API_POST_ONLY,
        post=_write(MANAGE),
        json=True,
        body=lambda world, side: {"other": side.player.pk, "reason": "passport seen"},
    ),
    "api:player-unlink": Route(
        _api("player-unlink", lambda side: side.player.pk),
        API_POST_ONLY,
        post=_write(MANAGE),
        json=True,
        body=lambda world, side: {"reason": "not the same person"},
    ),
    "api:ruleset-list": _api_list(
        "ruleset-list", "venue={side.venue.pk}", lambda side: side.table.ruleset_id
    ),
    "api:ruleset-detail": Route(_api("ruleset-detail", lambda side: side.table.ruleset_id), api()),
    "api:ruleset-version-detail": Route(
        _api(
            "ruleset-version-detail",
            lambda side: side.table.ruleset_id,
            lambda side: side.nn_version.number,
        ),
        api(),
    ),
    "api:session-list": _api_list(
        "session-list",
        "venue={side.venue.pk}",
        lambda side: side.session.pk,
        post=_write(PLAY),
        body=lambda world, side: {
            "table": side.free_table.pk,
            "opening_chips": {"100000": 1},
            "confirmed_by": _credentials(world.own.supervisor2),
        },
    ),
    "api:session-detail": Route(_api("session-detail", _session), api()),
    "api:session-close": Route(
        _api("session-close", _session),
        API_POST_ONLY,
        post=_write(SUPERVISE),
        json=True,
        body=lambda world, side: {
            "closing_chips": OPENING,
            "counted_by": _credentials(world.own.dealer),
        },
    ),
    "api:session-reconcile": Route(
        _api("session-reconcile", lambda side: side.closed_session.pk),
        API_POST_ONLY,
        post=_write(SUPERVISE),
        json=True,
    ),
    "api:count-day": Route(_api_count("count-day"), _count_read, shows=mark),
    "api:count-close": Route(
        _api_count("count-close"), API_POST_ONLY, post=_write(COUNT_TEAM), json=True
    ),
    "api:count-reopen": Route(
        _api_count("count-reopen"),
        API_POST_ONLY,
        post=_write(MANAGE),
        json=True,
        body=lambda world, side: {"reason": "a box left out"},
    ),
    "api:count-figures": Route(_api_count("count-figures"), _count_read, shows=mark),
    # What the day's screens read (casino/reports/api/day.py): the venue's report readers,
    # the role before any lookup (403), then the venue (404).
    "api:cash-transaction-list": Route(
        _api("cash-transaction-list", lambda side: side.venue.pk),
        api(capability=REPORT_READ),
        listed=lambda side: side.cash_tx.pk,
        shows=mark,
    ),
    "api:player-credit": Route(
        _api("player-credit", lambda side: side.player.pk),
        api(capability=CASHIER | SUPERVISE | {AUDITOR}),
    ),
    "api:marker-aging": Route(
        _api("marker-aging", lambda side: side.venue.pk), api(capability=REPORT_READ)
    ),
    "api:marker-terms": Route(
        _api("marker-terms", lambda side: side.venue.pk),
        api(capability=REPORT_READ),
        post=_write(MANAGE),
        json=True,
        body=lambda world, side: {"term_days": 45, "credit_drop": True},
    ),
    "api:credit-line-propose": Route(
        _api("credit-line-propose", lambda side: side.player.pk),
        API_POST_ONLY,
        post=_write(MANAGE),
        json=True,
        body=lambda world, side: {"limit": "1000000"},
    ),
    "api:credit-line-approve": Route(
        _api("credit-line-approve", lambda side: side.credit_line.pk),
        API_POST_ONLY,
        post=_write(MANAGE),
        json=True,
    ),
    "api:session-marker": Route(
        _api("session-marker", _session),
        API_POST_ONLY,
        post=_write(PLAY),
        json=True,
        body=lambda world, side: {"player": side.player.pk, "amount": "1000"},
    ),
    "api:cage-marker": Route(
        _api("cage-marker", lambda side: side.venue.pk),
        API_POST_ONLY,
        post=_write(CASHIER),
        json=True,
        body=lambda world, side: {"player": side.player.pk, "amount": "1000"},
    ),
    "api:marker-pay": Route(
        _api("marker-pay", lambda side: side.marker.pk),
        API_POST_ONLY,
        post=_write(CASHIER),
        json=True,
        body=lambda world, side: {"amount": "1000", "method": "cash"},
    ),
    "api:marker-payment-reverse": Route(
        _api("marker-payment-reverse", lambda side: side.marker_payment.pk),
        API_POST_ONLY,
        post=_write(MANAGE),
        json=True,
        body=lambda world, side: {"reason": "entered twice"},
    ),
    "api:cash-report": Route(
        _api("cash-report", lambda side: side.venue.pk), api(capability=REPORT_READ)
    ),
    "api:cash-alert-list": Route(
        _api("cash-alert-list", lambda side: side.venue.pk), api(capability=REPORT_READ)
    ),
    "api:rating-list": Route(
        _api("rating-list", lambda side: side.venue.pk), api(capability=REPORT_READ)
    ),
    "api:day-figures": Route(_api_count("day-figures"), api(capability=REPORT_READ), shows=mark),
    "api:reconciliation": Route(
        _api_count("reconciliation"), api(capability=REPORT_READ), shows=mark
    ),
    "api:period": Route(
        _api("period", lambda side: side.venue.pk), api(capability=REPORT_READ), shows=mark
    ),
    # The day's writes through the API (casino/cage/api.py, reports.py and the rated
    # table games' own endpoint): the same services as their screens, the same gates.
    "api:session-cash": Route(
        _api("session-cash", _session),
        API_POST_ONLY,
        post=_write(PLAY),
        json=True,
        body=lambda world, side: {"amount": "100000"},
        headers={"HTTP_IDEMPOTENCY_KEY": "access-cash"},
    ),
    "api:player-front-money": Route(
        _api("player-front-money", lambda side: side.player.pk), api(), shows=mark
    ),
    "api:front-money-deposit": Route(
        _api("front-money-deposit", lambda side: side.player.pk),
        API_POST_ONLY,
        post=_write(CASHIER),
        json=True,
        body=lambda world, side: {"amount": "100000"},
    ),
    "api:front-money-return": Route(
        _api("front-money-return", lambda side: side.player.pk),
        API_POST_ONLY,
        post=_write(CASHIER),
        json=True,
        body=lambda world, side: {"amount": "100000"},
    ),
    "api:front-money-draw": Route(
        _api("front-money-draw", _session),
        API_POST_ONLY,
        post=_write(PLAY),
        json=True,
        body=lambda world, side: {"player": side.player.pk, "amount": "100000"},
    ),
    "api:front-money-reverse": Route(
        _api("front-money-reverse", lambda side: side.front_money.pk),
        API_POST_ONLY,
        post=_write(MANAGE),
        json=True,
        body=lambda world, side: {"reason": "entered twice"},
    ),
    "api:venue-front-money": Route(
        _api("venue-front-money", lambda side: side.venue.pk),
        api(capability=REPORT_READ),
        shows=mark,
    ),
    "api:cash-void": Route(
        _api("cash-void", lambda side: side.cash_tx.pk),
        API_POST_ONLY,
        post=_write(SUPERVISE),
        json=True,
        body=lambda world, side: {"reason": "typed twice"},
    ),
    "api:tablegames-session-rating": Route(
        _api("tablegames-session-rating", _tg_session),
        API_POST_ONLY,
        post=_write(SUPERVISE),
        json=True,
        body=lambda world, side: {
            "player": side.player.pk,
            "average_bet": "100000",
            "started_at": timezone.localtime(side.tg_session.opened_at).isoformat(),
            "ended_at": timezone.localtime(timezone.now()).isoformat(),
        },
    ),
    "api:shift-report-request": Route(
        _api("shift-report-request", lambda side: side.spare_shift.pk),
        API_POST_ONLY,
        post=_write(MANAGE),
        json=True,
    ),
    "api:shift-report-detail": Route(
        _api("shift-report-detail", lambda side: side.report.pk), api(capability=REPORT_READ)
    ),
    "api:box-count": Route(
        _api("box-count", _box),
        API_POST_ONLY,
        post=_write(COUNT_TEAM),
        json=True,
        body=lambda world, side: {"chips": {"100000": 5}},
    ),
    "api:session-drop": Route(
        _api("session-drop", _session),
        api(),
        post=_write(SUPERVISE),
        json=True,
        body=lambda world, side: {"amount": "50000"},
    ),
    "api:session-drop-reverse": Route(
        _api("session-drop-reverse", _session, lambda side: side.drop.pk),
        API_POST_ONLY,
        post=_write(SUPERVISE),
        json=True,
        body=lambda world, side: {"reason": "counted twice"},
    ),
    "api:round-list": _api_list(
        "round-list",
        "session={side.session.pk}",
        lambda side: side.round.pk,
        post=_write(PLAY),
        body=lambda world, side: {
            "session": side.session.pk,
            "dealer_cards": NIU_8,
            "boxes": [{"position": 1, "cards": NIU_9, "bets": {"single": "100000"}}],
        },
    ),
    "api:round-detail": Route(_api("round-detail", lambda side: side.round.pk), api()),
    "api:round-settle": Route(
        _api("round-settle", lambda side: side.round.pk),
        API_POST_ONLY,
        post=_write(PLAY),
        json=True,
        headers={"HTTP_IDEMPOTENCY_KEY": "access-key"},
    ),
    "api:round-void": Route(
        _api("round-void", lambda side: side.round.pk),
        API_POST_ONLY,
        post=_write(PLAY),
        json=True,
        body=lambda world, side: {"reason": "misdeal"},
    ),
    "api:round-ledger": Route(_api("round-ledger", lambda side: side.round.pk), api()),
    "api:slip-list": _api_list(
        "slip-list",
        "session={side.session.pk}",
        lambda side: side.slip.pk,
        post=_write(PLAY),
        body=lambda world, side: {
            "session": side.session.pk,
            "kind": "credit",
            "chips": {"100000": 2},
        },
    ),
    "api:slip-detail": Route(_api("slip-detail", lambda side: side.slip.pk), api()),
    # The cage's inventory (casino/cage/inventory_api.py).
    "api:cage-inventory": Route(
        _api("cage-inventory", lambda side: side.venue.pk), api(capability=CAGE_READ)
    ),
    "api:cage-movement-list": Route(
        _api("cage-movement-list", lambda side: side.venue.pk), api(capability=CAGE_READ)
    ),
    "api:cash-log": Route(_api("cash-log", lambda side: side.venue.pk), api(capability=CAGE_READ)),
    "api:unknown-patron-link": Route(
        _api("unknown-patron-link", lambda side: side.unknown_patron.pk),
        API_POST_ONLY,
        post=_write(SUPERVISE),
        json=True,
        body=lambda world, side: {"member": side.player.membership_number},
    ),
    "api:cage-count": Route(
        _api("cage-count", lambda side: side.venue.pk),
        API_POST_ONLY,
        post=_write(CASHIER | MANAGE),
        json=True,
        body=lambda world, side: {"kind": "closing", "counted": {"chips": {"100000": 10}}},
    ),
    "api:cage-count-sign": Route(
        _api("cage-count-sign", _pending_cage_count),
        API_POST_ONLY,
        post=_write(CASHIER | MANAGE),
        json=True,
    ),
    "api:chip-purchase": Route(
        _api("chip-purchase", lambda side: side.venue.pk),
        API_POST_ONLY,
        post=_write(CASHIER),
        json=True,
        body=lambda world, side: {"chips": {"100000": 1}, "notes": {"100000": 1}},
    ),
    "api:chip-redemption": Route(
        _api("chip-redemption", lambda side: side.venue.pk),
        API_POST_ONLY,
        post=_write(CASHIER),
        json=True,
        body=lambda world, side: {"chips": {"100000": 1}, "notes": {"100000": 1}},
    ),
    "api:vault-transfer": Route(
        _api("vault-transfer", lambda side: side.venue.pk),
        API_POST_ONLY,
        post=_write(CASHIER),
        json=True,
        body=lambda world, side: {"kind": "to_vault", "moved": {"chips": {"100000": 1}}},
    ),
    "api:chip-liability": Route(
        _api("chip-liability", lambda side: side.venue.pk),
        api(capability=frozenset({SUPERVISOR, MANAGER, AUDITOR})),
    ),
    "api:slip-issue": Route(
        _api("slip-issue", lambda side: side.slip.pk),
        API_POST_ONLY,
        post=_write(CASHIER),
        json=True,
        body=lambda world, side: {"runner": "Lan"},
    ),
    "api:slip-confirm-dealer": Route(
        _api("slip-confirm-dealer", lambda side: side.slip.pk),
        API_POST_ONLY,
        post=_write(PLAY),
        json=True,
    ),
    "api:slip-confirm-supervisor": Route(
        _api("slip-confirm-supervisor", lambda side: side.slip.pk),
        API_POST_ONLY,
        post=_write(SUPERVISE),
        json=True,
    ),
    "api:slip-receive": Route(
        _api("slip-receive", lambda side: side.slip.pk),
        API_POST_ONLY,
        post=_write(CASHIER),
        json=True,
    ),
    "api:slip-void": Route(
        _api("slip-void", lambda side: side.slip.pk),
        API_POST_ONLY,
        post=_write(CASHIER | SUPERVISE),
        json=True,
        body=lambda world, side: {"reason": "wrong table"},
    ),
    "api:slip-ledger": Route(_api("slip-ledger", lambda side: side.slip.pk), api()),
    # When the system is down: the manual series (casino/cage/manual_api.py), read by the
    # slip report's readers, issued by a manager or the cage, entered by the pit.
    "api:manual-series-list": Route(
        lambda world, side: reverse("api:manual-series-list") + f"?venue={side.venue.pk}",
        api(capability=CASHIER | SUPERVISE | {AUDITOR}),
        post=_write(MANAGE | CASHIER),
        json=True,
        body=lambda world, side: {
            "table": side.table.pk,
            "kind": "fill",
            "prefix": f"{side.mark}-F-",
            "first": 1,
            "last": 5,
        },
    ),
    "api:manual-series": Route(
        _api("manual-series", lambda side: side.series.pk),
        api(capability=CASHIER | SUPERVISE | {AUDITOR}),
        shows=mark,
    ),
    "api:manual-paper-slip": Route(
        _api("manual-paper-slip", lambda side: side.series.pk),
        API_POST_ONLY,
        post=_write(SUPERVISE),
        json=True,
        body=lambda world, side: {"number": 1, "session": side.session.pk, "chips": {}},
    ),
    "api:manual-paper-round": Route(
        _api("manual-paper-round", lambda side: side.series.pk),
        API_POST_ONLY,
        post=_write(SUPERVISE),
        json=True,
        body=lambda world, side: {"number": 1, "session": side.session.pk, "boxes": []},
    ),
    "api:manual-paper-spoil": Route(
        _api("manual-paper-spoil", lambda side: side.series.pk),
        API_POST_ONLY,
        post=_write(SUPERVISE),
        json=True,
        body=lambda world, side: {"number": 2, "reason": "torn"},
    ),
    "api:manual-day": Route(
        lambda world, side: reverse(
            "api:manual-day", args=[side.venue.pk, side.shift.gaming_date.isoformat()]
        ),
        api(capability=CASHIER | SUPERVISE | {AUDITOR}),
    ),
    "api:audit-list": Route(
        lambda world, side: (
            reverse("api:audit-list") + (f"?venue={side.venue.pk}" if side is world.other else "")
        ),
        api(capability=AUDIT_READ, listing=True),
        listed=lambda side: side.event.pk,
        json=True,
    ),
    "api:audit-detail": Route(
        _api("audit-detail", lambda side: side.event.pk), api(capability=AUDIT_READ)
    ),
    # Logging in and out needs an account, not a floor role (casino/api/auth.py).
    "api:auth-login": Route(_api("auth-login"), everyone(405), venue_bound=False),
    "api:auth-logout": Route(
        _api("auth-logout"),
        API_POST_ONLY,
        venue_bound=False,
        post=signed_in(None, anonymous=401),
        json=True,
    ),
    "api:auth-logout-all": Route(
        _api("auth-logout-all"),
        API_POST_ONLY,
        venue_bound=False,
        post=signed_in(None, anonymous=401),
        json=True,
    ),
    "api:auth-token-list": Route(
        _api("auth-token-list"), signed_in(200, anonymous=401), venue_bound=False
    ),
    # Who the caller is and their roles at their venues (a superuser's: none).
    "api:auth-me": Route(_api("auth-me"), signed_in(200, anonymous=401), venue_bound=False),
    "api:auth-token-detail": Route(
        _api("auth-token-detail", lambda side: side.token.pk),
        API_POST_ONLY,
        post=_own_token,
        method="delete",
        json=True,
    ),
    # Any path under the API that matches no route, before any authentication.
    "api:no-such-endpoint": Route(
        lambda world, side: "/api/v1/no-such-thing/", everyone(404), venue_bound=False
    ),
}


# The admin


@dataclass(frozen=True)
class AdminModel:
    """A registered model admin: the object each side has there and what the admin allows
    on top of the model permissions (``casino/admin/``, the game apps' ``admin.py``)."""

    object_id: Callable[[World, Side], int]
    #: The admin shows only the rows of the user's venues (``VenueScopedAdmin``).
    scoped: bool = True
    #: Whether the object belongs to a venue (a cell per venue) or to none (one cell).
    venue_bound: bool = True
    add: bool = True
    change: bool = True
    delete: bool = True
    #: Whether the side's object itself can be changed (an active ruleset version cannot).
    object_changes: bool = True


def _read_only(object_id: Callable[[World, Side], int]) -> AdminModel:
    return AdminModel(object_id, add=False, change=False, delete=False)


def _beat(model: str) -> AdminModel:
    return AdminModel(lambda world, side: world.beat[model], scoped=False, venue_bound=False)


ADMIN_MODELS = {
    "auth.group": AdminModel(lambda world, side: world.group.pk, scoped=False, venue_bound=False),
    "auth.user": AdminModel(lambda world, side: side.dealer.pk, scoped=False),
    # Superusers only (no role has its permissions); revoking is deleting.
    "staff.apitoken": AdminModel(
        lambda world, side: side.token.pk, scoped=False, add=False, change=False
    ),
    **{
        f"django_celery_beat.{model}": _beat(model)
        for model in (
            "periodictask",
            "clockedschedule",
            "crontabschedule",
            "solarschedule",
            "intervalschedule",
        )
    },
    # A venue keeps its history: it is never deleted.
    "venues.venue": AdminModel(lambda world, side: side.venue.pk, delete=False),
    "rulesets.ruleset": AdminModel(lambda world, side: side.table.ruleset_id, delete=False),
    "audit.auditevent": _read_only(lambda world, side: side.event.pk),
    "venues.table": AdminModel(lambda world, side: side.table.pk, delete=False),
    # Requests are made on the table's page and decided by their own views (below).
    "venues.tablerulesetchange": _read_only(lambda world, side: side.ruleset_change.pk),
    "players.player": AdminModel(lambda world, side: side.player.pk, delete=False),
    "venues.gamingday": _read_only(
        lambda world, side: (
            GamingDay.objects.get(venue=side.venue, gaming_date=side.shift.gaming_date).pk
        )
    ),
    "venues.shift": _read_only(lambda world, side: side.shift.pk),
    "floor.tablesession": _read_only(lambda world, side: side.session.pk),
    "floor.round": _read_only(lambda world, side: side.round.pk),
    "ledger.ledgerentry": _read_only(lambda world, side: side.entry.pk),
    "cage.slip": _read_only(lambda world, side: side.slip.pk),
    "cage.frontmoney": _read_only(lambda world, side: side.front_money.pk),
    # Read only; linked to a member by its own view (below).
    "cage.unknownpatron": _read_only(lambda world, side: side.unknown_patron.pk),
    "cage.cagecount": _read_only(lambda world, side: side.cage_shift.counts.get(kind="opening").pk),
    "cage.cagemovement": _read_only(
        lambda world, side: side.cage_shift.movements.get(kind="opening_balance").pk
    ),
    "staff.loginattempt": _read_only(lambda world, side: side.login.pk),
    # Read there by the venue's compliance staff only (none of the callers here).
    "compliance.suspicioncase": _read_only(lambda world, side: side.case.pk),
    "integrity.fluctuationinvestigation": _read_only(lambda world, side: side.investigation.pk),
    "integrity.investigationnote": _read_only(lambda world, side: side.note.pk),
    # A pit is never deleted; a change of limits is scheduled on the floor view.
    "venues.pit": AdminModel(lambda world, side: side.pit.pk, delete=False),
    "venues.tablelimitchange": _read_only(lambda world, side: side.limit_change.pk),
    "niuniu.niuniurulesetversion": AdminModel(
        lambda world, side: side.nn_version.pk, delete=False, object_changes=False
    ),
    "maubinh.maubinhrulesetversion": AdminModel(
        lambda world, side: side.mb_version.pk, delete=False, object_changes=False
    ),
    "tablegames.tablegamerulesetversion": AdminModel(
        lambda world, side: side.tg_version.pk, delete=False, object_changes=False
    ),
    "baccarat.baccaratrulesetversion": AdminModel(
        lambda world, side: side.bac_version.pk, delete=False, object_changes=False
    ),
    # Written by the console's services only (a new shoe, a collection from the box).
    "baccarat.shoe": _read_only(lambda world, side: side.bac_shoe.pk),
    "baccarat.commissioncollection": _read_only(lambda world, side: side.bac_collection.pk),
    # Set up by a superuser in the admin, through casino.group.services (added, never changed
    # or deleted there); rates written on the group's page.
    **{
        f"group.{model}": AdminModel(
            get_id,
            scoped=False,
            venue_bound=False,
            add=added,
            change=False,
            delete=False,
        )
        for model, get_id, added in (
            ("operatinggroup", lambda world, side: world.operating.pk, True),
            ("groupvenue", lambda world, side: world.operating.memberships.first().pk, True),
            ("grouprole", lambda world, side: world.operating.roles.first().pk, True),
            ("exchangerate", lambda world, side: world.rate.pk, False),
        )
    },
}


#: Models the admin shows only to a role of the venue, a superuser none of whose included:
#: suspicious-activity cases are their venue's compliance staff's (casino/compliance/admin.py).
ROLE_ONLY = frozenset({"compliance.suspicioncase"})


def has_perm(role: str, label: str, action: str) -> bool:
    """The model permission as casino/staff/roles.py grants it (a superuser has every one,
    but those of ``ROLE_ONLY``)."""
    app_label, model = label.split(".")
    granted = role_permissions(role) if role in ROLE_PERMISSIONS else []
    superuser = role == SUPERUSER and label not in ROLE_ONLY
    return superuser or (app_label, f"{action}_{model}") in granted


def admin_routes(label: str, spec: AdminModel) -> dict[str, Route]:
    app_label, model = label.split(".")
    prefix = f"admin:{app_label}_{model}"

    def url(view: str) -> Callable[[World, Side], str]:
        return lambda world, side: reverse(f"{prefix}_{view}", args=[spec.object_id(world, side)])

    def view(role: str) -> bool:  # Django: the view or the change permission
        return has_perm(role, label, "view") or has_perm(role, label, "change")

    def found(role: str, venue: str) -> bool:
        return role == SUPERUSER or not spec.scoped or venue != OTHER

    def add(role: str) -> bool:
        return spec.add and has_perm(role, label, "add")

    def change(role: str, venue: str) -> bool:
        # Django asks about the object it found, or the model when it found none.
        mine = spec.object_changes if found(role, venue) else True
        return spec.change and mine and has_perm(role, label, "change")

    def delete(role: str) -> bool:
        return spec.delete and has_perm(role, label, "delete")

    def changelist(role: str, venue: str) -> Outcome:
        return 200 if view(role) else 403

    def bulk_delete(role: str, venue: str) -> Outcome | None:
        # Without the delete permission the action is not offered: the list comes back.
        return None if delete(role) else changelist(role, venue)

    def add_page(role: str, venue: str) -> Outcome | None:
        return 200 if add(role) else 403

    def change_page(role: str, venue: str) -> Outcome:
        if not (view(role) or change(role, venue)):
            return 403
        return 200 if found(role, venue) else ADMIN_HOME

    def change_post(role: str, venue: str) -> Outcome | None:
        if not change(role, venue):
            return 403
        return None if found(role, venue) else ADMIN_HOME

    def delete_page(role: str, venue: str) -> Outcome | None:
        if not delete(role):
            return 403
        return 200 if found(role, venue) else ADMIN_HOME

    def history(role: str, venue: str) -> Outcome:
        if not found(role, venue):  # Django looks the object up first
            return ADMIN_HOME
        return 200 if view(role) else 403

    def refusal(rule: Rule) -> Rule:
        def refused(role: str, venue: str) -> Outcome | None:
            outcome = rule(role, venue)
            return None if outcome == 200 else outcome

        return refused

    bound = spec.venue_bound

    def change_url(world: World, side: Side) -> str:
        return reverse(f"{prefix}_change", args=[spec.object_id(world, side)])

    routes = {
        f"{prefix}_changelist": Route(
            lambda world, side: reverse(f"{prefix}_changelist"),
            admin_site(changelist),
            venue_bound=False,
            post=admin_site(bulk_delete),
            body=lambda world, side: {
                "action": "delete_selected",
                "_selected_action": [spec.object_id(world, world.other)],
                "post": "yes",
            },
            shows=change_url if bound else None,
            lists_every_venue=bound,
        ),
        f"{prefix}_add": Route(
            lambda world, side: reverse(f"{prefix}_add"),
            admin_site(add_page),
            venue_bound=False,
            post=admin_site(refusal(add_page)),
            body=lambda world, side: {"name": "intruder", "code": "intruder"},
        ),
        f"{prefix}_change": Route(
            url("change"),
            admin_site(change_page),
            venue_bound=bound,
            post=admin_site(change_post),
            body=lambda world, side: {"name": "intruder", "status": "inactive"},
        ),
        f"{prefix}_delete": Route(
            url("delete"),
            admin_site(delete_page),
            venue_bound=bound,
            post=admin_site(refusal(delete_page)),
            body=lambda world, side: {"post": "yes"},
        ),
        f"{prefix}_history": Route(url("history"), admin_site(history), venue_bound=bound),
        # The bare object URL redirects to its change page, for any staff member.
        f"/admin/{app_label}/{model}/<path:object_id>/": Route(
            lambda world, side: f"/admin/{app_label}/{model}/{spec.object_id(world, side)}/",
            admin_site(everyone(Redirect(f"/admin/{app_label}/{model}/"))),
            venue_bound=bound,
        ),
    }
    return routes


def version_routes(label: str) -> dict[str, Route]:
    """The ruleset version admin's own views (casino/rulesets/admin/versions.py)."""
    app_label, model = label.split(".")
    prefix = f"admin:{app_label}_{model}"
    spec = ADMIN_MODELS[label]

    def url(view: str) -> Callable[[World, Side], str]:
        return lambda world, side: reverse(f"{prefix}_{view}", args=[spec.object_id(world, side)])

    def figures(role: str, venue: str) -> Outcome:
        if not (role == SUPERUSER or venue != OTHER):
            return 404  # looked up among the user's venues first
        return 200 if has_perm(role, label, "view") else 403

    def step(permission: str) -> Rule:
        def rule(role: str, venue: str) -> Outcome | None:
            if not has_perm(role, label, permission):
                return 403
            return None if role == SUPERUSER or venue != OTHER else 404

        return admin_site(rule)

    return {
        f"{prefix}_figures": Route(url("figures"), admin_site(figures)),
        f"{prefix}_clone": Route(url("clone"), admin_site(everyone(405)), post=step("add")),
        f"{prefix}_copy": Route(url("copy"), admin_site(everyone(405)), post=step("add")),
        f"{prefix}_approve": Route(url("approve"), admin_site(everyone(405)), post=step("approve")),
        f"{prefix}_activate": Route(
            url("activate"), admin_site(everyone(405)), post=step("approve")
        ),
    }


def ruleset_change_routes() -> dict[str, Route]:
    """Approve and refuse a table's change of ruleset (casino/venues/admin/tables.py
    ``TableRulesetChangeAdmin``): the permission, then the venue (404), then the service,
    which takes only a manager of the venue (a superuser is sent back with its message)."""
    label = "venues.tablerulesetchange"
    spec = ADMIN_MODELS[label]

    def url(view: str) -> Callable[[World, Side], str]:
        return lambda world, side: reverse(
            f"admin:venues_tablerulesetchange_{view}", args=[spec.object_id(world, side)]
        )

    def decide(role: str, venue: str) -> Outcome | None:
        if not has_perm(role, label, "decide"):
            return 403
        if role == SUPERUSER:
            return Redirect("/admin/venues/tablerulesetchange/")
        return None if venue != OTHER else 404

    return {
        f"admin:venues_tablerulesetchange_{view}": Route(
            url(view), admin_site(everyone(405)), post=admin_site(decide)
        )
        for view in ("approve", "refuse")
    }


def _floor_app(role: str, venue: str) -> Outcome:
    """An app's index lists the models the user may see; with none it is not found."""
    if role == SUPERUSER or any(app == "floor" for app, _ in ROLE_PERMISSIONS.get(role, ())):
        return 200
    return 404


def _autocomplete(role: str, venue: str) -> Outcome:
    if not has_perm(role, "venues.venue", "view"):
        return 403
    return 200 if role == SUPERUSER or venue != OTHER else EMPTY


def patron_link_routes() -> dict[str, Route]:
    """Link an unknown patron to a member on its admin page (casino/cage/admin.py
    ``UnknownPatronAdmin``): the view permission, then the venue (404), then a supervisor
    or a manager of the venue (403: an auditor, a superuser with no role there)."""
    label = "cage.unknownpatron"

    def link(role: str, venue: str) -> Outcome | None:
        if not has_perm(role, label, "view"):
            return 403
        if role != SUPERUSER and venue == OTHER:
            return 404
        return None if role in SUPERVISE else 403

    return {
        "admin:cage_unknownpatron_link": Route(
            lambda world, side: reverse(
                "admin:cage_unknownpatron_link", args=[side.unknown_patron.pk]
            ),
            admin_site(everyone(405)),
            post=admin_site(link),
            body=lambda world, side: {"member": side.player.membership_number},
        )
    }


ADMIN_SITE_ROUTES = {
    "admin:index": Route(
        lambda world, side: reverse("admin:index"), admin_site(everyone(200)), venue_bound=False
    ),
    "admin:login": Route(
        lambda world, side: reverse("admin:login"),
        lambda role, venue: ADMIN_HOME if role in ADMIN_STAFF else 200,
        venue_bound=False,
    ),
    # Django 5's logout is a POST; non-staff are sent to the admin index.
    "admin:logout": Route(
        lambda world, side: reverse("admin:logout"),
        lambda role, venue: 405 if role in ADMIN_STAFF else ADMIN_HOME,
        venue_bound=False,
    ),
    "admin:password_change": Route(
        lambda world, side: reverse("admin:password_change"),
        admin_site(everyone(200)),
        venue_bound=False,
        post=admin_site(everyone(None)),
        body=lambda world, side: {
            "old_password": PASSWORD,
            "new_password1": "taken-over-1",
            "new_password2": "taken-over-1",
        },
    ),
    "admin:password_change_done": Route(
        lambda world, side: reverse("admin:password_change_done"),
        admin_site(everyone(200)),
        venue_bound=False,
    ),
    # The venues a player form may pick, searched by the venue's code.
    "admin:autocomplete": Route(
        lambda world, side: (
            reverse("admin:autocomplete")
            + f"?app_label=players&model_name=player&field_name=venue&term={side.venue.code}"
        ),
        admin_site(_autocomplete),
        shows=mark,
    ),
    "admin:jsi18n": Route(
        lambda world, side: reverse("admin:jsi18n"), admin_site(everyone(200)), venue_bound=False
    ),
    # No model of the project has get_absolute_url: nothing to be sent to.
    "admin:view_on_site": Route(
        lambda world, side: reverse(
            "admin:view_on_site",
            args=[ContentType.objects.get_for_model(Table).pk, side.table.pk],
        ),
        admin_site(everyone(404)),
    ),
    "admin:app_list": Route(
        lambda world, side: reverse("admin:app_list", args=["floor"]),
        admin_site(_floor_app),
        venue_bound=False,
    ),
    "/admin/(?P<url>.*)$": Route(
        lambda world, side: "/admin/no-such-page/", admin_site(everyone(404)), venue_bound=False
    ),
    "admin:auth_user_password_change": Route(
        lambda world, side: reverse("admin:auth_user_password_change", args=[side.dealer.pk]),
        admin_site(lambda role, venue: 200 if has_perm(role, "auth.user", "change") else 403),
        post=admin_site(lambda role, venue: None if has_perm(role, "auth.user", "change") else 403),
        body=lambda world, side: {"password1": "taken-over-1", "password2": "taken-over-1"},
    ),
}


def _compliance(name: str, *ids: Callable[[Side], Any]) -> Callable[[World, Side], str]:
    return lambda world, side: reverse(f"compliance:{name}", args=[get(side) for get in ids])


def _venue_id(side: Side) -> int:
    return side.venue.pk


def _case_id(side: Side) -> int:
    return side.case.pk


COMPLIANCE_ROUTES = {
    # The venues whose cases one works on: nobody here works on any (403).
    "compliance:home": Route(
        lambda world, side: reverse("compliance:home"),
        signed_in(403, anonymous=LOGIN),
        venue_bound=False,
    ),
    "compliance:cases": Route(_compliance("cases", _venue_id), compliance_page()),
    "compliance:case-new": Route(
        _compliance("case-new", _venue_id),
        compliance_page(),
        post=compliance_page(None),
        body=lambda world, side: {"player": side.player.membership_number, "grounds": "x"},
    ),
    "compliance:case": Route(_compliance("case", _case_id), compliance_page()),
    "compliance:case-step": Route(
        _compliance("case-step", _case_id, lambda side: "submit"),
        everyone(405),
        post=compliance_page(None),
    ),
    "compliance:lctr": Route(_compliance("lctr", _venue_id), compliance_page()),
    "compliance:lctr-file": Route(
        _compliance("lctr-file", _venue_id, lambda side: "csv"), compliance_page()
    ),
    "api:compliance-case-list": Route(
        lambda world, side: reverse("api:compliance-case-list", args=[side.venue.pk]),
        api(capability=COMPLIANCE_WORK),
    ),
    "api:compliance-case-detail": Route(
        lambda world, side: reverse("api:compliance-case-detail", args=[side.case.pk]),
        api(capability=COMPLIANCE_WORK),
    ),
}

ROUTES: dict[str, Route] = {
    **SITE_ROUTES,
    **COMPLIANCE_ROUTES,
    **CONSOLE_ROUTES,
    **REPORT_ROUTES,
    **API_ROUTES,
    **ADMIN_SITE_ROUTES,
    **{
        key: route
        for label, spec in ADMIN_MODELS.items()
        for key, route in admin_routes(label, spec).items()
    },
    **version_routes("niuniu.niuniurulesetversion"),
    **version_routes("maubinh.maubinhrulesetversion"),
    **version_routes("tablegames.tablegamerulesetversion"),
    **version_routes("baccarat.baccaratrulesetversion"),
    **ruleset_change_routes(),
    **patron_link_routes(),
}


# Calling and checking


def resolver_keys() -> set[str]:
    """Every URL pattern: its name with its namespaces, or "/" and its route when unnamed."""

    def walk(patterns: list, prefix: str, namespace: str) -> Any:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = namespace
                if pattern.namespace:
                    inner = f"{namespace}{pattern.namespace}:"
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                yield f"{namespace}{pattern.name}" if pattern.name else f"/{route}"

    return set(walk(get_resolver().url_patterns, "", ""))


def resolver_callbacks() -> dict[str, Any]:
    """Each URL pattern's view, by the key ``resolver_keys`` gives it."""

    def walk(patterns: list, prefix: str, namespace: str) -> Any:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = namespace
                if pattern.namespace:
                    inner = f"{namespace}{pattern.namespace}:"
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                key = f"{namespace}{pattern.name}" if pattern.name else f"/{route}"
                yield key, pattern.callback

    return dict(walk(get_resolver().url_patterns, "", ""))


def db_state() -> list[tuple]:
    """The rows inserted, updated and deleted so far in this transaction, per table (login
    sessions aside): the same before and after a call that wrote nothing."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_xact_user_tables"
            " WHERE relname <> 'django_session' ORDER BY relname"
        )
        return cursor.fetchall()


def client_for(world: World, role: str, **kwargs: Any) -> Client:
    client = Client(raise_request_exception=False, **kwargs)
    if role != ANONYMOUS:
        client.cookies[settings.SESSION_COOKIE_NAME] = world.session_keys[role]
    return client


def send(world: World, role: str, route: Route, path: str, body: dict | None = None) -> Any:
    """A GET of ``path`` as ``role``; with a body, the route's POST (or PATCH)."""
    client = client_for(world, role)
    extra: dict[str, Any] = dict(route.headers)
    if body is None:
        return client.get(path, **extra)
    if route.json:
        extra["content_type"] = "application/json"
    return getattr(client, route.method)(path, body, **extra)


def admin_links(world: World, side: Side) -> list[str]:
    return [
        reverse(f"admin:{label.replace('.', '_')}_change", args=[spec.object_id(world, side)])
        for label, spec in ADMIN_MODELS.items()
        if spec.venue_bound
    ]


def traces(world: World, role: str) -> list[str]:
    """What the caller must never be shown: the other venue (any venue, when anonymous)."""
    if role == SUPERUSER:
        return []
    if role not in world.traces:
        sides = [world.other] if role in VENUE_STAFF else [world.own, world.other]
        world.traces[role] = [
            text for side in sides for text in (side.mark, *admin_links(world, side))
        ]
    return world.traces[role]


def verdict(
    world: World, route: Route, role: str, venue: str, path: str, want: Outcome, response: Any
) -> str:
    """What is wrong with the response to the cell ('' when nothing)."""
    status = response.status_code
    location = response.get("Location", "")
    if isinstance(want, Redirect):
        went = location == want.to if want.exact else location.startswith(want.to)
        right = status == want.status and went
    elif want == EMPTY:
        right = status == 200 and response.json()["results"] == []
    else:
        right = status == want
    if not right:
        error = getattr(response, "exc_info", None)
        return (
            f"got {status} {location} {error[1]!r}"[:300] if error else f"got {status} {location}"
        )
    content = b"" if response.streaming else response.content
    sent_to = location
    for asked in (path, quote(path, safe="/"), quote(path, safe="")):
        sent_to = sent_to.replace(asked, "")  # the caller's own path, echoed (?next=...)
    text = f"{content.decode(errors='replace')} {sent_to}".lower()
    shown = [trace for trace in traces(world, role) if trace.lower() in text]
    if shown:
        return f"shows {shown}"
    if want == 200 and route.shows:
        sides = [world.side(venue)] if works_at(role, venue) else []
        if role == SUPERUSER and route.lists_every_venue:
            sides = [world.own, world.other]
        expected = [route.shows(world, shown) for shown in sides]
        missing = [text_shown for text_shown in expected if text_shown.lower() not in text]
        if missing:
            return f"does not show {missing}"
    if want == 200 and route.listed and role != SUPERUSER:
        ids = [row["id"] for row in response.json()["results"]]
        if route.listed(world.own) not in ids or route.listed(world.other) in ids:
            return f"lists {ids}"
    return ""


def cells(route: Route) -> list[tuple[str, str]]:
    venues = (OWN, OTHER) if route.venue_bound else (ANY,)
    return [(role, venue) for role in CALLERS for venue in venues]


# The tests


def test_the_table_names_every_url_pattern_and_nothing_else():
    patterns = resolver_keys()
    assert not patterns - ROUTES.keys(), f"URL patterns with no row: {patterns - ROUTES.keys()}"
    assert not ROUTES.keys() - patterns, f"rows for no URL pattern: {ROUTES.keys() - patterns}"
    registered = {model._meta.label_lower for model in admin.site._registry}
    assert registered == ADMIN_MODELS.keys()


#: The six floor roles, each held at the own venue.
FLOOR_ROLES = frozenset({DEALER, SUPERVISOR, MANAGER, AUDITOR, CAGE, COUNT})
#: What a call answers a role its capability leaves out (405: the view takes no such method).
LEFT_OUT = (403, 405)


def test_each_view_lets_in_whom_its_declared_capability_names():
    """The capability a view declares (casino/staff/policy.py) is what the table says it lets in:
    a role without it is refused (403) the view's GET and its write, and a role with it is
    not refused the GET (a write may still be its service's to refuse)."""
    callbacks = resolver_callbacks()
    wrong = []
    for key, route in ROUTES.items():
        declared = capability_of(callbacks[key])
        venue = OWN if route.venue_bound else ANY
        for method, rule in (("get", route.get), (route.method, route.post)):
            capability = declared.get("*") or declared.get(method)
            if rule is None or capability in (None, *UNSCOPED):
                continue
            for role in sorted(FLOOR_ROLES):
                outcome = rule(role, venue)
                if role not in capability.roles and outcome not in LEFT_OUT:
                    wrong.append(f"{key} {method}: {role} gets {outcome} without {capability}")
                if role in capability.roles and method == "get" and outcome == 403:
                    wrong.append(f"{key} get: {role} is refused, though {capability} names it")
    assert not wrong, "\n".join(wrong)


def get_cell(world: World, key: str, role: str, venue: str) -> str:
    """What is wrong with the GET of the cell ('' when nothing)."""
    route = ROUTES[key]
    want = route.get(role, venue)
    path = route.path(world, world.side(venue))
    problem = verdict(world, route, role, venue, path, want, send(world, role, route, path))
    return f"GET {role:10} {venue:5} {path}: want {want}, {problem}" if problem else ""


@pytest.mark.parametrize("key", list(ROUTES))
def test_every_caller_at_every_venue(world, key):
    wrong = [
        problem
        for role, venue in cells(ROUTES[key])
        for problem in [get_cell(world, key, role, venue)]
        if problem
    ]
    assert not wrong, "\n".join(wrong)


POST_ROUTES = [key for key, route in ROUTES.items() if route.post is not None]


@pytest.mark.parametrize("key", POST_ROUTES)
def test_a_refused_post_is_refused_and_changes_nothing(world, key):
    route = ROUTES[key]
    assert route.post is not None
    wrong = []
    refused = [cell for cell in cells(route) if route.post(*cell) is not None]
    assert refused, "no caller is refused"
    for role, venue in refused:
        want = route.post(role, venue)
        side = world.side(venue)
        path = route.path(world, side)
        with transaction.atomic():
            before = db_state()
            response = send(world, role, route, path, route.body(world, side))
            after = db_state()
            transaction.set_rollback(True)
        problem = verdict(world, route, role, venue, path, want, response)
        if not problem and before != after:
            problem = f"wrote to {sorted(set(after) - set(before))}"
        if problem:
            wrong.append(
                f"{route.method.upper()} {role:10} {venue:5} {path}: want {want}, {problem}"
            )
    assert not wrong, "\n".join(wrong)


def test_a_round_of_another_venue_is_not_found_in_a_session_of_ones_own(world):
    own, other = world.own, world.other
    client = client_for(world, SUPERVISOR)
    detail = reverse("console:round-detail", args=[own.session.pk, other.round.pk])
    assert client.get(detail).status_code == 404
    void = reverse("console:void", args=[own.session.pk, other.round.pk])
    before = db_state()
    assert client.post(void, _signed(world, own, reason="misdeal")).status_code == 404
    assert db_state() == before


def test_a_post_without_the_csrf_token_is_refused(world):
    client = client_for(world, DEALER, enforce_csrf_checks=True)
    form = reverse("console:open", args=[world.own.free_table.pk])
    slips = reverse("api:slip-list")
    slip = {"session": world.own.session.pk, "kind": "credit", "chips": {"100000": 2}}
    before = db_state()
    # when a console form and the API (logged in by the session cookie) get no token
    signed = {"chips-100000": "50", "supervisor": world.own.supervisor.username}
    page = client.post(form, {**signed, "password": PASSWORD})
    api_call = client.post(slips, slip, content_type="application/json")
    # then both are refused and nothing is written
    assert page.status_code == 403
    assert api_call.status_code == 403 and "CSRF" in api_call.json()["detail"]
    assert db_state() == before
    # and with the token the console hands out, the same calls go through
    client.get(form)
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    opened = client.post(form, {**signed, "password": PASSWORD, "csrfmiddlewaretoken": token})
    assert opened.status_code == 303
    requested = client.post(slips, slip, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert requested.status_code == 201
    assert db_state() != before


def _admin_label(key: str) -> str | None:
    """The model label of an admin route's key (``admin:venues_table_change``,
    ``/admin/venues/table/<path:object_id>/``), or None for another route."""
    for label in ADMIN_MODELS:
        app_label, model = label.split(".")
        if key.startswith(f"admin:{app_label}_{model}_") or key.startswith(
            f"/admin/{app_label}/{model}/"
        ):
            return label
    return None


def test_a_member_is_at_each_venue_what_they_are_there(world):
    """A manager at the own venue who deals at the other one gets, at each venue's pages,
    what a manager gets at the own venue and what a dealer gets at theirs: the roles held at
    one venue open nothing at the other. The admin keeps the manager's permissions to the
    venue where they manage: the other venue's rows are not theirs there."""
    wrong = []
    for key, route in ROUTES.items():
        if not route.venue_bound:
            continue
        label = _admin_label(key)
        for venue, as_role, as_venue in ((OWN, MANAGER, OWN), (OTHER, DEALER, OWN)):
            if key.startswith(("admin:", "/admin/")) and label is None:
                as_role, as_venue = MANAGER, venue  # the admin's own pages: as a manager
            elif label is not None:
                # The manager's permissions hold at the own venue; at the other one, the
                # rows of a model they may see are not theirs, those of one they may not
                # are refused as at their own (they work there).
                viewed = has_perm(MANAGER, label, "view") or has_perm(MANAGER, label, "change")
                as_role, as_venue = MANAGER, (venue if viewed else OWN)
            want = route.get(as_role, as_venue)
            path = route.path(world, world.side(venue))
            response = send(world, BOTH, route, path)
            # the status only: this member may see both venues
            problem = verdict(world, route, SUPERUSER, venue, path, want, response)
            if problem:
                wrong.append(f"GET {venue:5} {path}: want {want} (as {as_role}), {problem}")
    assert not wrong, "\n".join(wrong)
