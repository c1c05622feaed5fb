from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from niuniu.engine import deal_order, payment_order, round_orders


def stakes(**by_position):
    return {int(position[1:]): Decimal(stake) for position, stake in by_position.items()}


def test_the_largest_single_stake_is_dealt_first_then_clockwise():
    # Position 1 is on the dealer's right; clockwise runs towards it (descending), wrapping.
    assert deal_order(stakes(p1="100", p2="50", p3="500", p4="20", p5="80")) == (3, 2, 1, 5, 4)
    assert deal_order(stakes(p1="500", p2="50", p3="100")) == (1, 3, 2)
    assert deal_order(stakes(p5="500", p1="50")) == (5, 1)


def test_a_tie_goes_to_the_lower_position():
    assert deal_order(stakes(p2="500", p4="500", p5="100")) == (2, 5, 4)


def test_empty_and_single_box():
    assert deal_order({}) == ()
    assert deal_order(stakes(p4="10")) == (4,)


def test_payment_runs_from_the_dealer_right_leftwards():
    assert payment_order([5, 1, 3]) == (1, 3, 5)
    assert payment_order(stakes(p2="1", p1="1")) == (1, 2)


@pytest.mark.parametrize("positions", [[0, 1], [-1], [1.5], ["2"], [True]])
def test_positions_are_whole_numbers_from_1(positions):
    with pytest.raises(ValueError, match="box positions are whole numbers from 1"):
        payment_order(positions)


def test_a_position_twice_is_refused():
    with pytest.raises(ValueError, match="appears twice"):
        payment_order([1, 2, 2])


@given(
    st.dictionaries(
        st.integers(min_value=1, max_value=9),
        st.sampled_from([Decimal(10), Decimal(50), Decimal(500)]),  # few: ties are common
        max_size=7,
    )
)
def test_a_rounds_orders_together_are_its_deal_and_payment_orders(single_stakes):
    assert round_orders(single_stakes) == (
        deal_order(single_stakes),
        payment_order(list(single_stakes)),
    )


@pytest.mark.parametrize("positions", [[0, 1], [-1], [1.5], ["2"], [True]])
def test_a_rounds_orders_refuse_what_a_position_is_not(positions):
    with pytest.raises(ValueError, match="box positions are whole numbers from 1"):
        round_orders(dict.fromkeys(positions, Decimal(10)))
