"""The exclusion areas' screen (docs/PLAYERS.md, "Exclusion areas"): a manager proposes a
version of an area from the page, a second manager approves it there and it is in force;
every refusal of the services is the page again with their message, never a 500.

The floor: Hà Nội (``hanoi``, VND, Asia/Ho_Chi_Minh) and Seoul (``seoul``, KRW,
Asia/Seoul); Macau (``macau``, MOP) outside them."""

from __future__ import annotations

from html import unescape
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.urls import reverse

from casino.players.areas import areas_in_force
from casino.players.models import ExclusionArea
from casino.players.services import exclusion_area_propose
from casino.staff.roles import MANAGER
from tests.factories import VenueFactory, staff

pytestmark = pytest.mark.django_db

PAGE = reverse("reports:exclusion_areas")


@pytest.fixture
def macau(floor):
    return VenueFactory(code="macau", name="Macau", currency="MOP", timezone="Asia/Macau")


@pytest.fixture
def managers(floor):
    """Two managers of Hà Nội and Seoul: a proposer and an approver."""
    venues = (floor.venue, floor.other_venue)
    return staff("group-m1", MANAGER, *venues), staff("group-m2", MANAGER, *venues)


def as_user(client, user):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def step(floor, name):
    return reverse("reports:exclusion_area_step", args=[floor.venue.pk, name])


def at(moment, zone):
    return moment.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M")


def test_a_manager_proposes_a_second_approves_and_the_area_is_in_force(client, floor, managers):
    proposer, approver = managers
    as_user(client, proposer)
    players = client.get(reverse("reports:players"), {"venue": "hanoi"}).content.decode()
    assert f'href="{PAGE}?venue=hanoi"' in players  # reached from the players page
    form = client.get(PAGE, {"venue": "hanoi"}).content.decode()
    assert "No exclusion area in force at your venues" in form
    assert "Venue hanoi (VND)" in form and "Venue seoul (KRW)" in form  # where they may propose

    proposed = client.post(
        step(floor, "propose"),
        {
            "code": "vn-kr",
            "name": "Vietnam-Korea",
            "venues": [floor.venue.pk, floor.other_venue.pk],
            "shares_details": "1",
        },
    )

    assert proposed.status_code == 302 and proposed["Location"].endswith("done=propose")
    area = ExclusionArea.objects.get()
    assert (area.code, area.number, area.status) == ("vn-kr", 1, ExclusionArea.Status.PROPOSED)
    assert (area.shares_details, area.aggregates_cash) == (True, False)
    assert areas_in_force() == []
    page = client.get(proposed["Location"]).content.decode()
    waiting = page[page.index('id="areas-proposed"') :]
    assert "Vietnam-Korea" in waiting and "Venue hanoi, Venue seoul" in waiting
    assert "Waiting for a second manager" in waiting
    # the proposal's time on the page's venue's clock: Hà Nội's, or Seoul's two hours on
    assert f"group-m1, {at(area.proposed_at, 'Asia/Ho_Chi_Minh')}" in waiting
    seoul = client.get(PAGE, {"venue": "seoul"}).content.decode()
    assert f"group-m1, {at(area.proposed_at, 'Asia/Seoul')}" in seoul

    as_user(client, approver)
    approved = client.post(step(floor, "approve"), {"area": area.pk})

    assert approved.status_code == 302
    area.refresh_from_db()
    assert (area.status, area.approved_by) == (ExclusionArea.Status.APPROVED, approver)
    assert [a.pk for a in areas_in_force()] == [area.pk]
    page = client.get(approved["Location"]).content.decode()
    assert "Approved: the area is in force." in page
    in_force = page[page.index('id="areas-in-force"') : page.index('id="areas-proposed"')]
    assert "Vietnam-Korea" in in_force and "vn-kr, version 1" in in_force
    assert f"group-m2, {at(area.approved_at, 'Asia/Ho_Chi_Minh')}" in in_force
    assert "No version is waiting for approval." in page


def test_the_proposer_is_refused_the_approval_with_the_message_on_the_page(client, floor, managers):
    proposer, _approver = managers
    area = exclusion_area_propose(
        user=proposer, code="vn-kr", name="Vietnam-Korea", venues=[floor.venue, floor.other_venue]
    )
    as_user(client, proposer)
    page = client.get(PAGE, {"venue": "hanoi"}).content.decode()
    assert 'aria-label="Approve Vietnam-Korea, version 1"' in page

    refused = client.post(step(floor, "approve"), {"area": area.pk})

    assert refused.status_code == 403
    text = refused.content.decode()
    assert (
        '<p class="error" role="alert" id="step-error">you proposed or edited this yourself; '
        "a second manager approves it</p>"
    ) in text
    area.refresh_from_db()
    assert area.status == ExclusionArea.Status.PROPOSED and area.approved_by is None


def test_a_proposal_the_service_refuses_is_shown_with_its_message_and_the_form_kept(
    client, floor, managers, macau
):
    proposer, _approver = managers
    as_user(client, proposer)
    mixed = client.post(
        step(floor, "propose"),
        {
            "code": "vn-kr",
            "name": "Vietnam-Korea",
            "venues": [floor.venue.pk, floor.other_venue.pk],
            "aggregates_cash": "1",
        },
    )
    assert mixed.status_code == 400
    text = mixed.content.decode()
    assert "Cash is added up across venues of one currency only (KRW, VND here)" in text
    assert 'value="vn-kr"' in text and 'value="Vietnam-Korea"' in text  # as typed
    assert f'value="{floor.venue.pk}" checked' in text
    bad_code = client.post(
        step(floor, "propose"), {"code": "vn kr!", "name": "VN", "venues": [floor.venue.pk]}
    )
    assert bad_code.status_code == 400
    assert "Give the area a code of up to 32 letters" in bad_code.content.decode()
    # a venue not on their form (Macau, where they hold no role) is refused, not dropped
    elsewhere = client.post(
        step(floor, "propose"),
        {"code": "vn-mo", "name": "VN-MO", "venues": [floor.venue.pk, macau.pk]},
    )
    assert elsewhere.status_code == 400
    assert "Choose the area's venues among those on the form." in unescape(
        elsewhere.content.decode()
    )
    assert not ExclusionArea.objects.exists()


def test_a_user_without_the_right_is_refused_on_the_page(client, floor, managers, macau):
    proposer, _approver = managers
    area = exclusion_area_propose(
        user=proposer, code="vn-kr", name="Vietnam-Korea", venues=[floor.venue, floor.other_venue]
    )
    # A supervisor reads the area of their venue, and is offered neither form nor button.
    as_user(client, floor.supervisor)
    page = client.get(PAGE, {"venue": "hanoi"}).content.decode()
    assert "Vietnam-Korea" in page
    assert "Propose a version of an area" not in page and 'name="area"' not in page
    proposed = client.post(
        step(floor, "propose"), {"code": "vn", "name": "Vietnam", "venues": [floor.venue.pk]}
    )
    assert proposed.status_code == 403
    assert "Only a manager of Venue hanoi proposes an exclusion area" in proposed.content.decode()
    approved = client.post(step(floor, "approve"), {"area": area.pk})
    assert approved.status_code == 403
    assert "only a manager of the venue approves this" in approved.content.decode()
    # A manager of Hà Noi alone is offered Hà Nội only, and may not approve for Seoul.
    as_user(client, floor.manager)
    page = client.get(PAGE, {"venue": "hanoi"}).content.decode()
    assert "Venue hanoi (VND)" in page and "Venue seoul (KRW)" not in page
    half = client.post(step(floor, "approve"), {"area": area.pk})
    assert half.status_code == 403
    assert "only a manager of the venue approves this" in half.content.decode()
    # A manager of Macau alone does not see the area, nor approve it.
    outsider = staff("macau-manager", MANAGER, macau)
    as_user(client, outsider)
    page = client.get(PAGE, {"venue": "macau"}).content.decode()
    assert "Vietnam-Korea" not in page and "Venue hanoi" not in page
    unseen = client.post(
        reverse("reports:exclusion_area_step", args=[macau.pk, "approve"]), {"area": area.pk}
    )
    assert unseen.status_code == 400
    assert "Choose the exclusion area to approve." in unseen.content.decode()
    # A dealer reads no reports: the page is refused.
    as_user(client, floor.dealer)
    assert client.get(PAGE, {"venue": "hanoi"}).status_code == 403
    area.refresh_from_db()
    assert area.status == ExclusionArea.Status.PROPOSED
    assert ExclusionArea.objects.count() == 1
