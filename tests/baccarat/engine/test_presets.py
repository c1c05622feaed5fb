"""The presets equal docs/RULES.md C5, field by field (copied here by hand), and the rulesets
refuse what no shoe or table could hold with a message that says what to change."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal as D

import pytest

from baccarat.engine import BetType, Collection, Ruleset, Variant, presets
from casino.kernel.money import Rounding

SIX_BETS = ("player", "banker", "tie", "player_pair", "banker_pair", "super6")


def test_the_preset_codes():
    assert presets.codes() == presets.CODES == ("commission", "no-commission")
    assert [rules.code for rules in presets.all_presets()] == list(presets.codes())


@pytest.mark.parametrize(
    ("code", "variant"),
    [("commission", Variant.COMMISSION), ("no-commission", Variant.NO_COMMISSION)],
)
def test_each_preset_as_the_rules_print_it(code, variant):
    rules = presets.get(code)
    assert rules.variant is variant
    assert (rules.decks, rules.banker_commission, rules.banker_six_odds) == (8, D("0.05"), D("0.5"))
    assert (rules.tie_odds, rules.pair_odds) == (D(8), D(11))
    assert (rules.super6_two_card_odds, rules.super6_three_card_odds) == (D(12), D(20))
    assert tuple(str(bet) for bet in rules.bet_types) == SIX_BETS
    assert (rules.rounding_unit, rules.rounding_mode) == (D(1), Rounding.DOWN)
    assert rules.collection is Collection.AT_WIN


def test_an_unknown_preset_lists_the_others():
    with pytest.raises(KeyError, match="there are commission, no-commission"):
        presets.get("ez")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"decks": 0}, "a shoe holds 1 to 8 decks, got 0"),
        ({"decks": 9}, "a shoe holds 1 to 8 decks, got 9"),
        ({"decks": True}, "a whole number"),
        ({"banker_commission": D(1)}, "from 0 to below 1, got 1"),
        ({"banker_commission": D("-0.01")}, "from 0 to below 1"),
        ({"banker_six_odds": D(0)}, "more than 0 and at most 1:1"),
        ({"tie_odds": D(0)}, "tie_odds must be positive, got 0"),
        ({"pair_odds": D(-11)}, "pair_odds must be positive"),
        ({"super6_three_card_odds": D(0)}, "super6_three_card_odds must be positive"),
        ({"rounding_unit": D(0)}, "the rounding unit must be positive"),
        ({"tie_odds": "eight"}, "tie_odds must be a number, got 'eight'"),
        ({"bet_types": ()}, "at least one bet"),
        ({"bet_types": ("player", "dragon7")}, "unknown bet types"),
        ({"variant": "ez"}, "ez"),
    ],
)
def test_a_ruleset_refuses_what_cannot_be_played(change, words):
    with pytest.raises(ValueError, match=words):
        replace(presets.get("commission"), **change)


def test_a_ruleset_takes_text_and_keeps_table_order():
    rules = Ruleset(
        code="x",
        name="x",
        decks=6,
        variant="no_commission",
        tie_odds="9",
        bet_types=("tie", "banker", "player"),
        rounding_mode="up",
        collection="box",
    )
    assert rules.bet_types == (BetType.PLAYER, BetType.BANKER, BetType.TIE)
    assert (rules.variant, rules.collection) == (Variant.NO_COMMISSION, Collection.BOX)
    assert (rules.tie_odds, rules.rounding_mode, rules.cards) == (D(9), Rounding.UP, 312)
    assert rules.with_rounding(D(1000), "down").rounding_unit == D(1000)
    assert replace(rules, decks=8).decks == 8
