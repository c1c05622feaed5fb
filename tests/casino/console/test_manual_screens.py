"""The screens of a system-down period (casino/cage/views/manual.py): a series issued and
printed in advance, its papers entered afterwards by a supervisor and flagged late, a
spoiled paper recorded, the day's late entries; in each of the four languages."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from casino.cage.manual import ManualPaper, ManualSeries, PaperStatus
from casino.cage.services.manual import manual_series_issue
from casino.floor.models import Round
from casino.kernel.timezones import venue_zone
from tests.casino.api import NIU_8, NIU_9
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def as_user(client):
    def log_in(user, language="en"):
        client.force_login(user)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        return client

    return log_in


@pytest.fixture
def rounds(floor):
    return manual_series_issue(
        table=floor.table, user=floor.manager, kind="round", prefix="R-NN1-", first=1, last=20
    )


def test_a_series_is_issued_on_the_screen_and_printed(as_user, floor, cashier):
    url = reverse("console:manual-series-issue", args=[floor.venue.pk])
    body = {"table": floor.table.pk, "kind": "fill", "prefix": "F-NN1-", "first": "1", "last": "3"}
    assert as_user(floor.dealer).post(url, body).status_code == 403
    response = as_user(cashier).post(url, body, **HX)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="manual-series"' in page and "Series F-NN1-0001–0003 issued" in page
    series = ManualSeries.objects.get()
    again = as_user(cashier).post(url, body, **HX)
    assert again.status_code == 422 and "already names series" in again.content.decode()

    printed = as_user(cashier).get(reverse("console:manual-series-print", args=[series.pk]))
    assert printed.status_code == 200
    sheet = printed.content.decode()
    for label in ("F-NN1-0001", "F-NN1-0002", "F-NN1-0003"):
        assert f'data-paper="{label}"' in sheet
    assert "Manual form: used only while the system is down" in sheet
    assert "Cashier" in sheet and "Supervisor" in sheet
    pdf = as_user(cashier).get(
        reverse("console:manual-series-pdf", args=[series.pk]) + "?from=2&to=3"
    )
    assert pdf["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(pdf.content))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert len(reader.pages) == 2 and "F-NN1-0002" in text and "F-NN1-0001" not in text
    # The pit does not print series; another venue does not find it.
    assert (
        as_user(floor.supervisor)
        .get(reverse("console:manual-series-print", args=[series.pk]))
        .status_code
        == 403
    )
    other = as_user(floor.other_supervisor).get(
        reverse("console:manual-series-print", args=[series.pk])
    )
    assert other.status_code == 404


def test_a_supervisor_enters_a_round_sheet_and_spoils_a_paper(as_user, floor, session, rounds):
    written = (timezone.now() + timedelta(seconds=0)).astimezone(venue_zone(floor.venue))
    enter = reverse("console:manual-paper-enter", args=[rounds.pk])
    body = {
        "number": "2",
        "written_at": written.strftime("%Y-%m-%dT%H:%M:%S.%f"),
        "dealer_cards": NIU_9,
        "box-1-cards": NIU_8,
        "box-1-bet": "single",
        "box-1-stake": "100,000",
        "box-1-member": "hn-7",
    }
    member = PlayerFactory(venue=floor.venue, membership_number="HN-7")
    assert as_user(floor.dealer).post(enter, body).status_code == 403
    response = as_user(floor.supervisor).post(enter, body, **HX)
    assert response.status_code == 200, response.content.decode()
    page = response.content.decode()
    assert "Paper R-NN1-0002 entered, flagged as a late entry." in page
    assert 'data-gaps="1"' in page  # 0001 is below the highest used
    paper = ManualPaper.objects.get()
    assert paper.round.status == "settled" and paper.recorded_by == floor.supervisor
    assert Round.objects.get(pk=paper.round_id).house_net == 100000
    assert paper.round.boxes.get().player == member  # the member written on the sheet

    # The table's history flags the round as entered late, with its paper.
    history = as_user(floor.dealer).get(reverse("console:history", args=[session.pk]))
    assert 'data-late="R-NN1-0002"' in history.content.decode()
    assert "Late entry, paper R-NN1-0002" in history.content.decode()

    twice = as_user(floor.supervisor).post(enter, body, **HX)
    assert twice.status_code == 409
    assert "R-NN1-0002 is entered already" in twice.content.decode()

    spoil = reverse("console:manual-paper-spoil", args=[rounds.pk])
    no_reason = as_user(floor.supervisor).post(spoil, {"spoil_number": "1"}, **HX)
    assert no_reason.status_code == 422 and "say why" in no_reason.content.decode()
    done = as_user(floor.supervisor).post(spoil, {"spoil_number": "1", "reason": "ink spilt"}, **HX)
    assert done.status_code == 200 and "data-gaps" not in done.content.decode()
    assert ManualPaper.objects.filter(status=PaperStatus.SPOILED).count() == 1

    home = as_user(floor.auditor).get(reverse("console:manual", args=[floor.venue.pk]))
    assert home.status_code == 200
    listing = home.content.decode()
    assert 'data-late="yes"' in listing and "R-NN1-0002" in listing and "Late entry" in listing
    assert (
        as_user(floor.dealer).get(reverse("console:manual", args=[floor.venue.pk])).status_code
        == 403
    )


@pytest.mark.parametrize("language", ["en", "vi", "ko", "pt"])
def test_the_screens_render_in_each_language(as_user, floor, session, rounds, language):
    client = as_user(floor.manager, language)
    for url in (
        reverse("console:manual", args=[floor.venue.pk]),
        reverse("console:manual-series", args=[rounds.pk]),
        reverse("console:manual-series-print", args=[rounds.pk]) + "?from=1&to=2",
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert f'lang="{language}"' in response.content.decode()
