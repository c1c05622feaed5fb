"""The readings of seed 002 a venue may choose (docs/RULES.md "Settings a venue may choose"):
each settled by hand both ways, so a test fails when the engine ignores the setting."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from maubinh.engine import (
    Declaring,
    FeeBasis,
    InstantWin,
    PairBasis,
    TiedInstantWins,
    presets,
    settle_table,
)

BIGKOOL = presets.get("bigkool-2016")
STAKE = Decimal("1000")

# Six Pairs whose rows would score 60 against a weak hand: back four aces (8), middle four
# queens (16), front three jacks (6), all three won and doubled (AA AA QQ QQ KK JJ: six pairs).
SIX_PAIRS_60 = ("AS AH AD AC KS", "QS QH QD QC KH", "JS JH JD")
# A clean hand with nothing: ten high, nine high, eight high.
WEAK = ("TC 9C 7D 5D 3C", "9D 8D 6C 4C 3H", "8H 6H 5H")
# Cleaner still, below WEAK in every row: nine high, eight high, seven high.
WEAKER = ("9S 7S 6D 4S 2H", "8S 7H 5S 4H 2D", "7C 4D 3S")


def test_the_presets_keep_the_readings_they_have_always_played():
    for rules in presets.all_presets():
        assert rules.tied_instant_wins is TiedInstantWins.EACH_IN_FULL
        assert rules.fee_basis is FeeBasis.NET_RESULT
        assert rules.declaring is Declaring.AUTOMATIC
        assert rules.instant_win_when_fouled is True
        assert rules.foul_pays_row_bonuses is True


# Equal instant wins: "Nếu bằng nhau thì chia tiền thắng" ---------------------------------

# Two Six Pairs (2s to 7s) and a third player with no instant win.
SIX_PAIRS_LOW = ("7S 7H 6S 6H 8S", "5S 5H 4S 4H 3S", "3H 2S 2H")
SIX_PAIRS_LOW_TOO = ("7D 7C 6D 6C 8D", "5D 5C 4D 4C 3D", "3C 2D 2C")
PAIR_OF_ACES = ("AS AH KS QD 9C", "KH KD QS JC 9D", "QH JD TS")


@pytest.mark.parametrize(
    ("reading", "each_winner", "payer"),
    [
        ("each_in_full", 18, -36),  # each takes 18 from the third player
        ("share", 9, -18),  # the third player pays 18 once, 9 to each
    ],
)
def test_equal_instant_wins_collect_in_full_or_share(reading, each_winner, payer):
    rules = replace(BIGKOOL, tied_instant_wins=reading)
    table = settle_table(
        {"a": SIX_PAIRS_LOW, "b": SIX_PAIRS_LOW_TOO, "c": PAIR_OF_ACES}, STAKE, rules
    )
    assert table.pair("a", "b").chi == 0
    assert table.pair("a", "c").chi == table.pair("b", "c").chi == each_winner
    assert [table.seats[s].chi for s in "abc"] == [each_winner, each_winner, payer]


def test_a_stronger_instant_win_is_not_shared_with_weaker_ones():
    rules = replace(BIGKOOL, tied_instant_wins="share")
    six_pairs_high = ("KS KH QS QH AS", "JS JH TS TH 8H", "9S 9H AH")
    dragon = ("7C 8D 9C TD JC", "2D 3C 4D 5C 6D", "QD KC AD")
    table = settle_table({"a": SIX_PAIRS_LOW, "b": six_pairs_high, "d": dragon}, STAKE, rules)
    # the one Dragon takes its 72 in full from each Six Pairs; the two Six Pairs score 0
    assert table.pair("d", "a").chi == table.pair("d", "b").chi == 72
    assert table.pair("a", "b").chi == 0
    assert table.seats["d"].chi == 144


def test_shared_amounts_must_split_between_two_or_three():
    with pytest.raises(ValueError, match="Six Pairs amount must be a multiple of 6, got 20"):
        replace(BIGKOOL, tied_instant_wins="share", instant_wins={"six_pairs": 20})


# The fee basis: "trừ đi 5% phí bàn chơi" ---------------------------------------------------


@pytest.mark.parametrize(
    ("basis", "fees", "house_fee"),
    [
        # only a's net result (+36,000) is positive: 5% of it
        ("net_result", ["1800", "0", "0"], "1800"),
        # a's two wins of 18,000 pay 900 each; b's 6,000 won from c pays 300 though b lost
        # 12,000 over the table
        ("each_win", ["1800", "300", "0"], "2100"),
    ],
)
def test_the_fee_is_on_the_net_result_or_on_each_amount_won(basis, fees, house_fee):
    rules = replace(BIGKOOL, fee_basis=basis)
    table = settle_table({"a": SIX_PAIRS_60, "b": WEAK, "c": WEAKER}, STAKE, rules)
    # a's Six Pairs takes 18 from each; b scoops c (3 rows x 2)
    assert [table.seats[s].chi for s in "abc"] == [36, -12, -24]
    assert [str(table.seats[s].fee) for s in "abc"] == fees
    assert table.house_fee == Decimal(house_fee)
    assert sum(seat.net for seat in table.seats.values()) + table.house_fee == 0


# Declaring: "Báo mậu binh" ----------------------------------------------------------------


def test_an_instant_win_is_taken_automatically_even_when_the_rows_score_more():
    table = settle_table({"a": SIX_PAIRS_60, "b": WEAK}, STAKE, BIGKOOL)
    pair = table.pair("a", "b")
    assert (pair.basis, pair.chi, pair.instant_win) == (
        PairBasis.INSTANT_WIN,
        18,
        InstantWin.SIX_PAIRS,
    )
    with pytest.raises(ValueError, match="take every instant win automatically"):
        settle_table({"a": SIX_PAIRS_60, "b": WEAK}, STAKE, BIGKOOL, undeclared=["a"])


def test_an_undeclared_instant_win_plays_its_rows_when_declaring_is_optional():
    rules = replace(BIGKOOL, declaring="optional")
    declared = settle_table({"a": SIX_PAIRS_60, "b": WEAK}, STAKE, rules)
    assert declared.pair("a", "b").chi == 18
    # when the player does not declare it
    table = settle_table({"a": SIX_PAIRS_60, "b": WEAK}, STAKE, rules, undeclared=["a"])
    # then the rows score (8 + 16 + 6) x 2 = 60
    pair = table.pair("a", "b")
    assert (pair.basis, pair.rows, pair.scoop, pair.chi) == (PairBasis.ROWS, (8, 16, 6), True, 60)
    assert pair.instant_win is None
    assert table.seats["a"].arrangement.instant_win is InstantWin.SIX_PAIRS  # still held


# Instant wins on a fouled layout --------------------------------------------------------

# Three Flushes with the flushes the wrong way round: the middle's ace-high flush beats the
# back's king-high one.
FOULED_THREE_FLUSHES = ("3S 7S 8S QS KS", "2H 6H 9H JH AH", "4D 5D 9D")
PAIRS = ("AC AD 8C 6D 2C", "KC KD 7C 5C 3C", "QC QD 4C")


@pytest.mark.parametrize(
    ("counts", "basis", "chi"),
    [
        (True, PairBasis.INSTANT_WIN, 18),
        # the layout fouls: it loses the three rows (1 chi each) and the scoop doubles them
        (False, PairBasis.FOUL, -6),
    ],
)
def test_three_flushes_on_a_fouled_layout_pay_or_foul(counts, basis, chi):
    rules = replace(BIGKOOL, instant_win_when_fouled=counts)
    table = settle_table({"a": FOULED_THREE_FLUSHES, "b": PAIRS}, STAKE, rules)
    assert table.seats["a"].arrangement.fouled
    assert (table.pair("a", "b").basis, table.pair("a", "b").chi) == (basis, chi)


# Row bonuses against a fouled hand ------------------------------------------------------

FOULED = ("2H 3H 4C 5D 7C", "AS AH KD QC JC", "TC 6C 4D")
BONUS_ROWS = ("9S 9H 9D 9C 2S", "8S 8H 8D 3C 3D", "7S 7H 7D")


@pytest.mark.parametrize(
    ("pays", "rows", "chi"),
    [
        (True, (8, 4, 6), 36),  # back four of a kind 8, middle full house 4, front trips 6; x2
        (False, (1, 1, 1), 6),  # 1 chi a row; x2
    ],
)
def test_row_bonuses_against_a_fouled_hand_count_or_not(pays, rows, chi):
    rules = replace(BIGKOOL, foul_pays_row_bonuses=pays)
    table = settle_table({"clean": BONUS_ROWS, "fouled": FOULED}, STAKE, rules)
    pair = table.pair("clean", "fouled")
    assert (pair.basis, pair.rows, pair.chi) == (PairBasis.FOUL, rows, chi)


def test_a_reading_is_one_of_its_choices():
    with pytest.raises(ValueError, match="fee_basis is one of net_result, each_win; got 'gross'"):
        replace(BIGKOOL, fee_basis="gross")
