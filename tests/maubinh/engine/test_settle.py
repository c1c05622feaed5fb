"""Settling a table: a worked example for every rule of docs/RULES.md part B, and bad input."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from maubinh.engine import InstantWin, PairBasis, presets, settle_table

BIGKOOL = presets.get("bigkool-2016")
CLASSIC = presets.get("classic")
STAKE = Decimal("1000")

# A steady opponent for the row-bonus examples: wins the middle and the front with pairs,
# loses the back with an aces full house.
STEADY = ("AS AH AD TH TD", "KH KD 2C 5D 6S", "JS JH 3C")


def _two(a, b, rules=BIGKOOL, stake=STAKE):
    return settle_table({"a": a, "b": b}, stake, rules)


# Row bonuses: the bonus row wins, the other two rows lose (so there is no scoop) ---------


def test_back_four_of_a_kind_scores_8():
    table = _two(("9S 9H 9D 9C 2S", "KS 3S 4D 6C 8D", "QH 5C 7D"), STEADY)
    pair = table.pair("a", "b")
    assert pair.basis is PairBasis.ROWS
    assert pair.rows == (8, -1, -1)
    assert (pair.chi, pair.scoop) == (6, False)
    assert table.pair("b", "a").chi == -6


def test_back_straight_flush_scores_10():
    table = _two(("5H 6H 7H 8H 9H", "KS 3S 4D 6C 8D", "QH 5C 7D"), STEADY)
    assert table.pair("a", "b").rows == (10, -1, -1)
    assert table.seats["a"].chi == 8


def test_middle_full_house_scores_4():
    table = _two(
        ("KS KH KD 4S 4H", "QS QH QD 3S 3H", "2S 5C 7D"),
        ("AS AH AD TH TD", "JS 9S 8S 6S 5S", "JH JD 2C"),
    )
    assert table.pair("a", "b").rows == (-1, 4, -1)
    assert table.seats["a"].chi == 2


def test_middle_four_of_a_kind_scores_16():
    table = _two(
        ("5S 5H 5D 5C 2S", "4S 4H 4D 4C 3S", "6S 7C 9D"),
        ("AS AH AD AC KS", "QS QH QD JS JH", "TS TH 2C"),
    )
    # the opponent's back four of a kind scores its own bonus, 8
    assert table.pair("a", "b").rows == (-8, 16, -1)
    assert table.seats["a"].chi == 7


def test_middle_straight_flush_scores_20():
    table = _two(
        ("9S TS JS QS KS", "4H 5H 6H 7H 8H", "2C 3D 5C"),
        ("TD JD QD KD AD", "AS AH AC 2H 2D", "3S 3H 4C"),
    )
    assert table.pair("a", "b").rows == (-10, 20, -1)
    assert table.seats["a"].chi == 9


def test_front_three_of_a_kind_scores_6():
    table = _two(
        ("2S 3S 4H 5D 6C", "8S 8H 8D KC QD", "7S 7H 7D"),
        ("2H 9H TH JH KH", "9S TD JD QS KS", "AS AD 3C"),
    )
    assert table.pair("a", "b").rows == (-1, -1, 6)
    assert table.seats["a"].chi == 4


def test_a_bonus_counts_only_for_the_winner_of_the_row():
    # both backs are four of a kind: the higher wins and scores 8; the loser's is worth nothing
    table = _two(
        ("9S 9H 9D 9C 2S", "KS 3S 4D 6C 8D", "QH 5C 7D"),
        ("AS AH AD AC TD", "KH KD 2C 5D 6S", "JS JH 3C"),
    )
    assert table.pair("a", "b").rows == (-8, -1, -1)


# Scoop ----------------------------------------------------------------------------------

SCOOPER = ("AS AH KD KC 2S", "QS QH JC JD 3C", "9H 9D 4C")
SCOOPED = ("TS TH 8D 8C 5S", "7S 7H 6C 6D 2C", "KS 3H 4D")


def test_winning_all_three_rows_doubles_in_bigkool():
    table = _two(SCOOPER, SCOOPED)
    pair = table.pair("a", "b")
    assert pair.rows == (1, 1, 1)
    assert pair.scoop
    assert pair.chi == 6


def test_classic_has_no_scoop_doubling():
    table = _two(SCOOPER, SCOOPED, rules=CLASSIC)
    pair = table.pair("a", "b")
    assert pair.rows == (1, 1, 1)
    assert pair.chi == 3


def test_scoop_doubles_row_bonuses_too():
    table = _two(("9S 9H 9D 9C 2S", "AS AH KD KC 3S", "QH QC 7D"), SCOOPED)
    assert table.pair("a", "b").rows == (8, 1, 1)
    assert table.seats["a"].chi == 20


def test_a_tied_row_means_no_scoop():
    a = ("AS AH KD KC 2S", "QS QH JC JD 3C", "9H 8D 4C")
    b = ("TS TH 8C 8S 5S", "7S 7H 6C 6D 2C", "9C 8H 4D")  # the fronts tie
    pair = _two(a, b).pair("a", "b")
    assert pair.rows == (1, 1, 0)
    assert (pair.scoop, pair.chi) == (False, 2)


# Fouls ----------------------------------------------------------------------------------

FOULED = ("QS QH JC JD 3C", "AS AH KD KC 2S", "9H 9D 4C")  # middle above back
CLEAN_WITH_QUADS = ("8S 8H 8D 8C 5S", "7S 7H 6C 6D 2C", "KS 3H 4D")


def test_foul_against_a_clean_hand_loses_every_row_with_bonuses_and_scoop():
    table = _two(FOULED, CLEAN_WITH_QUADS)
    pair = table.pair("b", "a")
    assert pair.basis is PairBasis.FOUL
    assert pair.rows == (8, 1, 1)  # the clean hand's back four of a kind scores 8
    assert pair.scoop
    assert pair.chi == 20
    assert (pair.fouled, pair.opponent_fouled) == (False, True)


def test_foul_without_foul_counts_as_scoop():
    rules = replace(BIGKOOL, foul_counts_as_scoop=False)
    pair = _two(FOULED, CLEAN_WITH_QUADS, rules=rules).pair("b", "a")
    assert (pair.chi, pair.scoop) == (10, False)


def test_foul_in_classic_is_not_doubled():
    assert _two(FOULED, CLEAN_WITH_QUADS, rules=CLASSIC).pair("b", "a").chi == 10


def test_a_fouled_hand_loses_even_to_weaker_rows():
    weak = ("KS 7H 5D 3S 2H", "TH 6H 4D 3H 2C", "9S 8C 6D")  # clean, high cards only
    table = _two(FOULED, weak)
    assert table.pair("b", "a").chi == 6  # 3 rows x 1, doubled


def test_two_fouled_players_score_zero():
    other_foul = ("TS TH 8C 7D 5S", "7S 7H 6C 6D 3D", "KS 3H 4D")  # middle two pair above back pair
    table = _two(FOULED, other_foul)
    pair = table.pair("a", "b")
    assert (pair.basis, pair.chi, pair.rows) == (PairBasis.FOUL, 0, (0, 0, 0))
    assert pair.fouled and pair.opponent_fouled


# Instant wins ---------------------------------------------------------------------------

DRAGON_FLUSH = ("2S 3S 4S 5S 6S", "7S 8S 9S TS JS", "QS KS AS")
DRAGON = ("2H 3H 4H 5H 6H", "7H 8H 9H TH JH", "QH KH AC")
SIX_PAIRS = ("7D 9S 9H JC JD", "2S 2H 5S 5H 7C", "KS KH AC")
THREE_FLUSHES = ("2H 6H 9H JH AH", "3S 7S 8S QS KS", "4D 5D 9D")
THREE_STRAIGHTS = ("9S TS JH QD KD", "2H 3S 4D 5C 6C", "AH 2C 3D")
PLAIN = ("AD AH KD KC 2D", "QC QH JD JH 3C", "9H 9D 4C")
PLAIN_2 = ("TC TH 8D 8C 5C", "7D 7H 6C 6D 2C", "KC 3H 4C")


DRAGON_OPPONENT = ("2C 2D 5C 6D 7C", "8C 8D 9C TC JC", "QC KC 3C")
SIX_PAIRS_OPPONENT = ("AS 3H 4D 6C 8D", "TC TD QC 2C 3C", "4H 6H 8H")
THREE_STRAIGHTS_OPPONENT = ("AS AD KC KS 2D", "QC QH JS JC 3C", "9H 9D 4C")


@pytest.mark.parametrize(
    ("hand", "opponent", "rules", "kind", "chi"),
    [
        (DRAGON_FLUSH, PLAIN, CLASSIC, InstantWin.DRAGON_FLUSH, 78),
        (DRAGON_FLUSH, PLAIN, BIGKOOL, InstantWin.DRAGON, 72),  # counts as Dragon
        (DRAGON, DRAGON_OPPONENT, BIGKOOL, InstantWin.DRAGON, 72),
        (SIX_PAIRS, SIX_PAIRS_OPPONENT, BIGKOOL, InstantWin.SIX_PAIRS, 18),
        (THREE_FLUSHES, PLAIN_2, BIGKOOL, InstantWin.THREE_FLUSHES, 18),
        (THREE_STRAIGHTS, THREE_STRAIGHTS_OPPONENT, BIGKOOL, InstantWin.THREE_STRAIGHTS, 18),
    ],
)
def test_an_instant_win_takes_its_amount_without_comparing(hand, opponent, rules, kind, chi):
    table = _two(hand, opponent, rules=rules)
    pair = table.pair("a", "b")
    assert pair.basis is PairBasis.INSTANT_WIN
    assert pair.instant_win is kind
    assert (pair.chi, pair.rows, pair.scoop) == (chi, (0, 0, 0), False)
    assert table.seats["b"].chi == -chi


def test_an_instant_win_against_a_fouled_hand_takes_only_its_amount():
    fouled = ("TC TH 8D 8C 5C", "AD AC KD KC 2D", "QC QH 4C")
    pair = _two(THREE_FLUSHES, fouled).pair("a", "b")
    assert (pair.basis, pair.chi) == (PairBasis.INSTANT_WIN, 18)


def test_the_stronger_instant_win_takes_its_own_amount_from_the_weaker():
    # Six Pairs against Three Flushes: both 18, Six Pairs is listed first
    six_pairs = ("7D 7C 9S 9C JC", "2S 2C 5S 5C JD", "KD KC AC")
    three_flushes = ("2H 6H 9H JH AH", "3S 4S 8S QS KS", "4D 5D 9D")
    table = _two(six_pairs, three_flushes)
    assert table.pair("a", "b").chi == 18
    # Dragon against Six Pairs: the Dragon's 72
    dragon = ("2H 3H 4H 5H 6H", "7H 8H 9H TH JH", "QH KH AS")
    table = _two(dragon, six_pairs)
    assert table.pair("a", "b").chi == 72


def test_equal_instant_wins_score_zero_between_them_and_both_collect_from_the_rest():
    three_flushes = ("2H 6H 9H JH AH", "3D 6D 7D TD KD", "4C 5C 9C")
    other_three_flushes = ("2C 6C 7C JC AC", "3S 7S 8S QS KS", "4D 5D 9D")
    plain = ("TS TH TC 2S 3H", "QH QC 8H 8C 4S", "AS AD 5S")
    table = settle_table({"a": three_flushes, "b": other_three_flushes, "c": plain}, STAKE, BIGKOOL)
    assert table.pair("a", "b").chi == 0
    assert table.pair("a", "b").basis is PairBasis.INSTANT_WIN
    assert table.seats["a"].chi == 18
    assert table.seats["b"].chi == 18
    assert table.seats["c"].chi == -36


# Money ----------------------------------------------------------------------------------


def test_fee_is_five_percent_of_a_positive_result():
    table = _two(SCOOPER, SCOOPED, stake=Decimal("1000"))
    winner, loser = table.seats["a"], table.seats["b"]
    assert (winner.gross, winner.fee, winner.net) == (Decimal(6000), Decimal(300), Decimal(5700))
    assert (loser.gross, loser.fee, loser.net) == (Decimal(-6000), Decimal(0), Decimal(-6000))
    assert table.house_fee == Decimal(300)


def test_fee_is_rounded_up_to_the_rounding_unit():
    rules = CLASSIC.with_rounding_unit(Decimal("1000"))
    table = _two(SCOOPER, SCOOPED, rules=rules, stake=Decimal("1000"))
    winner = table.seats["a"]
    # 3 chi x 1000 = 3000; 5% = 150, rounded up to 1000
    assert (winner.gross, winner.fee, winner.net) == (Decimal(3000), Decimal(1000), Decimal(2000))
    assert table.house_fee == Decimal(1000)


def test_fee_rounding_with_a_fractional_unit():
    rules = BIGKOOL.with_rounding_unit(Decimal("0.10"))
    table = _two(SCOOPER, SCOOPED, rules=rules, stake=Decimal("2.50"))
    # 6 chi x 2.50 = 15.00; 5% = 0.75, rounded up to 0.80
    assert table.seats["a"].fee == Decimal("0.80")
    assert table.seats["a"].net == Decimal("14.20")


@pytest.mark.parametrize(
    ("mode", "fee"), [("up", "8000"), ("half_up", "8000"), ("down", "7000"), ("none", "7500")]
)
def test_each_rounding_mode_on_a_fee_of_7500(mode, fee):
    rules = CLASSIC.with_rounding(Decimal("1000"), mode)
    table = _two(SCOOPER, SCOOPED, rules=rules, stake=Decimal("50000"))
    winner = table.seats["a"]
    # 3 chi x 50,000 = 150,000; 5% = 7,500, a half of the unit
    assert (winner.gross, winner.fee, winner.net) == (
        Decimal(150000),
        Decimal(fee),
        Decimal(150000) - Decimal(fee),
    )
    assert table.seats["b"].fee == 0
    assert table.house_fee == Decimal(fee)


@pytest.mark.parametrize(
    ("mode", "fee"), [("up", "0.90"), ("half_up", "0.80"), ("down", "0.80"), ("none", "0.83")]
)
def test_each_rounding_mode_on_a_fractional_fee(mode, fee):
    rules = CLASSIC.with_rounding(Decimal("0.10"), mode)
    table = _two(SCOOPER, SCOOPED, rules=rules, stake=Decimal("5.50"))
    # 3 chi x 5.50 = 16.50; 5% = 0.825
    assert table.seats["a"].fee == Decimal(fee)
    assert table.seats["a"].net == Decimal("16.50") - Decimal(fee)


def test_an_unknown_rounding_mode_is_refused():
    with pytest.raises(ValueError, match="'nearest' is not a rounding mode: one of up, half_up"):
        CLASSIC.with_rounding(Decimal("1000"), "nearest")


def test_a_stake_must_be_a_positive_multiple_of_the_rounding_unit():
    rules = BIGKOOL.with_rounding_unit(Decimal("1000"))
    with pytest.raises(ValueError, match="not a multiple of the rounding unit 1000"):
        _two(SCOOPER, SCOOPED, rules=rules, stake=Decimal("1500"))
    with pytest.raises(ValueError, match="the stake must be positive"):
        _two(SCOOPER, SCOOPED, stake=Decimal("0"))
    with pytest.raises(TypeError, match="not float"):
        _two(SCOOPER, SCOOPED, stake=10.0)


# Quit -----------------------------------------------------------------------------------


def test_a_quitter_pays_the_penalty_to_each_other_player_and_the_rest_settle_as_usual():
    table = settle_table({"a": SCOOPER, "b": SCOOPED, "q": None}, STAKE, BIGKOOL, quitters=["q"])
    assert table.seats["q"].chi == -12  # 6 to each of two players
    assert table.seats["q"].quit
    assert table.seats["q"].arrangement is None
    assert table.pair("a", "q").basis is PairBasis.QUIT
    assert table.pair("a", "q").chi == 6
    assert table.seats["a"].chi == 6 + 6  # the scoop over b, and the penalty
    assert table.seats["b"].chi == -6 + 6
    assert table.seats["q"].gross == Decimal(-12000)
    assert table.seats["q"].fee == 0


def test_a_quitter_may_be_missing_from_the_arrangements_or_keep_its_cards():
    missing = settle_table({"a": SCOOPER, "b": SCOOPED}, STAKE, BIGKOOL, quitters=["q"])
    assert list(missing.seats) == ["a", "b", "q"]
    assert missing.seats["q"].chi == -12
    six_pairs = ("AC AD 2H 2D 3S", "3D 4S 4H 5H 5C", "6S 6H 7C")
    with_cards = settle_table(
        {"a": SCOOPER, "b": SCOOPED, "q": six_pairs}, STAKE, BIGKOOL, quitters=["q"]
    )
    assert with_cards.seats["q"].chi == -12  # not compared: its Six Pairs does not count
    assert with_cards.pair("q", "a").basis is PairBasis.QUIT


def test_quitting_beats_nothing_and_two_quitters_score_zero():
    table = settle_table(
        {"a": SCOOPER, "q1": None, "q2": None}, STAKE, BIGKOOL, quitters=["q1", "q2"]
    )
    assert table.pair("q1", "q2").chi == 0
    assert table.seats["a"].chi == 12
    assert table.seats["q1"].chi == table.seats["q2"].chi == -6


def test_only_a_quitter_may_have_no_cards():
    with pytest.raises(ValueError, match="seat b has no cards"):
        settle_table({"a": SCOOPER, "b": None}, STAKE, BIGKOOL)


# Wheel switch ---------------------------------------------------------------------------

WHEEL_BACK = ("AS 2H 3D 4C 5C", "KS KH 7D 8C 9S", "QS 6D 6H")  # wheel, pair K, pair 6
K_HIGH_BACK = ("9D TH JD QC KD", "AH AC 7S 8D 2C", "3H 3C 4S")  # K-high straight


def test_wheel_is_lowest_by_default():
    assert _two(WHEEL_BACK, K_HIGH_BACK).pair("a", "b").rows == (-1, -1, 1)


def test_wheel_switch_off_ranks_it_above_a_king_high_straight():
    rules = replace(BIGKOOL, wheel_is_lowest=False)
    assert _two(WHEEL_BACK, K_HIGH_BACK, rules=rules).pair("a", "b").rows == (1, -1, 1)


# Table checks ---------------------------------------------------------------------------


def test_pairwise_results_mirror_and_sum_to_seat_chi():
    table = settle_table(
        {1: SCOOPER, 2: SCOOPED, 3: ("5D 5H 5C 2H 3S", "TD 9S 7C 6H 4H", "9C 8H 7D")},
        STAKE,
        BIGKOOL,
    )
    for seat in table.seats:
        assert table.seats[seat].chi == sum(p.chi for p in table.against(seat))
        for pair in table.against(seat):
            mirror = table.pair(pair.opponent, seat)
            assert mirror.chi == -pair.chi
            assert mirror.rows == tuple(-r for r in pair.rows)
    assert sum(s.chi for s in table.seats.values()) == 0


def test_five_players_are_refused():
    hands = {n: None for n in range(5)}
    with pytest.raises(ValueError, match="Mau Binh takes 2 to 4 players, got 5"):
        settle_table(hands, STAKE, BIGKOOL, quitters=range(5))


def test_one_player_is_refused():
    with pytest.raises(ValueError, match="Mau Binh takes 2 to 4 players, got 1"):
        settle_table({"a": SCOOPER}, STAKE, BIGKOOL)


def test_a_card_used_twice_across_seats_is_named_with_both_seats():
    other = ("TS TH 8D 8C 5S", "7S 7H 6C 6D 2C", "KS 3H AS")
    with pytest.raises(ValueError, match="'AS' is in both seat a and seat b"):
        _two(SCOOPER, other)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ((*SCOOPER[:2], "9H 9D 4C 5C"), "seat b: the front row has 4 cards; it takes 3"),
        (("AS AH KD KC", *SCOOPER[1:]), "seat b: the back row has 4 cards; it takes 5"),
        (SCOOPER[:2], r"seat b: an arrangement is three rows"),
        ("AS AH KD KC 2S", r"seat b: an arrangement is three rows"),
    ],
)
def test_bad_rows_name_the_seat(rows, message):
    with pytest.raises(ValueError, match=message):
        settle_table({"a": SCOOPED, "b": rows}, STAKE, BIGKOOL)


def test_an_arrangement_object_is_accepted():
    from maubinh.engine import check_arrangement

    table = _two(check_arrangement(*SCOOPER, BIGKOOL), SCOOPED)
    assert table.seats["a"].chi == 6
