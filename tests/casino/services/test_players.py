"""Registering and editing players, and finding them: one number, one member (PostgreSQL)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import translation

from casino.audit.models import AuditEvent
from casino.floor.console.selectors import players_by_number
from casino.kernel.errors import InvalidInput
from casino.players.models import Player
from casino.players.selectors import player_list
from casino.players.services import player_create, player_update
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def register(venue, manager, number, name="Member"):
    return player_create(venue=venue, user=manager, membership_number=number, name=name)


def test_a_number_is_registered_in_its_stored_form(venue, manager):
    player = register(venue, manager, "  ｈａｎｏｉ－０００２ ")
    assert Player.objects.get(pk=player.pk).membership_number == "HANOI-0002"
    event = AuditEvent.objects.get(action="player.create", object_id=str(player.pk))
    assert event.after["membership_number"] == "HANOI-0002"


def test_another_spelling_of_a_registered_number_is_refused(venue, manager):
    genuine = register(venue, manager, "HANOI-0001")
    for near in ("hanoi-0001", "Hanoi-0001 ", "ｈａｎｏｉ－０００１"):
        with pytest.raises(InvalidInput) as refused:
            register(venue, manager, near)
        assert refused.value.field == "membership_number"
        assert refused.value.message.startswith(
            "Membership number HANOI-0001 is already registered at this venue"
        )
    other = register(venue, manager, "HANOI-0002")
    with pytest.raises(InvalidInput, match="HANOI-0001 is already registered"):
        player_update(player=other, user=manager, membership_number="hanoi-0001")
    assert list(Player.objects.values_list("pk", flat=True).order_by("pk")) == [
        genuine.pk,
        other.pk,
    ]


def test_the_database_refuses_a_number_outside_the_form_whatever_the_path(venue):
    """No service in the way: the admin, a shell or a bulk import meet the CHECK constraint."""
    Player.objects.create(venue=venue, membership_number="HANOI-0001", name="Genuine")
    for number in ("hanoi-0001", "MB-ß1", "MB-SS1 ", "ABC\n", "", "ＭＢ－００１"):
        with pytest.raises(IntegrityError, match="player_number_stored_form"), transaction.atomic():
            Player.objects.create(venue=venue, membership_number=number, name="Near")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.bulk_create([Player(venue=venue, membership_number="hn-1", name="Bulk")])
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE casino_player SET membership_number = lower(membership_number)")
    assert list(Player.objects.values_list("membership_number", flat=True)) == ["HANOI-0001"]


@pytest.mark.parametrize("number", ["MB-ß1", "MB-ﬁ1", "MB-\x001", "МВ-1", "HN 1"])
def test_a_number_outside_the_form_is_refused_saying_what_is_allowed(venue, manager, number):
    with pytest.raises(InvalidInput) as refused:
        register(venue, manager, number)
    assert refused.value.field == "membership_number"
    assert "only the letters A to Z, the digits 0 to 9 and the signs - . /" in refused.value.message
    player = register(venue, manager, "MB-2")
    with pytest.raises(InvalidInput, match="only the letters A to Z"):
        player_update(player=player, user=manager, membership_number=number)
    assert not Player.objects.exclude(membership_number="MB-2").exists()


def test_an_edit_in_another_spelling_of_the_same_number_changes_nothing(venue, manager):
    player = register(venue, manager, "HANOI-0001")
    player_update(player=player, user=manager, membership_number="hanoi-0001")
    assert Player.objects.get(pk=player.pk).membership_number == "HANOI-0001"
    assert not AuditEvent.objects.filter(action="player.update").exists()
    barred = player_update(player=player, user=manager, status=Player.Status.BARRED)
    assert barred.status == Player.Status.BARRED


@pytest.fixture
def members(venue):
    return {
        number: PlayerFactory(venue=venue, membership_number=number, name=f"Owner of {number}")
        for number in ("MB-SS1", "MB-FI1", "MB-001", "HANOI-0001")
    }


LOOKUPS = [
    ("MB-ß1", None),  # Python's upper() makes it MB-SS1
    ("MB-ﬁ1", None),  # NFKC makes it MB-fi1
    ("mb-ss1", "MB-SS1"),
    ("ＭＢ－００１", "MB-001"),
    (" hanoi-0001 ", "HANOI-0001"),
    ("MB-\x00SS1", None),
    ("МВ-001", None),  # Cyrillic
]


@pytest.mark.parametrize(("typed", "owner"), LOOKUPS)
def test_a_lookup_finds_the_stored_form_or_nobody(members, manager, venue, typed, owner):
    found = players_by_number(venue=venue, numbers=[typed])
    assert [p.membership_number for p in found.values()] == ([owner] if owner else [])
    listed = player_list(user=manager, membership_number=typed)
    assert [p.membership_number for p in listed] == ([owner] if owner else [])


def test_a_search_matches_the_start_of_the_stored_form(members, manager):
    def searched(term):
        return [p.membership_number for p in player_list(user=manager, search=term)]

    assert searched("mb-") == ["MB-001", "MB-FI1", "MB-SS1"]
    assert searched("ｍｂ－ｓ") == ["MB-SS1"]
    assert searched("MB-ß") == []
    assert searched("owner of mb-ss") == ["MB-SS1"]  # names still match in any case
