"""The cash log's page, CSV and API read one selector (casino.cage.cash_log.cash_log); the cage
window's form takes the patron: a membership number, an unknown patron's identifier, or a
description when the cash reaches a threshold.

The day (logging threshold 30,000,000, reporting 100,000,000): VIP-2 buys in 40,000,000
at NN1 and buys 20 x 1,000,000 chips at the window (60,000,000 in); a patron nobody knows
buys 35 x 1,000,000 chips at the window, described "a man in a white cap", who becomes
U-<day>-1 (35,000,000 in).
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from casino.cage.models import UnknownPatron
from casino.cage.services.cash import cash_record
from casino.cage.services.thresholds import gaming_date_at
from tests.casino.api import client_for
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(floor, session, cashier, thresholds, client):
    venue = floor.venue
    venue.note_denominations = ["500000"]
    venue.save(update_fields=["note_denominations"])
    member = PlayerFactory(venue=venue, membership_number="VIP-2", name="Pham Van C")
    cash_record(session=session, user=floor.dealer, player=member, amount=D("40000000"))
    client.force_login(cashier)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    purchase = reverse("console:cage-movement", args=[venue.pk, "purchase"])
    bought = client.post(purchase, {"chips-1000000": "20", "notes-500000": "40", "player": "vip-2"})
    assert bought.status_code == 200, bought.content.decode()[:2000]
    nobody = {"chips-1000000": "35", "notes-500000": "70"}
    refused = client.post(purchase, nobody)
    assert refused.status_code == 422
    assert "describe the patron" in refused.content.decode()
    described = client.post(purchase, {**nobody, "patron_description": "a man in a white cap"})
    assert described.status_code == 200
    return gaming_date_at(venue, timezone.now())


def test_the_page_shows_the_day_and_filters_by_person(floor, day, client):
    patron = UnknownPatron.objects.get()
    assert patron.code == f"U-{day:%Y%m%d}-1"
    url = reverse("console:cash-log", args=[floor.venue.pk])
    page = client.get(url).content.decode()
    assert "VIP-2" in page and patron.code in page and "a man in a white cap" in page
    assert page.count('data-source="') == 3
    mine = client.get(url, {"person": "VIP-2"}).content.decode()
    assert mine.count('data-source="') == 2 and patron.code not in mine
    nobody = client.get(url, {"person": "NOBODY-1"}).content.decode()
    assert "Nobody at this venue is NOBODY-1." in nobody


def test_the_csv_and_the_api_read_the_same_rows(floor, day, client):
    url = reverse("console:cash-log-csv", args=[floor.venue.pk])
    text = client.get(url, {"day": day.isoformat()}).content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text)))
    kinds = ("Buy-in", "Chip purchase")
    persons = [line[7] for line in lines if len(line) > 7 and line[2] in kinds]
    assert persons == ["VIP-2", "VIP-2", f"U-{day:%Y%m%d}-1"]

    api = client_for(floor.supervisor)
    answer = api.get(f"/api/v1/venues/{floor.venue.pk}/cash-log/", {"date": day.isoformat()})
    assert answer.status_code == 200
    body = answer.json()
    assert [(r["kind"], r["amount"], r["membership_number"]) for r in body["rows"]] == [
        ("buy_in", "40000000.00", "VIP-2"),
        ("chip_purchase", "20000000.00", "VIP-2"),
        ("chip_purchase", "35000000.00", None),
    ]
    assert {t["person"]: t["cash_in"] for t in body["totals"]} == {
        "VIP-2": "60000000.00",
        f"U-{day:%Y%m%d}-1": "35000000.00",
    }


def test_a_supervisor_links_the_unknown_patron_through_the_api(floor, day):
    patron = UnknownPatron.objects.get()
    api = client_for(floor.supervisor)
    linked = api.post(
        f"/api/v1/unknown-patrons/{patron.pk}/link/", {"member": "VIP-2"}, format="json"
    )
    assert linked.status_code == 200 and linked.json()["member"] == "VIP-2"
    answer = api.get(f"/api/v1/venues/{floor.venue.pk}/cash-log/", {"person": "VIP-2"}).json()
    assert answer["totals"] == [{"person": "VIP-2", "cash_in": "95000000.00", "cash_out": "0.00"}]
