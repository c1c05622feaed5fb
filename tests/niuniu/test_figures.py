"""The house edge panel and approval over warnings."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from casino.models import AuditEvent, VersionStatus
from casino.services.rulesets import (
    version_activate,
    version_approve,
    version_clone,
    version_content_hash,
)
from niuniu.models import PaytableRow, RulesFigures
from niuniu.services import venue_ruleset_from_preset

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("celery_eager")]


def figures_url(version):
    return reverse("admin:niuniu_niuniurulesetversion_figures", args=[version.pk])


@pytest.fixture
def client(client, django_capture_on_commit_callbacks):
    """A client whose requests run their on-commit callbacks (the task is sent on commit)."""

    class Committing:
        def __getattr__(self, name):
            method = getattr(client, name)
            if name not in ("get", "post"):
                return method

            def call(*args, **kwargs):
                with django_capture_on_commit_callbacks(execute=True):
                    return method(*args, **kwargs)

            return call

    return Committing()


def panel(client, version) -> str:
    """The panel as the browser ends up showing it: it polls while the task runs."""
    for _ in range(3):
        response = client.get(figures_url(version), headers={"HX-Request": "true"})
        assert response.status_code == 200
        html = response.content.decode()
        if 'hx-trigger="every 1s"' not in html:
            return html
    raise AssertionError(f"the figures never came: {html}")


def test_the_panel_shows_exact_edges_and_frequencies(client, venue, manager):
    draft = venue_ruleset_from_preset(venue=venue, preset_code="vn-kr-004", editor=manager)
    client.force_login(manager)
    first = client.get(figures_url(draft), headers={"HX-Request": "true"}).content.decode()
    assert "Computing the exact odds" in first and 'hx-trigger="every 1s"' in first
    html = panel(client, draft)
    assert "<html" not in html, "only the fragment comes back"
    # vn-kr-004: single 2.500% exactly (1/40), double 2.693%, super 14.038%
    assert "2.500%" in html and "2.693%" in html and "14.038%" in html
    # Niu Niu: 191,808 of 2,598,960 hands = 7.3802%
    assert "7.3802%" in html
    assert "unusually high" not in html


def test_unchanged_rules_are_never_recomputed(client, venue, manager):
    draft = venue_ruleset_from_preset(venue=venue, preset_code="vn-kr-004", editor=manager)
    client.force_login(manager)
    panel(client, draft)
    row = RulesFigures.objects.get()
    clone = version_clone(version=draft, user=manager)
    assert "2.500%" in panel(client, clone)
    assert RulesFigures.objects.get().computed_at == row.computed_at
    # a change to the paytable is new rules: a second row
    PaytableRow.objects.filter(version=clone, bet_type="single", category="NIU_9").update(
        commission_rate=Decimal("0")
    )
    panel(client, clone)
    assert RulesFigures.objects.count() == 2


def test_the_panel_shows_the_change_from_the_version_in_force(client, venue, manager, approver):
    first = venue_ruleset_from_preset(venue=venue, preset_code="vn-kr-004", editor=manager)
    version_activate(
        version=version_approve(
            version=first, content_hash=version_content_hash(first), user=approver
        ),
        user=approver,
    )
    draft = version_clone(version=first, user=manager)
    # single pays Niu 9 without commission: the house gives up 5% of the Niu 9 wins
    PaytableRow.objects.filter(version=draft, bet_type="single", category="NIU_9").update(
        commission_rate=Decimal("0")
    )
    client.force_login(approver)
    html = panel(client, draft)
    assert "Changes are against v1 (in force)" in html
    assert 'class="down">-0.' in html  # the single's edge went down


def test_a_paytable_favouring_the_player_needs_an_audited_override(venue, manager, approver):
    draft = venue_ruleset_from_preset(venue=venue, preset_code="vn-kr-004", editor=manager)
    PaytableRow.objects.filter(version=draft, bet_type="single").update(
        win_odds=Decimal("1.2"), commission_rate=Decimal("0")
    )
    with pytest.raises(ValidationError) as error:
        version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    assert "Single / Even: the player is favoured" in error.value.messages[0]
    assert "give an override reason" in error.value.messages[-1]
    approved = version_approve(
        version=draft,
        content_hash=version_content_hash(draft),
        user=approver,
        override_reason="promotion week",
    )
    assert approved.status == VersionStatus.APPROVED
    assert Decimal(approved.figures["house_edge"]["single"]) < 0
    event = AuditEvent.objects.get(action="ruleset.approve_override")
    assert event.user == approver
    assert event.after["reason"] == "promotion week"


def test_the_macau_bonus_is_flagged_as_unusually_high(client, venue, manager, approver):
    draft = venue_ruleset_from_preset(venue=venue, preset_code="macau-001", editor=manager)
    client.force_login(approver)
    html = panel(client, draft)
    assert "64.234%" in html and "unusually high" in html
    approve = reverse("admin:niuniu_niuniurulesetversion_approve", args=[draft.pk])
    shown = {"content_hash": version_content_hash(draft)}
    refused = client.post(approve, shown, follow=True).content.decode()
    assert "Bonus: the house edge 64.234% is unusually high" in refused
    client.post(approve, {**shown, "override_reason": "sheet 001 as printed"})
    draft.refresh_from_db()
    assert draft.status == VersionStatus.APPROVED
    assert draft.house_edge("bonus") == Decimal("0.642344630160")
