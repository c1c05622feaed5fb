"""The ruleset admin as a venue manager uses it: edit a draft, get told what is wrong, approve."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.rulesets.models import VersionStatus
from casino.rulesets.services import version_approve, version_content_hash
from casino.staff.roles import MANAGER
from niuniu.models import READING_DEFAULTS, NiuNiuRulesetVersion, PaytableRow
from niuniu.services import venue_ruleset_from_preset
from tests.factories import rules_dict

pytestmark = pytest.mark.django_db


def change_url(version):
    return reverse("admin:niuniu_niuniurulesetversion_change", args=[version.pk])


#: The readings of the sheets as the add form offers them first (the presets' readings).
READINGS_AS_PRESETS = {name: str(value) for name, value in READING_DEFAULTS.items()}


def form_data(response) -> dict[str, str]:
    """The POST a browser would send for the change form as rendered."""
    data: dict[str, str] = {}

    def add(form):
        for name, field in form.fields.items():
            value = form[name].value()
            key = form.add_prefix(name)
            if isinstance(value, bool) or getattr(field.widget, "input_type", "") == "checkbox":
                if value:
                    data[key] = "on"
            elif value is not None:
                data[key] = str(value)

    add(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        add(formset.management_form)
        for form in formset.forms:
            add(form)
    return data


def row_prefix(response, bet_type: str, category: str) -> str:
    for inline in response.context["inline_admin_formsets"]:
        for form in inline.formset.forms:
            if getattr(form.instance, "category", None) == category and (
                form.instance.bet_type == bet_type
            ):
                return form.prefix
    raise AssertionError(f"no row {bet_type} {category}")


def test_manager_edits_a_row_and_the_edit_is_audited(client, draft, manager):
    # given
    client.force_login(manager)
    page = client.get(change_url(draft))
    data = form_data(page)
    prefix = row_prefix(page, "super", "NIU_9")
    data[f"{prefix}-win_odds"] = "8.5"
    # when
    response = client.post(change_url(draft), data)
    # then
    assert response.status_code == 302, response.content.decode()[:2000]
    row = PaytableRow.objects.get(version=draft, bet_type="super", category="NIU_9")
    assert row.win_odds == Decimal("8.5")
    event = AuditEvent.objects.filter(action="ruleset.edit").get()
    assert event.user == manager
    before = {(r[0], r[1]): r[2] for r in event.before["paytable"]}
    after = {(r[0], r[1]): r[2] for r in event.after["paytable"]}
    assert (before[("super", "NIU_9")], after[("super", "NIU_9")]) == ("9", "8.5")


@pytest.mark.parametrize(
    ("bet_type", "category", "field", "value", "message"),
    [
        ("single", "NIU_5", "commission_rate", "1.5", "less than or equal to 1"),
        ("double", "NIU_5", "win_odds", "-1", "greater than or equal to 0"),
        (
            "double",
            "NIU_NIU",
            "loss_multiple",
            "4",
            "Double / Niu Niu: loss multiple must be between 1 and the deposit multiple (3).",
        ),
        (
            "single",
            "NIU_NIU",
            "loss_multiple",
            "2",
            "Single / Even / Niu Niu: loss multiple must be between 1 and the deposit multiple (1)",
        ),
    ],
)
def test_bad_rows_are_refused_with_a_message(
    client, draft, manager, bet_type, category, field, value, message
):
    client.force_login(manager)
    page = client.get(change_url(draft))
    data = form_data(page)
    data[f"{row_prefix(page, bet_type, category)}-{field}"] = value
    response = client.post(change_url(draft), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    row = PaytableRow.objects.get(version=draft, bet_type=bet_type, category=category)
    assert str(getattr(row, field)) != value


def test_a_missing_row_is_named(client, draft, manager):
    client.force_login(manager)
    page = client.get(change_url(draft))
    data = form_data(page)
    data[f"{row_prefix(page, 'double', 'NIU_7')}-DELETE"] = "on"
    response = client.post(change_url(draft), data)
    assert response.status_code == 200
    assert (
        "Double has no row for Niu 7: every hand needs a row for every bet type offered."
        in response.content.decode()
    )
    assert PaytableRow.objects.filter(version=draft, bet_type="double", category="NIU_7").exists()


def test_turning_on_a_special_hand_asks_for_its_rows(client, draft, manager):
    client.force_login(manager)
    data = form_data(client.get(change_url(draft)))
    data["five_face"] = "on"
    response = client.post(change_url(draft), data)
    assert response.status_code == 200
    assert "Single / Even has no row for Five Face (Super Niu Niu)" in response.content.decode()
    draft.refresh_from_db()
    assert draft.five_face is False


def test_the_last_editor_is_refused_approval_with_a_message(client, draft, manager):
    client.force_login(manager)
    url = reverse("admin:niuniu_niuniurulesetversion_approve", args=[draft.pk])
    response = client.post(url, follow=True)
    assert "someone else must approve it" in response.content.decode()
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT


def test_a_second_person_approves_then_activates(client, draft, approver):
    client.force_login(approver)
    approve = reverse("admin:niuniu_niuniurulesetversion_approve", args=[draft.pk])
    activate = reverse("admin:niuniu_niuniurulesetversion_activate", args=[draft.pk])
    assert client.post(approve, {"content_hash": version_content_hash(draft)}).status_code == 302
    response = client.post(activate, {"effective_from": ""}, follow=True)
    assert "Activated" in response.content.decode()
    draft.refresh_from_db()
    assert draft.status == VersionStatus.ACTIVE
    assert (draft.approved_by, draft.activated_by) == (approver, approver)
    assert draft.effective_from is not None


def test_a_bad_effective_time_is_explained(client, draft, approver):
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    client.force_login(approver)
    activate = reverse("admin:niuniu_niuniurulesetversion_activate", args=[draft.pk])
    response = client.post(activate, {"effective_from": "tomorrow"}, follow=True)
    assert "is not a date and time" in response.content.decode()
    draft.refresh_from_db()
    assert draft.status == VersionStatus.APPROVED


def test_approving_needs_the_permission(client, draft, django_user_model):
    clerk = django_user_model.objects.create_user("clerk", password="x", is_staff=True)
    client.force_login(clerk)
    url = reverse("admin:niuniu_niuniurulesetversion_approve", args=[draft.pk])
    assert client.post(url).status_code == 403
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT


def test_approved_versions_are_read_only(client, draft, approver, manager):
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    client.force_login(manager)
    page = client.get(change_url(draft))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="_save"' not in html
    assert "Clone to new draft" in html
    # a POST to the change form is refused and changes nothing
    row = PaytableRow.objects.get(version=draft, bet_type="single", category="NIU_NIU")
    response = client.post(change_url(draft), {"five_face": "on"})
    assert response.status_code == 403
    draft.refresh_from_db()
    row.refresh_from_db()
    assert draft.five_face is False
    assert row.win_odds == Decimal("1")


def test_clone_to_new_draft_from_the_admin(client, draft, approver, manager):
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    client.force_login(manager)
    url = reverse("admin:niuniu_niuniurulesetversion_clone", args=[draft.pk])
    response = client.post(url)
    clone = NiuNiuRulesetVersion.objects.get(ruleset=draft.ruleset, number=2)
    assert response.status_code == 302
    assert response["Location"] == change_url(clone)
    assert clone.status == VersionStatus.DRAFT
    assert rules_dict(clone) == rules_dict(draft)


def test_a_new_draft_from_the_admin_gets_a_row_for_every_hand(client, draft, manager):
    client.force_login(manager)
    add = reverse("admin:niuniu_niuniurulesetversion_add")
    response = client.post(
        add,
        {
            "ruleset": draft.ruleset_id,
            "notes": "",
            "offers_double": "on",
            "double_deposit_multiple": "3",
            "super_deposit_multiple": "10",
            **READINGS_AS_PRESETS,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    created = NiuNiuRulesetVersion.objects.get(ruleset=draft.ruleset, number=2)
    assert created.created_by == manager
    rows = set(created.paytable_rows.values_list("bet_type", flat=True))
    assert rows == {"single", "double"}
    assert created.paytable_rows.count() == 2 * 11


def test_get_on_an_action_url_is_refused(client, draft, approver):
    client.force_login(approver)
    url = reverse("admin:niuniu_niuniurulesetversion_approve", args=[draft.pk])
    assert client.get(url).status_code == 405


def test_a_manager_sees_only_their_venues_rulesets(client, draft, manager):
    from tests.factories import VenueFactory, staff

    elsewhere = VenueFactory(code="seoul", currency="KRW")
    theirs = venue_ruleset_from_preset(
        venue=elsewhere, preset_code="vn-kr-004", editor=staff("seoul-manager", MANAGER, elsewhere)
    )
    client.force_login(manager)
    listing = client.get(reverse("admin:niuniu_niuniurulesetversion_changelist"))
    assert f"@ {draft.ruleset.venue.code}]" in listing.content.decode()
    assert "@ seoul]" not in listing.content.decode()
    assert client.get(change_url(theirs)).status_code == 302  # "does not exist" redirect
    approve = reverse("admin:niuniu_niuniurulesetversion_approve", args=[theirs.pk])
    assert client.post(approve).status_code == 404


def test_a_new_drafts_ruleset_menu_offers_only_the_managers_venues(client, draft, manager):
    """The admin's frame offers a ruleset by foreign key at the user's venues only
    (``casino.admin.base.VENUE_OWNED``)."""
    from tests.factories import VenueFactory, staff

    elsewhere = VenueFactory(code="seoul", currency="KRW")
    theirs = venue_ruleset_from_preset(
        venue=elsewhere, preset_code="vn-kr-004", editor=staff("seoul-manager", MANAGER, elsewhere)
    )
    client.force_login(manager)
    page = client.get(reverse("admin:niuniu_niuniurulesetversion_add"))
    offered = set(page.context["adminform"].form.fields["ruleset"].queryset)
    assert draft.ruleset in offered
    assert theirs.ruleset not in offered


def test_the_paytables_problems_are_said_in_the_managers_language():
    from types import SimpleNamespace

    from django.utils import translation

    from niuniu.engine.rules import BetType
    from niuniu.validation import paytable_errors

    version = SimpleNamespace(
        enabled_bet_types=lambda: [],
        enabled_categories=lambda: [],
        deposit_multiple=lambda bet_type: Decimal(1),
    )
    row = SimpleNamespace(
        bet_type=BetType.SINGLE.value,
        category="NIU_NIU",
        win_odds=Decimal(-1),
        commission_rate=Decimal("0.05"),
        loss_multiple=Decimal(1),
    )
    with translation.override("pt"):
        (message,) = paytable_errors(version, [row])
    assert message == "Even / Niu Niu: as odds de pagamento têm de ser 0 ou mais."


def test_paytable_rows_read_as_one_table_without_a_label_line_above_each(client, draft, manager):
    client.force_login(manager)
    html = client.get(change_url(draft)).content.decode()
    assert html.count('class="module compact-rows"') == 2  # the paytable and the bonus lines
    assert "css/admin-rows.css" in html
