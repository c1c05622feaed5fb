"""Baccarat rulesets: presets installed with their exact figures, a venue's copy edited,
checked and approved, the house-edge panel, and the snapshot the engine settles with."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from baccarat import engine
from baccarat.models import BaccaratRulesetVersion
from baccarat.selectors import cached_snapshot, ruleset_snapshot
from baccarat.services import preset_install, venue_ruleset_from_preset
from casino import games
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def near(value: str, expected: str) -> bool:
    return abs(Decimal(value) - Decimal(expected)) < Decimal("0.000001")


def test_the_presets_install_once_with_their_exact_house_edges():
    commission = preset_install(code="commission")
    assert preset_install(code="commission") == commission
    edges = commission.figures["house_edge"]
    assert list(edges) == [
        "player", "banker", "tie", "player_pair", "banker_pair", "super6",
    ]  # fmt: skip
    # the well-known eight-deck figures
    assert near(edges["banker"], "0.010579")
    assert near(edges["player"], "0.012351")
    assert near(edges["tie"], "0.143596")
    assert near(edges["player_pair"], "0.103614")
    no_commission = preset_install(code="no-commission")
    assert no_commission.variant == "no_commission"
    assert near(no_commission.figures["house_edge"]["banker"], "0.014581")
    assert all(Decimal(sd) > 0 for sd in commission.figures["sd"].values())


def test_a_venue_s_copy_becomes_the_engine_s_rules(venue, manager, approver):
    version = venue_ruleset_from_preset(
        venue=venue, preset_code="no-commission", editor=manager, approver=approver
    )
    rules = ruleset_snapshot(version)
    assert rules.decks == 8
    assert rules.variant == engine.Variant.NO_COMMISSION
    assert rules.rounding_unit == Decimal("1000")
    assert [str(b) for b in rules.bet_types] == version.offered_bet_types()
    assert cached_snapshot(version) is cached_snapshot(version)  # approved: built once


def test_a_draft_with_wrong_rules_says_what_to_put_right(venue, manager):
    draft = venue_ruleset_from_preset(venue=venue, preset_code="commission", editor=manager)
    draft.variant = "no_commission"
    draft.banker_six_odds = Decimal(2)
    draft.tie_odds = Decimal(0)
    assert games.get("baccarat").rule_errors(draft) == [
        "A Banker win on 6 pays more than 0 and at most 1 (0.5 is 1:2) in the no-commission "
        "variant, got 2.",
        "Tie pays more than 0 (N:1), got 0.",
    ]
    draft.variant = "commission"
    draft.banker_six_odds = Decimal("0.5")
    draft.tie_odds = Decimal(8)
    draft.offers_super6 = False
    assert games.get("baccarat").rule_errors(draft) == []
    assert "super6" not in draft.offered_bet_types()


def test_the_admin_shows_a_draft_and_its_house_edge_panel(client, venue, manager, approver):
    version = venue_ruleset_from_preset(
        venue=venue, preset_code="commission", editor=manager, approver=approver
    )
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    change = client.get(reverse("admin:baccarat_baccaratrulesetversion_change", args=[version.pk]))
    assert change.status_code == 200
    panel = client.get(reverse("admin:baccarat_baccaratrulesetversion_figures", args=[version.pk]))
    shown = panel.content.decode()
    assert panel.status_code == 200 and "<caption>House edge per bet</caption>" in shown
    assert 'data-bet="banker"' in shown and "1.058%" in shown
    assert BaccaratRulesetVersion.objects.filter(ruleset__venue=venue).count() == 1
