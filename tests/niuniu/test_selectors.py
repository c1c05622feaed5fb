"""A ruleset version becomes exactly the engine snapshot it was made from."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.staff.roles import MANAGER, grant
from niuniu.engine import presets
from niuniu.selectors import ruleset_snapshot, version_with_rules
from niuniu.services import preset_install, venue_ruleset_from_preset
from tests.factories import VenueFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("code", ["vn-kr-004", "macau-001"])
def test_snapshot_of_a_venue_copy_equals_the_preset(code, manager):
    venue = VenueFactory(code="macau", currency="MOP", rounding_unit=Decimal("0.10"))
    grant(manager, venue, MANAGER)
    version = venue_ruleset_from_preset(venue=venue, preset_code=code, editor=manager)
    preset = presets.get(code)
    # when
    snapshot = ruleset_snapshot(version_with_rules(version.pk))
    # then every cell, switch and line is the preset's, and the unit is the venue's
    assert {b: dict(rows) for b, rows in snapshot.paytable.items()} == {
        b: dict(rows) for b, rows in preset.paytable.items()
    }
    assert snapshot.special_hands == preset.special_hands
    assert snapshot.bonus_lines == preset.bonus_lines
    assert dict(snapshot.deposit_multiples) == dict(preset.deposit_multiples)
    assert snapshot.bet_types == preset.bet_types
    assert snapshot.rounding_unit == Decimal("0.10")


def test_a_version_with_its_rules_loads_in_three_queries(manager, venue, django_assert_num_queries):
    version = venue_ruleset_from_preset(venue=venue, preset_code="macau-001", editor=manager)
    with django_assert_num_queries(3):
        ruleset_snapshot(version_with_rules(version.pk))


def test_switching_a_special_hand_off_drops_its_rows_from_the_snapshot(manager, venue):
    version = venue_ruleset_from_preset(venue=venue, preset_code="macau-001", editor=manager)
    version.five_face = False
    version.save()
    snapshot = ruleset_snapshot(version_with_rules(version.pk))
    assert snapshot.special_hands == frozenset()
    assert all(len(rows) == 11 for rows in snapshot.paytable.values())


def test_installing_presets_twice_changes_nothing():
    first = {code: preset_install(code=code) for code in presets.CODES}
    again = {code: preset_install(code=code) for code in presets.CODES}
    assert {c: v.pk for c, v in first.items()} == {c: v.pk for c, v in again.items()}
    assert all(v.status == "active" and v.ruleset.venue is None for v in first.values())
