"""Four eyes for real: nobody approves a paytable they made or edited, an approval is of
the rules the approver was shown, presets are read-only templates, an activation says which
tables it reaches and changes nothing inside a round."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.rulesets.models import Ruleset, VersionStatus
from casino.rulesets.services import (
    ruleset_create,
    version_activate,
    version_approve,
    version_clone,
    version_content_hash,
    version_copy_to_venue,
    version_record_edit,
)
from casino.staff.roles import MANAGER
from niuniu.models import NiuNiuRulesetVersion, PaytableRow
from niuniu.services import preset_install, venue_ruleset_from_preset
from tests.factories import UserFactory, VenueFactory, niuniu_table, rules_dict, staff
from tests.niuniu.test_admin import change_url, form_data, row_prefix

pytestmark = pytest.mark.django_db


def action_url(version, action: str) -> str:
    return reverse(f"admin:niuniu_niuniurulesetversion_{action}", args=[version.pk])


@pytest.fixture
def active(venue, manager, approver):
    """Version 1 of the venue's vn-kr-004, approved by a second person and active."""
    draft = venue_ruleset_from_preset(venue=venue, preset_code="vn-kr-004", editor=manager)
    approved = version_approve(
        version=draft, user=approver, content_hash=version_content_hash(draft)
    )
    return version_activate(version=approved, user=approver)


@pytest.fixture
def preset():
    return preset_install(code="vn-kr-004")


# The laundering sequence: A clones and edits, B saves without a change, A approves


def test_a_save_that_changes_nothing_is_no_edit_and_the_maker_still_cannot_approve(
    client, active, manager, approver
):
    # given manager A clones the active version in the admin and edits a commission
    client.force_login(manager)
    client.post(action_url(active, "clone"))
    draft = NiuNiuRulesetVersion.objects.get(ruleset=active.ruleset, number=2)
    page = client.get(change_url(draft))
    data = form_data(page)
    data[f"{row_prefix(page, 'single', 'NIU_9')}-commission_rate"] = "0.04"
    assert client.post(change_url(draft), data).status_code == 302
    # when manager B opens it and clicks Save without changing anything
    client.force_login(approver)
    unchanged = form_data(client.get(change_url(draft)))
    assert client.post(change_url(draft), unchanged).status_code == 302
    # then B is not an editor: the last edit is still A's, and no edit of B's is recorded
    draft.refresh_from_db()
    assert draft.last_edited_by == manager
    edits = AuditEvent.objects.filter(action="ruleset.edit", object_id=str(draft.pk))
    assert [event.user for event in edits] == [manager]
    # and A cannot approve the draft A made, however it was saved since
    client.force_login(manager)
    shown = {"content_hash": version_content_hash(draft)}
    refused = client.post(action_url(draft, "approve"), shown, follow=True)
    assert "someone else must approve it" in refused.content.decode()
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT
    # while B, who changed nothing, may
    client.force_login(approver)
    assert client.post(action_url(draft, "approve"), shown).status_code == 302
    draft.refresh_from_db()
    assert (draft.status, draft.approved_by) == (VersionStatus.APPROVED, approver)


def test_nobody_who_edited_a_draft_approves_it(active, manager, approver, venue):
    # given A clones, B edits, A edits again
    draft = version_clone(version=active, user=manager)
    for person, rate in ((approver, "0.04"), (manager, "0.03")):
        before = rules_dict(draft)
        PaytableRow.objects.filter(version=draft, bet_type="single", category="NIU_9").update(
            commission_rate=rate
        )
        version_record_edit(version=draft, user=person, before=before)
    # then neither A nor B approves it
    for person in (manager, approver):
        with pytest.raises(ValidationError, match="two-person rule"):
            version_approve(version=draft, user=person, content_hash=version_content_hash(draft))
    # a third manager does
    third = staff("third", MANAGER, venue)
    approved = version_approve(version=draft, user=third, content_hash=version_content_hash(draft))
    assert approved.approved_by == third


def test_the_admin_offers_no_approval_to_an_editor_and_names_the_editors(
    client, active, manager, approver
):
    draft = version_clone(version=active, user=manager)
    client.force_login(manager)
    page = client.get(change_url(draft)).content.decode()
    assert "Approve the rules shown" not in page
    assert "someone else approves it" in page
    client.force_login(approver)
    page = client.get(change_url(draft)).content.decode()
    assert "Approve the rules shown" in page
    assert f'name="content_hash" value="{version_content_hash(draft)}"' in page
    assert "manager" in page.split("none of them may approve it")[1].split("</dd>")[0]


# An approval is of the rules the approver saw


def test_an_approval_is_refused_when_the_draft_changed_since_it_was_shown(
    client, active, manager, approver
):
    # given B opens the draft A made
    draft = version_clone(version=active, user=manager)
    client.force_login(approver)
    page = client.get(change_url(draft)).content.decode()
    shown = version_content_hash(draft)
    assert shown in page
    # when A changes a commission before B clicks Approve
    before = rules_dict(draft)
    PaytableRow.objects.filter(version=draft, bet_type="single", category="NIU_9").update(
        commission_rate=Decimal("0")
    )
    version_record_edit(version=draft, user=manager, before=before)
    response = client.post(action_url(draft, "approve"), {"content_hash": shown}, follow=True)
    # then B's approval is refused, and says why
    assert "changed since this page showed them" in response.content.decode()
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT
    # an approval without a fingerprint is refused as well
    with pytest.raises(ValidationError, match="changed since"):
        version_approve(version=draft, user=approver, content_hash="")


def test_the_approval_records_the_fingerprint_of_what_was_approved(active, manager, approver):
    draft = version_clone(version=active, user=manager)
    shown = version_content_hash(draft)
    approved = version_approve(version=draft, user=approver, content_hash=shown)
    approved.refresh_from_db()
    assert approved.approved_content_hash == shown == version_content_hash(approved)
    event = AuditEvent.objects.get(action="ruleset.approve", object_id=str(draft.pk))
    assert event.after["content_hash"] == shown


def test_the_fingerprint_covers_every_rule(active, manager):
    draft = version_clone(version=active, user=manager)
    first = version_content_hash(draft)
    PaytableRow.objects.filter(version=draft, bet_type="double", category="NIU_NIU").update(
        win_odds=Decimal("4")
    )
    assert version_content_hash(draft) != first
    NiuNiuRulesetVersion.objects.filter(pk=draft.pk).update(five_face=True)
    draft.refresh_from_db()
    assert len({first, version_content_hash(draft)}) == 2


# Presets are read-only templates outside any venue


def test_a_manager_cannot_clone_edit_approve_or_activate_a_preset(preset, manager, approver):
    for write in (
        lambda: version_clone(version=preset, user=manager),
        lambda: version_record_edit(version=preset, user=manager, before=None),
        lambda: version_approve(
            version=preset, user=approver, content_hash=version_content_hash(preset)
        ),
        lambda: version_activate(version=preset, user=approver),
    ):
        with pytest.raises(ValidationError, match="read-only template"):
            write()
    assert NiuNiuRulesetVersion.objects.filter(ruleset=preset.ruleset).count() == 1


def test_a_preset_draft_is_touched_by_a_superuser_only(preset, manager, approver):
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    draft = version_clone(version=preset, user=root)
    with pytest.raises(ValidationError, match="read-only template"):
        version_approve(version=draft, user=approver, content_hash=version_content_hash(draft))
    other_root = UserFactory(username="root2", is_superuser=True, is_staff=True)
    approved = version_approve(
        version=draft, user=other_root, content_hash=version_content_hash(draft)
    )
    assert approved.status == VersionStatus.APPROVED


def test_the_admin_copies_a_preset_to_the_managers_venue_and_offers_no_clone(
    client, preset, manager, venue
):
    client.force_login(manager)
    page = client.get(change_url(preset)).content.decode()
    assert "Clone to new draft" not in page
    assert "Copy to venue" in page
    # cloning it by hand is refused; copying it makes the venue's own draft
    refused = client.post(action_url(preset, "clone"), follow=True).content.decode()
    assert "read-only template" in refused
    client.post(action_url(preset, "copy"), {"venue": venue.pk})
    copy = NiuNiuRulesetVersion.objects.get(ruleset__venue=venue, ruleset__code="vn-kr-004")
    assert copy.status == VersionStatus.DRAFT
    assert copy.created_by == manager
    # the preset's rules, rounded to the venue's chip unit (a preset's unit is 1)
    assert rules_dict(copy) == {**rules_dict(preset), "rounding_unit": "1000"}
    assert copy.rounding_unit == venue.rounding_unit
    assert NiuNiuRulesetVersion.objects.filter(ruleset=preset.ruleset).count() == 1
    events = AuditEvent.objects.filter(user=manager)
    assert events.exists()
    assert not events.filter(venue__isnull=True).exists(), "every manager's write names a venue"


def test_a_preset_cannot_be_copied_to_another_venue(client, preset, manager):
    elsewhere = VenueFactory(code="seoul", currency="KRW")
    client.force_login(manager)
    response = client.post(action_url(preset, "copy"), {"venue": elsewhere.pk}, follow=True)
    assert "Choose one of your venues" in response.content.decode()
    assert not Ruleset.objects.filter(venue=elsewhere).exists()
    with pytest.raises(ValidationError, match="Only a manager of"):
        version_copy_to_venue(version=preset, venue=elsewhere, user=manager)


def test_a_manager_cannot_add_a_ruleset_without_a_venue(client, manager, venue):
    client.force_login(manager)
    add = reverse("admin:rulesets_ruleset_add")
    response = client.post(add, {"game": "niuniu", "code": "house", "name": "House rules"})
    assert response.status_code == 200
    assert "This field is required" in response.content.decode()
    assert not Ruleset.objects.filter(code="house").exists()
    with pytest.raises(ValidationError, match="read-only template"):
        ruleset_create(venue=None, game="niuniu", code="house", name="House", user=manager)
    # with the venue named, the ruleset is made and audited at the venue
    client.post(add, {"venue": venue.pk, "game": "niuniu", "code": "house", "name": "House"})
    ruleset = Ruleset.objects.get(code="house")
    assert ruleset.venue == venue
    assert AuditEvent.objects.get(action="ruleset.create_ruleset").venue == venue


def test_a_manager_cannot_rename_a_preset(client, preset, manager):
    client.force_login(manager)
    change = reverse("admin:rulesets_ruleset_change", args=[preset.ruleset.pk])
    client.post(change, {"name": "Mine now"})
    preset.ruleset.refresh_from_db()
    assert preset.ruleset.name != "Mine now"


# Activation: the tables it reaches, each from its next round


def test_an_approved_version_lists_the_tables_it_will_reach(client, active, manager, approver):
    table = niuniu_table(active.ruleset.venue, code="NN7", preset="vn-kr-004")
    session_open(
        table=table, counted_by=manager, confirmed_by=approver, opening_chips={"100000": 10}
    )
    niuniu_table(active.ruleset.venue, code="NN8", preset="vn-kr-004")
    draft = version_clone(version=active, user=manager)
    version_approve(version=draft, user=approver, content_hash=version_content_hash(draft))
    client.force_login(approver)
    page = client.get(change_url(draft)).content.decode()
    reach = page.split("Activating it reaches these tables")[1].split("</ul>")[0]
    assert "NN7 (open" in reach
    assert "NN8" in reach
    version_activate(version=draft, user=approver)
    event = AuditEvent.objects.get(action="ruleset.activate", object_id=str(draft.pk))
    assert {"table": "NN7", "open": True} in event.after["tables"]
    assert {"table": "NN8", "open": False} in event.after["tables"]


def test_a_round_dealt_before_an_activation_settles_under_its_version(
    active, manager, approver, venue
):
    # given a round dealt under version 1 (single pays Niu 9 at 5% commission)
    table = niuniu_table(venue, code="NN9", preset="vn-kr-004")
    dealer = staff("dealer9", MANAGER, venue)
    session = session_open(
        table=table, counted_by=dealer, confirmed_by=approver, opening_chips={"100000": 10}
    )
    box = BoxInput(position=1, cards="KS QH 9D JC TS", stakes={"single": Decimal("100000")})
    dealt, preview = round_create(
        session=session, user=dealer, dealer_cards="AS 2H 3D 4C 6S", boxes=[box]
    )
    # when version 2 (no commission on Niu 9) is activated before the round is settled
    draft = version_clone(version=active, user=manager)
    PaytableRow.objects.filter(version=draft, category="NIU_9").update(commission_rate=0)
    version_activate(
        version=version_approve(
            version=draft, user=approver, content_hash=version_content_hash(draft)
        ),
        user=approver,
    )
    settled, result = round_settle(round_=dealt, user=dealer, key="k1")
    # then the round settles as it was previewed, under version 1
    assert settled.ruleset_version_number == 1
    assert result.house_net == preview.house_net
    # and the next round deals under version 2
    second, _ = round_create(
        session=session, user=dealer, dealer_cards="AS 2H 3D 4C 6S", boxes=[box]
    )
    assert second.ruleset_version_number == draft.number
