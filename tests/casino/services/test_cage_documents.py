"""The cage asks before it records, as the table does, and keeps the identity document seen
(casino.cage.services.cage_identification, casino.cage.services.patrons.window_patron).

Logging threshold 30,000,000, reporting 100,000,000; DOC-0 is a member whose record holds
no identity document:

- a front money deposit of 10,000,000 asks nothing; one of 110,000,000 reaches the
  reporting threshold (cash in): refused without a document, saying to ask for one;
  recorded with it, the movement keeping it, the alert raised (120,000,000);
- a return of 120,000,000 (cash out) asks again, on the cashier's screen;
- a marker paid in cash, 110,000,000, asks the same (refused, then recorded with it); paid
  in chips, nothing is asked;
- a chip purchase of 100,000,000 through the API: refused without it, kept with it;
- the cash log's page, its CSV and its API show each document, the number masked.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from casino.cage.cash_log import cash_log
from casino.cage.models import CashAlert, FrontMoney, MarkerPayment
from casino.cage.services.credit_lines import credit_line_approve, credit_line_propose
from casino.cage.services.front_money import front_money_deposit
from casino.cage.services.markers import marker_issue_at_cage, marker_pay
from casino.cage.services.thresholds import gaming_date_at
from casino.kernel.errors import InvalidInput
from tests.casino.api import client_for, error_of
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

M = D("1000000")
ASKED = "ask for an identity document and give its type and number"


@pytest.fixture
def member(floor, thresholds):
    venue = floor.venue
    venue.note_denominations = ["500000"]
    venue.save(update_fields=["note_denominations"])
    return PlayerFactory(venue=venue, membership_number="DOC-0", id_document_number="")


def test_front_money_asks_for_the_document_before_it_records(floor, cashier, member):
    # under the thresholds nothing is asked, nor kept
    small = front_money_deposit(venue=floor.venue, player=member, user=cashier, amount=10 * M)
    assert small.id_document_number == ""
    with pytest.raises(InvalidInput) as refused:
        front_money_deposit(venue=floor.venue, player=member, user=cashier, amount=110 * M)
    assert (refused.value.field, refused.value.reason) == (
        "id_document_type",
        "identification_required",
    )
    assert ASKED in refused.value.message
    assert FrontMoney.objects.count() == 1 and not CashAlert.objects.exists()
    with pytest.raises(InvalidInput) as half:
        front_money_deposit(
            venue=floor.venue,
            player=member,
            user=cashier,
            amount=110 * M,
            id_document_type="passport",
        )
    assert half.value.field == "id_document_number"
    deposit = front_money_deposit(
        venue=floor.venue,
        player=member,
        user=cashier,
        amount=110 * M,
        id_document_type="passport",
        id_document_number="N1234567",
    )
    assert (deposit.id_document_type, deposit.id_document_number) == ("passport", "N1234567")
    alert = CashAlert.objects.get()
    assert (alert.source_id, alert.total) == (deposit.pk, 120 * M)


def test_the_cashiers_screen_takes_the_document_of_a_return(floor, cashier, member, client):
    front_money_deposit(
        venue=floor.venue,
        player=member,
        user=cashier,
        amount=120 * M,
        id_document_type="passport",
        id_document_number="N1234567",
    )
    client.force_login(cashier)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("console:cage-front-money", args=[floor.venue.pk])
    form = {"player": "DOC-0", "amount": "120000000", "action": "return"}
    refused = client.post(url, form)
    assert refused.status_code == 422
    page = refused.content.decode()
    assert ASKED in page and 'id="front-money-id-type"' in page
    assert FrontMoney.objects.count() == 1
    done = client.post(url, {**form, "id_document_type": "ID card", "id_document_number": "0791"})
    assert done.status_code == 200, done.content.decode()[:2000]
    returned = FrontMoney.objects.get(kind="return")
    assert (returned.id_document_type, returned.id_document_number) == ("ID card", "0791")


@pytest.fixture
def marker(floor, cashier, member, approver):
    line = credit_line_propose(venue=floor.venue, player=member, user=floor.manager, limit=200 * M)
    credit_line_approve(line=line, user=approver)
    return marker_issue_at_cage(
        venue=floor.venue,
        player=member,
        user=cashier,
        supervisor=floor.supervisor,
        amount=150 * M,
        player_signed=True,
    )


def test_a_marker_paid_in_cash_asks_before_it_records(floor, cashier, marker):
    with pytest.raises(InvalidInput) as refused:
        marker_pay(marker=marker, user=cashier, amount=110 * M, method="cash")
    assert refused.value.field == "id_document_type" and ASKED in refused.value.message
    assert not MarkerPayment.objects.exists()
    # in chips, no cash moves: nothing is asked
    in_chips = marker_pay(marker=marker, user=cashier, amount=30 * M, method="chips")
    assert in_chips.id_document_number == ""
    api = client_for(cashier)
    path = reverse("api:marker-pay", args=[marker.pk])
    body = {"amount": "110000000", "method": "cash"}
    assert error_of(api.post(path, body, format="json")) == (400, "invalid", "id_document_type")
    paid = api.post(
        path, {**body, "id_document_type": "passport", "id_document_number": "M7654321"}
    )
    assert paid.status_code == 201, paid.content
    assert paid.json()["id_document"] == "passport ••••4321"
    payment = MarkerPayment.objects.get(method="cash")
    assert (payment.id_document_type, payment.id_document_number) == ("passport", "M7654321")
    assert CashAlert.objects.get().source_id == payment.pk


def test_the_window_api_keeps_the_document_and_the_log_shows_each(floor, cashier, member, client):
    api = client_for(cashier)
    path = f"/api/v1/venues/{floor.venue.pk}/cage/purchases/"
    body = {"chips": {"1000000": 100}, "notes": {"500000": 200}, "player": "DOC-0"}
    assert error_of(api.post(path, body, format="json")) == (400, "invalid", "id_document_type")
    seen = {**body, "id_document_type": "passport", "id_document_number": "W2468"}
    bought = api.post(path, seen, format="json")
    assert bought.status_code == 201, bought.content
    assert bought.json()["id_document"] == "passport •2468"
    front_money_deposit(
        venue=floor.venue,
        player=member,
        user=cashier,
        amount=20 * M,
        id_document_type="ID card",
        id_document_number="079135",
    )

    day = gaming_date_at(floor.venue, timezone.now())
    rows = cash_log(gaming_date=day, venue=floor.venue)
    assert [row.id_document for row in rows] == ["passport •2468", "ID card ••9135"]
    client.force_login(cashier)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("console:cash-log", args=[floor.venue.pk]), {"day": day})
    text = page.content.decode()
    assert "<td data-document>passport •2468</td>" in text
    assert "W2468" not in text
    csv_text = client.get(
        reverse("console:cash-log-csv", args=[floor.venue.pk]), {"day": day}
    ).content.decode("utf-8-sig")
    assert "passport •2468" in csv_text
    logged = client_for(floor.supervisor).get(
        f"/api/v1/venues/{floor.venue.pk}/cash-log/", {"date": day.isoformat()}
    )
    assert [r["id_document"] for r in logged.json()["rows"]] == ["passport •2468", "ID card ••9135"]


def test_the_window_and_the_markers_screens_take_the_document(floor, cashier, marker, client):
    from casino.cage.models import CageMovement

    client.force_login(cashier)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    window = reverse("console:cage-movement", args=[floor.venue.pk, "purchase"])
    form = {"chips-1000000": "100", "notes-500000": "200", "player": "DOC-0"}
    refused = client.post(window, form)
    assert refused.status_code == 422 and ASKED in refused.content.decode()
    assert 'id="window-id-type"' in refused.content.decode()
    seen = {"id_document_type": "passport", "id_document_number": "W2468"}
    assert client.post(window, {**form, **seen}).status_code == 200
    bought = CageMovement.objects.get(kind="chip_purchase")
    assert (bought.id_document_type, bought.id_document_number) == ("passport", "W2468")

    pay = reverse("console:cage-marker-pay", args=[floor.venue.pk, marker.pk])
    paid = {"amount": "10000000", "method": "cash"}  # the day is 110,000,000 with it
    refused = client.post(pay, paid)
    assert refused.status_code == 422 and ASKED in refused.content.decode()
    assert client.post(pay, {**paid, **seen}).status_code == 200
    payment = MarkerPayment.objects.get()
    assert (payment.id_document_type, payment.id_document_number) == ("passport", "W2468")
