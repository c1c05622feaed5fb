"""Properties of the settlement and the arranger, over random tables (hypothesis)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.kernel.cards import DECK
from maubinh.engine import check_arrangement, presets, settle_table, suggest_arrangement

RULESETS = [
    presets.get("bigkool-2016"),
    presets.get("classic"),
    replace(presets.get("bigkool-2016"), foul_counts_as_scoop=False, wheel_is_lowest=False),
    replace(presets.get("classic"), dragon_flush_counts_as_dragon=False, scoop_multiplier=3),
]
UNITS = [Decimal("1"), Decimal("1000"), Decimal("0.10")]
MODES = ["up", "half_up", "down", "none"]


@st.composite
def tables(draw):
    """2 to 4 seats dealt from one shuffled deck, rows cut in order (often fouled) or with the
    two 5-card rows sorted (more often clean), some quitters, a ruleset, a unit and a stake."""
    players = draw(st.integers(min_value=2, max_value=4))
    deck = draw(st.permutations(DECK))
    rules = draw(st.sampled_from(RULESETS))
    unit = draw(st.sampled_from(UNITS))
    rules = rules.with_rounding(unit, draw(st.sampled_from(MODES)))
    stake = unit * draw(st.integers(min_value=1, max_value=50_000))
    arrangements = {}
    for seat in range(players):
        cards = tuple(deck[13 * seat : 13 * seat + 13])
        rows = (cards[:5], cards[5:10], cards[10:])
        if draw(st.booleans()):
            hand = check_arrangement(*rows, rules)
            if hand.back_hand.strength < hand.middle_hand.strength:
                rows = (rows[1], rows[0], rows[2])
        arrangements[f"seat {seat + 1}"] = rows
    quitters = draw(st.sets(st.sampled_from(sorted(arrangements)), max_size=players))
    for seat in quitters:
        if draw(st.booleans()):
            arrangements[seat] = None
    return arrangements, stake, rules, quitters


@settings(max_examples=300, deadline=None)
@given(tables())
def test_settlement_is_zero_sum_before_fees_and_only_winners_pay_the_fee(table):
    arrangements, stake, rules, quitters = table
    # when
    settled = settle_table(arrangements, stake, rules, quitters=quitters)
    # then
    seats = settled.seats.values()
    assert sum(seat.chi for seat in seats) == 0
    assert sum(seat.gross for seat in seats) == 0
    for seat in seats:
        assert seat.gross == seat.chi * stake
        assert seat.net == seat.gross - seat.fee
        if seat.gross <= 0:
            assert seat.fee == 0
        else:
            exact, unit = seat.gross * rules.fee_rate, rules.rounding_unit
            if rules.rounding_mode == "none":
                assert abs(seat.fee - exact) <= Decimal("0.005")
                assert seat.fee % Decimal("0.01") == 0
            else:
                assert seat.fee % unit == 0
                low, high = {
                    "up": (exact, exact + unit),  # exact <= fee < exact + unit
                    "down": (exact - unit, exact),  # exact - unit < fee <= exact
                    "half_up": (exact - unit / 2, exact + unit / 2),
                }[rules.rounding_mode]
                assert low <= seat.fee <= high
                assert seat.fee != (high if rules.rounding_mode == "up" else low)
    assert settled.house_fee == sum(seat.fee for seat in seats)
    for (seat, opponent), pair in settled.pairwise.items():
        assert settled.pair(opponent, seat).chi == -pair.chi
    for seat in settled.seats:
        assert settled.seats[seat].chi == sum(p.chi for p in settled.against(seat))


@settings(max_examples=25, deadline=None)
@given(st.permutations(DECK), st.sampled_from(RULESETS))
def test_suggest_arrangement_never_fouls(deck, rules):
    cards = deck[:13]
    back, middle, front = suggest_arrangement(cards, rules)
    hand = check_arrangement(back, middle, front, rules)
    assert not hand.fouled
    assert sorted(hand.cards, key=DECK.index) == sorted(cards, key=DECK.index)
