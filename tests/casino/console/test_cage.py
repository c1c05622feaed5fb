"""The cage's screen (requests to issue, slips out, the day's finished ones, each row's
steps as ``slip_steps`` allows), the printable slip and the gaming day's slip report."""

from __future__ import annotations

import io
import re

import pytest
from django.conf import settings
from django.urls import reverse
from pypdf import PdfReader

from casino.cage.models import Slip
from casino.cage.services.slips import (
    slip_confirm_dealer,
    slip_confirm_supervisor,
    slip_issue,
    slip_request,
    slip_void,
)
from casino.ledger.models import LedgerEntry
from tests.casino.slips import slip_post

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def as_user(client):
    def log_in(user):
        client.force_login(user)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        return client

    return log_in


def cage_url(venue):
    return reverse("console:cage", args=[venue.pk])


def cage_step(venue, slip, name):
    return reverse("console:cage-step", args=[venue.pk, slip.pk, name])


def buttons(page: str) -> list[str]:
    return re.findall(r'<button type="submit"[^>]*aria-label="([^"]+)"', page)


def region(page: str, title_id: str) -> str:
    """The HTML of the region labelled by ``title_id`` (up to the next region)."""
    start = page.index(f'aria-labelledby="{title_id}"')
    end = page.find('role="region"', start + 1)
    return page[start : end if end > 0 else None]


def test_the_cashier_finds_their_venues_and_the_cage_lists(as_user, floor, session, cashier):
    fill = slip_request(session=session, user=floor.dealer, kind="fill", chips={"100000": 10})
    out = slip_request(session=session, user=floor.dealer, kind="credit", chips={"1000": 3})
    slip_issue(slip=out, user=cashier)
    done = slip_post(
        slip_request(session=session, user=floor.dealer, kind="fill", chips={"10000": 2}),
        dealer=floor.dealer,
        supervisor=floor.supervisor,
        cashier=cashier,
    )
    client = as_user(cashier)
    home = client.get(reverse("console:cage-home")).content.decode()
    assert cage_url(floor.venue) in home and cage_url(floor.other_venue) not in home
    assert cage_url(floor.venue) in client.get(reverse("console:home")).content.decode()
    page = client.get(cage_url(floor.venue))
    assert page.status_code == 200
    text = page.content.decode()
    waiting = region(text, "cage-waiting-title")
    assert fill.label in waiting and out.label not in waiting
    assert f'aria-label="Fill {fill.label} for table NN1"' in waiting
    assert "100,000 × 10 = 1,000,000" in waiting
    assert buttons(waiting) == [f"Issue slip {fill.label}", f"Void slip {fill.label}"]
    travelling = region(text, "cage-out-title")
    assert out.label in travelling
    assert buttons(travelling) == []  # an issued credit is voided at the table
    finished = region(text, "cage-done-title")
    assert done.label in finished and "Verified" in finished
    # htmx polls the lists alone
    lists = client.get(cage_url(floor.venue) + "?list=1", **HX).content.decode()
    assert lists.strip().startswith('<div id="cage-lists"') and "<html" not in lists


def test_the_cashier_issues_with_a_runner_and_receives_a_credit(as_user, floor, session, cashier):
    credit = slip_request(session=session, user=floor.dealer, kind="credit", chips={"1000": 3})
    client = as_user(cashier)
    issued = client.post(cage_step(floor.venue, credit, "issue"), {"runner": "Lan"}, **HX)
    assert issued.status_code == 200
    assert f"Credit {credit.label} issued: the table signs for its chips." in (
        issued.content.decode()
    )
    credit.refresh_from_db()
    assert (credit.status, credit.issued_by, credit.runner) == ("issued", cashier, "Lan")
    # receipt waits for the table's two signatures
    early = client.post(cage_step(floor.venue, credit, "receive"), **HX)
    assert early.status_code == 409
    assert "not signed out at the table yet" in early.content.decode()
    slip_confirm_dealer(slip=credit, user=floor.dealer)
    slip_confirm_supervisor(slip=credit, user=floor.supervisor)
    text = client.get(cage_url(floor.venue)).content.decode()
    assert f"Receive the chips of slip {credit.label}" in buttons(region(text, "cage-out-title"))
    received = client.post(cage_step(floor.venue, credit, "receive"))
    assert received.status_code == 200
    assert f"Credit {credit.label} received at the cage and entered in the ledger." in (
        received.content.decode()
    )
    credit.refresh_from_db()
    assert (credit.status, credit.received_by) == ("verified", cashier)
    assert LedgerEntry.objects.filter(slip=credit).count() == 2


def test_the_cashier_voids_with_a_reason_and_the_number_stays(as_user, floor, session, cashier):
    fill = slip_request(session=session, user=floor.dealer, kind="fill", chips={"1000": 3})
    client = as_user(cashier)
    slip_issue(slip=fill, user=cashier)
    blank = client.post(cage_step(floor.venue, fill, "void"), {"reason": " "}, **HX)
    assert blank.status_code == 422 and "say why the slip is voided" in blank.content.decode()
    voided = client.post(cage_step(floor.venue, fill, "void"), {"reason": "chips short"}, **HX)
    assert voided.status_code == 200
    text = voided.content.decode()
    assert f"Fill {fill.label} voided." in text and "chips short" in text
    assert (Slip.objects.get(pk=fill.pk).number, Slip.objects.get(pk=fill.pk).status) == (
        fill.number,
        "void",
    )


def test_the_cage_is_the_cashiers_only(as_user, floor, session, cashier):
    fill = slip_request(session=session, user=floor.dealer, kind="fill", chips={"1000": 3})
    for pit in (floor.dealer, floor.supervisor, floor.manager, floor.auditor):
        client = as_user(pit)
        assert client.get(reverse("console:cage-home")).status_code == 403
        assert client.get(cage_url(floor.venue)).status_code == 403
        assert client.post(cage_step(floor.venue, fill, "issue")).status_code == 403
    client = as_user(cashier)
    assert client.get(cage_url(floor.other_venue)).status_code == 404
    assert client.post(cage_step(floor.venue, fill, "confirm-dealer")).status_code == 404
    assert client.post(cage_step(floor.venue, fill, "delete")).status_code == 404
    assert client.get(cage_step(floor.venue, fill, "issue")).status_code == 405
    assert Slip.objects.get(pk=fill.pk).status == "requested"


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_the_printed_slip_has_its_number_lines_total_and_signatures(
    as_user, floor, session, cashier
):
    fill = slip_request(
        session=session, user=floor.dealer, kind="fill", chips={"100000": 10, "10000": 3}
    )
    slip_issue(slip=fill, user=cashier, runner="Lan")
    slip_confirm_dealer(slip=fill, user=floor.dealer)
    response = as_user(cashier).get(reverse("console:slip-pdf", args=[fill.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    text = pdf_text(response.content)
    assert fill.label in text and "NN1" in text
    assert "1,030,000" in text  # the total, in the venue's grouping
    assert "1,000,000" in text and "30,000" in text
    for line in ("Cashier", "Runner", "Dealer", "Supervisor"):
        assert line in text
    assert "cashier" in text and "Lan" in text and "dealer" in text
    # any role of the venue prints it; another venue's staff do not find it
    assert as_user(floor.dealer).get(reverse("console:slip-pdf", args=[fill.pk])).status_code == 200
    other = as_user(floor.other_supervisor).get(reverse("console:slip-pdf", args=[fill.pk]))
    assert other.status_code == 404


def test_the_slip_report_lists_voided_slips_and_missing_numbers(as_user, floor, session, cashier):
    posted = slip_post(
        slip_request(session=session, user=floor.dealer, kind="fill", chips={"100000": 10}),
        dealer=floor.dealer,
        supervisor=floor.supervisor,
        cashier=cashier,
    )
    credit = slip_post(
        slip_request(session=session, user=floor.dealer, kind="credit", chips={"10000": 4}),
        dealer=floor.dealer,
        supervisor=floor.supervisor,
        cashier=cashier,
    )
    voided = slip_void(
        slip=slip_request(session=session, user=floor.dealer, kind="fill", chips={"1000": 1}),
        user=floor.supervisor,
        reason="asked twice",
    )
    # a number skipped: slip 5 stored, 4 never
    skipped = Slip.objects.create(
        venue=floor.venue,
        session=session,
        kind="fill",
        year=voided.year,
        number=5,
        amount=1000,
        chips={"1000": 1},
        requested_by=floor.dealer,
        requested_at=voided.requested_at,
    )
    day = session.shift.gaming_date.isoformat()
    url = reverse("console:slip-report", args=[floor.venue.pk]) + f"?day={day}"
    for reader in (cashier, floor.supervisor, floor.manager, floor.auditor):
        assert as_user(reader).get(url).status_code == 200
    assert as_user(floor.dealer).get(url).status_code == 403
    page = as_user(floor.auditor).get(url).content.decode()
    assert re.search(r'data-figure="issued">2<', page)
    assert re.search(r'data-figure="verified">2<', page)
    assert re.search(r'data-figure="voided">1<', page)
    assert re.search(r'data-figure="fills">1,000,000<', page)
    assert re.search(r'data-figure="credits">40,000<', page)
    missing = region(page, "slip-missing-title")
    assert f"{voided.year}-000004" in missing and skipped.label not in missing
    assert "asked twice" in page and posted.label in page and credit.label in page
    csv_url = reverse("console:slip-report-csv", args=[floor.venue.pk]) + f"?day={day}"
    rows = as_user(cashier).get(csv_url).content.decode("utf-8-sig").splitlines()
    assert rows[0].startswith("Slip,Kind,Table,Amount,Status")
    assert any(row.startswith(voided.label) and "asked twice" in row for row in rows)
    assert rows[-1].startswith(f"{voided.year}-000004,") and "Missing" in rows[-1]
    assert as_user(floor.other_supervisor).get(url).status_code == 404


def test_the_cage_page_costs_the_same_queries_however_many_slips(as_user, floor, session, cashier):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries() -> int:
        client = as_user(cashier)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(cage_url(floor.venue)).status_code == 200
        return len(captured)

    def request(kind: str) -> Slip:
        return slip_request(session=session, user=floor.dealer, kind=kind, chips={"1000": 1})

    request("fill")
    slip_issue(slip=request("credit"), user=cashier)
    few = queries()
    for _ in range(3):
        request("fill")
        slip_issue(slip=request("credit"), user=cashier)
    slip_void(slip=request("fill"), user=cashier, reason="twice")
    assert queries() == few
