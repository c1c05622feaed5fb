"""The presets equal docs/RULES.md A4, cell by cell; the expected tables are copied here by hand."""

from decimal import Decimal

import pytest

from niuniu.engine import BetType, BonusLine, BonusPredicate, Category, PaytableRow, presets
from niuniu.engine.presets import PRESET_DATA, ruleset_from_data

# hand: (single win, single commission, double win, double commission, super win,
#        super commission, double loss, super loss); single loss is 1 on every row.
VN_KR_004 = {
    "NIU_NIU": ("1", "0.05", "3", "0.05", "10", "0.05", "3", "10"),
    "NIU_9": ("1", "0.05", "2", "0.05", "9", "0.05", "2", "9"),
    "NIU_8": ("1", "0.05", "2", "0.05", "8", "0.05", "2", "8"),
    "NIU_7": ("1", "0.05", "2", "0.05", "7", "0.05", "2", "7"),
    "NIU_6": ("1", "0.05", "1", "0", "6", "0.05", "1", "6"),
    "NIU_5": ("1", "0.05", "1", "0", "5", "0.05", "1", "5"),
    "NIU_4": ("1", "0.05", "1", "0", "4", "0.05", "1", "4"),
    "NIU_3": ("1", "0.05", "1", "0", "3", "0.05", "1", "3"),
    "NIU_2": ("1", "0.05", "1", "0", "2", "0.05", "1", "2"),
    "NIU_1": ("1", "0.05", "1", "0", "1", "0", "1", "1"),
    "NO_NIU": ("1", "0.05", "1", "0", "1", "0", "1", "1"),
}
MACAU_001 = {
    "FIVE_FACE": ("1", "0", "3", "0.05", "10", "0.05", "3", "10"),
    "NIU_NIU": ("1", "0", "3", "0.05", "10", "0.05", "3", "10"),
    "NIU_9": ("1", "0", "2", "0.05", "9", "0.05", "2", "9"),
    "NIU_8": ("1", "0", "2", "0.05", "8", "0.05", "2", "8"),
    "NIU_7": ("1", "0", "2", "0.05", "7", "0.05", "2", "7"),
    "NIU_6": ("1", "0.5", "1", "0", "6", "0.05", "1", "6"),
    "NIU_5": ("1", "0", "1", "0", "5", "0.05", "1", "5"),
    "NIU_4": ("1", "0", "1", "0", "4", "0.05", "1", "4"),
    "NIU_3": ("1", "0", "1", "0", "3", "0.05", "1", "3"),
    "NIU_2": ("1", "0", "1", "0", "2", "0.05", "1", "2"),
    "NIU_1": ("1", "0", "1", "0", "1", "0", "1", "1"),
    "NO_NIU": ("1", "0", "1", "0", "1", "0", "1", "1"),
}
MACAU_001_BONUS = [
    ("Super Niu Niu", "all_face", "100"),
    ("All Spades", "all_spades", "50"),
    ("Niu Niu", "all_ten_value", "20"),
    ("All Black", "all_black", "10"),
]
TABLES = {"vn-kr-004": VN_KR_004, "macau-001": MACAU_001}


def expected_rows(table):
    """(bet type, category) -> PaytableRow, from a table above."""
    rows = {}
    for hand, (sw, sc, dw, dc, uw, uc, dl, ul) in table.items():
        category = Category[hand]
        rows[BetType.SINGLE, category] = (sw, sc, "1")
        rows[BetType.DOUBLE, category] = (dw, dc, dl)
        rows[BetType.SUPER, category] = (uw, uc, ul)
    return {key: PaytableRow(*map(Decimal, cells)) for key, cells in rows.items()}


@pytest.mark.parametrize("code", ["vn-kr-004", "macau-001"])
def test_paytable_cell_by_cell(code):
    rules = presets.get(code)
    expected = expected_rows(TABLES[code])
    actual = {
        (bet_type, category): row
        for bet_type, rows in rules.paytable.items()
        for category, row in rows.items()
    }
    assert actual.keys() == expected.keys()
    for key, row in expected.items():
        assert actual[key] == row, key


def test_vn_kr_004_switches_deposits_and_bets():
    rules = presets.get("vn-kr-004")
    assert rules.code == "vn-kr-004"
    assert rules.special_hands == frozenset()
    assert rules.categories[0] is Category.NIU_NIU
    assert rules.bonus_lines == ()
    assert rules.bet_types == (BetType.SINGLE, BetType.DOUBLE, BetType.SUPER)
    assert dict(rules.deposit_multiples) == {
        BetType.SINGLE: Decimal("1"),
        BetType.DOUBLE: Decimal("3"),
        BetType.SUPER: Decimal("10"),
    }
    assert rules.rounding_unit == Decimal("1")


def test_macau_001_switches_deposits_bets_and_bonus():
    rules = presets.get("macau-001")
    assert rules.code == "macau-001"
    assert rules.special_hands == frozenset({Category.FIVE_FACE})
    assert rules.categories[:2] == (Category.FIVE_FACE, Category.NIU_NIU)
    assert Category.FOUR_OF_A_KIND not in rules.categories  # named on the sheet, left off
    assert rules.bet_types == (BetType.SINGLE, BetType.DOUBLE, BetType.SUPER, BetType.BONUS)
    assert dict(rules.deposit_multiples) == {
        BetType.SINGLE: Decimal("1"),
        BetType.DOUBLE: Decimal("3"),
        BetType.SUPER: Decimal("10"),
        BetType.BONUS: Decimal("1"),
    }
    assert rules.bonus_lines == tuple(
        BonusLine(name, BonusPredicate(predicate), Decimal(odds))
        for name, predicate, odds in MACAU_001_BONUS
    )
    assert rules.rounding_unit == Decimal("1")


@pytest.mark.parametrize("code", ["vn-kr-004", "macau-001"])
def test_deposit_multiples_cover_the_largest_loss(code):
    rules = presets.get(code)
    for bet_type, rows in rules.paytable.items():
        largest = max(row.loss_multiple for row in rows.values())
        assert rules.deposit_multiples[bet_type] == largest


def test_preset_data_is_plain_strings_and_builds_the_same_rulesets():
    assert presets.CODES == ("vn-kr-004", "macau-001")
    assert tuple(PRESET_DATA) == presets.CODES
    for code, data in PRESET_DATA.items():
        assert ruleset_from_data(data) == presets.get(code)
        for rows in data["paytable"].values():
            for cells in rows.values():
                assert all(isinstance(cell, str) for cell in cells)
                assert len(cells) == 3
    assert PRESET_DATA["macau-001"]["paytable"]["single"]["NIU_6"] == ("1", "0.50", "1")
    assert [r.code for r in presets.all_presets()] == ["vn-kr-004", "macau-001"]


def test_an_unknown_preset_is_named():
    with pytest.raises(ValueError, match="'nope' is not a preset: one of vn-kr-004, macau-001"):
        presets.get("nope")


def test_a_venue_rounding_unit_keeps_the_tables():
    rules = presets.get("vn-kr-004").with_rounding_unit(Decimal("1000"))
    assert rules.rounding_unit == Decimal("1000")
    assert rules.paytable == presets.get("vn-kr-004").paytable
