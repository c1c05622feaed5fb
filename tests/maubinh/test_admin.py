"""The Mau Binh ruleset admin: edit a draft, be told what is wrong, approve, read-only after."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.rulesets.models import VersionStatus
from casino.rulesets.services import version_approve, version_content_hash
from casino.staff.roles import MANAGER
from maubinh.models import InstantWinAmount, MauBinhRulesetVersion, RowBonus
from maubinh.services import venue_ruleset_from_preset
from tests.factories import rules_dict
from tests.niuniu.test_admin import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(venue, manager):
    return venue_ruleset_from_preset(venue=venue, preset_code="bigkool-2016", editor=manager)


def change_url(version):
    return reverse("admin:maubinh_maubinhrulesetversion_change", args=[version.pk])


def action_url(version, action):
    return reverse(f"admin:maubinh_maubinhrulesetversion_{action}", args=[version.pk])


def prefix_of(response, **match) -> str:
    """The form prefix of the inline row whose instance has these values."""
    for inline in response.context["inline_admin_formsets"]:
        for form in inline.formset.forms:
            if all(getattr(form.instance, k, None) == v for k, v in match.items()):
                return form.prefix
    raise AssertionError(f"no inline row {match}")


def test_manager_edits_a_bonus_and_turns_dragon_flush_on(client, draft, manager):
    # given
    client.force_login(manager)
    page = client.get(change_url(draft))
    data = form_data(page)
    data[f"{prefix_of(page, row='middle', category='FULL_HOUSE')}-chi"] = "3"
    data[f"{prefix_of(page, kind='dragon_flush')}-chi"] = "78"
    # when
    response = client.post(change_url(draft), data)
    # then
    assert response.status_code == 302, response.content.decode()[:3000]
    assert RowBonus.objects.get(version=draft, row="middle", category="FULL_HOUSE").chi == 3
    assert InstantWinAmount.objects.get(version=draft, kind="dragon_flush").chi == 78
    event = AuditEvent.objects.filter(action="ruleset.edit").get()
    assert event.user == manager
    assert event.before["row_bonuses"]["middle:FULL_HOUSE"] == 4
    assert event.after["row_bonuses"]["middle:FULL_HOUSE"] == 3
    assert (
        event.before["instant_wins"]["dragon_flush"],
        event.after["instant_wins"]["dragon_flush"],
    ) == (0, 78)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"fee_rate": "1"}, "The fee rate is from 0 up to, not including, 1 (0.05 is 5%)."),
        ({"fee_rate": "-0.01"}, "The fee rate is from 0 up to, not including, 1"),
        ({"scoop_multiplier": "0"}, "The scoop multiplier is 1 (no scoop rule) or more."),
        ({"quit_penalty": "0"}, "The quit penalty is a whole number of chi, 1 or more."),
        ({("back", "FOUR_OF_A_KIND"): "0"}, "A row bonus is a whole number of chi, 1 or more."),
        ({("back", "FOUR_OF_A_KIND"): "2.5"}, "Enter a whole number."),
        (
            {("front", "THREE_OF_A_KIND", "category"): "STRAIGHT"},
            "The front row holds three cards, so it can only be Three of a Kind, Pair or High "
            "Card.",
        ),
        (
            {("middle", "FULL_HOUSE", "category"): "FOUR_OF_A_KIND"},
            "Middle row (chi 2) / Four of a Kind: there are two bonuses; keep one.",
        ),
        (
            {"dragon": "400"},
            "A player could win or lose 1200 chi in one round (against 3 opponents); rounds "
            "record at most 999: lower the largest amounts.",
        ),
    ],
)
def test_bad_rules_are_refused_with_a_message(client, draft, manager, change, message):
    client.force_login(manager)
    page = client.get(change_url(draft))
    data = form_data(page)
    for key, value in change.items():
        if isinstance(key, tuple):
            row, category, *field = key
            prefix = prefix_of(page, row=row, category=category)
            data[f"{prefix}-{field[0] if field else 'chi'}"] = value
        elif key == "dragon":
            data[f"{prefix_of(page, kind='dragon')}-chi"] = value
        else:
            data[key] = value
    before = rules_dict(MauBinhRulesetVersion.objects.get(pk=draft.pk))
    response = client.post(change_url(draft), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert rules_dict(MauBinhRulesetVersion.objects.get(pk=draft.pk)) == before


def test_the_last_editor_is_refused_approval(client, draft, manager):
    client.force_login(manager)
    response = client.post(action_url(draft, "approve"), follow=True)
    assert "someone else must approve it" in response.content.decode()
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT


def test_a_second_person_approves_and_activates_and_the_take_is_stored(client, draft, approver):
    client.force_login(approver)
    shown = {"content_hash": version_content_hash(draft)}
    assert client.post(action_url(draft, "approve"), shown).status_code == 302
    response = client.post(action_url(draft, "activate"), {"effective_from": ""}, follow=True)
    assert "Activated" in response.content.decode()
    draft.refresh_from_db()
    assert draft.status == VersionStatus.ACTIVE
    assert (draft.approved_by, draft.activated_by) == (approver, approver)
    assert set(draft.figures["house_take"]) == {"2", "3", "4"}
    assert draft.figures["rounds"] == 3  # tests simulate 3 deals (tests/maubinh/conftest.py)
    low, high = (Decimal(v) for v in draft.figures["house_take_ci"]["4"])
    assert low <= Decimal(draft.figures["house_take"]["4"]) <= high


def test_approved_versions_are_read_only(client, draft, approver, manager):
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    client.force_login(manager)
    page = client.get(change_url(draft))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="_save"' not in html
    assert "Clone to new draft" in html
    response = client.post(change_url(draft), {"fee_rate": "0.10"})
    assert response.status_code == 403
    draft.refresh_from_db()
    assert draft.fee_rate == Decimal("0.05")


def test_a_clone_carries_the_rules_and_is_a_draft(client, draft, approver, manager):
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    client.force_login(manager)
    response = client.post(action_url(draft, "clone"))
    clone = MauBinhRulesetVersion.objects.get(ruleset=draft.ruleset, number=2)
    assert response.status_code == 302 and response["Location"] == change_url(clone)
    assert clone.status == VersionStatus.DRAFT and clone.cloned_from == draft
    assert rules_dict(clone) == rules_dict(draft)


def test_a_new_draft_from_the_admin_starts_from_the_standard_rows(client, draft, manager):
    client.force_login(manager)
    response = client.post(
        reverse("admin:maubinh_maubinhrulesetversion_add"),
        {
            "ruleset": draft.ruleset_id,
            "notes": "",
            "scoop_multiplier": "1",
            "fee_rate": "0.04",
            "quit_penalty": "6",
            "wheel_is_lowest": "on",
            "tied_instant_wins": "each_in_full",
            "fee_basis": "net_result",
            "declaring": "automatic",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    created = MauBinhRulesetVersion.objects.get(ruleset=draft.ruleset, number=2)
    rules = rules_dict(created)
    assert (rules["scoop_multiplier"], rules["fee_rate"]) == (1, "0.04")
    assert rules["foul_counts_as_scoop"] is False
    assert rules["row_bonuses"] == rules_dict(draft)["row_bonuses"]
    assert rules["instant_wins"] == {
        "dragon": 72,
        "dragon_flush": 0,
        "six_pairs": 18,
        "three_flushes": 18,
        "three_straights": 18,
    }


def test_a_manager_sees_only_their_venues_rulesets(client, draft, manager):
    from tests.factories import VenueFactory, staff

    elsewhere = VenueFactory(code="saigon")
    theirs = venue_ruleset_from_preset(
        venue=elsewhere,
        preset_code="classic",
        editor=staff("saigon-manager", MANAGER, elsewhere),
    )
    client.force_login(manager)
    listing = client.get(reverse("admin:maubinh_maubinhrulesetversion_changelist"))
    assert f"@ {draft.ruleset.venue.code}]" in listing.content.decode()
    assert "@ saigon]" not in listing.content.decode()
    assert client.post(action_url(theirs, "approve")).status_code == 404


def test_the_rules_problems_are_said_in_the_managers_language():
    from types import SimpleNamespace

    from django.utils import translation

    from maubinh.validation import ruleset_errors

    version = SimpleNamespace(
        scoop_multiplier=0,
        fee_rate=Decimal("0.05"),
        quit_penalty=3,
        tied_instant_wins="each_in_full",
    )
    with translation.override("vi"):
        (message,) = ruleset_errors(version, [], [])
    assert message.startswith("Hệ số sập 3 chi: 1 (không có luật sập 3 chi) trở lên")


# The readings of the sheet a venue may choose ---------------------------------------------

READINGS = {
    "tied_instant_wins": ("each_in_full", "share"),
    "fee_basis": ("net_result", "each_win"),
    "declaring": ("automatic", "optional"),
    "instant_win_when_fouled": (True, False),
    "foul_pays_row_bonuses": (True, False),
}


def test_a_draft_takes_every_reading_with_the_sheets_words_and_an_audit(client, draft, manager):
    client.force_login(manager)
    page = client.get(change_url(draft))
    html = page.content.decode()
    # each setting's help quotes the sheet
    for words in (
        "Nếu bằng nhau thì chia tiền thắng",
        "trừ đi 5% phí bàn chơi",
        "Báo mậu binh",
        "không cần so sánh bài",
        "bị xử thua cả 3 chi luôn",
    ):
        assert words in html
    before_hash = version_content_hash(draft)
    data = form_data(page)
    for name, (_today, other) in READINGS.items():
        if other is False:
            data.pop(name, None)  # an unticked box is not sent
        else:
            data[name] = other
    # when
    response = client.post(change_url(draft), data)
    # then
    assert response.status_code == 302, response.content.decode()[:3000]
    draft.refresh_from_db()
    event = AuditEvent.objects.filter(action="ruleset.edit").get()
    for name, (today, other) in READINGS.items():
        assert getattr(draft, name) == other
        assert (event.before[name], event.after[name]) == (today, other)
    assert version_content_hash(draft) != before_hash


def test_shared_instant_wins_must_split_evenly(client, draft, manager):
    client.force_login(manager)
    page = client.get(change_url(draft))
    data = form_data(page)
    data["tied_instant_wins"] = "share"
    data[f"{prefix_of(page, kind='six_pairs')}-chi"] = "20"
    response = client.post(change_url(draft), data)
    assert response.status_code == 200
    assert (
        "Six Pairs (lục phé bôn) pays 20 chi: tied winners share it between two or three, so "
        "with shared payments it must be a multiple of 6"
    ) in response.content.decode()
    draft.refresh_from_db()
    assert draft.tied_instant_wins == "each_in_full"


def test_an_approved_reading_never_changes_and_a_clone_carries_it(client, draft, approver, manager):
    MauBinhRulesetVersion.objects.filter(pk=draft.pk).update(
        fee_basis="each_win", declaring="optional", foul_pays_row_bonuses=False
    )
    draft.refresh_from_db()
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    client.force_login(manager)
    refused = client.post(change_url(draft), {"fee_basis": "net_result"})
    assert refused.status_code == 403
    assert MauBinhRulesetVersion.objects.get(pk=draft.pk).fee_basis == "each_win"
    client.post(action_url(draft, "clone"))
    clone = MauBinhRulesetVersion.objects.get(ruleset=draft.ruleset, number=2)
    assert (clone.fee_basis, clone.declaring, clone.foul_pays_row_bonuses) == (
        "each_win",
        "optional",
        False,
    )
