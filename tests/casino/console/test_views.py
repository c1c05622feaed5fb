"""The console's shell (``casino/floor/console/``: my tables, opening, history and voids, slips,
closing) through Django's test client, on PostgreSQL; rounds are dealt on Niu Niu's screen.

An htmx request (``HX-Request: true``) gets only the fragment it replaces; the same URL
without it gets the whole page.
"""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.cage.models import Slip
from casino.floor.models import Round, RoundStatus, TableSession
from casino.floor.services.sessions import session_open
from casino.ledger.models import LedgerEntry
from casino.staff.roles import DEALER
from tests.factories import staff
from tests.niuniu.test_console import (  # noqa: F401 (re-exported for other tests)
    HX,
    NIU_8,
    NIU_9,
    NO_NIU,
    digest_of,
    preview_then_confirm,
    round_data,
    url,
)

pytestmark = pytest.mark.django_db


# Getting in


def test_the_root_goes_to_the_console_and_the_console_to_the_login(client):
    assert client.get("/").url == "/console/"
    response = client.get("/console/")
    assert response.status_code == 302
    assert response.url.startswith(settings.LOGIN_URL)
    # htmx is answered 401: the page it came from stays, and its lock screen signs in again
    partial = client.get("/console/", **HX)
    assert partial.status_code == 401 and partial.headers["HX-Reswap"] == "none"
    assert "sign in again" in partial.content.decode()


def test_the_login_form_logs_a_dealer_in(client, floor):
    page = client.get(settings.LOGIN_URL)
    assert b'name="username"' in page.content
    response = client.post(settings.LOGIN_URL, {"username": "dealer", "password": "pw-for-tests"})
    assert response.url == settings.LOGIN_REDIRECT_URL
    client.post(reverse("logout"))
    wrong = client.post(settings.LOGIN_URL, {"username": "dealer", "password": "nope"})
    assert wrong.status_code == 200 and b'role="alert"' in wrong.content


def test_my_tables_are_those_of_my_venues(dealer, floor, session):
    page = dealer.get(reverse("console:home")).content.decode()
    assert floor.venue.name in page and floor.other_venue.name not in page
    assert reverse("console:round", args=[session.pk]) in page


def test_opening_a_table_with_a_chip_count_leads_to_the_round_screen(dealer, floor):
    form = dealer.get(reverse("console:open", args=[floor.table.pk]))
    assert b'name="chips-100000"' in form.content
    assert b"This table has never been closed" in form.content
    data = {"chips-100000": "50", "chips-1000": "1,000"}
    # a supervisor confirms the count: without their credentials nothing opens
    unsigned = dealer.post(reverse("console:open", args=[floor.table.pk]), data)
    assert unsigned.status_code == 422
    assert b"A supervisor confirms the count" in unsigned.content
    data |= {"supervisor": "supervisor", "password": "pw-for-tests"}
    response = dealer.post(reverse("console:open", args=[floor.table.pk]), data)
    session = TableSession.objects.get(table=floor.table)
    assert (session.opened_by, session.opening_confirmed_by) == (floor.dealer, floor.supervisor)
    assert response.status_code == 303
    assert response.url == reverse("console:round", args=[session.pk])
    assert session.opening_total == D("6000000")
    # the same form posted again opens nothing more
    again = dealer.post(reverse("console:open", args=[floor.table.pk]), data)
    assert again.url == response.url
    assert TableSession.objects.filter(table=floor.table).count() == 1


def test_a_bad_chip_count_is_shown_on_the_form(dealer, floor):
    response = dealer.post(reverse("console:open", args=[floor.table.pk]), {"chips-1000": "-3"})
    assert response.status_code == 422
    assert b"Count the chips as a whole number" in response.content
    assert not TableSession.objects.exists()


def test_absurd_numbers_are_refused_on_the_form_not_with_an_error_page(dealer, floor, session):
    response = dealer.post(
        reverse("console:open", args=[floor.other_table.pk]), {"chips-1000": "9" * 20}
    )
    assert response.status_code == 404  # another venue's table, whatever the count
    data = round_data(box1=(NIU_9, {"single": "9" * 20}))
    preview = dealer.post(url("preview", session), data, **HX)
    assert preview.status_code == 422 and "is not an amount" in preview.content.decode()
    slip = dealer.post(url("slips", session), {"kind": "fill", "chips-1000": "9" * 20, "seen": "0"})
    assert slip.status_code == 422 and "At most 99,999 chips" in slip.content.decode()
    assert dealer.get(url("history", session), {"round": "x"}).status_code == 200
    assert dealer.get(url("round-detail", session, 999999), **HX).status_code == 404


def test_another_venues_table_is_not_found_and_a_user_without_the_role_is_refused(client, floor):
    client.force_login(floor.dealer)
    assert client.get(reverse("console:open", args=[floor.other_table.pk])).status_code == 404
    other_session = session_open(
        table=floor.other_table,
        counted_by=floor.other_dealer,
        confirmed_by=floor.other_supervisor,
        opening_chips={},
    )
    assert client.get(reverse("console:round", args=[other_session.pk])).status_code == 404
    assert client.post(url("preview", other_session), {}, **HX).status_code == 404
    client.force_login(floor.auditor)
    assert client.get(reverse("console:open", args=[floor.table.pk])).status_code == 403
    session = session_open(
        table=floor.table, counted_by=floor.dealer, confirmed_by=floor.supervisor, opening_chips={}
    )
    refused = client.post(url("preview", session), {}, **HX)
    assert refused.status_code == 403
    assert refused["Content-Type"].startswith("text/plain")
    assert refused["HX-Reswap"] == "none"


# History and voids


@pytest.fixture
def settled_round(dealer, session):
    data = round_data(box1=(NIU_9, {"single": "100,000"}))
    preview_then_confirm(dealer, session, data)
    return Round.objects.get()


def void_data(**extra):
    return {"reason": "misdeal", "supervisor": "supervisor", "password": "pw-for-tests", **extra}


def test_the_history_lists_rounds_and_their_details(dealer, session, settled_round):
    page = dealer.get(url("history", session)).content.decode()
    assert f'id="round-{settled_round.pk}"' in page and "Niu 8" in page
    detail = dealer.get(url("round-detail", session, settled_round.pk), **HX)
    html = detail.content.decode()
    assert "<html" not in html and f'id="round-detail-{settled_round.pk}"' in html
    assert "Void round 1" in html
    plain = dealer.get(url("round-detail", session, settled_round.pk))
    assert plain.status_code == 302 and f"round={settled_round.pk}" in plain.url


def test_a_void_is_approved_by_a_supervisor_with_their_own_credentials(
    dealer, floor, session, settled_round
):
    wrong = dealer.post(url("void", session, settled_round.pk), void_data(password="guess"), **HX)
    assert wrong.status_code == 422
    assert "Wrong username or password: nothing was voided." in wrong.content.decode()
    settled_round.refresh_from_db()
    assert settled_round.status == RoundStatus.SETTLED

    not_a_supervisor = dealer.post(
        url("void", session, settled_round.pk), void_data(supervisor="dealer"), **HX
    )
    assert "dealer is not a supervisor at this venue" in not_a_supervisor.content.decode()

    done = dealer.post(url("void", session, settled_round.pk), void_data(), **HX)
    assert done.status_code == 200 and 'id="history"' in done.content.decode()
    settled_round.refresh_from_db()
    assert settled_round.status == RoundStatus.VOIDED
    # a voided round settles nothing: the history shows no house figure for it
    row = done.content.decode().split(f'id="round-{settled_round.pk}"')[1].split("</tr>")[0]
    assert "A voided round settles nothing." in row and "net plus" not in row
    assert "net minus" not in row
    assert settled_round.void_requested_by == floor.dealer
    assert settled_round.voided_by == floor.supervisor
    assert LedgerEntry.objects.filter(round=settled_round).count() % 2 == 0
    # the same form again changes nothing
    entries = LedgerEntry.objects.count()
    assert dealer.post(url("void", session, settled_round.pk), void_data(), **HX).status_code == 200
    assert LedgerEntry.objects.count() == entries


def test_a_supervisor_cannot_approve_their_own_void(client, floor, session, settled_round):
    client.force_login(floor.supervisor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.post(url("void", session, settled_round.pk), void_data(), **HX)
    assert "another supervisor must approve it" in response.content.decode()
    settled_round.refresh_from_db()
    assert settled_round.status == RoundStatus.SETTLED


# Fills and credits


def test_a_fill_is_requested_once_per_form_and_its_status_shown(dealer, session):
    page = dealer.get(url("slips", session)).content.decode()
    seen = re.search(r'name="seen" value="(\d+)"', page).group(1)
    data = {"kind": "fill", "chips-100000": "10", "seen": seen}
    first = dealer.post(url("slips", session), data, **HX)
    assert first.status_code == 200
    slip = Slip.objects.get()
    assert f"Fill {slip.label} requested for 1,000,000." in first.content.decode()
    again = dealer.post(url("slips", session), data, **HX)
    assert "That request was already sent" in again.content.decode()
    assert Slip.objects.count() == 1
    assert (slip.kind, slip.amount, slip.status) == ("fill", D("1000000"), "requested")
    listing = dealer.get(url("slips", session), {"list": "1"}, **HX).content.decode()
    assert listing.strip().startswith('<div id="slip-list"') and "Requested" in listing


def test_a_slip_without_chips_is_refused(dealer, session):
    response = dealer.post(url("slips", session), {"kind": "credit", "seen": "0"}, **HX)
    assert response.status_code == 422 and "Count at least one chip." in response.content.decode()
    assert not Slip.objects.exists()


# Closing


def test_closing_needs_a_supervisor_and_shows_the_variance(dealer, floor, session, settled_round):
    # opened with 5,000,000; the house lost 95,000 in round 1: 4,905,000 expected in the tray
    page = dealer.get(url("close", session)).content.decode()
    assert 'data-expected="4905000' in page
    count = {
        "chips-1000000": "4",
        "chips-100000": "9",
        "chips-1000": "10",  # 4,910,000
        "variance_reason": "a player's tip left on the table",
    }
    wrong = dealer.post(
        url("close", session), {**count, "supervisor": "supervisor", "password": "x"}, **HX
    )
    assert wrong.status_code == 422
    assert "the table is still open" in wrong.content.decode()
    response = dealer.post(
        url("close", session),
        {**count, "supervisor": "supervisor", "password": "pw-for-tests"},
        **HX,
    )
    assert response.headers["HX-Redirect"] == url("round", session)
    session.refresh_from_db()
    assert session.status == TableSession.Status.CLOSED
    assert (session.closing_counted_by, session.closed_by) == (floor.dealer, floor.supervisor)
    assert (session.win_by_count, session.win_by_ledger, session.variance) == (
        D("-90000"),
        D("-95000"),
        D("5000"),
    )
    summary = dealer.get(url("round", session)).content.decode()
    assert 'data-figure="variance">+5,000' in summary
    # the same form again: the table is closed already
    again = dealer.post(
        url("close", session),
        {**count, "supervisor": "supervisor", "password": "pw-for-tests"},
        **HX,
    )
    assert again.headers["HX-Redirect"] == url("round", session)


def test_a_dealer_of_another_venue_sees_nothing_here(client, floor, session):
    stranger = staff("stranger", DEALER, floor.other_venue)
    client.force_login(stranger)
    for name in ("round", "history", "slips", "close"):
        assert client.get(url(name, session)).status_code == 404
