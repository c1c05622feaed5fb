"""Each bet settled by hand, in each variant (docs/RULES.md, C3)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal as D

import pytest

from baccarat.engine import SettlementError, Variant, deal, evaluate_round, presets, settle
from casino.kernel.cards import parse_card
from casino.kernel.money import Rounding

COMMISSION = presets.get("commission")
NO_COMMISSION = presets.get("no-commission")


def coup(text: str):
    return deal(tuple(parse_card(t) for t in text.split()), COMMISSION)


PLAYER_WINS = coup("9H 3C KD 4S")  # natural 9 against 7
BANKER_SIX_TWO = coup("4H 3C AD 3S 5S")  # Player 0, Banker 6 in two cards
TIE = coup("3H KC 3D 4S 2S")  # P 6 stands, B 4 draws 2: 6-6


def lines(c, stakes, rules):
    return {str(line.bet_type): line for line in settle(c, stakes, rules).lines}


def test_player_wins_pays_even_money_and_banker_loses():
    got = lines(PLAYER_WINS, {"player": D(100), "banker": D(100), "tie": D(10)}, COMMISSION)
    assert (got["player"].outcome, got["player"].net) == ("win", D(100))
    assert (got["banker"].outcome, got["banker"].net) == ("lose", D(-100))
    assert (got["tie"].outcome, got["tie"].net) == ("lose", D(-10))


@pytest.mark.parametrize(
    ("rate", "mode", "stake", "commission"),
    [
        (D("0.05"), Rounding.DOWN, D(150), D(7)),  # 7.50 down to 7
        (D("0.05"), Rounding.UP, D(150), D(8)),  # 7.50 up to 8
        (D("0.05"), Rounding.NONE, D(150), D("7.50")),
        (D("0.04"), Rounding.DOWN, D(150), D(6)),
        (D("0.04"), Rounding.HALF_UP, D(1000), D(40)),
    ],
)
def test_a_banker_win_less_its_commission(rate, mode, stake, commission):
    rules = replace(COMMISSION, banker_commission=rate, rounding_mode=mode)
    line = lines(BANKER_SIX_TWO, {"banker": stake}, rules)["banker"]
    assert (line.outcome, line.odds, line.gross) == ("win", D(1), stake)
    assert line.commission == commission
    assert line.net == stake - commission


def test_a_no_commission_banker_win_on_six_pays_half_and_other_wins_even():
    line = lines(BANKER_SIX_TWO, {"banker": D(100)}, NO_COMMISSION)["banker"]
    assert (line.odds, line.gross, line.commission, line.net) == (D("0.5"), D(50), D(0), D(50))
    seven = deal(tuple(parse_card(t) for t in ["2H", "3C", "4D", "4S"]), NO_COMMISSION)
    assert seven.banker.total == 7
    line = lines(seven, {"banker": D(100)}, NO_COMMISSION)["banker"]
    assert (line.net, line.commission) == (D(100), D(0))


def test_a_no_commission_half_rounds_by_the_rules():
    rules = NO_COMMISSION.with_rounding(D(10), Rounding.DOWN)
    # 1:2 on 150 is 75: the house keeps 75, rounded down to 70, so it pays 80.
    line = lines(BANKER_SIX_TWO, {"banker": D(150)}, rules)["banker"]
    assert line.net == D(80)


@pytest.mark.parametrize("tie_odds", [D(8), D(9)])
def test_a_tie_pays_its_odds_and_pushes_player_and_banker(tie_odds):
    rules = replace(COMMISSION, tie_odds=tie_odds)
    got = lines(TIE, {"player": D(100), "banker": D(100), "tie": D(10)}, rules)
    assert (got["player"].outcome, got["player"].net) == ("push", D(0))
    assert (got["banker"].outcome, got["banker"].net, got["banker"].commission) == (
        "push",
        D(0),
        D(0),
    )
    assert got["tie"].net == 10 * tie_odds


def test_pairs_pay_eleven_to_one():
    pair = deal(tuple(parse_card(t) for t in ["KH", "9C", "KD", "9S"]), COMMISSION)
    got = lines(pair, {"player_pair": D(10), "banker_pair": D(10)}, COMMISSION)
    assert got["player_pair"].net == D(110) and got["banker_pair"].net == D(110)
    got = lines(PLAYER_WINS, {"player_pair": D(10), "banker_pair": D(10)}, COMMISSION)
    assert got["player_pair"].net == D(-10) and got["banker_pair"].net == D(-10)


def test_super6_pays_by_two_or_three_cards():
    assert lines(BANKER_SIX_TWO, {"super6": D(10)}, NO_COMMISSION)["super6"].net == D(120)
    three = deal(tuple(parse_card(t) for t in ["AH", "2C", "4D", "2S", "5S", "2D"]), NO_COMMISSION)
    # P A+4=5 draws 5 -> 0; B 2+2=4 against a 5 draws 2 -> 6 in three cards.
    assert (three.banker.total, len(three.banker.cards), three.super6) == (6, 3, True)
    assert lines(three, {"super6": D(10)}, NO_COMMISSION)["super6"].net == D(200)
    assert lines(PLAYER_WINS, {"super6": D(10)}, NO_COMMISSION)["super6"].net == D(-10)


def test_refusals_say_which_bet():
    rules = replace(COMMISSION, bet_types=tuple(b for b in COMMISSION.bet_types if b != "super6"))
    with pytest.raises(SettlementError) as caught:
        settle(PLAYER_WINS, {"super6": D(10)}, rules)
    assert (caught.value.code, caught.value.field) == ("bet_not_offered", "super6")
    with pytest.raises(SettlementError) as caught:
        settle(PLAYER_WINS, {"player": D(0)}, COMMISSION)
    assert caught.value.code == "stake_not_positive"
    with pytest.raises(SettlementError) as caught:
        settle(PLAYER_WINS, {"player": D("10.5")}, COMMISSION)
    assert caught.value.code == "stake_off_unit"


def test_a_round_of_seven_seats():
    seats = {n: {"player": D(100), "banker": D(50), "super6": D(10)} for n in range(1, 8)}
    outcome = evaluate_round(BANKER_SIX_TWO.cards, seats, COMMISSION)
    assert set(outcome.seats) == set(range(1, 8))
    # Player -100, Banker +50 less 2 (2.50 down), Super 6 +120.
    assert all(seat.net == D(68) for seat in outcome.seats.values())


def test_the_variant_is_read_from_text():
    assert replace(COMMISSION, variant="no_commission").variant is Variant.NO_COMMISSION
