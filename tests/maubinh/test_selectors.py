"""A Mau Binh ruleset version becomes exactly the engine snapshot it was made from."""

from __future__ import annotations

import dataclasses
import io
from decimal import Decimal

import pytest
from django.core.management import call_command

from maubinh.engine import InstantWin, presets
from maubinh.models import InstantWinAmount, MauBinhRulesetVersion
from maubinh.selectors import cached_snapshot, ruleset_snapshot, version_with_rules
from maubinh.services import venue_ruleset_from_preset
from tests.factories import rules_dict

pytestmark = pytest.mark.django_db

SNAPSHOT_RULES = (
    "row_bonuses",
    "instant_wins",
    "scoop_multiplier",
    "fee_rate",
    "quit_penalty",
    "wheel_is_lowest",
    "foul_counts_as_scoop",
    "dragon_flush_counts_as_dragon",
    "tied_instant_wins",
    "fee_basis",
    "declaring",
    "instant_win_when_fouled",
    "foul_pays_row_bonuses",
)


@pytest.mark.parametrize("code", presets.CODES)
def test_the_snapshot_of_a_venue_copy_equals_the_preset(code, venue, manager):
    version = venue_ruleset_from_preset(venue=venue, preset_code=code, editor=manager)
    preset = presets.get(code)
    # when
    snapshot = ruleset_snapshot(version_with_rules(version.pk))
    # then every rule is the preset's, and the rounding unit is the venue's
    assert {name: getattr(snapshot, name) for name in SNAPSHOT_RULES} == {
        name: getattr(preset, name) for name in SNAPSHOT_RULES
    }
    assert snapshot == dataclasses.replace(
        preset, code=snapshot.code, name=snapshot.name, rounding_unit=Decimal("1000")
    )
    assert snapshot.rounding_unit == venue.rounding_unit
    # and the version's rules read like the preset's data (an unpaid instant win at 0), with
    # the venue's chip unit as the copy's rounding unit
    data = presets.PRESET_DATA[code]
    assert rules_dict(version) == {
        **{name: data[name] for name in SNAPSHOT_RULES},
        "instant_wins": {
            kind.value: data["instant_wins"].get(kind.value, 0) for kind in InstantWin
        },
        "rounding_unit": "1000",
        "rounding_mode": data["rounding_mode"],
    }


def test_a_version_with_its_rules_loads_in_three_queries(venue, manager, django_assert_num_queries):
    version = venue_ruleset_from_preset(venue=venue, preset_code="classic", editor=manager)
    with django_assert_num_queries(3):
        ruleset_snapshot(version_with_rules(version.pk))


def test_an_instant_win_at_0_is_not_paid(venue, manager):
    version = venue_ruleset_from_preset(venue=venue, preset_code="classic", editor=manager)
    InstantWinAmount.objects.filter(version=version, kind="dragon_flush").update(chi=0)
    snapshot = ruleset_snapshot(version_with_rules(version.pk))
    assert not snapshot.offers("dragon_flush")
    assert snapshot.instant_wins == presets.get("bigkool-2016").instant_wins


def test_an_approved_version_is_snapshot_once(venue, manager, approver, django_assert_num_queries):
    version = venue_ruleset_from_preset(
        venue=venue, preset_code="bigkool-2016", editor=manager, approver=approver
    )
    version = MauBinhRulesetVersion.objects.select_related("ruleset__venue").get(pk=version.pk)
    first = cached_snapshot(version)
    with django_assert_num_queries(0):
        assert cached_snapshot(version) is first


def test_installing_the_presets_twice_changes_nothing():
    call_command("install_maubinh_presets", stdout=(out := io.StringIO()))
    first = {v.ruleset.code: v.pk for v in MauBinhRulesetVersion.objects.select_related("ruleset")}
    call_command("install_maubinh_presets", stdout=io.StringIO())
    again = {v.ruleset.code: v.pk for v in MauBinhRulesetVersion.objects.select_related("ruleset")}
    assert first == again and set(first) == set(presets.CODES)
    for version in MauBinhRulesetVersion.objects.select_related("ruleset"):
        assert version.status == "active" and version.ruleset.venue is None
        assert set(version.figures["house_take"]) == {"2", "3", "4"}
        assert rules_dict(version)["row_bonuses"] == dict(
            presets.PRESET_DATA[version.ruleset.code]["row_bonuses"]
        )
    assert "bigkool-2016:" in out.getvalue() and "4 players" in out.getvalue()


def test_versions_made_before_the_readings_were_settings_keep_the_readings_played():
    """The migration that adds the readings gives every existing version the presets' reading
    (what the engine always played), so no settled round reads differently."""
    from importlib import import_module

    from django.db.migrations import AddField

    migration = import_module("maubinh.migrations.0004_sheet_readings").Migration
    added = {op.name: op.field.default for op in migration.operations if isinstance(op, AddField)}
    preset = presets.PRESET_DATA["bigkool-2016"]
    assert added == {name: preset[name] for name in added}
    assert set(added) == {
        "tied_instant_wins",
        "fee_basis",
        "declaring",
        "instant_win_when_fouled",
        "foul_pays_row_bonuses",
    }
