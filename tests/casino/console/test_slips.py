"""Fills and credits on the console's slips page (the table's side): each viewer sees the
steps they may take (the dealer's and the supervisor's signatures, a supervisor's void), a
step they may not take is refused however it is sent; and the close page after a
refusal (what was typed stays, the variance's reason, the slips still to verify)."""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.cage.models import Slip
from casino.cage.services.slips import slip_issue, slip_request
from casino.floor.models import TableSession
from casino.floor.services.sessions import session_open
from casino.ledger.models import LedgerEntry
from casino.venues.services.venues import venue_update
from tests.factories import niuniu_table

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def slip(floor, session):
    return slip_request(session=session, user=floor.dealer, kind="fill", chips={"100000": 10})


@pytest.fixture
def as_user(client):
    def log_in(user):
        client.force_login(user)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        return client

    return log_in


def slips_page(client, session) -> str:
    return client.get(reverse("console:slips", args=[session.pk])).content.decode()


def step(session, slip, name):
    return reverse("console:slip-step", args=[session.pk, slip.pk, name])


def buttons(page: str) -> list[str]:
    return re.findall(r'<button type="submit"[^>]*aria-label="([^"]+)"', page)


def test_the_table_sees_no_step_until_the_cage_issues(as_user, floor, session, slip):
    page = slips_page(as_user(floor.dealer), session)
    assert slip.label in page
    assert buttons(page) == []
    assert "At the cage: waiting to be issued." in page
    page = slips_page(as_user(floor.supervisor), session)
    assert buttons(page) == [f"Void slip {slip.label}"]
    assert f'aria-label="Reason for voiding slip {slip.label}"' in page
    assert f'aria-label="Fill {slip.label}"' in page  # the row's name
    assert "1,000,000" in page and "100,000 × 10 = 1,000,000" in page


def test_the_dealer_and_a_supervisor_confirm_receipt_on_the_page(
    as_user, floor, session, slip, cashier
):
    slip_issue(slip=slip, user=cashier, runner="Minh")
    client = as_user(floor.dealer)
    page = slips_page(client, session)
    assert buttons(page) == [f"Confirm receipt of slip {slip.label} as dealer"]
    assert (
        "Chips on their way: the dealer and a supervisor sign for their receipt at the table."
        in page
    )
    assert "runner Minh" in page
    signed = client.post(step(session, slip, "confirm-dealer"), **HX)
    assert signed.status_code == 200
    assert f"Fill {slip.label} signed at the table." in signed.content.decode()
    assert buttons(signed.content.decode()) == []
    assert not LedgerEntry.objects.filter(slip=slip).exists()
    # the supervisor, from their own login, signs the second line: posted
    client = as_user(floor.supervisor)
    assert buttons(slips_page(client, session)) == [
        f"Confirm receipt of slip {slip.label} as supervisor",
    ]
    posted = client.post(step(session, slip, "confirm-supervisor"))  # a plain form
    assert posted.status_code == 200
    text = posted.content.decode()
    assert "<html" in text
    assert f"Fill {slip.label} signed by the dealer and a supervisor: entered in the ledger." in (
        text
    )
    slip.refresh_from_db()
    assert (slip.status, slip.dealer_confirmed_by, slip.supervisor_confirmed_by) == (
        "verified",
        floor.dealer,
        floor.supervisor,
    )
    assert sorted(e.amount for e in LedgerEntry.objects.filter(slip=slip)) == [
        D("-1000000"),
        D("1000000"),
    ]
    assert buttons(slips_page(client, session)) == []
    # the running tray: the opener's 50 chips of 100,000 with the fill's 10
    tray = slips_page(client, session)
    assert "The tray with the posted fills and credits" in tray
    assert re.search(
        r'<tr data-tray="100000"><th scope="row">100,000</th><td class="num">50</td>'
        r'<td class="num">60</td></tr>',
        tray,
    )


def test_a_credit_is_signed_out_at_the_table(as_user, floor, session, cashier):
    credit = slip_request(session=session, user=floor.dealer, kind="credit", chips={"1000": 5})
    slip_issue(slip=credit, user=cashier)
    page = slips_page(as_user(floor.supervisor), session)
    assert f"Sign out slip {credit.label} as supervisor" in buttons(page)
    assert "Issued: the dealer and a supervisor sign the chips out at the table." in page


def test_a_forged_step_is_refused_with_why_and_changes_nothing(
    as_user, floor, session, slip, cashier
):
    client = as_user(floor.dealer)
    page = client.post(step(session, slip, "issue"))
    assert page.status_code == 404  # the cage's step is not the table's
    partial = client.post(step(session, slip, "void"), {"reason": "forged"}, **HX)
    assert partial.status_code == 403 and partial["Content-Type"].startswith("text/plain")
    assert "only a supervisor at the table or the cage" in partial.content.decode()
    slip.refresh_from_db()
    assert slip.status == "requested"
    # the dealer forging the supervisor's line is told who signs it
    slip_issue(slip=slip, user=cashier)
    own = client.post(step(session, slip, "confirm-supervisor"))
    assert own.status_code == 403
    assert "only a supervisor signs the supervisor&#x27;s line" in own.content.decode()
    # the cashier has no table page at all
    assert as_user(cashier).get(reverse("console:slips", args=[session.pk])).status_code == 403
    assert not LedgerEntry.objects.filter(slip=slip).exists()
    assert AuditEvent.objects.filter(action__startswith="slip.").count() == 2  # request, issue


def test_a_repeated_step_or_a_void_without_reason_is_shown_on_the_slip(
    as_user, floor, session, slip, cashier
):
    slip_issue(slip=slip, user=cashier)
    client = as_user(floor.dealer)
    assert client.post(step(session, slip, "confirm-dealer"), **HX).status_code == 200
    again = as_user(floor.supervisor).post(step(session, slip, "confirm-dealer"), **HX)
    assert again.status_code == 409
    assert f"slip {slip.label} is already signed on that line" in again.content.decode()
    # an issued credit is voided at the table by a supervisor
    credit = slip_request(session=session, user=floor.dealer, kind="credit", chips={"1000": 5})
    slip_issue(slip=credit, user=cashier)
    client = as_user(floor.dealer)
    by_dealer = client.post(step(session, credit, "void"), {"reason": "no"}, **HX)
    assert by_dealer.status_code == 403  # the dealer may not void
    client = as_user(floor.supervisor)
    no_reason = client.post(step(session, credit, "void"), {"reason": "  "}, **HX)
    assert no_reason.status_code == 422
    assert "say why the slip is voided" in no_reason.content.decode()
    voided = client.post(step(session, credit, "void"), {"reason": "kept at the table"}, **HX)
    assert f"Credit {credit.label} voided." in voided.content.decode()
    assert "kept at the table" in voided.content.decode()
    credit.refresh_from_db()
    assert (credit.status, credit.voided_by, credit.void_reason) == (
        "void",
        floor.supervisor,
        "kept at the table",
    )


def test_no_such_step_or_slip_is_not_found(as_user, floor, session, slip):
    client = as_user(floor.supervisor)
    assert client.post(step(session, slip, "delete")).status_code == 404
    assert client.post(step(session, slip, "receive")).status_code == 404
    table = niuniu_table(floor.venue, code="NN2")
    other = session_open(
        table=table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 5},
    )
    elsewhere = reverse("console:slip-step", args=[other.pk, slip.pk, "void"])
    assert client.post(elsewhere, {"reason": "x"}).status_code == 404
    assert client.get(step(session, slip, "void")).status_code == 405
    assert Slip.objects.get(pk=slip.pk).status == "requested"


# Closing after a refusal


def close_url(session):
    return reverse("console:close", args=[session.pk])


SIGNED = {"supervisor": "supervisor", "password": "pw-for-tests"}


def test_the_close_page_lists_the_slips_to_verify_by_their_number(as_user, floor, session, slip):
    client = as_user(floor.dealer)
    page = client.get(close_url(session)).content.decode()
    assert f"Slips not verified yet: {slip.label}." in page
    assert reverse("console:slips", args=[session.pk]) in page
    refused = client.post(close_url(session), {"chips-100000": "50", **SIGNED}, **HX)
    assert refused.status_code == 422
    assert f"slip {slip.label} is not verified; verify or void it first" in (
        refused.content.decode()
    )


def test_a_refused_close_keeps_the_count_and_asks_for_the_variances_reason(as_user, floor, session):
    client = as_user(floor.dealer)
    count = {"chips-100000": "49", "chips-1000": "3", "drop": "2,000"}  # 4,903,000 + 2,000
    refused = client.post(close_url(session), {**count, **SIGNED}, **HX)
    assert refused.status_code == 422
    text = refused.content.decode()
    # what was typed is there, with its total and its variance
    assert 'name="chips-100000" value="49"' in text and 'value="2,000" data-drop' in text
    assert re.search(r"data-total [^>]*>4,903,000<", text)
    assert re.search(r'class="num minus" data-variance>-95,000<', text)
    # the tray against the tray expected (the drop is the box's cash, not the tray's)
    assert re.search(r'class="num minus" data-tray-difference>-97,000<', text)
    assert 'aria-invalid="true">' in text
    assert "the count is -95,000 off the ledger" in text
    assert TableSession.objects.get(pk=session.pk).status == "open"
    closed = client.post(
        close_url(session), {**count, **SIGNED, "variance_reason": "chips to the cage by hand"}
    )
    assert closed.status_code == 303
    session.refresh_from_db()
    assert (session.status, session.variance, session.drop_total) == ("closed", D("-95000"), 2000)
    event = AuditEvent.objects.get(action="session.close")
    assert event.after["variance_reason"] == "chips to the cage by hand"


def test_the_close_page_says_how_much_variance_needs_a_reason(as_user, floor, session):
    client = as_user(floor.dealer)
    assert "Needed whenever the win by count is off the win by ledger." in (
        client.get(close_url(session)).content.decode()
    )
    venue_update(venue=floor.venue, user=floor.manager, variance_reason_over="50000")
    page = client.get(close_url(session)).content.decode()
    assert "Needed when the win by count is more than 50,000 off the win by ledger." in page
