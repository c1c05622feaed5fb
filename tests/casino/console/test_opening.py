"""The console's open screen: the count beside the table's inventory, a supervisor's
confirmation, the difference and its reason; the round screen shows the difference."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.urls import reverse

from casino.floor.models import TableSession
from casino.floor.services.closing import session_close
from casino.floor.services.sessions import session_open

pytestmark = pytest.mark.django_db

SIGNED = {"supervisor": "supervisor", "password": "pw-for-tests"}


@pytest.fixture
def closed_table(floor):
    """The floor's table, closed with 40 x 100,000 and 5 x 10,000 in its tray."""
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 40, "10000": 5},
    )
    return session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 40, "10000": 5},
    )


def open_url(floor):
    return reverse("console:open", args=[floor.table.pk])


def test_the_open_screen_shows_the_inventory_beside_the_count(dealer, floor, closed_table):
    page = dealer.get(open_url(floor)).content.decode()
    assert "what the table's last session counted at close, 4,050,000" in page
    assert 'data-expected="40"' in page and 'data-expected="5"' in page
    assert 'name="discrepancy_reason"' in page
    assert "Supervisor confirming the count" in page


def test_a_count_that_differs_is_refused_without_a_reason_then_opened_with_one(
    dealer, floor, closed_table
):
    count = {"chips-100000": "39", "chips-10000": "5", **SIGNED}
    refused = dealer.post(open_url(floor), count)
    page = refused.content.decode()
    assert refused.status_code == 422
    assert "differs from the table&#x27;s inventory" in page
    assert "-1 × 100,000 (-100,000)" in page
    # the difference of the 100,000s, shown beside the count after the submit
    assert 'class="num minus" data-difference>-1</td>' in page
    assert not TableSession.objects.filter(status="open").exists()
    opened = dealer.post(open_url(floor), {**count, "discrepancy_reason": "a chip at the cage"})
    assert opened.status_code == 303
    session = TableSession.objects.get(status="open")
    assert session.opening_discrepancy == {"100000": -1}
    assert session.opening_discrepancy_total == D("-100000")
    # the round screen says so
    screen = dealer.get(opened.url).content.decode()
    assert 'id="opening-discrepancy"' in screen
    assert "Opened -100,000 off the table's inventory" in screen
    assert "a chip at the cage" in screen


def test_a_matching_count_opens_without_a_reason(dealer, floor, closed_table):
    opened = dealer.post(open_url(floor), {"chips-100000": "40", "chips-10000": "5", **SIGNED})
    assert opened.status_code == 303
    assert 'id="opening-discrepancy"' not in dealer.get(opened.url).content.decode()


@pytest.mark.parametrize(
    ("signer", "words"),
    [
        ({"supervisor": "supervisor", "password": "wrong"}, "Wrong username or password"),
        ({"supervisor": "dealer", "password": "pw-for-tests"}, "cannot also confirm the count"),
        (
            {"supervisor": "other-supervisor", "password": "pw-for-tests"},
            "is not a supervisor at",
        ),
    ],
)
def test_the_confirmation_is_a_supervisor_of_the_venue_other_than_the_counter(
    dealer, floor, signer, words
):
    refused = dealer.post(open_url(floor), {"chips-100000": "40", **signer})
    assert refused.status_code == 422
    assert words in refused.content.decode()
    assert not TableSession.objects.exists()
