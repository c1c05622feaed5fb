"""The rounding of a version, in each game's admin and in the API: a rule like any paytable
cell.

Edited only on a draft, audited before and after, copied by a clone, refused with a message
when it makes no sense, refused on an approved version; a new draft starts from the venue's
chip unit, and a version keeps its own unit whatever the venue changes later.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.rulesets.models import VersionStatus
from casino.rulesets.services import version_approve, version_clone, version_content_hash
from maubinh import services as maubinh_services
from maubinh.models import MauBinhRulesetVersion
from niuniu import services as niuniu_services
from niuniu.models import NiuNiuRulesetVersion
from tests.casino.api import client_for
from tests.factories import rules_dict
from tests.niuniu.test_admin import form_data

pytestmark = pytest.mark.django_db

GAMES = {
    "niuniu": (niuniu_services, NiuNiuRulesetVersion, "vn-kr-004"),
    "maubinh": (maubinh_services, MauBinhRulesetVersion, "bigkool-2016"),
}


@pytest.fixture(autouse=True)
def _few_deals(settings):
    """Approving a Mau Binh version simulates its house take: a few deals will do here."""
    settings.MAUBINH_HOUSE_TAKE_DEALS = 3


@pytest.fixture(params=list(GAMES))
def game(request):
    return request.param


@pytest.fixture
def draft(game, venue, manager):
    services, _model, preset = GAMES[game]
    return services.venue_ruleset_from_preset(venue=venue, preset_code=preset, editor=manager)


def admin_url(version, action="change"):
    meta = version._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_{action}", args=[version.pk])


def test_a_venue_copy_starts_from_the_venue_unit_and_rounds_up(draft, venue):
    assert (draft.rounding_unit, draft.rounding_mode) == (venue.rounding_unit, "up")
    assert rules_dict(draft)["rounding_unit"] == "1000"
    assert rules_dict(draft)["rounding_mode"] == "up"


def test_the_rounding_is_edited_on_the_draft_form_and_audited(client, draft, manager):
    # given the draft's form shows the unit and the mode
    client.force_login(manager)
    page = client.get(admin_url(draft))
    html = page.content.decode()
    assert 'name="rounding_unit"' in html and 'name="rounding_mode"' in html
    data = form_data(page)
    # (the unit as the venue writes amounts, read back by the one reader of amounts)
    assert (data["rounding_unit"], data["rounding_mode"]) == ("1,000", "up")
    # when
    data.update(rounding_unit="500", rounding_mode="half_up")
    response = client.post(admin_url(draft), data)
    # then
    assert response.status_code == 302, response.content.decode()[:3000]
    draft.refresh_from_db()
    assert (draft.rounding_unit, draft.rounding_mode) == (D("500"), "half_up")
    event = AuditEvent.objects.filter(action="ruleset.edit").get()
    assert event.user == manager
    assert (event.before["rounding_unit"], event.after["rounding_unit"]) == ("1000", "500")
    assert (event.before["rounding_mode"], event.after["rounding_mode"]) == ("up", "half_up")


@pytest.mark.parametrize(
    ("unit", "mode", "message"),
    [
        ("0", "up", "The rounding unit is an amount above 0 with at most 2 decimals"),
        ("-1000", "up", "“-1000” is not an amount: write 100,000 or 100000, without decimals"),
        ("0.005", "up", "“0.005” is not an amount: write 100,000 or 100000, without decimals"),
        ("", "up", "This field is required."),
        ("1000", "nearest", "Select a valid choice. nearest is not one of the available choices."),
    ],
)
def test_a_senseless_rounding_is_refused_with_a_message(
    client, draft, manager, unit, mode, message
):
    client.force_login(manager)
    data = form_data(client.get(admin_url(draft)))
    data.update(rounding_unit=unit, rounding_mode=mode)
    before = rules_dict(type(draft).objects.get(pk=draft.pk))
    # when
    response = client.post(admin_url(draft), data)
    # then
    assert response.status_code == 200
    assert message in response.content.decode()
    assert rules_dict(type(draft).objects.get(pk=draft.pk)) == before
    assert not AuditEvent.objects.filter(action="ruleset.edit").exists()


def test_the_rounding_of_an_approved_version_cannot_change(client, draft, manager, approver):
    services = GAMES[draft._meta.app_label][0]
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    client.force_login(manager)
    page = client.get(admin_url(draft))
    assert page.status_code == 200
    assert 'name="rounding_unit"' not in page.content.decode()  # shown read-only
    # a POST to the change form is refused
    response = client.post(admin_url(draft), {"rounding_unit": "10000", "rounding_mode": "down"})
    assert response.status_code == 403
    # and so is the service, whoever calls it
    draft.rounding_unit, draft.rounding_mode = D("10000"), "down"
    with pytest.raises(ValidationError, match="read-only; clone it to a new draft"):
        services.version_save_draft(version=draft, user=manager)
    draft.refresh_from_db()
    assert (draft.rounding_unit, draft.rounding_mode) == (D("1000"), "up")


def test_a_clone_copies_the_rounding(client, draft, manager, approver):
    draft.rounding_unit, draft.rounding_mode = D("500"), "down"
    GAMES[draft._meta.app_label][0].version_save_draft(version=draft, user=manager)
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    # when
    client.force_login(manager)
    assert client.post(admin_url(draft, "clone")).status_code == 302
    # then
    clone = type(draft).objects.get(ruleset=draft.ruleset, number=2)
    assert clone.status == VersionStatus.DRAFT
    assert (clone.rounding_unit, clone.rounding_mode) == (D("500"), "down")
    event = AuditEvent.objects.get(action="ruleset.clone")
    assert (event.after["rounding_unit"], event.after["rounding_mode"]) == ("500", "down")


def test_the_approval_records_the_rounding_approved(draft, approver):
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    event = AuditEvent.objects.get(action="ruleset.approve")
    assert (event.after["rounding_unit"], event.after["rounding_mode"]) == ("1000", "up")


def test_a_new_draft_starts_from_the_venue_unit_as_it_is_then(draft, venue, manager):
    # given the venue's chip unit changes after the first version was made
    venue.rounding_unit = D("5000")
    venue.save()
    # when a new draft is made in the admin (the rounding is edited on the draft afterwards)
    services, model, _preset = GAMES[draft._meta.app_label]
    new = model(ruleset=draft.ruleset)
    services.version_save_draft(version=new, user=manager)
    # then the new draft starts from the venue's unit, and the first version keeps its own
    created = model.objects.get(ruleset=draft.ruleset, number=2)
    assert (created.rounding_unit, created.rounding_mode) == (D("5000"), "up")
    draft.refresh_from_db()
    assert draft.rounding_unit == D("1000")


def test_the_add_form_leaves_the_rounding_to_the_draft(client, draft, manager):
    client.force_login(manager)
    meta = draft._meta
    page = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add"))
    assert page.status_code == 200
    assert 'name="rounding_unit"' not in page.content.decode()


def test_a_clone_of_a_clone_keeps_the_unit_whatever_the_venue(draft, venue, manager, approver):
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    venue.rounding_unit = D("100")
    venue.save()
    clone = version_clone(version=draft, user=manager)
    assert clone.rounding_unit == D("1000")


def test_the_api_shows_a_versions_rounding(floor):
    table = floor.table
    response = client_for(floor.auditor).get(f"/api/v1/rulesets/{table.ruleset_id}/versions/1/")
    assert response.status_code == 200
    version = response.json()
    assert (version["rounding_unit"], version["rounding_mode"]) == ("1000.00", "up")
