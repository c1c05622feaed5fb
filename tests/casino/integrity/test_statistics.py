"""The integrity statistics: hand-computed values, false alarms on fair play at no more than
the stated rate, and manipulations caught within the rounds the power functions state.

Fair and manipulated rounds are dealt with the Niu Niu engine from a real shoe; the tests need
no database."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from casino.integrity.cards import card_frequency_test
from casino.integrity.statistics import (
    BHResult,
    ChiSquareResult,
    MinimumSample,
    NotEnoughData,
    benjamini_hochberg,
    binomial_cdf,
    binomial_test,
    category_bands,
    category_test,
    chi_square_sf,
    chi_square_test,
    count_band,
    exact_multinomial_test,
    pool_cells,
    regularized_gamma_q,
    rounds_to_detect,
    rounds_to_detect_mean,
    rounds_to_detect_missing_card,
    sum_moments,
    z_test,
)
from casino.kernel.cards import DECK
from niuniu.engine import presets
from niuniu.engine.hands import compare, evaluate
from niuniu.engine.odds import category_counts

RULES = presets.get("vn-kr-004")
ALPHA = 0.05


def _most_alerts(trials: int, rate: float) -> int:
    """An upper bound on alerts out of ``trials`` at ``rate``: mean + 3.5 sd (binomial)."""
    return math.floor(trials * rate + 3.5 * math.sqrt(trials * rate * (1 - rate)))


def _fewest_catches(trials: int, power: float) -> int:
    """A lower bound on catches out of ``trials`` at ``power``: mean - 3.5 sd (binomial)."""
    return math.ceil(trials * power - 3.5 * math.sqrt(trials * power * (1 - power)))


# --- hand-computed values ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    [
        (3.841458820694124, 1, 0.05),
        (11.070497693516351, 5, 0.05),
        (23.209251158954356, 10, 0.01),
        (6.634896601021214, 1, 0.01),
        (124.34211340400407, 100, 0.05),
    ],
)
def test_chi_square_tail_at_critical_values(statistic, df, p):
    assert chi_square_sf(statistic, df) == pytest.approx(p, abs=1e-10)


def test_chi_square_tail_at_the_tables_three_decimals():
    assert chi_square_sf(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_sf(11.070, 5) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_sf(23.209, 10) == pytest.approx(0.01, abs=1e-5)


@pytest.mark.parametrize("x", [0.01, 0.3, 1.0, 2.5, 7.0, 20.0, 60.0])
def test_incomplete_gamma_against_closed_forms(x):
    # Q(1, x) = e^-x; Q(1/2, x) = erfc(sqrt x); Q(n, x) = e^-x sum_{k<n} x^k / k!
    assert regularized_gamma_q(1, x) == pytest.approx(math.exp(-x), rel=1e-10, abs=1e-300)
    assert regularized_gamma_q(0.5, x) == pytest.approx(math.erfc(math.sqrt(x)), rel=1e-10)
    for n in (3, 7, 15):
        exact = math.exp(-x) * sum(x**k / math.factorial(k) for k in range(n))
        assert regularized_gamma_q(n, x) == pytest.approx(exact, rel=1e-10)


def test_a_small_chi_square_by_hand():
    # 120 hands over four cells of probability 1/2, 1/4, 1/8, 1/8: expected 60, 30, 15, 15;
    # observed 50, 35, 20, 15: (100/60) + (25/30) + (25/15) + 0 = 4.1667, df 3.
    result = chi_square_test(
        {"a": 50, "b": 35, "c": 20, "d": 15},
        {"a": Fraction(1, 2), "b": Fraction(1, 4), "c": Fraction(1, 8), "d": Fraction(1, 8)},
    )
    assert isinstance(result, ChiSquareResult)
    assert result.statistic == pytest.approx(100 / 60 + 25 / 30 + 25 / 15)
    assert result.df == 3
    assert result.pooled == ()
    # P(chi2_3 >= x) = erfc(sqrt(x/2)) + sqrt(2x/pi) e^{-x/2}
    x = result.statistic
    closed = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    assert result.p_value == pytest.approx(closed, rel=1e-10)


def test_rare_cells_are_pooled_and_named():
    # 40 hands: the rarest cells are expected 0.4, 1.6 and 2 times (4 in all, short of 5),
    # so the next cell (6) joins them: one pool expected 10 times, and "most" alone.
    probabilities = {"rare": 0.01, "few": 0.04, "some": 0.05, "mid": 0.15, "most": 0.75}
    observed = {"rare": 1, "few": 2, "some": 2, "mid": 5, "most": 30}
    result = chi_square_test(observed, probabilities)
    assert result.pooled == (("rare", "few", "some", "mid"),)
    assert result.df == 1
    cells = {group: (seen, wanted) for group, seen, wanted in result.cells}
    assert cells[("rare", "few", "some", "mid")] == (10, pytest.approx(10.0))
    assert cells[("most",)] == (30, pytest.approx(30.0))
    assert result.statistic == pytest.approx(0.0)


def test_pooling_keeps_every_cell_once():
    expected = {i: float(i) for i in range(1, 12)}
    groups = pool_cells(expected)
    assert sorted(key for group in groups for key in group) == list(range(1, 12))
    assert all(sum(expected[k] for k in group) >= 5 for group in groups)


def test_a_count_where_the_rules_allow_none_is_an_alert():
    result = chi_square_test({"a": 10, "b": 1}, {"a": 1, "b": 0})
    assert result.p_value == 0.0
    assert category_test({"a": 3, "b": 1}, {"a": 1, "b": 0}).p_value == 0.0  # any sample


def test_exact_multinomial_against_brute_force():
    probs = {"a": Fraction(1, 2), "b": Fraction(1, 3), "c": Fraction(1, 6)}
    observed = {"a": 1, "b": 1, "c": 5}
    n = 7

    def pmf(counts):
        coefficient = math.factorial(n)
        value = Fraction(1)
        for c, p in zip(counts, probs.values(), strict=True):
            coefficient //= math.factorial(c)
            value *= p**c
        return coefficient * value

    seen = pmf(observed.values())
    brute = sum(
        pmf(counts)
        for counts in product(range(n + 1), repeat=3)
        if sum(counts) == n and pmf(counts) <= seen
    )
    assert exact_multinomial_test(observed, probs).p_value == pytest.approx(float(brute), rel=1e-9)


def test_small_samples_use_the_exact_test_and_tiny_ones_none():
    probs = {"a": 1, "b": 1}
    assert isinstance(category_test({"a": 3, "b": 2}, probs), NotEnoughData)
    result = category_test({"a": 15, "b": 5}, probs, minimum=MinimumSample(rounds=10))
    assert result.method == "exact multinomial"
    # two cells: the exact binomial test, 2 * P(X <= 5), X ~ Bin(20, 1/2)
    assert result.p_value == pytest.approx(2 * binomial_cdf(5, 20, 0.5), rel=1e-9)


def test_binomial_exact_and_normal():
    # 2 * (1 + 10 + 45) / 1024 for 2 of 10 at 1/2
    assert binomial_test(2, 10, 0.5).p_value == pytest.approx(112 / 1024)
    # asymmetric: 0 of 20 at 0.1 -> the counts no likelier than 0.9^20 = 0.1216
    exact = binomial_test(0, 20, 0.1)
    by_hand = sum(
        math.comb(20, k) * 0.1**k * 0.9 ** (20 - k)
        for k in range(21)
        if math.comb(20, k) * 0.1**k * 0.9 ** (20 - k) <= 0.9**20 * (1 + 1e-7)
    )
    assert exact.p_value == pytest.approx(by_hand)
    big = binomial_test(150_900, 300_000, 0.5)
    assert big.method == "normal"
    z = (900 - 0.5) / math.sqrt(300_000 / 4)
    assert big.p_value == pytest.approx(math.erfc(z / math.sqrt(2)))
    close = binomial_test(100_900, 200_000, 0.5)
    assert close.method == "exact"
    assert close.p_value == pytest.approx(
        math.erfc((900 - 0.5) / math.sqrt(50_000) / math.sqrt(2)), rel=1e-2
    )


def test_benjamini_hochberg_textbook():
    # Benjamini & Hochberg (1995), section 4: 15 p-values, q = 0.05 -> 4 discoveries.
    ps = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240,
          0.4262, 0.5719, 0.6528, 0.7590, 1.0000]  # fmt: skip
    result = benjamini_hochberg(ps, q=0.05)
    assert isinstance(result, BHResult)
    assert result.discoveries == (True,) * 4 + (False,) * 11
    assert result.q_values[0] == pytest.approx(0.0015)
    assert result.q_values[3] == pytest.approx(0.0095 * 15 / 4)
    assert result.q_values[4] == pytest.approx(0.0201 * 15 / 5)  # min over j >= i of p_j m / j
    assert result.q_values[8] == pytest.approx(0.0459 * 15 / 9)
    assert list(result.q_values) == sorted(result.q_values)


def test_benjamini_hochberg_keeps_the_input_order():
    result = benjamini_hochberg([0.9, 0.001, 0.04], q=0.05)
    assert result.discoveries == (False, True, False)
    assert result.q_values == pytest.approx((0.9, 0.003, 0.06))


def test_a_players_expectation_from_the_bets_placed():
    # vn-kr-004 Single: +0.95 or -1, each half the time: E = -1/40, Var = 0.975^2
    unit_mean, unit_var = Fraction(-1, 40), Fraction(39, 40) ** 2
    mean, variance = sum_moments([(100, unit_mean, unit_var)] * 3 + [(50, unit_mean, unit_var)])
    assert mean == pytest.approx(-350 / 40)
    assert variance == pytest.approx((3 * 100**2 + 50**2) * 0.950625)
    result = z_test(mean + 1.96 * math.sqrt(variance), mean, variance)
    assert result.p_value == pytest.approx(0.05, abs=1e-4)


def test_bands():
    band = count_band(1000, 0.25)
    assert band.expected == 250
    assert band.high - 250 == pytest.approx(1.959964 * math.sqrt(187.5), rel=1e-6)
    exact = count_band(1000, 0.25, exact=True)
    assert (
        binomial_cdf(int(exact.high), 1000, 0.25)
        >= 0.975
        > binomial_cdf(int(exact.high) - 1, 1000, 0.25)
    )
    bands = category_bands(200, category_counts(RULES))
    assert sum(b.expected for b in bands.values()) == pytest.approx(200)


def test_power_formula_by_hand():
    # 0.5 -> 0.6 at alpha 0.05 (two-sided), power 0.8: ((1.96*0.5 + 0.8416*0.4899)/0.1)^2
    by_hand = ((1.959964 * 0.5 + 0.841621 * math.sqrt(0.24)) / 0.1) ** 2
    assert rounds_to_detect(0.5, 0.6, power=0.8) == math.ceil(by_hand)
    assert rounds_to_detect(0.5, 0.6, power=0.8, per_round=4) == math.ceil(by_hand / 4)


# --- fair play: false alarms at no more than the stated rate --------------------------------


def _deal(rng: random.Random, shoe, hands: int):
    cards = rng.sample(shoe, 5 * hands)
    return [cards[5 * i : 5 * i + 5] for i in range(hands)]


def test_fair_categories_alert_at_most_alpha():
    counts = category_counts(RULES)
    keys = list(counts)
    probabilities = np.array([counts[k] for k in keys], dtype=float)
    probabilities /= probabilities.sum()
    rng = np.random.default_rng(2026)
    trials = 400
    alerts = 0
    for _ in range(trials):
        draw = rng.multinomial(500, probabilities)
        result = category_test(dict(zip(keys, draw.tolist(), strict=True)), counts)
        alerts += result.p_value < ALPHA
    assert alerts <= _most_alerts(trials, ALPHA)


def test_fair_hands_from_the_engine_match_the_exact_categories():
    rng = random.Random(7)
    seen = Counter(
        evaluate(hand, RULES).category for _ in range(3000) for hand in _deal(rng, DECK, 2)
    )
    result = category_test(seen, category_counts(RULES))
    assert result.p_value > 0.001


def test_fair_cards_alert_at_most_alpha():
    rng = random.Random(11)
    trials = 200
    alerts = 0
    for _ in range(trials):
        dealt = [_deal(rng, DECK, 3) for _ in range(60)]
        counts = Counter(card for hands in dealt for hand in hands for card in hand)
        result = card_frequency_test(counts, cards_per_round=[15] * 60)
        alerts += result.p_value < ALPHA
    assert alerts <= _most_alerts(trials, ALPHA)


def test_fair_win_rates_alert_at_most_alpha():
    rng = np.random.default_rng(5)
    trials = 1000
    alerts = sum(
        binomial_test(int(rng.binomial(800, 0.5)), 800, 0.5).p_value < ALPHA for _ in range(trials)
    )
    assert alerts <= _most_alerts(trials, ALPHA)


def test_fair_net_results_alert_at_most_alpha():
    rng = np.random.default_rng(9)
    trials = 1000
    bets = 300
    mean, variance = sum_moments([(1, Fraction(-1, 40), Fraction(39, 40) ** 2)] * bets)
    alerts = 0
    for _ in range(trials):
        wins = int(rng.binomial(bets, 0.5))
        alerts += z_test(0.95 * wins - (bets - wins), mean, variance).p_value < ALPHA
    assert alerts <= _most_alerts(trials, ALPHA)


def test_benjamini_hochberg_controls_false_discoveries():
    # 300 days of 40 tables, 8 of them truly off (tiny p-values): the share of false alarms
    # among the alerts averages at most q * 32 / 40.
    rng = np.random.default_rng(3)
    q = 0.05
    proportions = []
    for _ in range(300):
        ps = list(rng.uniform(size=32)) + list(rng.uniform(0, 1e-4, size=8))
        found = benjamini_hochberg(ps, q=q).discoveries
        false = sum(found[:32])
        proportions.append(false / max(sum(found), 1))
    mean = sum(proportions) / len(proportions)
    sd = float(np.std(proportions)) / math.sqrt(len(proportions))
    assert mean <= q * 32 / 40 + 3.5 * sd


def test_not_enough_data_instead_of_a_p_value():
    result = card_frequency_test({DECK[0]: 5}, cards_per_round=[5])
    assert isinstance(result, NotEnoughData)
    assert "rounds" in result.reason


# --- manipulations caught within the rounds stated -------------------------------------------

BOXES = 2  # a dealer and two boxes: 15 cards a round
PER_ROUND = 5 * (BOXES + 1)


def test_a_deck_missing_one_card_is_caught():
    rounds = rounds_to_detect_missing_card(PER_ROUND)
    assert rounds == 26
    for seed in range(20):
        rng = random.Random(seed)
        shoe = [card for card in DECK if card != DECK[seed]]
        counts = Counter(
            c for _ in range(rounds) for hand in _deal(rng, shoe, BOXES + 1) for c in hand
        )
        result = card_frequency_test(counts, cards_per_round=[PER_ROUND] * rounds)
        assert result.p_value < ALPHA
        assert result.rarest[0] == DECK[seed] and result.rarest[1] == 0


def test_a_shoe_stacked_with_tens_is_caught():
    # the 8 red tens, jacks, queens and kings twice over: 60 cards, 24 of them worth ten.
    extra = [card for card in DECK if card.value == 10 and card.suit in ("H", "D")]
    shoe = list(DECK) + extra
    p0, p1 = PER_ROUND / 52, 2 * PER_ROUND / 60  # a doubled card, per round
    rounds = rounds_to_detect(p0, p1, alpha=ALPHA / 4 / 52, power=0.9)
    assert rounds <= 150
    trials = 20
    caught = 0
    for seed in range(trials):
        rng = random.Random(100 + seed)
        counts = Counter(
            c for _ in range(rounds) for hand in _deal(rng, shoe, BOXES + 1) for c in hand
        )
        result = card_frequency_test(counts, cards_per_round=[PER_ROUND] * rounds)
        caught += result.p_value < ALPHA
    assert caught >= _fewest_catches(trials, 0.9)


def _dealer_wins(rng: random.Random, rounds: int, swap: float) -> int:
    wins = 0
    for _ in range(rounds):
        cards = rng.sample(DECK, 15)
        box, dealer = evaluate(cards[:5], RULES), evaluate(cards[5:10], RULES)
        if rng.random() < swap:
            other = evaluate(cards[10:15], RULES)
            if compare(other, dealer) > 0:
                dealer = other
        wins += compare(dealer, box) > 0
    return wins


def test_a_dealer_swapping_for_a_better_hand_two_percent_of_the_time_is_caught():
    # The better of two hands beats a box 2/3 of the time (three exchangeable hands), so the
    # dealer's rate against a box goes from 1/2 to 0.98/2 + 0.02 * 2/3.
    p1 = 0.98 * 0.5 + 0.02 * 2 / 3
    rounds = rounds_to_detect(0.5, p1, power=0.9)
    assert 230_000 < rounds < 240_000
    wins = _dealer_wins(random.Random(2), rounds, swap=0.02)
    assert binomial_test(wins, rounds, 0.5).p_value < ALPHA
    fair = _dealer_wins(random.Random(2), 20_000, swap=0.0)
    assert binomial_test(fair, 20_000, 0.5).p_value > 0.001


def test_a_dealer_paying_a_losing_box_five_percent_of_the_time_is_caught():
    unit = (Fraction(-1, 40), Fraction(39, 40) ** 2)
    mean1 = -0.025 + 0.5 * 0.05 * 1.95
    sd1 = math.sqrt(0.525 * 0.95**2 + 0.475 - mean1**2)
    rounds = rounds_to_detect_mean(-0.025, 0.975, mean1, sd1, power=0.9)
    assert 4000 < rounds < 4500
    trials = 12
    caught = 0
    for seed in range(trials):
        rng = random.Random(300 + seed)
        net = 0.0
        for _ in range(rounds):
            box, dealer = (evaluate(hand, RULES) for hand in _deal(rng, DECK, 2))
            won = compare(box, dealer) > 0 or rng.random() < 0.05
            net += 0.95 if won else -1
        mean, variance = sum_moments([(1, *unit)] * rounds)
        caught += z_test(net, mean, variance).p_value < ALPHA
    assert caught >= _fewest_catches(trials, 0.9)
