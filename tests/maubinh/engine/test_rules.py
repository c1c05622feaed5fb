"""The ruleset snapshot and the presets (docs/RULES.md B3)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, replace
from decimal import Decimal

import pytest

from maubinh.engine import (
    STANDARD_ROW_BONUSES,
    InstantWin,
    Row,
    RowCategory,
    Ruleset,
    presets,
)


def test_bigkool_2016_preset():
    rules = presets.get("bigkool-2016")
    assert dict(rules.row_bonuses) == dict(STANDARD_ROW_BONUSES)
    assert dict(rules.instant_wins) == {
        InstantWin.DRAGON: 72,
        InstantWin.SIX_PAIRS: 18,
        InstantWin.THREE_FLUSHES: 18,
        InstantWin.THREE_STRAIGHTS: 18,
    }
    assert not rules.offers(InstantWin.DRAGON_FLUSH)
    assert rules.dragon_flush_counts_as_dragon
    assert rules.scoop_multiplier == 2
    assert rules.fee_rate == Decimal("0.05")
    assert rules.quit_penalty == 6
    assert rules.wheel_is_lowest and rules.foul_counts_as_scoop
    assert rules.rounding_unit == Decimal("1")


def test_classic_preset_differs_by_scoop_and_dragon_flush():
    bigkool, classic = presets.get("bigkool-2016"), presets.get("classic")
    assert classic.scoop_multiplier == 1
    assert classic.instant_win_amount(InstantWin.DRAGON_FLUSH) == 78
    assert classic.offered_instant_wins == tuple(InstantWin)
    assert classic.row_bonuses == bigkool.row_bonuses
    assert classic.fee_rate == bigkool.fee_rate
    assert classic.quit_penalty == bigkool.quit_penalty


def test_row_bonuses_as_listed():
    rules = presets.get("bigkool-2016")
    expected = {
        (Row.BACK, RowCategory.FOUR_OF_A_KIND): 8,
        (Row.BACK, RowCategory.STRAIGHT_FLUSH): 10,
        (Row.MIDDLE, RowCategory.FULL_HOUSE): 4,
        (Row.MIDDLE, RowCategory.FOUR_OF_A_KIND): 16,
        (Row.MIDDLE, RowCategory.STRAIGHT_FLUSH): 20,
        (Row.FRONT, RowCategory.THREE_OF_A_KIND): 6,
    }
    for row in Row:
        for category in RowCategory:
            assert rules.row_bonus(row, category) == expected.get((row, category), 1)


def test_unknown_preset():
    with pytest.raises(ValueError, match="not a Mau Binh preset: one of bigkool-2016, classic"):
        presets.get("nope")
    assert presets.CODES == ("bigkool-2016", "classic")
    assert [r.code for r in presets.all_presets()] == list(presets.CODES)


def test_a_ruleset_takes_plain_admin_data():
    rules = Ruleset(
        code="venue-1",
        name="Venue rules",
        row_bonuses={("middle", "FULL_HOUSE"): "4", (Row.BACK, RowCategory.FOUR_OF_A_KIND): 8},
        instant_wins={"dragon": Decimal("72"), "three_flushes": 0},
        scoop_multiplier=1,
        fee_rate="0.03",
        quit_penalty=5,
        rounding_unit="1000",
    )
    assert rules.row_bonus(Row.MIDDLE, RowCategory.FULL_HOUSE) == 4
    assert rules.instant_wins[InstantWin.DRAGON] == 72
    assert not rules.offers(InstantWin.THREE_FLUSHES)
    assert rules.offered_instant_wins == (InstantWin.DRAGON,)
    assert rules.fee_rate == Decimal("0.03")
    assert rules.rounding_unit == Decimal("1000")


def test_a_ruleset_is_immutable_and_hashable():
    rules = presets.get("classic")
    with pytest.raises(FrozenInstanceError):
        rules.fee_rate = Decimal("0.10")  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.row_bonuses[Row.BACK, RowCategory.FLUSH] = 3  # type: ignore[index]
    assert hash(rules) == hash(replace(rules))
    assert rules == replace(rules)
    assert rules != replace(rules, scoop_multiplier=2)


def test_with_rounding_unit():
    rules = presets.get("classic").with_rounding_unit(Decimal("1000"))
    assert rules.rounding_unit == Decimal("1000")
    assert rules.code == "classic"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"row_bonuses": {("front", "FLUSH"): 3}}, "a front row cannot be a Flush"),
        ({"row_bonuses": {("side", "FLUSH"): 3}}, "a row bonus is keyed by"),
        ({"row_bonuses": {("back", "FLUSH"): 0}}, "must be at least 1"),
        ({"row_bonuses": {("back", "FLUSH"): 2.5}}, "whole number of chi"),
        ({"instant_wins": {"royal_dragon": 100}}, "not an instant win"),
        ({"instant_wins": {"dragon": -1}}, "must be at least 0"),
        ({"scoop_multiplier": 0}, "must be at least 1"),
        ({"fee_rate": Decimal("1")}, "fee rate is a fraction"),
        ({"rounding_unit": Decimal("0")}, "rounding unit must be positive"),
        ({"wheel_is_lowest": "yes"}, "wheel_is_lowest is a switch"),
    ],
)
def test_bad_ruleset_data_is_refused(change, message):
    base = {
        "code": "x",
        "name": "x",
        "row_bonuses": {},
        "instant_wins": {},
    }
    with pytest.raises(ValueError, match=message):
        Ruleset(**(base | change))


def test_a_float_fee_rate_is_refused():
    with pytest.raises(TypeError, match="never a float"):
        Ruleset(code="x", name="x", row_bonuses={}, instant_wins={}, fee_rate=0.05)
