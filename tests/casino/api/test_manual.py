"""A system-down period through the API (casino/cage/manual_api.py): a series issued, its
papers entered afterwards and flagged late, a number used once, a spoiled paper, and the
gaming day's late entries, gaps and paper reconciliation."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from casino.cage.manual import ManualPaper
from casino.floor.models import Round
from tests.casino.api import NIU_8, NIU_9, box, client_for

pytestmark = pytest.mark.django_db


def test_a_system_down_period_through_the_api(floor, session, cashier):
    # given a round-sheet series and a fill-slip series issued for NN1
    issued = client_for(floor.manager).post(
        "/api/v1/manual-series/",
        {"table": floor.table.pk, "kind": "round", "prefix": "R-", "first": 1, "last": 10},
        format="json",
    )
    assert issued.status_code == 201, issued.json()
    rounds = issued.json()
    assert (rounds["prefix"], rounds["gaps"], rounds["papers"]) == ("R-", [], [])
    fills = (
        client_for(cashier)
        .post(
            "/api/v1/manual-series/",
            {"table": floor.table.pk, "kind": "fill", "prefix": "F-", "first": 1, "last": 10},
            format="json",
        )
        .json()
    )
    supervisor = client_for(floor.supervisor)
    written = timezone.now().isoformat()

    # when the supervisor enters round sheet R-0002 and fill F-0001 as written
    sheet = {
        "number": 2,
        "session": session.pk,
        "written_at": written,
        "dealer_cards": NIU_9,
        "boxes": [box(1, NIU_8, single="100000")],
    }
    entered = supervisor.post(f"/api/v1/manual-series/{rounds['id']}/rounds/", sheet, format="json")
    assert entered.status_code == 201, entered.json()
    (paper,) = entered.json()["papers"]
    assert (paper["label"], paper["late_entry"], paper["entered_by"]) == (
        "R-0002",
        True,
        "supervisor",
    )
    assert entered.json()["gaps"] == [1]
    assert Round.objects.get(pk=paper["round"]).house_net == 100000
    slip = supervisor.post(
        f"/api/v1/manual-series/{fills['id']}/slips/",
        {
            "number": 1,
            "session": session.pk,
            "written_at": written,
            "chips": {"100000": 3},
            "cashier": cashier.username,
            "dealer": floor.dealer.username,
            "supervisor": floor.supervisor2.username,
        },
        format="json",
    )
    assert slip.status_code == 201, slip.json()
    # The slip report flags the slip as entered late, with its paper.
    page = Client()
    page.force_login(floor.supervisor)
    report = page.get(reverse("console:slip-report", args=[floor.venue.pk])).content.decode()
    assert 'data-late="F-0001"' in report

    # then a number is used once, and a spoiled paper closes the gap
    again = supervisor.post(f"/api/v1/manual-series/{rounds['id']}/rounds/", sheet, format="json")
    assert again.status_code == 409 and again.json()["field"] == "number"
    spoiled = supervisor.post(
        f"/api/v1/manual-series/{rounds['id']}/spoiled/",
        {"number": 1, "reason": "torn"},
        format="json",
    )
    assert spoiled.status_code == 201 and spoiled.json()["gaps"] == []
    refused = client_for(floor.dealer).post(
        f"/api/v1/manual-series/{rounds['id']}/spoiled/",
        {"number": 3, "reason": "x"},
        format="json",
    )
    assert refused.status_code == 403
    assert ManualPaper.objects.count() == 3

    # and the day lists the late entries and the paper against the count (not counted yet)
    day = client_for(floor.auditor).get(
        f"/api/v1/venues/{floor.venue.pk}/manual/{session.shift.gaming_date.isoformat()}/"
    )
    assert day.status_code == 200
    body = day.json()
    assert [p["label"] for p in body["late_entries"]] == ["R-0002", "F-0001"]
    (line,) = body["reconciliation"]
    assert (line["late_rounds"], line["late_house"], line["late_fills"]) == (
        1,
        "100000.00",
        "300000.00",
    )
    assert (line["counted"], line["agrees"]) == (False, False)
    listing = client_for(cashier).get(f"/api/v1/manual-series/?venue={floor.venue.pk}").json()
    assert sorted(item["prefix"] for item in listing) == ["F-", "R-"]
