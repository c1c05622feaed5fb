"""A whole gaming day played through the API alone (tests/casino/api/test_whole_day.py
works its figures by hand and reads them back).

Only the set-up is not an HTTP call: the staff, the venue (its note denominations and
cash thresholds, approved by two managers), the tables and their rulesets. Two things
stand for the clock: the blackjack session is moved an hour back after it opens (its
rating needs half an hour of play inside it), and the gaming day is ended (its count
closes only after its hours have passed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal as D
from typing import Any

from rest_framework.test import APIClient

from casino.cage.services.thresholds import thresholds_approve, thresholds_propose
from casino.floor.models import TableSession
from casino.staff.roles import CAGE, COUNT, DEALER, MANAGER
from casino.venues.services.tables import table_create
from tablegames.services import venue_ruleset_from_preset
from tests.casino.api import (
    NIU_8,
    NIU_9,
    box,
    client_for,
    credentials,
    deal,
    open_session,
    settle,
    slip,
)
from tests.casino.days import end_gaming_day
from tests.factories import PlayerFactory, staff

M = D("1000000")


@dataclass
class Day:
    """The staff's clients and what the day made, by the ids the API answered."""

    floor: Any
    lan: Any
    minh: Any
    people: dict[str, Any]
    clients: dict[str, APIClient]
    bj_table: int
    ids: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> APIClient:
        try:
            return self.__dict__["clients"][name]
        except KeyError:
            raise AttributeError(name) from None

    def venue_url(self, what: str) -> str:
        return f"/api/v1/venues/{self.floor.venue.pk}/{what}/"


def set_up(floor: Any) -> Day:
    """The venue, its staff and its two tables: the floor's Niu Niu table NN1 and a
    blackjack table BJ1 kept for its accounting (2% edge, 60 hands an hour)."""
    venue = floor.venue
    venue.note_denominations = ["500000", "200000", "100000"]
    venue.save()
    manager2 = staff("manager2", MANAGER, venue)
    version = thresholds_propose(
        venue=venue,
        user=floor.manager,
        logging_threshold="20000000",
        reporting_threshold="100000000",
    )
    thresholds_approve(version=version, user=manager2)
    blackjack = venue_ruleset_from_preset(
        venue=venue, preset_code="blackjack-6deck", editor=floor.manager, approver=manager2
    )
    bj_table = table_create(
        venue=venue,
        user=floor.manager,
        code="BJ1",
        game="tablegames",
        ruleset=blackjack.ruleset,
        seats=7,
        chip_denominations=["1000000", "100000"],
        limits={"bet": {"min_stake": D("10000"), "max_stake": D("1000000")}},
    )
    people = {
        "dealer": floor.dealer,
        "dealer2": staff("dealer2", DEALER, venue),
        "supervisor": floor.supervisor,
        "supervisor2": floor.supervisor2,
        "manager": floor.manager,
        "auditor": floor.auditor,
        "cashier": staff("cashier", CAGE, venue),
        "counter": staff("counter", COUNT, venue),
        "counter2": staff("counter2", COUNT, venue),
    }
    day = Day(
        floor=floor,
        lan=PlayerFactory(venue=venue, membership_number="A-1", name="Lan"),
        minh=PlayerFactory(venue=venue, membership_number="A-2", name="Minh"),
        people=people,
        clients={name: client_for(user) for name, user in people.items()},
        bj_table=bj_table.pk,
    )
    return day


def ok(response: Any, status: int = 200) -> dict:
    assert response.status_code == status, response.json()
    return response.json()


def cash(day: Day, client: APIClient, session: int, amount: str, **body: Any) -> dict:
    answer = client.post(
        f"/api/v1/sessions/{session}/cash-transactions/",
        {"amount": amount, **body},
        format="json",
    )
    return ok(answer, 201)


def play_nn1(day: Day) -> dict:
    """NN1: opener, a fill and a credit, three rounds (one voided), the cash, the close."""
    floor, people = day.floor, day.people
    opened = open_session(
        day.dealer, floor.table.pk, {"1000000": 150}, confirmed_by=floor.supervisor
    )
    session = opened["id"]
    day.ids["nn1"], day.ids["shift"] = session, opened["shift"]["id"]
    for kind, chips in (("fill", {"1000000": 5}), ("credit", {"1000000": 2})):
        slip(day.dealer, day.cashier, day.dealer, day.supervisor2, session, kind, chips)
    rounds = []
    for number, (cards, dealer) in enumerate([(NIU_9, NIU_8), (NIU_8, NIU_9), (NIU_9, NIU_8)]):
        dealt = deal(day.dealer, session, box(1, cards, single="1000000"), dealer=dealer)
        ok(settle(day.dealer, dealt["id"], f"whole-day-{number}"))
        rounds.append(dealt["id"])
    asked = {"reason": "misdeal: a card turned"}
    ok(day.dealer.post(f"/api/v1/rounds/{rounds[2]}/void/", asked, format="json"), 202)
    voided = ok(day.supervisor.post(f"/api/v1/rounds/{rounds[2]}/void/", {}, format="json"))
    assert voided["status"] == "voided"
    passport = {"id_document_type": "passport", "id_document_number": "B1234567"}
    day.ids["lan_in"] = cash(day, day.dealer, session, "100000000", player=day.lan.pk, **passport)
    day.ids["unknown_in"] = cash(day, day.dealer, session, "10000000")
    mistake = cash(day, day.dealer, session, "7000000", player=day.minh.pk)
    day.ids["mistake"] = ok(
        day.supervisor.post(
            f"/api/v1/cash-transactions/{mistake['id']}/void/",
            {"reason": "typed at the wrong table"},
            format="json",
        )
    )
    day.ids["lan_out"] = cash(
        day, day.dealer, session, "3000000", player=day.lan.pk, kind="cash_out"
    )
    # The tray as it truly stands: 46,050,000 (the test's header).
    closed = day.supervisor.post(
        f"/api/v1/sessions/{session}/close/",
        {
            "closing_chips": {"1000000": 46, "10000": 5},
            "counted_by": credentials(people["dealer"]),
            "variance_reason": "the drop is counted in the count room",
        },
        format="json",
    )
    return ok(closed)


def play_bj1(day: Day) -> dict:
    """BJ1: opener, Minh's buy-in, Lan rated for half an hour, the close."""
    people = day.people
    opened = open_session(
        day.dealer2, day.bj_table, {"1000000": 10}, confirmed_by=people["supervisor"]
    )
    session = day.ids["bj1"] = opened["id"]
    # The clock: as if the table had opened an hour ago.
    an_hour_ago = datetime.fromisoformat(opened["opened_at"]) - timedelta(hours=1)
    TableSession.objects.filter(pk=session).update(opened_at=an_hour_ago)
    day.ids["minh_in"] = cash(day, day.dealer2, session, "3000000", player=day.minh.pk)
    rated = day.supervisor.post(
        f"/api/v1/sessions/{session}/ratings/",
        {
            "player": day.lan.pk,
            "average_bet": "100000",
            "started_at": (an_hour_ago + timedelta(minutes=10)).isoformat(),
            "ended_at": (an_hour_ago + timedelta(minutes=40)).isoformat(),
            "actual_win": "600000",
        },
        format="json",
    )
    day.ids["rating"] = ok(rated, 201)
    closed = day.supervisor.post(
        f"/api/v1/sessions/{session}/close/",
        {"closing_chips": {"1000000": 8}, "counted_by": credentials(people["dealer2"])},
        format="json",
    )
    return ok(closed)


def count_the_boxes(day: Day, gaming_date: str) -> dict:
    """Two counters count each box (the same notes); the first closes the day's count, the
    second confirming it with their password."""
    count_day = f"/api/v1/venues/{day.floor.venue.pk}/count/{gaming_date}/"
    boxes = ok(day.counter.get(count_day))["boxes"]
    notes = {"NN1": {"500000": 214}, "BJ1": {"500000": 6}}
    for drop_box in boxes:
        for counter in (day.counter, day.counter2):
            body = {"notes": notes[drop_box["table"]["code"]]}
            ok(
                counter.post(f"/api/v1/drop-boxes/{drop_box['id']}/counts/", body, format="json"),
                201,
            )
    confirmed = {"confirmed_by": {"username": "counter2", "password": "pw-for-tests"}}
    return ok(day.counter.post(f"{count_day}close/", confirmed, format="json"))


def end_the_day(day: Day, gaming_date: str) -> None:
    end_gaming_day(day.floor.venue, date.fromisoformat(gaming_date))
