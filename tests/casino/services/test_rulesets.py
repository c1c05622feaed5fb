"""The shared versioning services: numbering, the two-person rule, activation, history."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from casino.audit.models import AuditEvent
from casino.rulesets.models import VersionStatus
from casino.rulesets.selectors import version_in_force
from casino.rulesets.services import (
    version_activate,
    version_approve,
    version_clone,
    version_content_hash,
    version_record_edit,
)
from casino.staff.roles import MANAGER
from niuniu.models import NiuNiuRulesetVersion, PaytableRow
from niuniu.services import venue_ruleset_from_preset
from tests.factories import rules_dict, staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(venue, manager):
    return venue_ruleset_from_preset(venue=venue, preset_code="vn-kr-004", editor=manager)


def test_a_new_draft_is_numbered_after_the_last_version(draft, manager):
    # when
    second = version_clone(version=draft, user=manager)
    # then
    assert (draft.number, second.number) == (1, 2)
    assert second.status == VersionStatus.DRAFT
    assert second.cloned_from == draft


def test_the_last_editor_cannot_approve(draft, manager):
    with pytest.raises(ValidationError, match="someone else must approve"):
        version_approve(version=draft, content_hash=version_content_hash(draft), user=manager)
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT


def test_another_person_approves_and_is_recorded(draft, approver):
    # when
    approved = version_approve(
        version=draft, content_hash=version_content_hash(draft), user=approver
    )
    # then
    assert approved.status == VersionStatus.APPROVED
    assert approved.approved_by == approver
    assert approved.approved_at is not None
    event = AuditEvent.objects.get(action="ruleset.approve")
    assert event.user == approver
    assert event.object_id == str(draft.pk)
    assert event.after["paytable"], "the approved rules are kept in the audit trail"


def test_an_edit_makes_the_editor_one_who_cannot_approve(draft, manager, approver, venue):
    # given the draft made by the manager and edited by the approver
    before = rules_dict(draft)
    PaytableRow.objects.filter(version=draft, bet_type="single", category="NIU_9").update(
        commission_rate="0.04"
    )
    version_record_edit(version=draft, user=approver, before=before)
    # then neither of them may approve it, and a third manager may
    for person in (approver, manager):
        with pytest.raises(ValidationError, match="two-person rule"):
            version_approve(version=draft, content_hash=version_content_hash(draft), user=person)
    third = staff("third-manager", MANAGER, venue)
    approved = version_approve(version=draft, content_hash=version_content_hash(draft), user=third)
    assert approved.status == VersionStatus.APPROVED


def test_an_incomplete_paytable_cannot_be_approved(draft, approver):
    # given a missing row
    PaytableRow.objects.filter(version=draft, bet_type="double", category="NIU_7").delete()
    # then
    with pytest.raises(ValidationError) as error:
        version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    assert error.value.messages == [
        "Double has no row for Niu 7: every hand needs a row for every bet type offered."
    ]


def test_only_an_approved_version_is_activated(draft, approver):
    with pytest.raises(ValidationError, match="only an approved version can be activated"):
        version_activate(version=draft, user=approver)


def test_activation_retires_the_version_it_replaces(draft, manager, approver):
    # given version 1 active
    first = version_activate(
        version=version_approve(
            version=draft, content_hash=version_content_hash(draft), user=approver
        ),
        user=approver,
    )
    second = version_clone(version=first, user=manager)
    version_approve(version=second, content_hash=version_content_hash(second), user=approver)
    later = timezone.now() + timedelta(hours=2)
    # when version 2 is activated from two hours on
    second = version_activate(version=second, user=approver, effective_from=later)
    # then version 1 is retired from then, and stays in force until then
    first.refresh_from_db()
    assert first.status == VersionStatus.RETIRED
    assert first.retired_at == later
    assert second.status == VersionStatus.ACTIVE
    ruleset = draft.ruleset
    assert version_in_force(model=NiuNiuRulesetVersion, ruleset=ruleset) == first
    assert (
        version_in_force(model=NiuNiuRulesetVersion, ruleset=ruleset, at=later + timedelta(1))
        == second
    )


def test_activation_cannot_be_backdated(draft, approver):
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    with pytest.raises(ValidationError, match="in the past"):
        version_activate(
            version=draft, user=approver, effective_from=timezone.now() - timedelta(days=1)
        )


def test_an_approved_version_cannot_be_edited(draft, approver, manager):
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    with pytest.raises(ValidationError, match="cannot be edited; clone it"):
        version_record_edit(version=draft, user=manager, before=None)


def test_a_clone_copies_every_rule(draft, manager):
    clone = version_clone(version=draft, user=manager)
    original = rules_dict(draft)
    copied = rules_dict(clone)
    assert copied == original
    assert len(copied["paytable"]) == 3 * 11
