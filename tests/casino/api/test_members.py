"""The API's players: one number, one member; a look-alike finds nobody."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from casino.audit.models import AuditEvent
from casino.players.models import Player
from tests.casino.api import client_for, error_of
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(floor):
    return client_for(floor.manager)


def test_the_genuine_member_is_barred_after_a_near_duplicate_was_attempted(floor, manager):
    created = manager.post(
        "/api/v1/players/",
        {"venue": floor.venue.pk, "membership_number": "HANOI-0001", "name": "Genuine"},
    )
    genuine = created.json()
    near = manager.post(
        "/api/v1/players/",
        {"venue": floor.venue.pk, "membership_number": "hanoi-0001", "name": "Near"},
    )
    assert error_of(near) == (400, "invalid", "membership_number")
    assert "HANOI-0001 is already registered" in near.json()["detail"]
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(venue=floor.venue, membership_number="hanoi-0001", name="Near")

    barred = manager.patch(f"/api/v1/players/{genuine['id']}/", {"status": "barred"})
    assert barred.status_code == 200, barred.json()
    assert barred.json()["status"] == "barred"
    listed = manager.get("/api/v1/players/", {"membership_number": "hanoi-0001"}).json()
    assert [(p["id"], p["status"]) for p in listed["results"]] == [(genuine["id"], "barred")]


def test_a_number_outside_the_form_is_refused_saying_what_is_allowed(floor, manager):
    response = manager.post(
        "/api/v1/players/",
        {"venue": floor.venue.pk, "membership_number": "MB-ß1", "name": "Near"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert error_of(response) == (400, "invalid", "membership_number")
    assert response.json()["detail"] == (
        "A membership number may hold only the letters A to Z, the digits 0 to 9 and the "
        "signs - . /; retype it without “ß” (U+00DF)."
    )
    registered = manager.post(
        "/api/v1/players/",
        {"venue": floor.venue.pk, "membership_number": "ｍｂ－ｓｓ１", "name": "Full width"},
    )
    assert registered.json()["membership_number"] == "MB-SS1"
    assert not AuditEvent.objects.filter(after__membership_number="MB-ß1").exists()


@pytest.mark.parametrize(
    ("typed", "owner"),
    [("MB-ß1", None), ("MB-ﬁ1", None), ("ＭＢ－００１", "MB-001"), ("mb-fi1", "MB-FI1")],
)
def test_the_player_filter_finds_the_stored_form_or_nobody(floor, typed, owner):
    for number in ("MB-SS1", "MB-FI1", "MB-001"):
        PlayerFactory(venue=floor.venue, membership_number=number)
    dealer = client_for(floor.dealer)
    response = dealer.get("/api/v1/players/", {"membership_number": typed})
    assert response.status_code == 200
    found = [p["membership_number"] for p in response.json()["results"]]
    assert found == ([owner] if owner else [])
