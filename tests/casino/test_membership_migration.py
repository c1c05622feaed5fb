"""The upgrade that puts existing membership numbers in the stored form (migration 0008).

Its function runs here on real rows written past the CHECK constraint (dropped for the test,
inside the test's transaction), then the constraint goes back on as the migration puts it.
"""

from __future__ import annotations

import importlib

import pytest
from django.db import connection

from casino.audit.models import AuditEvent
from casino.players.models import Player
from tests.factories import VenueFactory
from tests.migration_state import models_as_of

pytestmark = pytest.mark.django_db

migration = importlib.import_module("casino.migrations.0008_membership_key")
#: The models as the migration saw them (the player was then ``casino.Player``).
apps = models_as_of("casino", "0008_membership_key")
CHECK = next(c for c in Player._meta.constraints if c.name == "player_number_stored_form")


@pytest.fixture
def before_the_check(db):
    """The player table as it was before the upgrade: any text in a number."""
    with connection.schema_editor() as editor:
        editor.remove_constraint(Player, CHECK)


def insert(venue, number, created_at):
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO casino_player (venue_id, membership_number, name, status, created_at)"
            " VALUES (%s, %s, %s, 'active', %s) RETURNING id",
            [venue.pk, number, f"Holder of {number}", created_at],
        )
        return cursor.fetchone()[0]


def test_clashes_are_renumbered_reported_and_audited(before_the_check, venue):
    other = VenueFactory(code="seoul")
    genuine = insert(venue, "HANOI-0001", "2024-01-01T08:00Z")
    near = insert(venue, "hanoi-0001", "2024-02-01T08:00Z")
    eszett = insert(venue, "MB-ß1", "2024-03-01T08:00Z")
    untouched = insert(venue, "MB-SS1", "2024-01-15T08:00Z")
    full_width = insert(venue, "ＭＢ－００２", "2024-04-01T08:00Z")
    elsewhere = insert(other, "hanoi-0001", "2024-05-01T08:00Z")  # alone at its venue

    report = []
    with connection.schema_editor() as editor:
        events = migration.renumber_players(apps, editor, report=report.append)
        editor.add_constraint(Player, CHECK)  # every number now passes the constraint

    numbers = dict(Player.objects.values_list("pk", "membership_number"))
    assert numbers == {
        genuine: "HANOI-0001",
        near: f"HANOI-0001-DUP-{near}",
        eszett: f"FIX-{eszett}",
        untouched: "MB-SS1",
        full_width: "MB-002",
        elsewhere: "HANOI-0001",
    }
    assert report[0].strip() == (
        "Membership numbers put in the stored form: 4 player(s) renumbered, each with a "
        "player.renumber audit event:"
    )
    assert report[1:] == [
        f"  venue hanoi: player {near} 'hanoi-0001' -> 'HANOI-0001-DUP-{near}' (same number "
        f"as player {genuine}, who is older and keeps it)",
        f"  venue hanoi: player {eszett} 'MB-ß1' -> 'FIX-{eszett}' (cannot be put in the "
        "stored form)",
        f"  venue hanoi: player {full_width} 'ＭＢ－００２' -> 'MB-002' (put in the stored form)",
        f"  venue seoul: player {elsewhere} 'hanoi-0001' -> 'HANOI-0001' (put in the stored form)",
    ]
    audited = {
        int(e.object_id): (e.venue_id, e.user_id, e.before, e.after)
        for e in AuditEvent.objects.filter(action="player.renumber", object_type="casino.player")
    }
    assert audited == {
        near: (
            venue.pk,
            None,
            {"membership_number": "hanoi-0001"},
            {"membership_number": f"HANOI-0001-DUP-{near}"},
        ),
        eszett: (
            venue.pk,
            None,
            {"membership_number": "MB-ß1"},
            {"membership_number": f"FIX-{eszett}"},
        ),
        full_width: (
            venue.pk,
            None,
            {"membership_number": "ＭＢ－００２"},
            {"membership_number": "MB-002"},
        ),
        elsewhere: (
            other.pk,
            None,
            {"membership_number": "hanoi-0001"},
            {"membership_number": "HANOI-0001"},
        ),
    }
    assert len(events) == 4

    again = []
    assert migration.renumber_players(apps, None, report=again.append) == []
    assert again == []
    assert AuditEvent.objects.filter(action="player.renumber").count() == 4


def test_the_oldest_player_keeps_the_number_even_in_another_spelling(before_the_check, venue):
    older = insert(venue, "hanoi-0001", "2023-12-01T08:00Z")
    newer = insert(venue, "HANOI-0001", "2024-01-01T08:00Z")
    migration.renumber_players(apps, None, report=lambda line: None)
    numbers = dict(Player.objects.values_list("pk", "membership_number"))
    assert numbers == {older: "HANOI-0001", newer: f"HANOI-0001-DUP-{newer}"}


def test_a_new_number_fits_and_is_distinct_from_every_other():
    long = "A" * 32
    plan = migration.plan_numbers(
        [
            (1, long.lower()),
            (2, long),
            (3, "hn-1"),
            (4, "HN-1"),
            (5, "HN-1-DUP-4"),  # already someone's: the duplicate gets another number
            (6, "  "),
        ]
    )
    assert plan == {
        1: (long, "put in the stored form"),
        2: ("A" * 26 + "-DUP-2", "same number as player 1, who is older and keeps it"),
        3: ("HN-1", "put in the stored form"),
        4: ("HN-1-DUP-4-2", "same number as player 3, who is older and keeps it"),
        6: ("FIX-6", "cannot be put in the stored form"),
    }
    assert all(len(number) <= 32 for number, _reason in plan.values())
