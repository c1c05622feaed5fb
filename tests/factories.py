from __future__ import annotations

from decimal import Decimal
from typing import Any

import factory
from django.contrib.auth.models import User

from casino import games
from casino.players.models import Player
from casino.rulesets.models import Ruleset
from casino.staff.roles import AUDITOR, MANAGER, SUPERVISOR, grant, role_group
from casino.venues.models import Table, TableLimit, Venue
from niuniu.services import venue_ruleset_from_preset


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests")


class VenueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Venue
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"venue{n}")
    name = factory.LazyAttribute(lambda o: f"Venue {o.code}")
    currency = "VND"
    rounding_unit = Decimal("1000")
    timezone = "Asia/Ho_Chi_Minh"
    language = "vi"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    venue = factory.SubFactory(VenueFactory)
    membership_number = factory.Sequence(lambda n: f"M{n:05d}")
    name = factory.Faker("name")


def rules_dict(version: object) -> dict:
    """A version's rules as its game's adapter gives them (the audit trail's data, the
    approval's fingerprint)."""
    return games.of_version(version).rules_as_dict(version)


def staff(username: str, role: str, *venues: Venue) -> User:
    """A staff user holding ``role`` at each of ``venues`` (with none: in the role's group
    only, which lets them do nothing at any venue)."""
    user = UserFactory(username=username, is_staff=role in (SUPERVISOR, MANAGER, AUDITOR))
    if not venues:
        user.groups.add(role_group(role))
    for venue in venues:
        grant(user, venue, role)
    return user


def pit_boss(venue: Venue) -> User:
    """A supervisor at ``venue`` to confirm a count where a test does not care who does."""
    return staff(f"{venue.code}-pit-boss", SUPERVISOR, venue)


def niuniu_table(
    venue: Venue,
    *,
    code: str = "NN1",
    preset: str = "vn-kr-004",
    seats: int = 5,
    limits: dict[str, tuple[str, str]] | None = None,
    denominations: tuple[str, ...] = ("1000000", "100000", "10000", "1000"),
) -> Table:
    """A Niu Niu table at ``venue`` with an active copy of ``preset``."""
    ruleset = Ruleset.objects.filter(venue=venue, game="niuniu", code=preset).first()
    if ruleset is None:
        editor = staff(f"{venue.code}-ruleset-editor", MANAGER, venue)
        approver = staff(f"{venue.code}-ruleset-approver", MANAGER, venue)
        version = venue_ruleset_from_preset(
            venue=venue,
            preset_code=preset,
            editor=editor,
            approver=approver,
            override_reason="the sheet as printed",
        )
        ruleset = version.ruleset
    table = Table.objects.create(
        venue=venue,
        code=code,
        game="niuniu",
        ruleset=ruleset,
        seats=seats,
        chip_denominations=list(denominations),
    )
    limits = limits or {
        "single": ("10000", "10000000"),
        "double": ("10000", "5000000"),
        "super": ("10000", "1000000"),
        "bonus": ("10000", "500000"),
    }
    TableLimit.objects.bulk_create(
        TableLimit(table=table, bet_type=bet_type, min_stake=Decimal(lo), max_stake=Decimal(hi))
        for bet_type, (lo, hi) in limits.items()
    )
    return table


def macau_session(code: str, name: str) -> tuple[Any, User]:
    """A Macau venue ``code`` (MOP, units of 1) with one Niu Niu table on the ``macau-001``
    sheet, open with 100 chips of 10,000: its session and its dealer. What the settle
    benchmarks and the failover drill deal on."""
    from casino.floor.services.sessions import session_open
    from casino.staff.roles import DEALER

    venue = Venue.objects.create(
        code=code,
        name=name,
        currency="MOP",
        rounding_unit=Decimal("1"),
        timezone="Asia/Macau",
        language="pt",
    )
    table = niuniu_table(
        venue,
        preset="macau-001",
        denominations=("10000", "1000", "100", "10", "5", "1"),
        limits={
            "single": ("100", "50000"),
            "double": ("100", "20000"),
            "super": ("100", "5000"),
            "bonus": ("100", "2000"),
        },
    )
    dealer = staff(f"{code}-dealer", DEALER, venue)
    supervisor = staff(f"{code}-supervisor", SUPERVISOR, venue)
    session = session_open(
        table=table, counted_by=dealer, confirmed_by=supervisor, opening_chips={"10000": 100}
    )
    return session, dealer
