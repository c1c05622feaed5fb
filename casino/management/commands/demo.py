"""Demo data: the three Niu Niu venues of the rule sheets, their rulesets and staff accounts."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from casino.models import Ruleset, Venue
from casino.roles import role_group
from niuniu.services import venue_ruleset_from_preset

VENUES = [
    # code, name, currency, rounding unit, time zone, language, preset
    ("hanoi", "Hà Nội Pearl Casino", "VND", Decimal("1000"), "Asia/Ho_Chi_Minh", "vi", "vn-kr-004"),
    ("seoul", "Seoul Riverside Casino", "KRW", Decimal("100"), "Asia/Seoul", "ko", "vn-kr-004"),
    ("macau", "Macau Lotus Casino", "MOP", Decimal("0.10"), "Asia/Macau", "pt", "macau-001"),
]

STAFF = [
    # username, password, group, what they do
    ("manager", "demo-manager", "manager", "edits rulesets (drafts)"),
    ("approver", "demo-approver", "manager", "approves and activates what the manager edited"),
]


class Command(BaseCommand):
    help = "Create demo venues, rulesets and staff accounts (running it again changes nothing)."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        call_command("install_presets", stdout=self.stdout)
        group = role_group("manager")
        users = {}
        for username, password, _group, _what in STAFF:
            user, created = User.objects.get_or_create(
                username=username, defaults={"is_staff": True, "email": f"{username}@example.com"}
            )
            if created:
                user.set_password(password)
                user.save()
            user.groups.add(group)
            users[username] = user
        for code, name, currency, unit, tz, language, preset in VENUES:
            venue, _ = Venue.objects.get_or_create(
                code=code,
                defaults={
                    "name": name,
                    "currency": currency,
                    "rounding_unit": unit,
                    "timezone": tz,
                    "language": language,
                },
            )
            if not Ruleset.objects.filter(venue=venue, game="niuniu").exists():
                venue_ruleset_from_preset(
                    venue=venue,
                    preset_code=preset,
                    editor=users["manager"],
                    approver=users["approver"],
                )
            self.stdout.write(
                f"venue {venue.code}: {venue.name}, {currency}, ruleset from {preset}"
            )
        self.stdout.write(self.style.SUCCESS("\nDemo ready at http://127.0.0.1:8000/admin/"))
        for username, password, _group, what in STAFF:
            self.stdout.write(f"  log in as {username} / {password}  ({what})")
