"""A Mau Binh round through the same API routes as Niu Niu, with Mau Binh bodies."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.staff.roles import DEALER
from tests.casino.api import client_for, credentials, error_of, ledger_total
from tests.factories import VenueFactory, pit_boss, staff
from tests.maubinh.conftest import maubinh_table
from tests.maubinh.test_rounds import SEAT_1, SEAT_2, SEAT_3, SEAT_4

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(db):
    venue = VenueFactory(code="hanoi", currency="VND", rounding_unit=D("1000"))
    table = maubinh_table(venue)
    client = client_for(staff("mb-dealer", DEALER, venue))
    opened = client.post(
        "/api/v1/sessions/",
        {
            "table": table.pk,
            "opening_chips": {"100000": 10},
            "confirmed_by": credentials(pit_boss(venue)),
        },
    ).json()
    return client, opened["id"]


def seat(position, cards, stake="10000", **extra):
    return {"position": position, "cards": cards, "bets": {"stake": stake}, **extra}


def test_a_four_player_round_deals_and_settles_through_the_api(api):
    client, session = api
    body = {
        "session": session,
        "dealer_cards": "",
        "boxes": [seat(1, SEAT_1), seat(2, SEAT_2), seat(3, SEAT_3), seat(4, SEAT_4)],
    }
    dealt = client.post("/api/v1/rounds/", body)
    assert dealt.status_code == 201, dealt.json()
    boxes = {b["position"]: b for b in dealt.json()["boxes"]}
    assert boxes[3]["evaluation"]["fouled"] is True
    assert boxes[1]["evaluation"]["scooped"] == [2, 3]
    settled = client.post(
        f"/api/v1/rounds/{dealt.json()['id']}/settle/", HTTP_IDEMPOTENCY_KEY="mb-api-1"
    )
    assert settled.status_code == 200, settled.json()
    nets = {b["position"]: b["net"] for b in settled.json()["boxes"]}
    # worked by hand in tests/maubinh/test_rounds.py: +47, -44, -56, +53 chi at 10,000
    assert nets == {1: "446000.00", 2: "-440000.00", 3: "-560000.00", 4: "503000.00"}
    assert ledger_total(round_id=dealt.json()["id"]) == 0


def test_a_quitter_and_bad_bodies(api):
    client, session = api
    quit_round = client.post(
        "/api/v1/rounds/",
        {
            "session": session,
            "dealer_cards": "",
            "boxes": [seat(1, SEAT_1), seat(2, "", quit=True)],
        },
    )
    assert quit_round.status_code == 201, quit_round.json()
    assert quit_round.json()["boxes"][1]["quit"] is True
    refused = client.post(
        "/api/v1/rounds/",
        {
            "session": session,
            "dealer_cards": "",
            "boxes": [seat(1, SEAT_1), seat(2, SEAT_2, stake="20000")],
        },
    )
    assert error_of(refused)[0] == 400
    assert error_of(refused)[2] == "boxes[1].bets.stake"
    short = client.post(
        "/api/v1/rounds/",
        {
            "session": session,
            "dealer_cards": "",
            "boxes": [seat(1, SEAT_1), seat(2, "JS JH TC TD 5S / 9S 9H 6C 7C 8D / 2H 3H")],
        },
    )
    assert error_of(short)[:3:2] == (400, "boxes[1].cards")


def test_the_round_body_says_whether_an_instant_win_is_declared(db):
    from tests.maubinh.test_rounds import SIX_PAIRS_60, WEAK

    venue = VenueFactory(code="hanoi", currency="VND", rounding_unit=D("1000"))
    table = maubinh_table(venue, readings={"declaring": "optional"})
    client = client_for(staff("mb-dealer", DEALER, venue))
    opened = client.post(
        "/api/v1/sessions/",
        {
            "table": table.pk,
            "opening_chips": {"100000": 10},
            "confirmed_by": credentials(pit_boss(venue)),
        },
    ).json()

    def deal(*boxes):
        return client.post(
            "/api/v1/rounds/", {"session": opened["id"], "dealer_cards": "", "boxes": boxes}
        )

    # a seat holding Six Pairs must say
    missing = deal(seat(1, SIX_PAIRS_60), seat(2, WEAK))
    assert error_of(missing)[:3:2] == (400, "boxes[0].declared")
    # not declared: its rows play, (8 + 16 + 6) x 2 = 60 chi
    dealt = deal(seat(1, SIX_PAIRS_60, declared=False), seat(2, WEAK))
    assert dealt.status_code == 201, dealt.json()
    first = dealt.json()["boxes"][0]
    assert first["evaluation"]["chi"] == 60
    assert first["evaluation"]["undeclared_instant_win"] == "six_pairs"
    assert first["net"] == "570000.00"
    declared = deal(seat(1, SIX_PAIRS_60, declared=True), seat(2, WEAK))
    assert declared.json()["boxes"][0]["evaluation"]["chi"] == 18


def test_a_version_answers_the_readings_it_plays(db):
    from casino.staff.roles import AUDITOR

    venue = VenueFactory(code="hanoi", currency="VND", rounding_unit=D("1000"))
    table = maubinh_table(venue, readings={"declaring": "optional", "fee_basis": "each_win"})
    auditor = client_for(staff("mb-auditor", AUDITOR, venue))
    version = auditor.get(f"/api/v1/rulesets/{table.ruleset_id}/versions/1/").json()
    assert {
        name: version[name]
        for name in (
            "tied_instant_wins",
            "fee_basis",
            "declaring",
            "instant_win_when_fouled",
            "foul_pays_row_bonuses",
        )
    } == {
        "tied_instant_wins": "each_in_full",
        "fee_basis": "each_win",
        "declaring": "optional",
        "instant_win_when_fouled": True,
        "foul_pays_row_bonuses": True,
    }
