"""Arrangements: the foul check, input checks and instant wins (docs/RULES.md B1, B2 step 1)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from casino.kernel.cards import parse_cards
from maubinh.engine import InstantWin, check_arrangement, instant_win, presets

BIGKOOL = presets.get("bigkool-2016")
CLASSIC = presets.get("classic")


def test_a_clean_arrangement():
    hand = check_arrangement("AS AH KD KC 2S", "QS QH JC JD 3C", "9H 9D 4C", BIGKOOL)
    assert not hand.fouled
    assert hand.foul_reason is None
    assert hand.instant_win is None
    assert [h.describe() for h in hand.hands] == [
        "Two Pair, As and Ks",
        "Two Pair, Qs and Js",
        "Pair of 9s",
    ]
    assert len(hand.cards) == 13


def test_equal_rows_do_not_foul():
    # middle and front both a pair of 7s with the same kickers as far as the front goes
    hand = check_arrangement("AS AH AD 2C 3C", "7S 7H KD 5C 4D", "7D 7C KC", BIGKOOL)
    assert not hand.fouled


def test_middle_above_back_fouls():
    hand = check_arrangement("QS QH JC JD 3C", "AS AH KD KC 2S", "9H 9D 4C", BIGKOOL)
    assert hand.fouled
    assert hand.foul_reason == (
        "the middle row (Two Pair, As and Ks) beats the back row (Two Pair, Qs and Js)"
    )


def test_front_above_middle_fouls():
    hand = check_arrangement("AS AH KD KC 2S", "QS 7H 5C 4D 3C", "9H 9D JC", BIGKOOL)
    assert hand.fouled
    assert hand.foul_reason == "the front row (Pair of 9s) beats the middle row (High Card, Q)"


def test_front_kicker_above_middle_kicker_fouls():
    hand = check_arrangement("AS AH AD 2C 3C", "7S 7H KD 5C 4D", "7D 7C AC", BIGKOOL)
    assert hand.fouled


BACK, MIDDLE = "AS AH KD KC 2S", "QS QH JC JD 3C"


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ((BACK, MIDDLE, "9H 9D 4C 5C"), "the front row has 4 cards; it takes 3"),
        (("AS AH KD KC", MIDDLE, "9H 9D 4C"), "the back row has 4 cards; it takes 5"),
        ((BACK, "QS QH JC JD 3C 8C", "9H 9D"), "the middle row has 6 cards; it takes 5"),
        ((BACK, MIDDLE, "9H 9D AS"), "'AS' is in both the back row and the front row"),
        ((BACK, "QS QH QS JD 3C", "9H 9D 4C"), "'QS' appears twice"),
        ((BACK, MIDDLE, "9H 9D 1X"), "'1X' is not a card"),
        ((BACK, MIDDLE, None), "the front row needs cards, got None"),
    ],
)
def test_bad_rows_are_refused_with_a_clear_message(rows, message):
    with pytest.raises(ValueError, match=message):
        check_arrangement(*rows, BIGKOOL)


def test_twelve_or_fourteen_cards_in_rows_are_refused():
    with pytest.raises(ValueError, match="the front row has 2 cards; it takes 3"):
        check_arrangement("AS AH KD KC 2S", "QS QH JC JD 3C", "9H 9D", BIGKOOL)  # 12
    with pytest.raises(ValueError, match="the front row has 4 cards; it takes 3"):
        check_arrangement("AS AH KD KC 2S", "QS QH JC JD 3C", "9H 9D 4C 5C", BIGKOOL)  # 14


def test_rows_may_be_cards():
    hand = check_arrangement(
        parse_cards("AS AH KD KC 2S"), list(parse_cards("QS QH JC JD 3C")), "9H 9D 4C", BIGKOOL
    )
    assert not hand.fouled


# Instant wins ------------------------------------------------------------------------------

DRAGON_FLUSH = ("2S 3S 4S 5S 6S", "7S 8S 9S TS JS", "QS KS AS")
DRAGON = ("2S 3H 4S 5S 6S", "7S 8S 9S TS JS", "QS KS AS")
SIX_PAIRS = ("7D 9S 9H JC JD", "2S 2H 5S 5H 7C", "KS KH AC")
SIX_PAIRS_WITH_QUADS = ("9S 9H 9D 9C 2D", "2S 5S 5H 7C 7D", "KS KH AC")
SIX_PAIRS_WITH_TRIPS = ("9S 9H 9D JC JD", "2S 2H 5S 5H 7C", "7D KS KH")
THREE_FLUSHES = ("2H 6H 9H JH AH", "3S 7S 8S QS KS", "4D 5D 9D")
THREE_STRAIGHTS = ("9S TS JH QD KD", "2H 3S 4D 5C 6C", "AH 2C 3D")


def test_dragon_flush_when_offered():
    assert instant_win(*DRAGON_FLUSH, CLASSIC) is InstantWin.DRAGON_FLUSH


def test_one_suit_dragon_counts_as_dragon_when_dragon_flush_is_not_offered():
    assert instant_win(*DRAGON_FLUSH, BIGKOOL) is InstantWin.DRAGON


def test_one_suit_dragon_without_the_dragon_switch_falls_to_three_flushes():
    rules = replace(BIGKOOL, dragon_flush_counts_as_dragon=False)
    assert instant_win(*DRAGON_FLUSH, rules) is InstantWin.THREE_FLUSHES
    assert instant_win(*DRAGON, rules) is InstantWin.DRAGON


def test_dragon():
    assert instant_win(*DRAGON, BIGKOOL) is InstantWin.DRAGON
    assert instant_win(*DRAGON, CLASSIC) is InstantWin.DRAGON


def test_six_pairs_four_of_a_kind_counts_as_two_pairs_and_three_as_one():
    assert instant_win(*SIX_PAIRS, BIGKOOL) is InstantWin.SIX_PAIRS
    assert instant_win(*SIX_PAIRS_WITH_QUADS, BIGKOOL) is InstantWin.SIX_PAIRS
    assert instant_win(*SIX_PAIRS_WITH_TRIPS, BIGKOOL) is InstantWin.SIX_PAIRS
    five_pairs = ("7D 9S 9H JC JD", "2S 2H 5S 5H 7C", "KS QH AC")
    assert instant_win(*five_pairs, BIGKOOL) is None


def test_three_flushes():
    assert instant_win(*THREE_FLUSHES, BIGKOOL) is InstantWin.THREE_FLUSHES
    front_two_suits = ("2H 6H 9H JH AH", "3S 7S 8S QS KS", "4D 5D 9C")
    assert instant_win(*front_two_suits, BIGKOOL) is None


def test_three_straights_the_front_ace_plays_high_or_low():
    assert instant_win(*THREE_STRAIGHTS, BIGKOOL) is InstantWin.THREE_STRAIGHTS
    q_k_a = ("9S TS JH QD KD", "2H 3S 4D 5C 6C", "QH KC AD")
    assert instant_win(*q_k_a, BIGKOOL) is InstantWin.THREE_STRAIGHTS
    k_a_2 = ("9S TS JH QD QC", "2H 3S 4D 5C 6C", "KH AC 2D")
    assert instant_win(*k_a_2, BIGKOOL) is None
    two_gaps = ("9S TS JH QD KD", "2H 3S 4D 5C 6C", "AH 3C 4H")
    assert instant_win(*two_gaps, BIGKOOL) is None


def test_an_instant_win_stands_even_when_the_rows_as_laid_out_foul():
    middle_above_back = ("2H 3S 4D 5C 6C", "9S TS JH QD KD", "AH 2C 3D")
    hand = check_arrangement(*middle_above_back, BIGKOOL)
    assert hand.fouled
    assert hand.instant_win is InstantWin.THREE_STRAIGHTS


def test_a_kind_without_an_amount_is_not_offered():
    rules = replace(BIGKOOL, instant_wins={"dragon": 72, "six_pairs": 0})
    assert instant_win(*SIX_PAIRS, rules) is None
    assert instant_win(*THREE_FLUSHES, rules) is None
    assert instant_win(*DRAGON, rules) is InstantWin.DRAGON


def test_the_strongest_kind_is_declared():
    # a one-suit dragon laid out as three straights and three flushes
    assert instant_win(*DRAGON_FLUSH, CLASSIC) is InstantWin.DRAGON_FLUSH
    # a dragon is also three straights when laid out so
    assert instant_win(*DRAGON, BIGKOOL) is InstantWin.DRAGON
    rules = replace(BIGKOOL, instant_wins={"three_straights": 18})
    assert instant_win(*DRAGON, rules) is InstantWin.THREE_STRAIGHTS


def test_instant_win_strength_follows_the_listed_order():
    strengths = [kind.strength for kind in InstantWin]
    assert strengths == sorted(strengths, reverse=True)
    assert InstantWin.SIX_PAIRS.strength > InstantWin.THREE_FLUSHES.strength
