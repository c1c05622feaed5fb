"""Exact odds (niuniu.engine.odds) against brute force, Monte Carlo, and docs/RULES.md's claims.

No database and no Django: run with ``pytest -p no:django --noconftest``.
"""

import doctest
import json
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from itertools import combinations, permutations
from math import comb

import numpy as np
import pytest

from casino.kernel.cards import DECK, parse_cards
from niuniu.engine import (
    BetType,
    BonusLine,
    BonusPredicate,
    Category,
    PaytableRow,
    Ruleset,
    compare,
    evaluate,
    odds_report,
    presets,
    settle_box,
    winning_line,
)
from niuniu.engine import odds as odds_module
from niuniu.engine.montecarlo import simulate
from niuniu.engine.odds import (
    BET_FIGURES,
    RulesetOdds,
    as_decimal,
    category_counts,
    diff_odds,
    rules_hash,
    ruleset_odds,
    showdown_counts,
)

C = Category
B = BetType
VN = presets.get("vn-kr-004")
MACAU = presets.get("macau-001")
FULL_DEALS = comb(52, 5) * comb(47, 5)


def made_up_ruleset() -> Ruleset:
    """Odd numbers everywhere, every special hand on, every bonus predicate on a line."""

    def rows(win, commission, loss):
        return {
            category: PaytableRow(
                Decimal(win(category)), Decimal(commission(category)), Decimal(loss(category))
            )
            for category in Category
        }

    return Ruleset(
        code="made-up",
        name="made up, odd numbers",
        paytable={
            B.SINGLE: rows(
                lambda c: "1.5" if c >= C.NIU_7 else "1",
                lambda c: "0.03" if c % 2 == 0 else "0",
                lambda c: "2" if c.is_special else "1",
            ),
            B.DOUBLE: rows(
                lambda c: str(c // 3 + 1),
                lambda c: "0.07",
                lambda c: str(c % 4 + 1),
            ),
            B.SUPER: rows(
                lambda c: str(c + 1),
                lambda c: "0.05" if c >= C.NIU_2 else "0",
                lambda c: str(max(int(c), 1) + (3 if c.is_special else 0)),
            ),
        },
        deposit_multiples={B.SINGLE: "2", B.DOUBLE: "4", B.SUPER: "16", B.BONUS: "1"},
        special_hands=frozenset({C.FIVE_SMALL, C.FOUR_OF_A_KIND, C.FIVE_FACE}),
        bonus_lines=(
            BonusLine("Face", BonusPredicate.ALL_FACE, Decimal("60")),
            BonusLine("Quads", BonusPredicate.FOUR_OF_A_KIND, Decimal("25")),
            BonusLine("Small", BonusPredicate.FIVE_SMALL, Decimal("30")),
            BonusLine("Spades", BonusPredicate.ALL_SPADES, Decimal("45")),
            BonusLine("Flush", BonusPredicate.ALL_SAME_SUIT, Decimal("15")),
            BonusLine("Tens", BonusPredicate.ALL_TEN_VALUE, Decimal("9")),
            BonusLine("Niu Niu", BonusPredicate.NIU_NIU, Decimal("3")),
            BonusLine("Red", BonusPredicate.ALL_RED, Decimal("2.5")),
            BonusLine("Black", BonusPredicate.ALL_BLACK, Decimal("1")),
        ),
    )


MADE_UP = made_up_ruleset()
RULESETS = [VN, MACAU, MADE_UP]
RULESET_IDS = [rules.code for rules in RULESETS]

# 20 cards, 11 ranks: four aces (Four of a Kind, Five Small), five face cards (one Five
# Face), eight spades, eight red cards, and every Niu point.
DECK_20 = parse_cards("AS AH AC AD 2S 2H 3S 3C 4S 6H 6D 7S 9C 9D TS JS JH QS QC KH")
# 12 cards, small enough to settle every ordered pair of hands through settle_box.
DECK_12 = parse_cards("AS AH AC AD 2S 3S 4H JS QS KS JH QH")


def switches(*special_hands):
    return Ruleset(
        code="switches",
        name="switches",
        paytable={},
        deposit_multiples={},
        special_hands=frozenset(special_hands),
    )


def replace_rows(rules, bet_type, change):
    """``rules`` with ``change(category, row) -> row`` applied to one bet type's rows."""
    rows = {category: change(category, row) for category, row in rules.paytable[bet_type].items()}
    return replace(rules, paytable={**rules.paytable, bet_type: rows})


def commission_on_every_win(rules, *bet_types):
    """``rules`` with 5% taken on every win of these bet types, 1:1 rows included (the
    Korean and English text of sheet 004)."""
    for bet_type in bet_types:
        rules = replace_rows(
            rules,
            bet_type,
            lambda c, row: PaytableRow(row.win_odds, Decimal("0.05"), row.loss_multiple),
        )
    return rules


def with_four_of_a_kind(rules):
    """``rules`` with Four of a Kind switched on, paid like Five Face (sheet 001: "Niu Niu
    e Four of a Kind - 3:1")."""
    rows = {
        bet_type: {**table, C.FOUR_OF_A_KIND: table[C.FIVE_FACE]}
        for bet_type, table in rules.paytable.items()
    }
    return replace(rules, paytable=rows, special_hands=rules.special_hands | {C.FOUR_OF_A_KIND})


def win_net(rules, bet_type, category):
    row = rules.row(bet_type, category)
    return Fraction(row.win_odds) * (1 - Fraction(row.commission_rate))


# Each reading a version may take, on rules where it changes the figures.
READINGS = {
    "every special level with Niu Niu": replace(MADE_UP, level_with_niu_niu=MADE_UP.special_hands),
    "Four of a Kind level, the others above": replace(
        MADE_UP, level_with_niu_niu=frozenset({C.FOUR_OF_A_KIND})
    ),
    "Five Face level, the others above": replace(
        MADE_UP, level_with_niu_niu=frozenset({C.FIVE_FACE})
    ),
    "macau-001 with Four of a Kind": with_four_of_a_kind(MACAU),
    "vn-kr-004 with commission on 1:1 rows": commission_on_every_win(VN, B.DOUBLE, B.SUPER),
}


# --- Category counts (docs/ODDS.md "How often each hand comes, and wins") -------------------------


COUNTS_NO_SPECIALS = {
    C.NO_NIU: 872_128,
    C.NIU_NIU: 191_808,
    **{C(n): 171_304 for n in (1, 3, 7, 9)},
    C.NIU_5: 177_424,
    **{C(n): 168_096 for n in (2, 4, 6, 8)},
}
COUNTS_FOUR_AND_FACE = {
    C.FOUR_OF_A_KIND: 624,
    C.FIVE_FACE: 768,
    C.NIU_NIU: 190_976,
    C.NO_NIU: 871_744,
    C.NIU_5: 177_408,
    **{C(n): 171_288 for n in (1, 3, 7, 9)},
    **{C(n): 168_072 for n in (2, 4, 6, 8)},
}


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (switches(), COUNTS_NO_SPECIALS),
        (VN, COUNTS_NO_SPECIALS),
        (switches(C.FOUR_OF_A_KIND, C.FIVE_FACE), COUNTS_FOUR_AND_FACE),
        # Five Face alone takes all C(12, 5) hands of J, Q, K (all of them Niu Niu).
        (MACAU, COUNTS_NO_SPECIALS | {C.FIVE_FACE: 792, C.NIU_NIU: 191_808 - 792}),
    ],
    ids=["none", "vn-kr-004", "four-and-face", "macau-001"],
)
def test_category_counts_on_the_full_deck(rules, expected):
    counts = category_counts(rules)
    assert counts == expected
    assert list(counts) == list(rules.categories)  # strongest first
    odds = ruleset_odds(rules)
    assert dict(odds.categories) == expected
    assert odds.category_probability(C.NIU_NIU) == Fraction(expected[C.NIU_NIU], 2_598_960)


def test_every_deal_has_one_winner():
    # Player and dealer are exchangeable, so the player wins exactly half of all deals.
    for rules in (VN, MACAU, MADE_UP):
        wins = showdown_counts(rules)
        assert sum(wins.values()) * 2 == FULL_DEALS == 3_986_646_103_440
        odds = ruleset_odds(rules)
        assert odds.deals == FULL_DEALS
        for bet_type in (B.SINGLE, B.DOUBLE, B.SUPER):
            assert odds.bets[bet_type].win_probability == Fraction(1, 2)


def test_single_bet_of_vn_kr_004_by_hand():
    # Every single win pays 0.95 and every loss costs 1, each half the time: edge 2.5%.
    single = ruleset_odds(VN).bets[B.SINGLE]
    assert single.expected_return == Fraction(-1, 40)
    assert single.house_edge == Fraction(1, 40)
    # E[X^2] - E[X]^2 = (0.95^2 + 1) / 2 - (1/40)^2 = 0.950625 = 0.975^2
    assert single.variance == Fraction(1521, 1600)
    assert single.standard_deviation == Decimal("0.975000000000")
    assert single.net_distribution() == {
        Fraction(-1): Fraction(1, 2),
        Fraction(19, 20): Fraction(1, 2),
    }


def test_single_bet_of_macau_001_by_hand():
    # Evens pays 1:1 except half on a winning Niu 6: the edge is half of P(win with Niu 6).
    odds = ruleset_odds(MACAU)
    niu_6_wins = showdown_counts(MACAU)[C.NIU_6]
    assert odds.bets[B.SINGLE].house_edge == Fraction(niu_6_wins, 2 * FULL_DEALS)


# --- Exact = brute force on reduced decks ------------------------------------------------


def brute_force_counts(rules, deck):
    """Every ordered pair of disjoint hands of the deck, decided by rank then high card
    (what ``compare`` does), evaluated by the engine: wins by the player's category, losses
    by the dealer's category, and bonus results by the line that pays."""
    hands = list(combinations(deck, 5))
    evaluated = [evaluate(hand, rules) for hand in hands]
    category = np.array([int(h.category) for h in evaluated])
    rank = np.array([rules.rank(h.category) for h in evaluated])
    key = rank * 64 + np.array([h.high_card.strength for h in evaluated])
    masks = np.array([sum(card.mask for card in hand) for hand in hands], dtype=np.int64)
    player_wins = np.zeros(len(Category), dtype=np.int64)
    dealer_wins = np.zeros(len(Category), dtype=np.int64)
    for start in range(0, len(hands), 1024):
        rows = slice(start, start + 1024)
        disjoint = (masks[rows, None] & masks[None, :]) == 0
        higher = key[rows, None] > key[None, :]
        assert not (disjoint & (key[rows, None] == key[None, :])).any()  # never a tie
        np.add.at(player_wins, category[rows], (disjoint & higher).sum(axis=1))
        np.add.at(dealer_wins, category, (disjoint & ~higher).sum(axis=0))
    bonus: dict[str | None, int] = {}
    for hand in evaluated:
        line = winning_line(hand, rules.bonus_lines)
        name = None if line is None else line.name
        bonus[name] = bonus.get(name, 0) + 1
    deals = len(hands) * comb(len(deck) - 5, 5)
    assert player_wins.sum() + dealer_wins.sum() == deals
    return player_wins, dealer_wins, bonus, deals


@pytest.mark.parametrize("rules", [*RULESETS, *READINGS.values()], ids=[*RULESET_IDS, *READINGS])
def test_exact_equals_brute_force_on_20_cards(rules):
    player_wins, dealer_wins, bonus, deals = brute_force_counts(rules, DECK_20)
    odds = ruleset_odds(rules, DECK_20)
    assert odds.deals == deals == 15_504 * 3_003
    assert odds.hands == comb(20, 5)

    for bet_type in rules.bet_types:
        bet = odds.bets[bet_type]
        if bet_type is B.BONUS:
            expected = {
                (line.name, Fraction(line.odds)): bonus.get(line.name, 0)
                for line in rules.bonus_lines
            } | {(None, Fraction(-1)): bonus.get(None, 0)}
            total = odds.hands
        else:
            expected = {}
            for category in rules.categories:
                expected[("win", category, win_net(rules, bet_type, category))] = int(
                    player_wins[category]
                )
            for category in rules.categories:
                loss = -Fraction(rules.row(bet_type, category).loss_multiple)
                expected[("lose", category, loss)] = int(dealer_wins[category])
            total = deals
        got = {
            (o.bonus_line, o.net) if bet_type is B.BONUS else (o.result, o.category, o.net): o.count
            for o in bet.outcomes
        }
        assert got == expected, bet_type
        mean = sum(Fraction(count, total) * net for (*_, net), count in expected.items())
        square = sum(Fraction(count, total) * net * net for (*_, net), count in expected.items())
        assert bet.expected_return == mean
        assert bet.variance == square - mean * mean


@pytest.mark.parametrize("rules", [*RULESETS, *READINGS.values()], ids=[*RULESET_IDS, *READINGS])
def test_exact_equals_settle_box_on_12_cards(rules):
    """Every ordered pair of hands of a 12-card deck settled by the real settle_box."""
    exact_rules = rules.with_rounding_unit(Decimal("0.000001"))  # no commission rounding
    assert_odds_are_settle_box(ruleset_odds(rules, DECK_12), exact_rules, Decimal(1))


def assert_odds_are_settle_box(odds, rules, stake):
    """``odds`` are the mean and variance per unit staked of ``stake`` on every bet, every
    ordered pair of hands of DECK_12 settled by settle_box under ``rules``."""
    stakes = dict.fromkeys(rules.bet_types, stake)
    total = dict.fromkeys(rules.bet_types, Fraction(0))
    squares = dict.fromkeys(rules.bet_types, Fraction(0))
    deals = 0
    for player in combinations(DECK_12, 5):
        rest = [card for card in DECK_12 if card not in player]
        for dealer in combinations(rest, 5):
            deals += 1
            for line in settle_box(player, dealer, stakes, rules).lines:
                net = Fraction(line.net) / Fraction(stake)
                total[line.bet_type] += net
                squares[line.bet_type] += net * net
    assert deals == odds.deals == 792 * 21
    for bet_type in rules.bet_types:
        mean = total[bet_type] / deals
        assert odds.bets[bet_type].expected_return == mean, bet_type
        assert odds.bets[bet_type].variance == squares[bet_type] / deals - mean * mean, bet_type


@pytest.mark.parametrize("mode", ["up", "half_up", "down", "none"])
def test_exact_odds_at_a_stake_round_each_commission_as_the_version_does(mode):
    # 11,000 at a unit of 1,000: 5% of a single win is 550, 1,000 up or half up, 0 down,
    # 550 with no unit; 5% of a 9:1 Super win (99,000) is 4,950: 5,000, 5,000, 4,000, 4,950.
    rules = VN.with_rounding(Decimal("1000"), mode)
    stake = Decimal("11000")
    at_stake = ruleset_odds(rules, DECK_12, stake=stake)
    assert_odds_are_settle_box(at_stake, rules, stake)
    # Only the cent (mode none) leaves the exact rate as it is.
    assert (at_stake.bets == ruleset_odds(rules, DECK_12).bets) == (mode == "none")


def test_a_stake_must_be_positive():
    with pytest.raises(ValueError, match="a stake must be positive, got 0"):
        ruleset_odds(VN, DECK_12, stake=Decimal(0))


def test_the_reduced_decks_reach_every_category_and_bonus_line():
    assert all(category_counts(MADE_UP, DECK_20).values())
    specials = (C.FIVE_SMALL, C.FOUR_OF_A_KIND, C.FIVE_FACE)
    assert all(category_counts(MADE_UP, DECK_12)[c] for c in specials)
    bonus = ruleset_odds(MADE_UP, DECK_20).bets[B.BONUS]
    assert [o.bonus_line for o in bonus.outcomes if o.count] == [
        line.name for line in MADE_UP.bonus_lines
    ] + [None]


def test_a_deck_in_any_order_gives_the_same_odds():
    shuffled = list(reversed(DECK_20))
    assert ruleset_odds(MACAU, shuffled) == ruleset_odds(MACAU, DECK_20)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (DECK[:9], "at least 10 cards"),
        ([*DECK[:10], DECK[0]], "at most once"),
    ],
)
def test_a_deck_must_deal_two_hands_of_distinct_cards(deck, message):
    with pytest.raises(ValueError, match=message):
        ruleset_odds(VN, deck)


def test_a_missing_paytable_row_is_named():
    # Five Face on, but the single paytable has no row for it.
    rules = Ruleset(
        code="broken",
        name="broken",
        paytable={B.SINGLE: dict(VN.paytable[B.SINGLE])},
        deposit_multiples={},
        special_hands=frozenset({C.FIVE_FACE}),
    )
    with pytest.raises(ValueError, match="no single row for FIVE_FACE"):
        ruleset_odds(rules)


# --- Exact within the Monte Carlo's 95% interval -----------------------------------------


MONTE_CARLO_ROUNDS = 10_000_000
MONTE_CARLO_SEED = 20240601  # the seed of bench/engine.py, chosen before the first run


@pytest.mark.parametrize(
    "rules",
    [VN, MACAU, READINGS["every special level with Niu Niu"]],
    ids=["vn-kr-004", "macau-001", "made-up, specials level with Niu Niu"],
)
def test_exact_figures_fall_in_the_monte_carlo_interval(rules):
    exact = ruleset_odds(rules)
    sampled = simulate(rules, MONTE_CARLO_ROUNDS, seed=MONTE_CARLO_SEED)
    assert set(sampled.estimates) == set(exact.bets) == set(rules.bet_types)
    for bet_type, estimate in sampled.estimates.items():
        expected = exact.bets[bet_type].expected_return
        assert estimate.contains(expected), (bet_type, estimate, float(expected))
        # The sampled spread agrees with the exact one to within a few per cent.
        sd = float(exact.bets[bet_type].standard_deviation)
        assert estimate.standard_deviation == pytest.approx(sd, rel=0.03)


# --- docs/RULES.md's two claims -----------------------------------------------------------------


def test_macau_bonus_returns_about_a_third_of_what_is_staked():
    """docs/RULES.md A4: "As printed, the bonus returns about a third of what is staked"."""
    bonus = ruleset_odds(MACAU).bets[B.BONUS]
    returned = 1 + bonus.expected_return  # stake back plus winnings, per unit staked
    # 792 x 101 + 1,287 x 51 + 3,576 x 21 + 64,437 x 11 back out of 2,598,960 hands.
    assert returned == Fraction(929_532, 2_598_960) == Fraction(77_461, 216_580)
    assert as_decimal(returned, 4) == Decimal("0.3577")
    assert abs(returned - Fraction(1, 3)) < Fraction(3, 100)
    assert bonus.house_edge == Fraction(139_119, 216_580)  # 64.23%


def test_the_rejected_super_reading_gives_the_player_46_percent():
    """docs/RULES.md A4 Alt: a dealer win below Niu 7 costs only 1x on Super too."""

    def one_below_niu_7(category, row):
        if category >= C.NIU_7:
            return row
        return PaytableRow(row.win_odds, row.commission_rate, Decimal(1))

    alt = replace_rows(MACAU, B.SUPER, one_below_niu_7)
    player_edge = ruleset_odds(alt).bets[B.SUPER].expected_return
    assert player_edge == Fraction(4_590_028_421_549, 9_966_615_258_600)
    assert as_decimal(player_edge, 4) == Decimal("0.4605")  # "an edge of 46%"
    # The reading chosen: the house keeps 14.04% of every Super stake.
    assert as_decimal(ruleset_odds(MACAU).bets[B.SUPER].house_edge, 4) == Decimal("0.1404")


# --- Hash, serialisation, diff, exposure ---------------------------------------------------


def test_rules_hash_ignores_name_code_rounding_and_spelling():
    renamed = Ruleset(
        code="other",
        name="another name",
        paytable={
            bet_type: {
                category: PaytableRow(
                    Decimal(f"{row.win_odds}.00"),
                    row.commission_rate * Decimal("1.000"),
                    row.loss_multiple,
                )
                for category, row in rows.items()
            }
            for bet_type, rows in VN.paytable.items()
        },
        deposit_multiples={bet: f"{m}.0" for bet, m in VN.deposit_multiples.items()},
        rounding_unit=Decimal("1000"),
    )
    assert rules_hash(renamed) == rules_hash(VN)
    assert rules_hash(presets.get("vn-kr-004")) == rules_hash(VN)
    assert rules_hash(VN) != rules_hash(MACAU)


@pytest.mark.parametrize(
    "change",
    ["cell", "switch", "bonus order", "bonus odds", "deposit"],
)
def test_rules_hash_changes_with_what_the_odds_depend_on(change):
    rules = MACAU
    if change == "cell":
        changed = replace_rows(
            rules,
            B.DOUBLE,
            lambda c, row: (
                row
                if c is not C.NIU_9
                else PaytableRow(row.win_odds, Decimal("0.04"), row.loss_multiple)
            ),
        )
    else:
        lines = rules.bonus_lines
        deposits = dict(rules.deposit_multiples)
        special = rules.special_hands
        if change == "switch":
            special = special | {C.FOUR_OF_A_KIND}
        elif change == "bonus order":
            lines = (lines[1], lines[0], *lines[2:])
        elif change == "bonus odds":
            lines = (BonusLine(lines[0].name, lines[0].predicate, Decimal(99)), *lines[1:])
        else:
            deposits[B.SUPER] = Decimal(11)
        changed = Ruleset(
            code=rules.code,
            name=rules.name,
            paytable=rules.paytable,
            deposit_multiples=deposits,
            special_hands=special,
            bonus_lines=lines,
        )
    assert rules_hash(changed) != rules_hash(rules)


def test_to_dict_is_json_and_reads_back_exactly():
    odds = ruleset_odds(MACAU)
    data = json.loads(json.dumps(odds.to_dict()))
    assert RulesetOdds.from_dict(data) == odds
    single = data["bets"]["single"]
    assert single["house_edge"]["exact"] == str(odds.bets[B.SINGLE].house_edge)
    assert single["house_edge"]["decimal"] == str(as_decimal(odds.bets[B.SINGLE].house_edge))
    assert data["rules_hash"] == rules_hash(MACAU)
    assert data["categories"][0] == {
        "category": "FIVE_FACE",
        "count": 792,
        "probability": {"exact": "33/108290", "decimal": "0.000304737280"},
    }
    with pytest.raises(ValueError, match="schema"):
        RulesetOdds.from_dict(data | {"schema": 0})


def test_exposure_per_unit():
    vn, macau, made_up = (ruleset_odds(rules) for rules in (VN, MACAU, MADE_UP))
    assert {b: (o.max_win_odds, o.exposure) for b, o in vn.bets.items()} == {
        B.SINGLE: (1, Fraction(19, 20)),
        B.DOUBLE: (3, Fraction(57, 20)),
        B.SUPER: (10, Fraction(19, 2)),
    }
    assert (macau.bets[B.SINGLE].exposure, macau.bets[B.BONUS].exposure) == (1, 100)
    assert made_up.bets[B.SUPER].exposure == Fraction(14 * 95, 100)  # Five Small pays 14:1


def test_diff_against_the_active_version():
    vn = ruleset_odds(VN)
    same = diff_odds(vn, RulesetOdds.from_dict(vn.to_dict()))
    assert same.same_rules
    assert all(change.delta == 0 for figures in same.bets.values() for change in figures.values())

    cheaper_double = replace_rows(
        VN,
        B.DOUBLE,
        lambda c, row: PaytableRow(row.win_odds, Decimal("0.05"), row.loss_multiple),
    )
    diff = diff_odds(VN, cheaper_double)
    assert not diff.same_rules
    assert set(diff.bets) == {B.SINGLE, B.DOUBLE, B.SUPER}
    assert set(diff.bets[B.DOUBLE]) == set(BET_FIGURES)
    assert diff.bets[B.SINGLE]["house_edge"].delta == 0
    # 5% now also comes off every Double win that paid 1:1 (Niu 6 and below).
    low_wins = sum(o.probability for o in vn.bets[B.DOUBLE].outcomes if o.net == 1)
    assert diff.bets[B.DOUBLE]["house_edge"].delta == low_wins / 20
    assert all(change.delta == 0 for change in diff.categories.values())

    to_macau = diff_odds(vn, ruleset_odds(MACAU))
    assert to_macau.bets[B.BONUS]["house_edge"].old is None
    assert to_macau.bets[B.BONUS]["house_edge"].delta is None
    assert to_macau.categories[C.FIVE_FACE].old is None
    assert to_macau.categories[C.NIU_NIU].delta == Fraction(-792, 2_598_960)
    json.dumps(to_macau.to_dict())


def test_outcome_probabilities_add_up():
    for rules in RULESETS:
        for bet in ruleset_odds(rules).bets.values():
            assert sum(o.probability for o in bet.outcomes) == 1
            assert sum(bet.net_distribution().values()) == 1


@pytest.mark.parametrize("module", [odds_module, odds_report], ids=lambda m: m.__name__)
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


def test_the_brute_force_helper_agrees_with_compare():
    # brute_force_counts decides by (category, high card strength): what compare does.
    hands = list(combinations(DECK_20, 5))[::97]
    for a, b in permutations(hands, 2):
        if set(a) & set(b):
            continue
        for rules in (MADE_UP, READINGS["Four of a Kind level, the others above"]):
            x, y = evaluate(a, rules), evaluate(b, rules)
            by_key = (rules.rank(x.category), x.high_card.strength) > (
                rules.rank(y.category),
                y.high_card.strength,
            )
            assert compare(x, y) == (1 if by_key else -1)


# --- The readings a version may take (docs/RULES.md "Settings a venue may choose") ----------


def test_commission_on_the_1_to_1_rows_moves_the_double_edge_to_4_02_percent():
    """Sheet 004 read in Korean/English: 5% on every Double win, 1:1 included."""
    vietnamese = ruleset_odds(VN).bets[B.DOUBLE]
    every_win = ruleset_odds(READINGS["vn-kr-004 with commission on 1:1 rows"]).bets[B.DOUBLE]
    assert as_decimal(vietnamese.house_edge, 4) == Decimal("0.0269")
    assert every_win.house_edge == Fraction(267_402_166_147, 6_644_410_172_400)
    assert as_decimal(every_win.house_edge, 4) == Decimal("0.0402")


def test_four_of_a_kind_switched_on_is_priced():
    four = READINGS["macau-001 with Four of a Kind"]
    odds = ruleset_odds(four)
    assert odds.categories[C.FOUR_OF_A_KIND] == 624
    double = odds.bets[B.DOUBLE]
    wins = {o.category: o for o in double.outcomes if o.result == "win"}
    assert wins[C.FOUR_OF_A_KIND].net == Fraction(3) * Fraction(95, 100)  # 3:1 less 5%
    assert wins[C.FOUR_OF_A_KIND].count == showdown_counts(four)[C.FOUR_OF_A_KIND] > 0
    assert rules_hash(four) != rules_hash(MACAU)
    assert double.house_edge != ruleset_odds(MACAU).bets[B.DOUBLE].house_edge


def test_a_special_hand_level_with_niu_niu_wins_less_often_on_the_full_deck():
    above = showdown_counts(MADE_UP)
    level = showdown_counts(READINGS["every special level with Niu Niu"])
    assert sum(level.values()) == sum(above.values()) == FULL_DEALS // 2
    for special in (C.FIVE_SMALL, C.FOUR_OF_A_KIND, C.FIVE_FACE):
        assert 0 < level[special] < above[special]
    assert level[C.NIU_NIU] > above[C.NIU_NIU]
    assert level[C.NIU_9] == above[C.NIU_9]  # nothing below Niu Niu moves


def test_the_readings_change_the_hash_only_when_taken():
    assert rules_hash(replace(VN, level_with_niu_niu=frozenset())) == rules_hash(VN)
    assert rules_hash(replace(VN, deposit_bases={B.SUPER: B.SUPER})) == rules_hash(VN)
    assert rules_hash(replace(VN, max_boxes=3)) == rules_hash(VN)  # not a figure
    level = replace(MACAU, level_with_niu_niu=MACAU.special_hands)
    on_double = replace(VN, deposit_bases={B.SUPER: B.DOUBLE})
    assert rules_hash(level) != rules_hash(MACAU)
    assert rules_hash(on_double) != rules_hash(VN)
    # Per unit staked, where a deposit is counted from changes no figure.
    assert ruleset_odds(on_double).bets == ruleset_odds(VN).bets
