"""The house edge panel and approval over warnings."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.rulesets.models import VersionStatus
from casino.rulesets.services import (
    version_activate,
    version_approve,
    version_clone,
    version_content_hash,
)
from niuniu.engine.odds import as_decimal, ruleset_odds
from niuniu.house_edge import figures_compute, figures_rows_for_display, figures_summary
from niuniu.models import NiuNiuRulesetVersion, PaytableRow, RulesFigures
from niuniu.selectors import ruleset_snapshot, version_with_rules
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


def rounded_up_and_down(venue, manager):
    """A VND draft rounding every commission up to 1,000, and a clone rounding it down:
    the same rules, so one figures row."""
    up = venue_ruleset_from_preset(venue=venue, preset_code="vn-kr-004", editor=manager)
    assert (up.rounding_unit, up.rounding_mode) == (Decimal("1000"), "up")
    down = version_clone(version=up, user=manager)
    NiuNiuRulesetVersion.objects.filter(pk=down.pk).update(rounding_mode="down")
    down.refresh_from_db()
    return up, down


def rounded_table(html: str) -> str:
    """The panel's table of the edges under the version's rounding, cells run together."""
    table = html.split('class="rounded-edges"')[1].split("</table>")[0]
    return "".join(line.strip() for line in table.splitlines())


def test_the_edges_at_stakes_are_the_engines_under_the_versions_rounding(venue, manager):
    up, down = rounded_up_and_down(venue, manager)
    edges = {}
    for version in (up, down):
        row = figures_compute(version_id=version.pk)
        rules = ruleset_snapshot(version_with_rules(version.pk))
        stored = figures_summary(row, version)["rounded"]["house_edge"]
        assert list(stored) == ["1000", "10000", "100000"]
        for stake, bets in stored.items():
            engine = ruleset_odds(rules, stake=Decimal(stake)).bets
            assert bets == {b.value: str(as_decimal(o.house_edge)) for b, o in engine.items()}
        edges[version.rounding_mode] = stored
    assert RulesFigures.objects.count() == 1, "the rounding is not part of the rules' hash"
    # 5% of a 1,000 win rounds up to 1,000 (the win pays nothing) or down to 0
    assert Decimal(edges["up"]["1000"]["single"]) == Decimal("0.5")
    assert Decimal(edges["down"]["1000"]["single"]) == 0
    # 5% of 10,000 is 500: up to 1,000 or down to 0; 5% of 100,000 is a whole 5,000
    assert edges["up"]["10000"]["single"] != edges["down"]["10000"]["single"]
    assert Decimal(edges["up"]["100000"]["single"]) == Decimal("0.025")
    assert Decimal(edges["down"]["100000"]["single"]) == Decimal("0.025")
    assert Decimal(edges["up"]["1000"]["single"]) > Decimal(
        figures_summary(RulesFigures.objects.get())["house_edge"]["single"]
    )


def test_the_panel_shows_the_edges_under_the_versions_rounding(client, venue, manager):
    up, down = rounded_up_and_down(venue, manager)
    client.force_login(manager)
    html = panel(client, up)
    assert "House edge at a stake of 1,000, commission rounded up to 1,000" in html
    assert "House edge at a stake of 100,000, commission rounded up to 1,000" in html
    assert "<td>Single / Even</td><td>50.000%</td>" in rounded_table(html)
    # the clone shares the row: its own rounding is added by the task, then shown
    first = panel(client, down)
    assert "is being computed" in first and "2.500%" in first
    html = panel(client, down)
    assert "House edge at a stake of 1,000, commission rounded down to 1,000" in html
    assert "<td>Single / Even</td><td>0.000%</td>" in rounded_table(html)
    assert "rounded up" not in html


def test_a_version_not_rounding_to_a_unit_says_the_rounding_changes_nothing(client, venue, manager):
    draft = venue_ruleset_from_preset(venue=venue, preset_code="vn-kr-004", editor=manager)
    NiuNiuRulesetVersion.objects.filter(pk=draft.pk).update(rounding_mode="none")
    client.force_login(manager)
    html = panel(client, draft)
    assert "the rounding changes nothing" in html and "House edge at a stake" not in html
    assert "rounded" not in RulesFigures.objects.get().odds


def test_figures_stored_without_the_rounded_edges_still_show(client, venue, manager):
    draft = venue_ruleset_from_preset(venue=venue, preset_code="vn-kr-004", editor=manager)
    row = figures_compute(version_id=draft.pk)
    del row.odds["rounded"]  # as stored before the panel showed them
    row.save(update_fields=["odds"])
    client.force_login(manager)
    html = panel(client, draft)
    assert "2.500%" in html and "7.3802%" in html and "is being computed" in html
    assert "House edge at a stake of 1,000" in panel(client, draft)
    # an approved version's figures stored before have no rounded edges: the tables as before
    old = figures_summary(RulesFigures.objects.get())
    rows = figures_rows_for_display(old, None)
    single = next(bet for bet in rows["bets"] if bet["label"] == "Single / Even")
    assert rows["rounded"] is None and single["house_edge"] == Decimal("0.025")
    shown = render_to_string("admin/niuniu/house_edge.html", {"rows": rows})
    assert "2.500%" in shown and "House edge at a stake" not in shown
