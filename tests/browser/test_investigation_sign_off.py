"""In the browser: a fluctuation investigation's findings, refused to their author's own
sign-off, signed off by a second manager and closed with an outcome, found by the labels
and names the screens give their controls and regions."""

from __future__ import annotations

import pytest
from django.utils import timezone

from casino.floor.services.sessions import shift_current
from casino.integrity.investigations import investigations_sync
from casino.integrity.models import FluctuationInvestigation
from casino.reports.models import ShiftReport
from casino.staff.roles import MANAGER
from tests.browser.conftest import shot
from tests.factories import staff

pytestmark = pytest.mark.django_db(transaction=True)

#: A shift total far outside its range (the figures a report's build leaves).
WILD_TOTAL = {
    "flagged": True,
    "handle": "1000000.00",
    "house_win": "400000.00",
    "theoretical_win": "25000.00",
    "hold_pct": "40.00",
    "hold_low_pct": "-15.00",
    "hold_high_pct": "20.00",
}


def test_findings_are_signed_off_by_a_second_manager_and_closed(person, floor):
    floor.venue.language = "en"
    floor.venue.save()
    staff("manager2", MANAGER, floor.venue)
    shift = shift_current(venue=floor.venue)
    report = ShiftReport.objects.create(
        shift=shift,
        venue=floor.venue,
        requested_at=timezone.now(),
        status=ShiftReport.Status.DONE,
        figures={"total": WILD_TOTAL, "tables": []},
    )
    (investigation,) = investigations_sync(report)
    assert investigation.assigned_to == floor.manager  # "floor-manager" before "manager2"

    author = person("floor-manager")
    author.goto("/reports/investigations/")
    listed = author.get_by_role("table", name="1 investigation")
    listed.get_by_role("link", name=f"#{investigation.pk}").click()
    author.get_by_role("textbox", name="Findings").fill(
        "A lucky streak at the total; the tapes show clean deals."
    )
    author.get_by_role("button", name="Write the findings").click()
    author.get_by_role("status").filter(has_text="Saved.").wait_for()
    author.get_by_role("button", name="Sign off the findings").click()
    refusal = author.get_by_role("alert")
    assert "you wrote these findings" in refusal.inner_text()
    assert "manager2" in refusal.inner_text()
    shot(author, "investigation-sign-off-refused")

    second = person("manager2")
    second.goto(f"/reports/investigations/{investigation.pk}/")
    second.get_by_role("button", name="Sign off the findings").click()
    second.get_by_role("status").filter(has_text="Saved.").wait_for()
    second.get_by_label("Outcome").select_option(label="Statistical variance")
    second.get_by_role("button", name="Close the investigation").click()
    state = second.get_by_role("region", name="Where it stands")
    assert "Closed" in state.inner_text() and "Statistical variance" in state.inner_text()
    investigation.refresh_from_db()
    assert investigation.status == FluctuationInvestigation.Status.CLOSED
    assert (investigation.findings_by.username, investigation.signed_off_by.username) == (
        "floor-manager",
        "manager2",
    )
