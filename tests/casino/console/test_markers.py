"""The table's step to issue a marker and the cage's window for a member's credit.

Worked by hand (VND): a credit limit of 5,000,000; 3,000,000 issued at the table, then
3,000,000 more refused (2,000,000 available); 2,000,000 at the cage (0 available); a
payment of 500,000 in cash: outstanding 4,500,000, available 500,000.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from casino.cage.models import Marker
from casino.cage.services.credit_lines import credit_line_approve, credit_line_propose
from tests.casino.api import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(floor, approver):
    from tests.factories import PlayerFactory

    player = PlayerFactory(venue=floor.venue, membership_number="SCR-1", name="Do F")
    line = credit_line_propose(
        venue=floor.venue, player=player, user=floor.manager, limit="5000000"
    )
    credit_line_approve(line=line, user=approver)
    return player


def _form(amount: str, **more: str) -> dict[str, str]:
    return {
        "player": "SCR-1",
        "amount": amount,
        "player_signed": "on",
        "supervisor": "supervisor",
        "password": PASSWORD,
        **more,
    }


def test_the_table_issues_a_marker_and_is_told_what_is_available(dealer, session, member):
    url = reverse("console:markers", args=[session.pk])
    page = dealer.get(url)
    assert page.status_code == 200 and 'for="marker-player"' in page.content.decode()
    issued = dealer.post(url, _form("3000000"))
    assert issued.status_code == 200
    assert "M-000001" in issued.content.decode() and "Do F" in issued.content.decode()
    refused = dealer.post(url, _form("3000000"))
    assert refused.status_code == 422
    assert "2,000,000 is available" in refused.content.decode()
    unsigned = dealer.post(url, {**_form("1000"), "player_signed": ""})
    assert unsigned.status_code == 422
    wrong = dealer.post(url, _form("1000", password="nope"))
    assert wrong.status_code == 422 and "Wrong username or password" in wrong.content.decode()
    assert Marker.objects.count() == 1


def test_the_cage_issues_and_takes_a_payment(client, floor, cashier, member):
    client.force_login(cashier)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("console:cage-markers", args=[floor.venue.pk])
    issued = client.post(
        reverse("console:cage-marker-issue", args=[floor.venue.pk]), _form("2000000")
    )
    assert issued.status_code == 200 and "M-000001" in issued.content.decode()
    marker = Marker.objects.get()
    paid = client.post(
        reverse("console:cage-marker-pay", args=[floor.venue.pk, marker.pk]),
        {"amount": "500000", "method": "cash"},
    )
    assert paid.status_code == 200
    too_much = client.post(
        reverse("console:cage-marker-pay", args=[floor.venue.pk, marker.pk]),
        {"amount": "2000000", "method": "cash"},
    )
    assert too_much.status_code == 422 and "1,500,000 left to pay" in too_much.content.decode()
    page = client.get(url + "?player=SCR-1").content.decode()
    assert "1,500,000" in page and 'id="credit-figures-title"' in page
    client.force_login(floor.dealer)
    assert client.get(url).status_code == 403
