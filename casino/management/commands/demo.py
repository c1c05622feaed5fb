"""Demo data: three venues with staff of every role and players, and at each the games'
own demos (``GameDemo.set_up_venue``: rulesets, tables and rounds played through the real
services); then Hà Nội and Seoul share barrings in one exclusion area, where a person
self-excluded at Hà Nội is refused in Seoul.

Long because the demo is one command that sets up every part the README walks through: the
venues and their staff, each game's floor, the comps, the group and its rates, an exclusion
area; split, a part would run in an order the command no longer shows.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from casino import games
from casino.cage.demo import cage_shift
from casino.cage.models import CashTransaction
from casino.cage.services.cash import cash_record
from casino.cage.services.thresholds import thresholds_approve, thresholds_propose
from casino.compliance.services import case_open, case_submit
from casino.count.models import DropBox
from casino.count.services import box_sessions, count_close, count_record
from casino.floor.models import TableSession
from casino.floor.services.limits import limit_change_schedule
from casino.floor.services.rotation import dealer_relieve
from casino.floor.services.rounds import round_create_written
from casino.floor.services.sessions import shift_current
from casino.floor.services.settlement import round_settle_written
from casino.group.models import GroupVenue, OperatingGroup
from casino.group.selectors import rate_in_force
from casino.group.services import (
    group_create,
    group_role_grant,
    group_venue_add,
    rate_approve,
    rate_propose,
)
from casino.integrity.models import FluctuationInvestigation
from casino.kernel.timezones import venue_time, venue_today, venue_zone
from casino.players.models import ExclusionArea, Player, PlayerBarring
from casino.players.services import (
    exclusion_area_approve,
    exclusion_area_propose,
    player_bar,
    player_create,
    player_link,
)
from casino.reports.comps import (
    comp_earned,
    comp_issue,
    comp_policy_approve,
    comp_policy_propose,
)
from casino.reports.services import report_build, report_request
from casino.simulation import chips_for
from casino.staff.roles import (
    AUDITOR,
    CAGE,
    COMPLIANCE,
    COUNT,
    DEALER,
    GROUP_AUDITOR,
    GROUP_MANAGER,
    MANAGER,
    SUPERVISOR,
    grant,
)
from casino.venues.models import DealerSpell, Table, TableLimit, Venue
from casino.venues.services.gaming_days import gaming_day_set
from casino.venues.services.pits import pit_create

D = Decimal

VENUES = [
    # code, name, currency, rounding unit, time zone, language, how amounts are written
    ("hanoi", "Hà Nội Pearl Casino", "VND", D("1000"), "Asia/Ho_Chi_Minh", "vi", "dot"),
    ("seoul", "Seoul Riverside Casino", "KRW", D("100"), "Asia/Seoul", "ko", "comma"),
    ("macau", "Macau Lotus Casino", "MOP", D("0.10"), "Asia/Macau", "pt", "comma"),
]

#: The bank notes each venue's count counts, largest first.
NOTES = {
    "hanoi": ["500000", "200000", "100000", "50000", "20000", "10000"],
    "seoul": ["50000", "10000", "5000", "1000"],
    "macau": ["1000", "500", "100", "50", "20", "10"],
}

#: Each venue's shifts, named in its language (a venue with no plan would play one shift
#: named "day"): Hà Nội three, Seoul and Macau one a gaming day from 06:00.
SHIFT_PLANS = {
    "hanoi": (
        "06:00",
        [
            {"name": "Ca sáng", "starts": "06:00"},
            {"name": "Ca chiều", "starts": "14:00"},
            {"name": "Ca đêm", "starts": "22:00"},
        ],
    ),
    "seoul": ("06:00", [{"name": "종일", "starts": "06:00"}]),
    "macau": ("06:00", [{"name": "Turno único", "starts": "06:00"}]),
}

STAFF = [
    # username, role, what they do
    ("dealer", DEALER, "deals and settles at the tables"),
    ("relief", DEALER, "the relief dealer: takes over a table while its dealer is on a break"),
    ("supervisor", SUPERVISOR, "approves voids, signs for fills and credits; closes tables"),
    ("pitboss", SUPERVISOR, "the second supervisor for two-person steps"),
    ("manager", MANAGER, "edits rulesets (drafts), tables and players"),
    ("approver", MANAGER, "approves and activates what the manager edited"),
    ("auditor", AUDITOR, "reads everything, changes nothing"),
    ("cashier", CAGE, "the cage: issues fill and credit slips, receives credits"),
    ("counter", COUNT, "the count team: counts the drop boxes"),
    ("counter2", COUNT, "the count team's second counter"),
    ("compliance", COMPLIANCE, "anti-money-laundering: opens and files suspicious-activity cases"),
    ("compliance2", COMPLIANCE, "the second compliance officer, who decides a case"),
]

PLAYER_NAMES = [
    "Nguyễn Văn An",
    "Kim Min-jun",
    "Chan Tai Man",
    "Trần Thị Bình",
    "Lee Seo-yeon",
    "Wong Ka Yan",
    "Lê Minh Châu",
    "Park Ji-ho",
    "Ho Wai Kit",
    "Phạm Quốc Huy",
]

ROUNDS_PER_VENUE = 100

#: The venues' operating group: its figures in US dollars, each venue in its country, which is
#: also the jurisdiction whose anti-money-laundering law it follows (docs/compliance/).
GROUP = ("lotus-group", "Lotus Asia Group", "USD", "Asia/Macau")
COUNTRIES = {"hanoi": "VN", "seoul": "KR", "macau": "MO"}
#: Each currency's rate into the group's (one unit in USD) and its source: before and from
#: three gaming days ago, so a month to date crosses a change of rate.
GROUP_RATES = {
    "VND": (Decimal("0.0000395"), Decimal("0.0000393"), "Vietcombank 16:00 fixing"),
    "KRW": (Decimal("0.00073"), Decimal("0.00072"), "Bank of Korea reference rate"),
    "MOP": (Decimal("0.1240"), Decimal("0.1238"), "BNU fixing"),
}
#: The gaming dates the demo gives rates for: its rounds are of the last few days.
GROUP_RATE_DAYS = 10
#: Who holds the group's roles (at every demo venue they are managers and the auditor).
GROUP_STAFF = {"manager": GROUP_MANAGER, "approver": GROUP_MANAGER, "auditor": GROUP_AUDITOR}
#: The demo's exclusion area (code, name, venues) and the person it shows: their
#: memberships at those venues, linked, self-excluded at the first venue.
AREA = ("vn-kr", "Vietnam-Korea", ("hanoi", "seoul"))
AREA_PERSON = "Trần Thị Bình"


#: The address a game's demo lines name (the command writes the port it was given).
DEFAULT_SITE = "http://127.0.0.1:8000"


def password_of(username: str) -> str:
    return f"demo-{username}"


class Command(BaseCommand):
    help = "Create demo venues, rulesets, tables, players, staff and played rounds (idempotent)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--rounds",
            type=int,
            default=ROUNDS_PER_VENUE,
            help="rounds to play at each venue's first table",
        )
        parser.add_argument(
            "--port", type=int, default=8000, help="the port the printed addresses name"
        )

    def handle(self, *args, rounds: int = ROUNDS_PER_VENUE, port: int = 8000, **options) -> None:
        """The demo, its own lines only (the services' INFO logs are kept back unless
        ``-v 2``), ending with the table of logins."""
        self.site = f"http://127.0.0.1:{port}"
        quiet = options.get("verbosity", 1) < 2
        if quiet:
            logging.disable(logging.INFO)
        try:
            self._build(rounds)
        finally:
            if quiet:
                logging.disable(logging.NOTSET)
        self._logins()

    def _logins(self) -> None:
        site = self.site
        self.stdout.write(
            self.style.SUCCESS(
                f"\nDemo ready: the dealer's console at {site}/console/, "
                f"rulesets and records at {site}/admin/ (managers, auditors)"
            )
        )
        rows = [("login", "password", "role")]
        rows += [(username, password_of(username), what) for username, _role, what in STAFF]
        widths = [max(len(row[i]) for row in rows) for i in range(2)]
        for index, (login, password, what) in enumerate(rows):
            self.stdout.write(f"  {login:<{widths[0]}}  {password:<{widths[1]}}  {what}")
            if index == 0:
                self.stdout.write(f"  {'-' * widths[0]}  {'-' * widths[1]}  {'-' * 4}")

    @transaction.atomic
    def _build(self, rounds: int) -> None:
        call_command("install_presets", stdout=self.stdout)
        users, roles = {}, {}
        for username, role, _what in STAFF:
            user, created = User.objects.get_or_create(
                username=username,
                defaults={
                    "is_staff": role in (SUPERVISOR, MANAGER, AUDITOR, COMPLIANCE),
                    "email": f"{username}@example.com",
                },
            )
            if created:
                user.set_password(password_of(username))
                user.save()
            users[username], roles[username] = user, role
        for code, name, currency, unit, tz, language, grouping in VENUES:
            venue, created = Venue.objects.get_or_create(
                code=code,
                defaults={
                    "name": name,
                    "currency": currency,
                    "rounding_unit": unit,
                    "timezone": tz,
                    "language": language,
                    "amount_grouping": grouping,
                    "note_denominations": NOTES[code],
                    # whose anti-money-laundering law it follows (docs/compliance/)
                    "jurisdiction": COUNTRIES[code],
                },
            )
            for username, user in users.items():
                grant(user, venue, roles[username])
            self.stdout.write(f"venue {venue.code}: {venue.name}, {currency}")
            if created:
                self._set_up_floor(venue, users, rounds)
        for line in self._group(users):
            self.stdout.write(line)
        for line in self._exclusion_area(users):
            self.stdout.write(line)

    def _group(self, users: dict) -> list[str]:
        """The three venues as one operating group reporting in USD, its managers and
        auditor, and the rates of the last gaming days (the manager proposes, the approver
        approves) so the group's page converts every figure."""
        code, name, currency, zone = GROUP
        group = OperatingGroup.objects.filter(code=code).first() or group_create(
            user=None, code=code, name=name, reporting_currency=currency, timezone_name=zone
        )
        for venue in Venue.objects.filter(code__in=COUNTRIES).order_by("code"):
            if not GroupVenue.objects.filter(venue=venue).exists():
                group_venue_add(user=None, group=group, venue=venue, country=COUNTRIES[venue.code])
        for username, role in GROUP_STAFF.items():
            group_role_grant(user=None, group=group, member=users[username], role=role)
        today = timezone.localdate()
        for back in range(-1, GROUP_RATE_DAYS):
            day = today - timedelta(days=back)
            for from_currency, (before, after, source) in GROUP_RATES.items():
                if rate_in_force(group=group, currency=from_currency, day=day) is not None:
                    continue
                proposed = rate_propose(
                    group=group,
                    user=users["manager"],
                    day=day,
                    from_currency=from_currency,
                    rate=after if back < 3 else before,
                    source=source,
                )
                rate_approve(rate=proposed, user=users["approver"])
        return [
            f"group {group.code}: {group.name}, figures in {currency}, rates of the last "
            f"{GROUP_RATE_DAYS} gaming days: {self.site}/group/ (manager and approver are its "
            "group managers, auditor its group auditor)"
        ]

    def _set_up_floor(self, venue: Venue, users: dict, rounds: int) -> None:
        """The venue's shifts and players, then each game's demo there."""
        if venue.code in SHIFT_PLANS:
            starts, shifts = SHIFT_PLANS[venue.code]
            gaming_day_set(
                venue=venue, user=users["manager"], gaming_day_starts=starts, shifts=shifts
            )
            names = ", ".join(f"{shift['name']} {shift['starts']}" for shift in shifts)
            self.stdout.write(f"  shifts: {names}")
        for n, name in enumerate(PLAYER_NAMES, start=1):
            player_create(
                venue=venue,
                user=users["manager"],
                membership_number=f"{venue.code}-{n:04d}",
                name=name,
            )
        for game in games.all_games():
            for line in game.demo.set_up_venue(venue=venue, users=users, rounds=rounds):
                # a game's lines name the default address: this run's port instead
                self.stdout.write(line.replace(DEFAULT_SITE, self.site))
        for line in self._count_last_day(venue, users):
            self.stdout.write(line)
        for line in self._cash_records(venue, users):
            self.stdout.write(line)
        for line in self._suspicion_case(venue, users):
            self.stdout.write(line)
        for line in cage_shift(venue=venue, users=users, site=self.site):
            self.stdout.write(line)
        for line in self._dealer_relief(venue, users):
            self.stdout.write(line)
        for line in self._pit(venue, users):
            self.stdout.write(line)
        for line in self._comp_a_rated_player(venue, users):
            self.stdout.write(line)
        for line in self._integrity(venue, users):
            self.stdout.write(line)

    def _exclusion_area(self, users: dict) -> list[str]:
        """Hà Nội and Seoul share barrings (their details stay at the venue that recorded
        them; cash is not added up, as their currencies differ): the area proposed by the
        manager and approved by the approver; one person's memberships at both linked, and
        that person self-excluded at Hà Nội, so Seoul refuses them too. Once only."""
        code, name, codes = AREA
        if ExclusionArea.objects.filter(code=code).exists():
            return []
        venues = [Venue.objects.get(code=venue_code) for venue_code in codes]
        proposed = exclusion_area_propose(
            user=users["manager"], code=code, name=name, venues=venues
        )
        exclusion_area_approve(area=proposed, user=users["approver"])
        memberships = [
            Player.objects.filter(venue=venue, name=AREA_PERSON).order_by("pk").first()
            for venue in venues
        ]
        lines = [f"exclusion area {code} ({', '.join(codes)}): {self.site}/reports/players/areas/"]
        if None in memberships:  # a venue set up without the demo's players
            return lines
        first, *others = memberships
        for other in others:
            player_link(
                player=first,
                other=other,
                user=users["manager"],
                reason="one person: the same passport seen at both cages",
            )
        player_bar(
            player=first,
            user=users["manager"],
            reason="asked for it at the cage, form signed",
            starts_on=venue_today(venues[0]),
            kind=PlayerBarring.Kind.SELF_EXCLUSION,
        )
        refused = ", ".join(f"{self.site}/reports/players/{other.pk}/" for other in others)
        return [
            *lines,
            f"  {first.membership_number} self-excluded at {venues[0].name}, refused at {refused}",
        ]

    def _integrity(self, venue: Venue, users: dict) -> list[str]:
        """The integrity tests of the gaming dates the demo dealt (a game's demo may deal
        a table from a manipulated deck: the page flags it)."""
        from django.db.models import Max, Min

        from casino.integrity.models import CategoryTally
        from casino.integrity.runs import integrity_run

        dates = CategoryTally.objects.filter(venue=venue).aggregate(
            first=Min("gaming_date"), last=Max("gaming_date")
        )
        if dates["first"] is None:
            return []
        run = integrity_run(
            venue=venue, date_from=dates["first"], date_to=dates["last"], user=users["manager"]
        )
        return [
            f"  integrity: {run.tests} tests, {run.alerts} alerts: "
            f"{self.site}/reports/integrity/?venue={venue.code} (manager, auditor)"
        ]

    def _dealer_relief(self, venue: Venue, users: dict) -> list[str]:
        """Dealer rotation at one table, at a venue where the dealer runs two: the dealer
        deals two rounds at the first, the relief dealer takes it over (the dealer goes on
        to the other) and deals two; the shift report splits the rounds between the two."""
        sessions = list(
            TableSession.objects.filter(
                table__venue=venue,
                table__game__in=[game.code for game in games.round_games()],
                status=TableSession.Status.OPEN,
            )
            .select_related("table")
            .order_by("table__code")[:2]
        )
        if len(sessions) < 2:
            return []
        session = sessions[0]
        stream = games.get(session.table.game).demo.round_stream(
            session=session, rng=random.Random(venue.pk)
        )

        def deal(dealer: Any, key: str) -> None:
            dealer_cards, boxes = next(stream)
            dealt = round_create_written(
                session=session, user=dealer, dealer_cards=dealer_cards, boxes=list(boxes)
            )
            key = f"demo-relief-{session.pk}-{key}"
            round_settle_written(round_=dealt.round, user=dealer, key=key, dealt=dealt)

        for n in range(2):
            deal(users["dealer"], f"a{n}")
        dealer_relieve(
            session=session,
            dealer=users["relief"],
            by=users["supervisor"],
            reason=DealerSpell.End.RELIEF,
        )
        for n in range(2):
            deal(users["relief"], f"b{n}")
        return [
            f"  {session.table.code}: the relief dealer took over from dealer and dealt 2 "
            f"rounds: {self.site}/console/sessions/{session.pk}/dealers/"
        ]

    def _pit(self, venue: Venue, users: dict) -> list[str]:
        """One pit holding the venue's tables, run by the supervisor, and a change of the
        first table's limits scheduled for the evening (tomorrow's, on the venue's clocks)."""
        tables = list(Table.objects.filter(venue=venue).order_by("code"))
        pit = pit_create(
            user=users["manager"],
            venue=venue,
            code="main",
            name="Main pit",
            supervisors=[users["supervisor"]],
            tables=tables,
        )
        lines = [
            f"  pit {pit.code}: {len(tables)} table(s), run by supervisor: "
            f"{self.site}/console/pits/{pit.pk}/"
        ]
        limit = TableLimit.objects.filter(table__in=tables).order_by("table__code", "pk").first()
        if limit is not None:
            evening = (timezone.now() + timedelta(days=1)).astimezone(venue_zone(venue))
            evening = evening.replace(hour=22, minute=0, second=0, microsecond=0)
            change = limit_change_schedule(
                user=users["supervisor"],
                table=limit.table,
                bet_type=limit.bet_type,
                min_stake=limit.min_stake * 2,
                max_stake=limit.max_stake,
                effective_at=evening,
                reason="a high-limit evening",
            )
            lines.append(
                f"  {limit.table.code} {limit.bet_type}: minimum {change.min_stake} from "
                f"{venue_time(evening, venue)}"
            )
        return lines

    def _count_last_day(self, venue: Venue, users: dict) -> list[str]:
        """The count of the venue's last gaming day before today, if its tables played one:
        each drop box counted by the two counters, its notes the cash the table took for
        chips (what its closer's count is short of the ledger), then the day's count closed."""
        today = shift_current(venue=venue).gaming_date
        last = DropBox.objects.filter(venue=venue, gaming_date__lt=today).order_by("gaming_date")
        day = last.values_list("gaming_date", flat=True).last()
        if day is None:
            return []
        drop = D(0)
        for box in DropBox.objects.filter(venue=venue, gaming_date=day).order_by("pk"):
            cash = -sum((session.variance or D(0) for session in box_sessions(box)), D(0))
            notes = chips_for(cash, venue.note_denominations) if cash > 0 else {}
            for counter in ("counter", "counter2"):
                counted = count_record(box=box, user=users[counter], notes=notes)
            drop += counted.total
        count_close(
            venue=venue, gaming_date=day, user=users["counter"], confirmed_by=users["counter2"]
        )
        # the reports of the day's shifts whose tables closed, built with the counted drop
        closed = TableSession.objects.filter(
            table__venue=venue, shift__gaming_date=day, status=TableSession.Status.CLOSED
        )
        reports = [
            report_build(report_id=report_request(shift_id=shift_id, send=False).pk, email=False)
            for shift_id in sorted(set(closed.values_list("shift_id", flat=True)))
        ]
        lines = [
            f"  shift report: {self.site}/reports/shift/{report.pk}/ (manager, auditor)"
            for report in reports
        ]
        lines += [
            f"  count of {day}: drop {drop} {venue.currency} counted by counter and counter2, "
            f"closed: {self.site}/console/count/{venue.pk}/{day}/figures/",
            # the counted day against today's, whose tables are open and boxes uncounted
            f"  reconciliation of {day} (counted: it reconciles) and of {today} (it does "
            "not: tables open, boxes not counted, a tray short at its close): "
            f"{self.site}/reports/reconciliation/?venue={venue.code}&date={day}, "
            f"{self.site}/reports/reconciliation/?venue={venue.code}&date={today}",
        ]
        # a report's flags open their investigations as it is built
        flagged = FluctuationInvestigation.objects.filter(venue=venue).count()
        if flagged:
            lines.append(
                f"  {flagged} fluctuation investigation(s) opened by the reports' flags: "
                f"{self.site}/reports/investigations/?venue={venue.code}"
            )
        return lines

    def _cash_records(self, venue: Venue, users: dict) -> list[str]:
        """The venue's cash thresholds (the manager proposes, the approver approves), then a
        rated player's buy-ins at the open tables crossing the logging threshold (not the
        reporting one) today, with a chip buy-in that does not count."""
        unit = venue.rounding_unit
        version = thresholds_propose(
            venue=venue,
            user=users["manager"],
            logging_threshold=unit * 30_000,
            reporting_threshold=unit * 100_000,
        )
        thresholds_approve(version=version, user=users["approver"])
        sessions = list(
            TableSession.objects.filter(
                table__venue=venue, status=TableSession.Status.OPEN
            ).order_by("pk")[:2]
        )
        player = (
            Player.objects.filter(venue=venue, boxes__isnull=False).order_by("pk").first()
            or Player.objects.filter(venue=venue).order_by("pk").first()
        )
        if not sessions or player is None:
            return []
        amounts = [
            ("cash", unit * 12_000),
            ("chips", unit * 5_000),
            ("cash", unit * 20_000),
        ]
        for n, (instrument, amount) in enumerate(amounts):
            cash_record(
                session=sessions[n % len(sessions)],
                user=users["dealer"],
                player=player,
                amount=amount,
                instrument=instrument,
            )
        return [
            f"  cash: {player.membership_number} bought in {unit * 32_000} {venue.currency} "
            f"in cash today (logged at {unit * 30_000}): "
            f"{self.site}/reports/cash/?venue={venue.code}"
        ]

    def _suspicion_case(self, venue: Venue, users: dict) -> list[str]:
        """A suspicious-activity case about the player whose cash was logged today, opened
        and submitted by ``compliance``: ``compliance2`` decides it, either files it."""
        logged = (
            CashTransaction.objects.filter(venue=venue, instrument="cash", player__isnull=False)
            .select_related("player")
            .order_by("pk")
        )
        if not logged:
            return []
        case = case_open(
            venue=venue,
            user=users["compliance"],
            player=logged[0].player,
            grounds="Cash buy-ins split across two tables, each under the reporting threshold.",
            evidence=[{"kind": "cash_transaction", "ref": tx.pk} for tx in logged],
        )
        case_submit(case=case, user=users["compliance"])
        page = f"{self.site}/compliance/cases/{case.pk}/"
        return [f"  compliance: case {case.label} in review: {page}"]

    def _comp_a_rated_player(self, venue: Venue, users: dict) -> list[str]:
        """The venue's comp policy (20% of theoretical win, proposed by the manager and
        approved by the approver), then a comp to the player who earned the most."""
        unit = venue.rounding_unit
        policy = comp_policy_propose(
            venue=venue,
            user=users["manager"],
            reinvestment_pct="20",
            supervisor_limit=unit * 1000,
            manager_limit=unit * 5000,
        )
        comp_policy_approve(policy=policy, user=users["approver"])
        earned = max(
            ((comp_earned(player), player) for player in venue.players.order_by("pk")),
            key=lambda pair: pair[0].earned,
        )
        amount = (min(earned[0].earned, policy.supervisor_limit) // unit) * unit
        if amount <= 0:
            return ["  comp policy approved; no player has earned a comp yet"]
        player = earned[1]
        comp_issue(
            player=player,
            user=users["supervisor"],
            amount=amount,
            kind="meal",
            notes="dinner for two",
        )
        return [
            f"  comp of {amount} {venue.currency} to {player.membership_number}: "
            f"{self.site}/reports/players/{player.pk}/"
        ]
