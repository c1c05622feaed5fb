"""In the browser: an exclusion area proposed on its screen by one manager, refused to that
manager's own approval, approved by a second manager and then in force, found by the
labels and names the screen gives its controls and regions."""

from __future__ import annotations

import pytest

from casino.players.areas import areas_in_force
from casino.players.models import ExclusionArea
from casino.staff.roles import MANAGER
from tests.browser.conftest import shot
from tests.factories import staff

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_area_is_proposed_and_approved_by_a_second_manager_on_its_screen(person, floor):
    floor.venue.language = "en"
    floor.venue.save(update_fields=["language"])
    venues = (floor.venue, floor.other_venue)
    staff("group-m1", MANAGER, *venues)
    staff("group-m2", MANAGER, *venues)

    proposer = person("group-m1")
    proposer.goto("/reports/players/?venue=hanoi")
    proposer.get_by_role("link", name="Exclusion areas").click()
    form = proposer.get_by_role("form", name="Propose a version of an area")
    form.get_by_label("Area code").fill("vn-kr")
    form.get_by_label("Area name").fill("Vietnam-Korea")
    form.get_by_label("Venue hanoi (VND)").check()
    form.get_by_label("Venue seoul (KRW)").check()
    form.get_by_label("Shares barring details").check()
    form.get_by_role("button", name="Propose").click()
    proposer.get_by_role("status").filter(has_text="Proposed:").wait_for()
    waiting = proposer.get_by_role("table", name="Versions waiting for a second manager")
    row = waiting.get_by_role("row").filter(has_text="Vietnam-Korea")
    assert "Venue hanoi, Venue seoul" in row.inner_text()
    assert "Waiting for a second manager" in row.inner_text()
    # The proposer is offered the button, and the service refuses them with its reason.
    proposer.get_by_role("form", name="Approve Vietnam-Korea, version 1").get_by_role(
        "button", name="Approve"
    ).click()
    refusal = proposer.get_by_role("alert")
    assert "a second manager approves it" in refusal.inner_text()
    shot(proposer, "exclusion-area-own-approval-refused")
    assert ExclusionArea.objects.get().status == ExclusionArea.Status.PROPOSED

    approver = person("group-m2")
    approver.goto("/reports/players/areas/?venue=hanoi")
    approver.get_by_role("form", name="Approve Vietnam-Korea, version 1").get_by_role(
        "button", name="Approve"
    ).click()
    approver.get_by_role("status").filter(has_text="the area is in force").wait_for()
    in_force = approver.get_by_role("table", name="Exclusion areas in force")
    row = in_force.get_by_role("row").filter(has_text="Vietnam-Korea")
    assert "vn-kr, version 1" in row.inner_text() and "group-m2" in row.inner_text()
    assert (
        "No version is waiting for approval."
        in approver.get_by_role("table", name="Versions waiting for a second manager").inner_text()
    )
    shot(approver, "exclusion-area-in-force")
    (area,) = areas_in_force()
    assert (area.code, area.proposed_by.username, area.approved_by.username) == (
        "vn-kr",
        "group-m1",
        "group-m2",
    )
    assert area.shares_details and not area.aggregates_cash
