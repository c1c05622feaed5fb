"""Front money on its screens and through the API: the cage window (deposit, return), the
table (a draw for chips), the balances report with its CSV and a manager's reversal, and
the API's endpoints; each calls the service, so the balance agrees everywhere.

Worked by hand (Hà Nội, VND): Le Thi B deposits 10,000,000 at the cage; draws 3,000,000 at
the table; 2,000,000 is returned to her: 10,000,000 - 3,000,000 - 2,000,000 = 5,000,000.
A second member, Tran Van C, deposits 1,500,000 through the API. The venue holds
5,000,000 + 1,500,000 = 6,500,000 for its members. A draw of 6,000,000 is refused (she
holds 5,000,000); a manager reverses the 3,000,000 draw: 8,000,000 is hers.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.cage.models import FrontMoney
from casino.cage.selectors import front_money_balance
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def as_user(client):
    def log_in(user):
        client.force_login(user)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        return client

    return log_in


@pytest.fixture
def member(floor):
    return PlayerFactory(venue=floor.venue, membership_number="FM-1", name="Le Thi B")


def test_the_cage_the_table_and_the_report_agree(
    as_user, client, floor, session, cashier, manager, member
):
    cage = reverse("console:cage-front-money", args=[floor.venue.pk])
    client = as_user(cashier)
    page = client.get(cage, {"player": "fm-1"})
    assert page.status_code == 200
    assert "Front money of Le Thi B (FM-1)" in page.content.decode()
    done = client.post(
        cage, {"player": "FM-1", "action": "deposit", "amount": "10,000,000", "note": "safe"}, **HX
    )
    assert done.status_code == 200
    assert "Deposit of 10,000,000 recorded for Le Thi B." in done.content.decode()

    table = reverse("console:front-money", args=[session.pk])
    client = as_user(floor.dealer)
    refused = client.post(table, {"player": "FM-1", "amount": "12,000,000"}, **HX)
    assert refused.status_code == 422
    assert "FM-1 has 10,000,000 of front money, less than 12,000,000" in refused.content.decode()
    drawn = client.post(table, {"player": "FM-1", "amount": "3,000,000"}, **HX)
    assert drawn.status_code == 200
    text = drawn.content.decode()
    assert "Le Thi B drew 3,000,000 of chips against their front money." in text
    assert "Balance: 7,000,000" in text

    client = as_user(cashier)
    back = client.post(cage, {"player": "FM-1", "action": "return", "amount": "2,000,000"}, **HX)
    assert "Balance: 5,000,000" in back.content.decode()
    assert front_money_balance(member) == D("5000000")

    client = as_user(manager)
    report = reverse("reports:front_money")
    text = client.get(report, {"venue": floor.venue.code}).content.decode()
    assert "FM-1 Le Thi B" in text
    assert 'id="front-money-total">5,000,000<' in text
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(
                    reverse("reports:front_money_csv"), {"venue": floor.venue.code}
                ).content.decode("utf-8-sig")
            )
        )
    )
    assert rows[-1][:3] == ["FM-1", "Le Thi B", "5000000"]

    draw = FrontMoney.objects.get(kind="draw")
    reverse_url = reverse("reports:front_money_reverse", args=[draw.pk])
    empty = client.post(f"{reverse_url}?venue={floor.venue.code}", {"reason": ""})
    assert empty.status_code == 422
    assert "Say why it is reversed." in empty.content.decode()
    undone = client.post(f"{reverse_url}?venue={floor.venue.code}", {"reason": "wrong member"})
    assert undone.status_code == 200
    assert 'id="front-money-total">8,000,000<' in undone.content.decode()
    assert AuditEvent.objects.filter(action="front_money.reverse").count() == 1


def test_the_cage_page_says_what_is_wrong(as_user, floor, cashier, member):
    client = as_user(cashier)
    cage = reverse("console:cage-front-money", args=[floor.venue.pk])
    nobody = client.get(cage, {"player": "NOPE"})
    assert "No player with membership number NOPE at this venue." in nobody.content.decode()
    no_amount = client.post(cage, {"player": "FM-1", "action": "deposit", "amount": ""}, **HX)
    assert no_amount.status_code == 422
    assert "Give the amount, e.g. 1000000." in no_amount.content.decode()
    too_much = client.post(cage, {"player": "FM-1", "action": "return", "amount": "1,000"}, **HX)
    assert too_much.status_code == 422
    assert "FM-1 has 0 of front money, less than 1,000" in too_much.content.decode()
    assert not FrontMoney.objects.exists()


def test_the_api_moves_and_reads_front_money(floor, session, cashier, manager, member):
    from rest_framework.test import APIClient

    other = PlayerFactory(venue=floor.venue, membership_number="FM-2", name="Tran Van C")
    api = APIClient()
    api.force_authenticate(cashier)
    answer = api.post(
        reverse("api:front-money-deposit", args=[member.pk]), {"amount": "10000000"}, format="json"
    )
    assert answer.status_code == 201
    assert answer.json()["balance"] == "10000000.00"
    api.post(
        reverse("api:front-money-deposit", args=[other.pk]), {"amount": "1500000"}, format="json"
    )
    api.force_authenticate(floor.dealer)
    draw = reverse("api:front-money-draw", args=[session.pk])
    refused = api.post(draw, {"player": member.pk, "amount": "11000000"}, format="json")
    assert refused.status_code == 409
    drawn = api.post(draw, {"player": member.pk, "amount": "3000000"}, format="json")
    assert drawn.json()["balance"] == "7000000.00"
    assert [m["kind"] for m in drawn.json()["movements"]] == ["draw", "deposit"]
    api.force_authenticate(cashier)
    api.post(
        reverse("api:front-money-return", args=[member.pk]), {"amount": "2000000"}, format="json"
    )
    api.force_authenticate(manager)
    held = api.get(reverse("api:venue-front-money", args=[floor.venue.pk])).json()
    assert held["total"] == "6500000.00"
    assert [(b["membership_number"], b["balance"]) for b in held["balances"]] == [
        ("FM-1", "5000000.00"),
        ("FM-2", "1500000.00"),
    ]
    movement = FrontMoney.objects.get(kind="draw")
    reversed_ = api.post(
        reverse("api:front-money-reverse", args=[movement.pk]),
        {"reason": "wrong member"},
        format="json",
    )
    assert reversed_.status_code == 201
    assert reversed_.json()["balance"] == "8000000.00"
