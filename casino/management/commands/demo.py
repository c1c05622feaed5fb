"""Demo data: the three Niu Niu venues of the rule sheets, tables, players, staff of every
role, and a few hundred rounds played through the real services."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from casino.models import Ruleset, TableSession, Venue
from casino.reports.services import report_build, report_request
from casino.roles import AUDITOR, DEALER, MANAGER, SUPERVISOR, forget, role_group
from casino.services.players import player_create
from casino.services.sessions import session_close, session_figures, session_open
from casino.services.tables import table_create
from casino.simulation import chips_for, play
from maubinh.services import maubinh_demo
from niuniu.services import venue_ruleset_from_preset

D = Decimal

VENUES = [
    # code, name, currency, rounding unit, time zone, language, preset
    ("hanoi", "Hà Nội Pearl Casino", "VND", D("1000"), "Asia/Ho_Chi_Minh", "vi", "vn-kr-004"),
    ("seoul", "Seoul Riverside Casino", "KRW", D("100"), "Asia/Seoul", "ko", "vn-kr-004"),
    ("macau", "Macau Lotus Casino", "MOP", D("0.10"), "Asia/Macau", "pt", "macau-001"),
]

#: Per venue: chip denominations and (min, max) stake per bet type.
TABLE_SETUP = {
    "hanoi": (
        ["5000000", "1000000", "500000", "100000", "50000", "10000", "5000", "1000"],
        {
            "single": ("50000", "20000000"),
            "double": ("50000", "5000000"),
            "super": ("50000", "2000000"),
        },
    ),
    "seoul": (
        ["1000000", "100000", "50000", "10000", "5000", "1000", "500", "100"],
        {
            "single": ("10000", "5000000"),
            "double": ("10000", "1000000"),
            "super": ("10000", "500000"),
        },
    ),
    "macau": (
        ["10000", "5000", "1000", "500", "100", "50", "10", "5", "1"],
        {
            "single": ("100", "50000"),
            "double": ("100", "20000"),
            "super": ("100", "5000"),
            "bonus": ("100", "2000"),
        },
    ),
}

STAFF = [
    # username, role, what they do
    ("dealer", DEALER, "deals and settles at the tables"),
    ("supervisor", SUPERVISOR, "approves voids, fills and credits; closes tables"),
    ("pitboss", SUPERVISOR, "the second supervisor for two-person steps"),
    ("manager", MANAGER, "edits rulesets (drafts), tables and players"),
    ("approver", MANAGER, "approves and activates what the manager edited"),
    ("auditor", AUDITOR, "reads everything, changes nothing"),
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

    @transaction.atomic
    def handle(self, *args, rounds: int = ROUNDS_PER_VENUE, **options) -> None:
        call_command("install_presets", stdout=self.stdout)
        users = {}
        for username, role, _what in STAFF:
            user, created = User.objects.get_or_create(
                username=username,
                defaults={
                    "is_staff": role in (MANAGER, AUDITOR),
                    "email": f"{username}@example.com",
                },
            )
            if created:
                user.set_password(password_of(username))
                user.save()
            user.groups.add(role_group(role))
            users[username] = user
        for code, name, currency, unit, tz, language, preset in VENUES:
            venue, created = Venue.objects.get_or_create(
                code=code,
                defaults={
                    "name": name,
                    "currency": currency,
                    "rounding_unit": unit,
                    "timezone": tz,
                    "language": language,
                },
            )
            venue.staff.add(*users.values())
            for user in users.values():
                forget(user)
            if created:
                self._set_up_floor(venue, preset, users, rounds)
                if code == "hanoi":
                    maubinh_demo(venue, users)
            self.stdout.write(
                f"venue {venue.code}: {venue.name}, {currency}, ruleset from {preset}"
            )
        self.stdout.write(
            self.style.SUCCESS(
                "\nDemo ready: the dealer's console at http://127.0.0.1:8000/console/, "
                "rulesets and records at http://127.0.0.1:8000/admin/ (managers, auditors)"
            )
        )
        for username, _role, what in STAFF:
            self.stdout.write(f"  log in as {username} / {password_of(username)}  ({what})")

    def _set_up_floor(self, venue: Venue, preset: str, users: dict, rounds: int) -> None:
        if not Ruleset.objects.filter(venue=venue, game="niuniu").exists():
            venue_ruleset_from_preset(
                venue=venue,
                preset_code=preset,
                editor=users["manager"],
                approver=users["approver"],
                override_reason="The venue's own rule sheet, as printed.",
            )
        ruleset = Ruleset.objects.get(venue=venue, game="niuniu")
        denominations, limits = TABLE_SETUP[venue.code]
        tables = []
        manager = users["manager"]
        tables = [
            table_create(
                venue=venue,
                user=manager,
                code=f"NN{number}",
                game="niuniu",
                ruleset=ruleset,
                seats=5,
                chip_denominations=denominations,
                limits={b: {"min_stake": lo, "max_stake": hi} for b, (lo, hi) in limits.items()},
            )
            for number in (1, 2)
        ]
        for n, name in enumerate(PLAYER_NAMES, start=1):
            player_create(
                venue=venue, user=manager, membership_number=f"{venue.code}-{n:04d}", name=name
            )
        opening = {d: 40 for d in denominations[:4]}
        session = session_open(table=tables[0], user=users["dealer"], opening_chips=opening)
        voided = play(
            session=session,
            rounds=rounds,
            dealer=users["dealer"],
            supervisor=users["supervisor"],
            seed=venue.pk,
        )
        tray = session.opening_total + session_figures(session)["win_by_ledger"]
        closed = session_close(
            session=session, user=users["supervisor"], closing_chips=chips_for(tray, denominations)
        )
        report = report_build(
            report_id=report_request(shift_id=closed.shift_id, send=False).pk, email=False
        )
        session_open(table=tables[1], user=users["dealer"], opening_chips=opening)
        self.stdout.write(
            f"  {tables[0]}: {rounds} rounds played ({voided} voided), house won "
            f"{closed.win_by_ledger} {venue.currency}; {tables[1]} is open for you"
        )
        self.stdout.write(
            f"  shift report: http://127.0.0.1:8000/reports/shift/{report.pk}/ (manager, auditor)"
        )
        assert closed.status == TableSession.Status.CLOSED
