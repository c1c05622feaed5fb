"""Managers' writes (tables, players) and the reference reads (venues, rulesets, audit)."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.audit.models import AuditEvent
from casino.players.models import Player
from casino.rulesets.models import Ruleset
from casino.venues.models import Table, TableLimit
from tests.casino.api import client_for, error_of, open_session
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(floor):
    return client_for(floor.manager)


def table_body(floor, **changes):
    return {
        "venue": floor.venue.pk,
        "code": "NN2",
        "game": "niuniu",
        "ruleset": floor.table.ruleset_id,
        "seats": 7,
        "chip_denominations": ["10000", "1000000", "100000"],
        "limits": {
            "single": {"min_stake": "20000", "max_stake": "2000000"},
            "double": {"min_stake": "20000", "max_stake": "1000000"},
        },
        **changes,
    }


def test_a_manager_sets_up_a_table(floor, manager):
    response = manager.post("/api/v1/tables/", table_body(floor))
    assert response.status_code == 201, response.json()
    table = response.json()
    assert (table["code"], table["seats"], table["status"]) == ("NN2", 7, "active")
    assert table["ruleset"]["code"] == "vn-kr-004"
    assert table["chip_denominations"] == ["1000000", "100000", "10000"]  # largest first
    assert table["limits"] == {
        "double": {"min_stake": "20000.00", "max_stake": "1000000.00"},
        "single": {"min_stake": "20000.00", "max_stake": "2000000.00"},
    }
    assert AuditEvent.objects.filter(action="table.create", object_id=str(table["id"])).exists()
    # The new table plays at once, under its limits.
    dealer = client_for(floor.dealer)
    session = open_session(dealer, table["id"], {"1000000": 1})
    assert session["table"] == {"id": table["id"], "code": "NN2"}


BAD_TABLES = [
    ({"code": "NN1"}, "code", "already a table NN1"),
    ({"code": "no spaces"}, "code", "slug"),
    ({"seats": 10}, "seats", "less than or equal to 9"),
    ({"chip_denominations": []}, "chip_denominations", "at least 1"),
    ({"chip_denominations": ["1000", "1000.00"]}, "chip_denominations[1]", "twice"),
    ({"chip_denominations": ["0"]}, "chip_denominations[0]", "more than 0"),
    ({"chip_denominations": ["abc"]}, "chip_denominations[0]", "is not an amount"),
    (
        {"limits": {"triple": {"min_stake": "1000", "max_stake": "2000"}}},
        "limits.triple",
        "not a bet type",
    ),
    (
        {"limits": {"single": {"min_stake": "5000", "max_stake": "1000"}}},
        "limits.single.max_stake",
        "below its minimum",
    ),
    (
        {"limits": {"single": {"min_stake": "1500", "max_stake": "10000"}}},
        "limits.single.min_stake",
        "“1500” is not an amount here: write a multiple of 1,000",
    ),
    ({"limits": {"single": {"min_stake": "1000"}}}, "limits.single.max_stake", "required"),
    ({"ruleset": 999999}, "ruleset", "no ruleset 999999"),
    ({"game": "poker"}, "game", "valid choice"),
    ({"venue": 999999}, "venue", "no venue 999999"),
]


def test_a_bad_table_names_the_field(floor, manager):
    for changes, field, words in BAD_TABLES:
        response = manager.post("/api/v1/tables/", table_body(floor, **changes))
        assert error_of(response)[2] == field, response.json()
        assert words in response.json()["detail"], response.json()
    assert Table.objects.count() == 2


def test_a_ruleset_of_another_game_or_venue_is_refused(floor, manager):
    other_game = Ruleset.objects.create(venue=floor.venue, game="maubinh", code="mb", name="MB")
    response = manager.post("/api/v1/tables/", table_body(floor, ruleset=other_game.pk))
    assert error_of(response) == (400, "invalid", "ruleset")
    assert "maubinh ruleset" in response.json()["detail"]
    theirs = manager.post(
        "/api/v1/tables/", table_body(floor, ruleset=floor.other_table.ruleset_id)
    )
    assert error_of(theirs) == (400, "invalid", "ruleset")


def test_a_manager_changes_a_table_but_not_its_chips_while_open(floor, manager):
    url = f"/api/v1/tables/{floor.table.pk}/"
    changed = manager.patch(
        url, {"limits": {"single": {"min_stake": "50000", "max_stake": "500000"}}, "seats": 6}
    )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["seats"] == 6
    assert list(changed.json()["limits"]) == ["single"]  # the limits were replaced
    assert TableLimit.objects.get(table=floor.table).min_stake == D("50000")

    open_session(client_for(floor.dealer), floor.table.pk)
    refused = manager.patch(url, {"chip_denominations": ["5000"]})
    assert error_of(refused) == (409, "conflict", None)
    assert "chip_denominations" in refused.json()["detail"]
    assert manager.patch(url, {"status": "inactive"}).json()["status"] == "inactive"
    assert error_of(manager.patch(url, {"game": "maubinh"})) == (400, "invalid", "game")
    assert error_of(manager.patch(url, {"venue": floor.other_venue.pk})) == (
        400,
        "invalid",
        "venue",
    )


def test_players_are_registered_searched_and_barred(floor, manager):
    created = manager.post(
        "/api/v1/players/",
        {"venue": floor.venue.pk, "membership_number": " VIP-007 ", "name": "Bond"},
    )
    assert created.status_code == 201, created.json()
    player = created.json()
    assert (player["membership_number"], player["status"]) == ("VIP-007", "active")
    duplicate = manager.post(
        "/api/v1/players/", {"venue": floor.venue.pk, "membership_number": "vip-007", "name": "X"}
    )
    assert error_of(duplicate) == (400, "invalid", "membership_number")
    PlayerFactory(venue=floor.venue, membership_number="VIP-100", name="Another")
    PlayerFactory(venue=floor.other_venue, membership_number="VIP-009", name="Elsewhere")

    dealer = client_for(floor.dealer)
    found = dealer.get("/api/v1/players/", {"search": "vip-0"}).json()
    assert [p["membership_number"] for p in found["results"]] == ["VIP-007"]
    exact = dealer.get("/api/v1/players/", {"membership_number": "VIP-100"}).json()
    assert [p["name"] for p in exact["results"]] == ["Another"]
    by_name = dealer.get("/api/v1/players/", {"search": "bon"}).json()
    assert [p["id"] for p in by_name["results"]] == [player["id"]]

    barred = manager.patch(f"/api/v1/players/{player['id']}/", {"status": "barred"})
    assert barred.json()["status"] == "barred"
    assert Player.objects.get(pk=player["id"]).status == "barred"
    event = AuditEvent.objects.get(action="player.update")
    assert (event.before["status"], event.after["status"]) == ("active", "barred")
    assert error_of(manager.patch(f"/api/v1/players/{player['id']}/", {"name": ""})) == (
        400,
        "invalid",
        "name",
    )


def test_venues_rulesets_and_a_version_with_its_paytable(floor):
    auditor = client_for(floor.auditor)
    venues = auditor.get("/api/v1/venues/").json()
    assert [v["code"] for v in venues["results"]] == ["hanoi"]
    assert venues["results"][0]["rounding_unit"] == "1000.00"

    rulesets = auditor.get("/api/v1/rulesets/").json()["results"]
    assert [(r["code"], r["venue"]["code"]) for r in rulesets] == [("vn-kr-004", "hanoi")]
    detail = auditor.get(f"/api/v1/rulesets/{rulesets[0]['id']}/").json()
    assert [(v["number"], v["status"]) for v in detail["versions"]] == [(1, "active")]

    version = auditor.get(f"/api/v1/rulesets/{rulesets[0]['id']}/versions/1/").json()
    assert (version["number"], version["offers_double"], version["double_deposit_multiple"]) == (
        1,
        True,
        "3",
    )
    rows = {(r["bet_type"], r["category"]): r for r in version["paytable_rows"]}
    assert rows["double", "NIU_9"] == {
        "bet_type": "double",
        "category": "NIU_9",
        "win_odds": "2",
        "commission_rate": "0.05",
        "loss_multiple": "2",
    }
    assert version["bonus_lines"] == []
    missing = auditor.get(f"/api/v1/rulesets/{rulesets[0]['id']}/versions/9/")
    assert error_of(missing) == (404, "not_found", None)


def test_lists_are_paginated(floor):
    PlayerFactory.create_batch(7, venue=floor.venue)
    page = client_for(floor.auditor).get("/api/v1/players/", {"limit": 3, "offset": 3}).json()
    assert (page["count"], len(page["results"])) == (7, 3)
    assert "offset=6" in page["next"]
    assert "offset=0" in page["previous"] or "limit=3" in page["previous"]
