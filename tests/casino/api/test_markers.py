"""Markers through the API and the aging report (page and CSV).

Worked by hand (VND): a credit limit of 10,000,000; a marker of 6,000,000 at the table
(4,000,000 available after it), a second of 5,000,000 refused (409, credit_limit), one of
4,000,000 at the cage (0 available); a payment of 1,500,000 in chips: outstanding
10,000,000 - 1,500,000 = 8,500,000, available 1,500,000. Every marker is current today.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.urls import reverse

from casino.floor.services.sessions import session_open
from tests.casino.api import client_for, credentials
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_credit_markers_and_a_payment(floor, cashier, approver):
    member = PlayerFactory(venue=floor.venue, membership_number="API-1", name="Pham D")
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 100},
    )
    proposed = client_for(floor.manager).post(
        f"/api/v1/players/{member.pk}/credit-lines/",
        {"limit": "10000000", "reason": "known player"},
        format="json",
    )
    assert proposed.status_code == 201, proposed.json()
    line = proposed.json()["id"]
    own = client_for(floor.manager).post(f"/api/v1/credit-lines/{line}/approve/")
    assert own.status_code == 403
    approved = client_for(approver).post(f"/api/v1/credit-lines/{line}/approve/")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"

    body = {
        "player": member.pk,
        "amount": "6000000",
        "player_signed": True,
        "supervisor": credentials(floor.supervisor),
    }
    dealer = client_for(floor.dealer)
    issued = dealer.post(f"/api/v1/sessions/{session.pk}/markers/", body, format="json")
    assert issued.status_code == 201, issued.json()
    assert issued.json()["label"] == "M-000001" and issued.json()["in_drop"] is True
    over = dealer.post(
        f"/api/v1/sessions/{session.pk}/markers/", {**body, "amount": "5000000"}, format="json"
    )
    assert over.status_code == 409
    assert "4,000,000 is available" in over.json()["detail"]
    wrong = dealer.post(
        f"/api/v1/sessions/{session.pk}/markers/",
        {**body, "supervisor": {"username": "supervisor", "password": "nope"}},
        format="json",
    )
    assert wrong.status_code == 400 and wrong.json()["field"] == "supervisor"

    cage = client_for(cashier)
    at_cage = cage.post(
        f"/api/v1/venues/{floor.venue.pk}/markers/", {**body, "amount": "4000000"}, format="json"
    )
    assert at_cage.status_code == 201 and at_cage.json()["at_the_cage"] is True
    paid = cage.post(
        f"/api/v1/markers/{issued.json()['id']}/payments/",
        {"amount": "1500000", "method": "chips"},
        format="json",
    )
    assert paid.status_code == 201, paid.json()

    credit = cage.get(f"/api/v1/players/{member.pk}/credit/").json()
    assert (D(credit["limit"]), D(credit["outstanding"]), D(credit["available"])) == (
        D("10000000"),
        D("8500000"),
        D("1500000"),
    )
    assert [D(m["balance"]) for m in credit["markers"]] == [D("4000000"), D("4500000")]

    aging = client_for(floor.auditor).get(f"/api/v1/venues/{floor.venue.pk}/marker-aging/")
    assert aging.status_code == 200
    line = aging.json()["lines"][0]
    assert (line["membership_number"], D(line["current"]), D(line["overdue"])) == (
        "API-1",
        D("8500000"),
        0,
    )

    reversed_ = client_for(floor.manager).post(
        f"/api/v1/marker-payments/{paid.json()['id']}/reverse/",
        {"reason": "entered on the wrong marker"},
        format="json",
    )
    assert reversed_.status_code == 201 and D(reversed_.json()["amount"]) == D("-1500000")


def test_the_aging_page_and_csv(client, floor, cashier, approver):
    from casino.cage.services.credit_lines import credit_line_approve, credit_line_propose
    from casino.cage.services.markers import marker_issue_at_cage

    member = PlayerFactory(venue=floor.venue, membership_number="AGE-1", name="Vo E")
    line = credit_line_propose(
        venue=floor.venue, player=member, user=floor.manager, limit="10000000"
    )
    credit_line_approve(line=line, user=approver)
    marker_issue_at_cage(
        venue=floor.venue,
        player=member,
        user=cashier,
        supervisor=floor.supervisor,
        amount="3000000",
        player_signed=True,
    )
    client.force_login(floor.auditor)
    page = client.get(reverse("reports:marker_aging") + f"?venue={floor.venue.code}")
    assert page.status_code == 200
    text = page.content.decode()
    assert "AGE-1" in text and "3,000,000" in text and 'id="aging-title"' in text
    csv = client.get(reverse("reports:marker_aging_csv") + f"?venue={floor.venue.code}")
    assert csv.status_code == 200
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert any(line.startswith("AGE-1,Vo E,1,3000000,0,0,0,0,3000000,0") for line in lines)
    client.force_login(floor.dealer)
    assert client.get(
        reverse("reports:marker_aging") + f"?venue={floor.venue.code}"
    ).status_code in (
        403,
        404,
    )


def test_managers_propose_and_approve_a_credit_limit_on_the_aging_page(client, floor, approver):
    from casino.cage.marker_selectors import credit_limit
    from casino.cage.models import CreditLine

    member = PlayerFactory(venue=floor.venue, membership_number="LIM-1", name="Ha G")
    query = f"?venue={floor.venue.code}"
    client.force_login(floor.manager)
    bad = client.post(reverse("reports:credit_line_propose") + query, {"player": "LIM-1"})
    assert bad.status_code == 422
    proposed = client.post(
        reverse("reports:credit_line_propose") + query,
        {"player": "LIM-1", "limit": "20000000", "reason": "regular"},
    )
    assert proposed.status_code == 302
    line = CreditLine.objects.get(player=member)
    page = client.get(reverse("reports:marker_aging") + query).content.decode()
    assert "LIM-1" in page and "20,000,000" in page
    own = client.post(reverse("reports:credit_line_approve", args=[line.pk]) + query)
    assert own.status_code == 403 and credit_limit(member) == 0
    client.force_login(approver)
    approved = client.post(reverse("reports:credit_line_approve", args=[line.pk]) + query)
    assert approved.status_code == 302 and credit_limit(member) == D("20000000")
    client.force_login(floor.supervisor)
    refused = client.post(
        reverse("reports:credit_line_propose") + query, {"player": "LIM-1", "limit": "1000"}
    )
    assert refused.status_code == 403


def test_a_manager_sets_the_marker_terms_on_the_aging_page_and_through_the_api(client, floor):
    from casino.cage.marker_selectors import terms_in_force

    query = f"?venue={floor.venue.code}"
    url = f"/api/v1/venues/{floor.venue.pk}/marker-terms/"
    defaults = client_for(floor.auditor).get(url).json()
    assert (defaults["term_days"], defaults["credit_drop"], defaults["set_by"]) == (30, True, None)

    client.force_login(floor.manager)
    bad = client.post(reverse("reports:marker_terms") + query, {"term_days": "0"})
    assert bad.status_code == 422 and terms_in_force(floor.venue).version is None
    assert 'id="terms-days-error"' in bad.content.decode()
    set_ = client.post(reverse("reports:marker_terms") + query, {"term_days": "45"})
    assert set_.status_code == 302
    assert (terms_in_force(floor.venue).term_days, terms_in_force(floor.venue).credit_drop) == (
        45,
        False,  # the box unticked: a table's marker is a credit to the table
    )
    page = client.get(reverse("reports:marker_aging") + query).content.decode()
    assert 'id="marker-terms-in-force"' in page and "45" in page

    refused = client_for(floor.supervisor).post(
        url, {"term_days": 20, "credit_drop": True}, format="json"
    )
    assert refused.status_code == 403
    posted = client_for(floor.manager).post(
        url, {"term_days": 20, "credit_drop": True}, format="json"
    )
    assert posted.status_code == 201, posted.json()
    assert (posted.json()["term_days"], posted.json()["credit_drop"]) == (20, True)
    assert posted.json()["set_by"] == floor.manager.username
    client.force_login(floor.supervisor)
    assert (
        client.post(reverse("reports:marker_terms") + query, {"term_days": "9"}).status_code == 403
    )
