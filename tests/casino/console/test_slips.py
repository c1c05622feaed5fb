"""Fills and credits on the console's slips page: each viewer sees the steps they may take,
a step they may not take is refused however it is sent; and the close page after a
refusal (what was typed stays, the variance's reason, the slips still to verify)."""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.models import AuditEvent, LedgerEntry, Slip, TableSession
from casino.services.sessions import session_open
from casino.services.slips import slip_issue, slip_request
from casino.services.venues import venue_update
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


def test_the_dealer_requests_and_sees_no_step_a_supervisor_takes(as_user, floor, session, slip):
    page = slips_page(as_user(floor.dealer), session)
    assert slip.label in page
    assert buttons(page) == []
    page = slips_page(as_user(floor.supervisor), session)
    assert buttons(page) == [f"Issue slip {slip.label}", f"Void slip {slip.label}"]
    assert f'aria-label="Reason for voiding slip {slip.label}"' in page


def test_a_supervisor_issues_and_another_verifies_on_the_page(as_user, floor, session, slip):
    client = as_user(floor.supervisor)
    issued = client.post(step(session, slip, "issue"), **HX)
    assert issued.status_code == 200
    text = issued.content.decode()
    assert f"Fill {slip.label} issued: another supervisor verifies it." in text
    # its issuer is not offered Verify, and is told who does it
    assert buttons(text) == [f"Void slip {slip.label}"]
    assert "You issued it: another supervisor verifies it." in text
    slip.refresh_from_db()
    assert (slip.status, slip.issued_by) == ("issued", floor.supervisor)
    # a second supervisor verifies it: the chips reach the ledger
    client = as_user(floor.supervisor2)
    assert buttons(slips_page(client, session)) == [
        f"Verify slip {slip.label}",
        f"Void slip {slip.label}",
    ]
    verified = client.post(step(session, slip, "verify"))  # a plain form, without htmx
    assert verified.status_code == 200
    assert "<html" in verified.content.decode()
    assert f"Fill {slip.label} verified and entered in the ledger." in verified.content.decode()
    slip.refresh_from_db()
    assert (slip.status, slip.verified_by) == ("verified", floor.supervisor2)
    assert sorted(e.amount for e in LedgerEntry.objects.filter(slip=slip)) == [
        D("-1000000"),
        D("1000000"),
    ]
    assert buttons(slips_page(client, session)) == []


def test_a_forged_step_is_refused_with_why_and_changes_nothing(as_user, floor, session, slip):
    client = as_user(floor.dealer)
    page = client.post(step(session, slip, "issue"))
    assert page.status_code == 403
    assert "Only a supervisor issues, verifies or voids a fill or a credit" in page.content.decode()
    partial = client.post(step(session, slip, "void"), {"reason": "forged"}, **HX)
    assert partial.status_code == 403 and partial["Content-Type"].startswith("text/plain")
    assert "Only a supervisor" in partial.content.decode()
    slip.refresh_from_db()
    assert slip.status == "requested"
    # the issuer forging a verify is told a second person verifies
    slip_issue(slip=slip, user=floor.supervisor)
    own = as_user(floor.supervisor).post(step(session, slip, "verify"))
    assert own.status_code == 403
    assert "a second person must verify it" in own.content.decode()
    assert not LedgerEntry.objects.filter(slip=slip).exists()
    assert AuditEvent.objects.filter(action__startswith="slip.").count() == 2  # request, issue


def test_a_repeated_step_or_a_void_without_reason_is_shown_on_the_slip(
    as_user, floor, session, slip
):
    client = as_user(floor.supervisor)
    assert client.post(step(session, slip, "issue"), **HX).status_code == 200
    again = client.post(step(session, slip, "issue"), **HX)
    assert again.status_code == 409
    assert f"slip {slip.label} is issued; only a requested slip is issued" in again.content.decode()
    no_reason = client.post(step(session, slip, "void"), {"reason": "  "}, **HX)
    assert no_reason.status_code == 422
    assert "say why the slip is voided" in no_reason.content.decode()
    voided = client.post(step(session, slip, "void"), {"reason": "the cage was short"}, **HX)
    assert f"Fill {slip.label} voided." in voided.content.decode()
    assert "the cage was short" in voided.content.decode()
    slip.refresh_from_db()
    assert (slip.status, slip.voided_by, slip.void_reason) == (
        "void",
        floor.supervisor,
        "the cage was short",
    )


def test_no_such_step_or_slip_is_not_found(as_user, floor, session, slip):
    client = as_user(floor.supervisor)
    assert client.post(step(session, slip, "delete")).status_code == 404
    table = niuniu_table(floor.venue, code="NN2")
    other = session_open(
        table=table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 5},
    )
    elsewhere = reverse("console:slip-step", args=[other.pk, slip.pk, "issue"])
    assert client.post(elsewhere).status_code == 404
    assert client.get(step(session, slip, "issue")).status_code == 405
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
    assert "Needed whenever the count is off the expected tray." in (
        client.get(close_url(session)).content.decode()
    )
    venue_update(venue=floor.venue, user=floor.manager, variance_reason_over="50000")
    page = client.get(close_url(session)).content.decode()
    assert "Needed when the count is more than 50,000 off the expected tray." in page
