from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.kernel.cards import DECK, parse_cards
from niuniu.engine import (
    BASE_CATEGORIES,
    BetType,
    Category,
    PaytableRow,
    Ruleset,
    SettlementError,
    compare,
    evaluate,
    presets,
    settle_box,
)

C = Category
D = Decimal

# docs/RULES.md A4 copied by hand. "N (p%)" is N:1 less p% commission; single loss is always 1.
VN_KR_004 = """
| hand      | single win | double win | super win | double loss | super loss |
| NIU_NIU   | 1 (5%)     | 3 (5%)      | 10 (5%)   | 3           | 10         |
| NIU_9     | 1 (5%)     | 2 (5%)      | 9 (5%)    | 2           | 9          |
| NIU_8     | 1 (5%)     | 2 (5%)      | 8 (5%)    | 2           | 8          |
| NIU_7     | 1 (5%)     | 2 (5%)      | 7 (5%)    | 2           | 7          |
| NIU_6     | 1 (5%)     | 1 (--)      | 6 (5%)    | 1           | 6          |
| NIU_5     | 1 (5%)     | 1 (--)      | 5 (5%)    | 1           | 5          |
| NIU_4     | 1 (5%)     | 1 (--)      | 4 (5%)    | 1           | 4          |
| NIU_3     | 1 (5%)     | 1 (--)      | 3 (5%)    | 1           | 3          |
| NIU_2     | 1 (5%)     | 1 (--)      | 2 (5%)    | 1           | 2          |
| NIU_1     | 1 (5%)     | 1 (--)      | 1 (--)    | 1           | 1          |
| NO_NIU    | 1 (5%)     | 1 (--)      | 1 (--)    | 1           | 1          |
"""
MACAU_001 = """
| hand      | even win   | double win | super win | double loss | super loss |
| FIVE_FACE | 1          | 3 (5%)     | 10 (5%)   | 3           | 10         |
| NIU_NIU   | 1          | 3 (5%)     | 10 (5%)   | 3           | 10         |
| NIU_9     | 1          | 2 (5%)     | 9 (5%)    | 2           | 9          |
| NIU_8     | 1          | 2 (5%)     | 8 (5%)    | 2           | 8          |
| NIU_7     | 1          | 2 (5%)     | 7 (5%)    | 2           | 7          |
| NIU_6     | 1 (50%)    | 1          | 6 (5%)    | 1           | 6          |
| NIU_5     | 1          | 1          | 5 (5%)    | 1           | 5          |
| NIU_4     | 1          | 1          | 4 (5%)    | 1           | 4          |
| NIU_3     | 1          | 1          | 3 (5%)    | 1           | 3          |
| NIU_2     | 1          | 1          | 2 (5%)    | 1           | 2          |
| NIU_1     | 1          | 1          | 1         | 1           | 1          |
| NO_NIU    | 1          | 1          | 1         | 1           | 1          |
"""


def win_cell(cell):
    """ "3 (5%)" -> (3, 0.05); "1 (--)" and "1" -> (1, 0)."""
    odds, _, commission = cell.partition(" (")
    percent = commission.rstrip("%)")
    rate = D(percent) / 100 if percent not in ("", "--") else D(0)
    return D(odds), rate


def read_table(text):
    """hand -> bet type -> (win odds, commission rate, loss multiple)."""
    table = {}
    for line in text.strip().splitlines()[1:]:
        hand, single, double, super_, double_loss, super_loss = (
            cell.strip() for cell in line.strip("| ").split("|")
        )
        table[Category[hand]] = {
            "single": (*win_cell(single), D(1)),
            "double": (*win_cell(double), D(double_loss)),
            "super": (*win_cell(super_), D(super_loss)),
        }
    return table


TABLES = {"vn-kr-004": read_table(VN_KR_004), "macau-001": read_table(MACAU_001)}

# One hand of each category; none shares a card with WEAK, which every one of them beats.
EXAMPLES = {
    C.FIVE_FACE: "KS QH JC KD QC",
    C.NIU_NIU: "KS QS TH 5C 5D",
    C.NIU_9: "KH QD TS 5S 4C",
    C.NIU_8: "JS QH JD AC 7H",
    C.NIU_7: "KC 9S AD 4S 3S",
    C.NIU_6: "8S 2C KD 3H 3C",
    C.NIU_5: "7H 3S TD 9C 6D",
    C.NIU_4: "6S 4H QC 8D 6H",
    C.NIU_3: "9H AC KH 7C 6C",
    C.NIU_2: "5H 5S JH 8H 4S",
    C.NIU_1: "7S 3C QS 4D 7D",
    C.NO_NIU: "KH 8H 4D JC AD",
}
WEAK = "3D 2S 2H AS AH"  # No Niu, high card 3D
STAKE = D("100")

CASES = [
    (code, bet, category)
    for code, table in TABLES.items()
    for category in table
    for bet in ("single", "double", "super")
]


def case_id(case):
    code, bet, category = case
    return f"{code}-{bet}-{category.name}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_row_when_the_player_wins(case):
    code, bet, category = case
    win_odds, rate, _ = TABLES[code][category][bet]
    rules = presets.get(code)
    assert evaluate(EXAMPLES[category], rules).category is category

    box = settle_box(EXAMPLES[category], WEAK, {"single": STAKE, bet: STAKE}, rules)

    line = box.line(bet)
    assert box.player_wins
    assert line.outcome == "win"
    assert line.category is category
    assert line.odds == win_odds
    assert line.gross == STAKE * win_odds
    # With a stake of 100 every commission is a whole number: no rounding to do.
    assert line.commission == STAKE * win_odds * rate
    assert line.net == STAKE * win_odds * (1 - rate)
    assert line.net >= 0


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_row_when_the_dealer_wins(case):
    code, bet, category = case
    _, _, loss_multiple = TABLES[code][category][bet]
    rules = presets.get(code)

    box = settle_box(WEAK, EXAMPLES[category], {"single": STAKE, bet: STAKE}, rules)

    line = box.line(bet)
    assert not box.player_wins
    assert line.outcome == "lose"
    assert line.category is category  # the dealer's hand decides a loss
    assert line.odds == loss_multiple
    assert line.gross == line.net == -STAKE * loss_multiple
    assert line.commission == 0
    assert -line.net <= line.deposit_required


def test_deposit_required_per_bet_type():
    box = settle_box(
        EXAMPLES[C.NIU_9],
        WEAK,
        {"single": D("100"), "double": D("100"), "super": D("100"), "bonus": D("100")},
        presets.get("macau-001"),
    )
    required = {line.bet_type.value: line.deposit_required for line in box.lines}
    assert required == {"bonus": 100, "single": 100, "double": 300, "super": 1000}
    assert box.total_deposit_required == 1500


def test_lines_come_bonus_first_then_single_double_super():
    box = settle_box(
        EXAMPLES[C.NIU_9],
        WEAK,
        {"super": STAKE, "double": STAKE, "bonus": STAKE, "single": STAKE},
        presets.get("macau-001"),
    )
    assert [line.bet_type for line in box.lines] == [
        BetType.BONUS,
        BetType.SINGLE,
        BetType.DOUBLE,
        BetType.SUPER,
    ]
    assert box.line("bonus").outcome == "lose"  # Niu 9 of mixed suits meets no bonus line
    assert box.total_net == -100 + 100 + 190 + 855
    assert box.total_commission == 0 + 10 + 45


# ---- rounding -------------------------------------------------------------------------


def test_commission_is_rounded_up_to_1000_vnd():
    rules = presets.get("vn-kr-004").with_rounding_unit(D("1000"))
    stakes = {"single": D("15000"), "double": D("10000"), "super": D("10000")}

    box = settle_box(EXAMPLES[C.NIU_9], WEAK, stakes, rules)

    by_bet = {line.bet_type.value: (line.gross, line.commission, line.net) for line in box.lines}
    assert by_bet == {
        "single": (15000, 1000, 14000),  # 5% = 750, rounded up to 1000
        "double": (20000, 1000, 19000),  # 5% = 1000 exactly
        "super": (90000, 5000, 85000),  # 5% = 4500, rounded up to 5000
    }


def test_commission_is_rounded_up_to_ten_avos_in_macau():
    rules = presets.get("macau-001").with_rounding_unit(D("0.10"))

    niu_9 = settle_box(EXAMPLES[C.NIU_9], WEAK, {"single": D("3.30"), "double": D("3.30")}, rules)
    niu_6 = settle_box(EXAMPLES[C.NIU_6], WEAK, {"single": D("3.30"), "super": D("3.30")}, rules)

    assert niu_9.line("single").net == D("3.30")  # no commission on Even
    assert niu_9.line("double").gross == D("6.60")
    assert niu_9.line("double").commission == D("0.40")  # 0.33 rounded up
    assert niu_9.line("double").net == D("6.20")
    assert niu_6.line("single").commission == D("1.70")  # half of 3.30 = 1.65, rounded up
    assert niu_6.line("single").net == D("1.60")
    assert niu_6.line("super").commission == D("1.00")  # 0.99 rounded up
    assert niu_6.line("super").net == D("18.80")


@pytest.mark.parametrize(
    ("mode", "commission"),
    [("up", "8000"), ("half_up", "8000"), ("down", "7000"), ("none", "7500")],
)
def test_each_rounding_mode_on_a_commission_of_7500(mode, commission):
    # 5% of a single won at 150,000 is 7,500: a half of the unit 1,000
    rules = presets.get("vn-kr-004").with_rounding(D("1000"), mode)
    line = settle_box(EXAMPLES[C.NIU_9], WEAK, {"single": D("150000")}, rules).line("single")
    assert (line.gross, line.commission, line.net) == (
        D("150000"),
        D(commission),
        D("150000") - D(commission),
    )


@pytest.mark.parametrize(
    ("mode", "below_half", "above_half", "avos"),
    [
        ("up", "8000", "8000", "0.20"),
        ("half_up", "7000", "8000", "0.10"),
        ("down", "7000", "7000", "0.10"),
        ("none", "7450.00", "7550.00", "0.14"),
    ],
)
def test_each_rounding_mode_off_the_half(mode, below_half, above_half, avos):
    vnd = presets.get("vn-kr-004").with_rounding(D("1000"), mode)
    mop = presets.get("macau-001").with_rounding(D("0.10"), mode)
    # 5% of 149,000 is 7,450 and of 151,000 is 7,550
    for stake, commission in (("149000", below_half), ("151000", above_half)):
        line = settle_box(EXAMPLES[C.NIU_9], WEAK, {"single": D(stake)}, vnd).line("single")
        assert line.commission == D(commission)
        assert line.net == line.gross - line.commission
    # Macau, a Super on Niu 9 at 0.30 wins 2.70; 5% of it is 0.135
    box = settle_box(EXAMPLES[C.NIU_9], WEAK, {"single": D("0.30"), "super": D("0.30")}, mop)
    assert box.line("super").gross == D("2.70")
    assert box.line("super").commission == D(avos)


def test_an_unknown_rounding_mode_is_refused():
    with pytest.raises(ValueError, match="'sideways' is not a rounding mode: one of up, half_up"):
        presets.get("vn-kr-004").with_rounding(D("1000"), "sideways")
    with pytest.raises(ValueError, match="the rounding unit must be positive"):
        presets.get("vn-kr-004").with_rounding(D("0"), "up")


def flat_ruleset(win_odds, rate, unit, loss="1", mode="up"):
    row = PaytableRow(D(win_odds), D(rate), D(loss))
    return Ruleset(
        code="flat",
        name="flat",
        paytable={BetType.SINGLE: dict.fromkeys(BASE_CATEGORIES, row)},
        deposit_multiples={BetType.SINGLE: D(loss)},
        rounding_unit=D(unit),
        rounding_mode=mode,
    )


def rounded_as_the_mode_says(rounded, exact, unit, mode):
    """Whether ``rounded`` is ``exact`` rounded to ``unit`` in ``mode``."""
    if mode == "none":
        return rounded % D("0.01") == 0 and abs(rounded - exact) <= D("0.005")
    if rounded % unit != 0:
        return False
    if mode == "up":
        return exact <= rounded < exact + unit
    if mode == "down":
        return exact - unit < rounded <= exact
    return exact - unit / 2 < rounded <= exact + unit / 2  # half_up


def test_commission_never_turns_a_win_into_a_loss():
    # 5% of 500 is 25, rounded up to the unit 1000: more than the win, so capped at it.
    rules = flat_ruleset(win_odds="0.5", rate="0.05", unit="1000")
    line = settle_box(EXAMPLES[C.NIU_9], WEAK, {"single": D("1000")}, rules).line("single")
    assert (line.gross, line.commission, line.net) == (500, 500, 0)


# ---- properties -----------------------------------------------------------------------

UNITS = st.sampled_from([D("1"), D("1000"), D("0.10")])
MODES = st.sampled_from(["up", "half_up", "down", "none"])


@st.composite
def boxes(draw):
    deck = draw(st.permutations(DECK))
    unit = draw(UNITS)
    mode = draw(MODES)
    if draw(st.booleans()):
        rules = presets.get(draw(st.sampled_from(presets.CODES))).with_rounding(unit, mode)
    else:
        rules = flat_ruleset(
            win_odds=draw(st.sampled_from(["0.5", "1", "1.5", "2", "7"])),
            rate=draw(st.sampled_from(["0", "0.01", "0.05", "0.07", "0.5", "0.99", "1"])),
            loss=draw(st.sampled_from(["1", "2", "3"])),
            unit=unit,
            mode=mode,
        )
    stakes = {BetType.SINGLE: unit * draw(st.integers(1, 100_000))}
    for bet_type in rules.bet_types[1:]:
        if draw(st.booleans()):
            stakes[bet_type] = unit * draw(st.integers(1, 100_000))
    return deck[:5], deck[5:10], stakes, rules


@settings(deadline=None)  # the machine is shared: timing is not under test
@given(boxes())
def test_a_box_is_zero_sum_between_player_and_house(box):
    player_cards, dealer_cards, stakes, rules = box
    settled = settle_box(player_cards, dealer_cards, stakes, rules)
    assert settled.total_net + settled.house_net == 0
    assert settled.total_net == sum(line.net for line in settled.lines)
    for line in settled.lines:
        assert line.net + line.house_net == 0
        assert line.net == line.gross - line.commission


@settings(deadline=None)  # the machine is shared: timing is not under test
@given(boxes())
def test_wins_and_losses_follow_the_hands_and_the_commission_rules(box):
    player_cards, dealer_cards, stakes, rules = box
    settled = settle_box(player_cards, dealer_cards, stakes, rules)
    player, dealer = evaluate(player_cards, rules), evaluate(dealer_cards, rules)
    assert settled.player_wins == (compare(player, dealer) == 1)
    unit = rules.rounding_unit
    for line in settled.lines:
        assert line.stake == stakes[line.bet_type]
        assert line.commission >= 0
        if line.bet_type is BetType.BONUS:
            continue
        if line.outcome == "win":
            assert settled.player_wins
            assert line.net >= 0  # the commission never turns a win into a loss
            rate = rules.row(line.bet_type, player.category).commission_rate
            exact = line.gross * rate
            if line.commission < line.gross:  # not capped: rounded as the ruleset says
                assert rounded_as_the_mode_says(line.commission, exact, unit, rules.rounding_mode)
        else:
            assert not settled.player_wins
            assert line.commission == 0
            assert line.net < 0
            assert -line.net <= line.deposit_required  # the deposit covers any loss


# ---- bonus ----------------------------------------------------------------------------

STRONG_DEALER = "9D 8C 3C 6D 4H"  # Niu Niu
WEAK_DEALER = "3D 2D 2C AC AH"  # No Niu


@pytest.mark.parametrize(
    ("cards", "line_name", "odds"),
    [
        ("KS QH JC KD QC", "Super Niu Niu", 100),  # also all ten-valued: the best line pays
        ("KS 9S 7S 4S 2S", "All Spades", 50),  # also all black
        ("KS QH TC TD JH", "Niu Niu", 20),
        ("KS 9C 7S 4C 2S", "All Black", 10),
        ("KH 8H 4D JC AD", None, -1),
    ],
)
def test_bonus_lines(cards, line_name, odds):
    rules = presets.get("macau-001")
    lines = []
    for dealer in (STRONG_DEALER, WEAK_DEALER):  # the dealer's hand does not matter
        box = settle_box(cards, dealer, {"single": STAKE, "bonus": STAKE}, rules)
        lines.append(box.lines[0])
    assert lines[0] == lines[1]
    bonus = lines[0]
    assert bonus.bet_type is BetType.BONUS
    assert bonus.net == bonus.gross == STAKE * odds
    assert bonus.commission == 0
    assert bonus.outcome == ("lose" if line_name is None else "win")
    assert (bonus.bonus_line.name if bonus.bonus_line else None) == line_name
    assert bonus.category is evaluate(cards, rules).category


# ---- deposits -------------------------------------------------------------------------


def test_deposits_shown_must_cover_the_required_deposit():
    rules = presets.get("macau-001")
    stakes = {"single": D("100"), "double": D("100"), "super": D("100")}
    settle_box(EXAMPLES[C.NIU_9], WEAK, stakes, rules, deposits={"double": "300", "super": 1000})

    with pytest.raises(SettlementError) as error:
        settle_box(EXAMPLES[C.NIU_9], WEAK, stakes, rules, deposits={"double": D("299")})
    assert error.value.field == "deposits.double"
    assert str(error.value) == "the double bet of 100 needs a deposit of 300 shown, got 299"

    with pytest.raises(
        SettlementError, match="super bet of 100 needs a deposit of 1000 shown, got 100"
    ):
        settle_box(EXAMPLES[C.NIU_9], WEAK, stakes, rules, deposits={"double": D("300")})

    with pytest.raises(
        SettlementError, match="single bet of 100 needs a deposit of 100 shown, got 50"
    ):
        settle_box(
            EXAMPLES[C.NIU_9],
            WEAK,
            stakes,
            rules,
            deposits={"single": 50, "double": 300, "super": 1000},
        )

    with pytest.raises(
        SettlementError, match="deposit is shown for a bonus bet that is not placed"
    ):
        settle_box(EXAMPLES[C.NIU_9], WEAK, {"single": D("100")}, rules, deposits={"bonus": 100})


# ---- errors ---------------------------------------------------------------------------


N9 = EXAMPLES[C.NIU_9]
ONE_SINGLE = {"single": D("100")}
ERRORS = {
    "double without single": (
        N9, WEAK, {"double": D("100")}, "single",
        "a double bet needs a single bet on the same box",
    ),
    "no bet": (N9, WEAK, {}, "single", "a box takes part in the round only with a single bet"),
    "not a multiple": (
        N9, WEAK, {"single": D("100.5")}, "single",
        "the single stake 100.5 is not a multiple of the rounding unit 1",
    ),
    "negative": (
        N9, WEAK, {"single": D("100"), "double": D("-100")}, "double",
        "the double stake must be positive, got -100",
    ),
    "zero": (N9, WEAK, {"single": D("0")}, "single", "the single stake must be positive, got 0"),
    "float": (
        N9, WEAK, {"single": 100.0}, "single",
        "the single stake: amounts must be Decimal, int or str, not float",
    ),
    "not an amount": (
        N9, WEAK, {"single": "a lot"}, "single", "the single stake: 'a lot' is not an amount",
    ),
    "not offered": (
        N9, WEAK, {"single": D("100"), "bonus": D("100")}, "bonus",
        "the ruleset vn-kr-004 does not offer the bonus bet; it offers single, double, super",
    ),
    "unknown bet type": (
        N9, WEAK, {"single": D("100"), "triple": D("100")}, "triple",
        "'triple' is not a bet type: one of single, double, super, bonus",
    ),
    "shared card": (
        "KH QD TS 5S 3D", WEAK, ONE_SINGLE, "cards",
        "'3D' is in both the player's hand and the dealer's hand",
    ),
    "four cards": (
        "KH QD TS 5S", WEAK, ONE_SINGLE, "player_cards",
        "the player's hand: expected 5 cards, got 4",
    ),
    "twice in a hand": (
        N9, "3D 2S 2H AS 3D", ONE_SINGLE, "dealer_cards", "the dealer's hand: '3D' appears twice",
    ),
    "bad card": (
        N9, "3D 2S 2H AS 1X", ONE_SINGLE, "dealer_cards", "the dealer's hand: '1X' is not a card",
    ),
}  # fmt: skip


@pytest.mark.parametrize(
    ("player", "dealer", "stakes", "field", "message"), ERRORS.values(), ids=ERRORS.keys()
)
def test_errors_name_what_is_wrong(player, dealer, stakes, field, message):
    with pytest.raises(SettlementError) as error:
        settle_box(player, dealer, stakes, presets.get("vn-kr-004"))
    assert isinstance(error.value, ValueError)
    assert error.value.field == field
    assert str(error.value).startswith(message)


def test_stake_must_be_a_multiple_of_a_venue_unit():
    rules = presets.get("vn-kr-004").with_rounding_unit(D("1000"))
    with pytest.raises(
        SettlementError, match="the single stake 1500 is not a multiple of the rounding unit 1000"
    ):
        settle_box(EXAMPLES[C.NIU_9], WEAK, {"single": D("1500")}, rules)


def test_cards_as_text_or_card_tuples_settle_the_same():
    rules = presets.get("vn-kr-004")
    stakes = {"single": D("100"), "super": D("100")}
    as_text = settle_box(EXAMPLES[C.NIU_9], WEAK, stakes, rules)
    as_cards = settle_box(parse_cards(EXAMPLES[C.NIU_9]), list(parse_cards(WEAK)), stakes, rules)
    assert as_text == as_cards


def test_a_ruleset_without_the_row_it_needs_is_a_clear_error():
    row = PaytableRow(D("1"), D("0"), D("1"))
    rules = Ruleset(
        code="no-five-face-row",
        name="broken",
        paytable={BetType.SINGLE: dict.fromkeys(BASE_CATEGORIES, row)},
        deposit_multiples={BetType.SINGLE: D("1")},
        special_hands=frozenset({C.FIVE_FACE}),
    )
    with pytest.raises(ValueError, match="no-five-face-row has no single row for FIVE_FACE"):
        settle_box(EXAMPLES[C.FIVE_FACE], WEAK, {"single": D("100")}, rules)


# ---- the readings a version may take (docs/RULES.md "Settings a venue may choose") ----------


FIVE_FACE_HAND = "KH QH JH KD QD"
NIU_NIU_KING_OF_SPADES = "KS TS 5H 5D JC"


@pytest.mark.parametrize(
    ("level", "single", "double", "super_"),
    [
        # Above Niu Niu: the player's Five Face wins 1:1, 3:1 less 5%, 10:1 less 5%.
        (frozenset(), "100", "285", "950"),
        # Level with it: the dealer's Niu Niu with KS wins; it collects 1, 3 and 10 stakes.
        (frozenset({C.FIVE_FACE}), "-100", "-300", "-1000"),
    ],
)
def test_five_face_against_niu_niu_settles_as_the_version_ranks_it(level, single, double, super_):
    rules = replace(presets.get("macau-001"), level_with_niu_niu=level)
    stakes = {"single": D("100"), "double": D("100"), "super": D("100")}
    box = settle_box(FIVE_FACE_HAND, NIU_NIU_KING_OF_SPADES, stakes, rules)
    nets = [str(box.line(bet).net) for bet in ("single", "double", "super")]
    assert nets == [single, double, super_]


def test_four_of_a_kind_switched_on_pays_its_own_row():
    macau = presets.get("macau-001")
    rows = {
        bet: {**table, C.FOUR_OF_A_KIND: table[C.FIVE_FACE]}  # as docs/RULES.md A4 says
        for bet, table in macau.paytable.items()
    }
    four_on = replace(macau, paytable=rows, special_hands=macau.special_hands | {C.FOUR_OF_A_KIND})
    stakes = {"single": D("100"), "double": D("100")}
    quads, niu_9 = "9S 9H 9C 9D 2S", "KS QS TH 5C 4D"
    # Off (the preset): four nines and a two are Niu 8 (9+9+2 = 20, 9+9 = 18), below Niu 9.
    off = settle_box(quads, niu_9, stakes, macau)
    assert [line.net for line in off.lines] == [D("-100"), D("-200")]
    # On: Four of a Kind beats Niu 9 and the Double pays 3:1 less 5%.
    on = settle_box(quads, niu_9, stakes, four_on)
    assert on.player.category is C.FOUR_OF_A_KIND
    assert [line.net for line in on.lines] == [D("100"), D("285")]


@pytest.mark.parametrize(
    ("basis", "required"),
    [
        (BetType.SUPER, D("200")),  # its own stake: 10 x 20
        (BetType.DOUBLE, D("500")),  # sheets 000/004: 10 x the Double's 50
    ],
)
def test_the_super_deposit_is_counted_from_its_basis(basis, required):
    rules = replace(presets.get("vn-kr-004"), deposit_bases={BetType.SUPER: basis})
    stakes = {"single": D("100"), "double": D("50"), "super": D("20")}
    box = settle_box(EXAMPLES[C.NIU_9], WEAK, stakes, rules)
    assert box.line("super").deposit_required == required
    assert box.line("double").deposit_required == D("150")
    settle_box(EXAMPLES[C.NIU_9], WEAK, stakes, rules, deposits={"double": 150, "super": required})
    short = required - 1
    with pytest.raises(SettlementError, match=f"needs a deposit of {required} shown, got {short}"):
        settle_box(EXAMPLES[C.NIU_9], WEAK, stakes, rules, deposits={"double": 150, "super": short})


def test_a_deposit_counted_from_a_bet_not_placed_is_refused():
    rules = replace(presets.get("vn-kr-004"), deposit_bases={BetType.SUPER: BetType.DOUBLE})
    with pytest.raises(SettlementError) as error:
        settle_box(EXAMPLES[C.NIU_9], WEAK, {"single": D("100"), "super": D("20")}, rules)
    assert error.value.code == "deposit_basis_missing"
    assert error.value.field == "super"
    assert error.value.params == {"bet": "super", "basis": "double"}
    assert str(error.value) == (
        "the super deposit is a multiple of the double stake: place a double bet on the same box"
    )


@pytest.mark.parametrize(
    ("commission_rate", "net"),
    [
        ("0", "100"),  # sheet 004 in Vietnamese: a 1:1 win pays in full
        ("0.05", "95"),  # in Korean and English: 5% on every win
    ],
)
def test_commission_on_a_1_to_1_double_row_is_the_rows_own(commission_rate, net):
    vn = presets.get("vn-kr-004")
    rows = dict(vn.paytable[BetType.DOUBLE])
    rows[C.NIU_6] = PaytableRow(D("1"), D(commission_rate), D("1"))
    rules = replace(vn, paytable={**vn.paytable, BetType.DOUBLE: rows})
    box = settle_box(EXAMPLES[C.NIU_6], WEAK, {"single": D("100"), "double": D("100")}, rules)
    assert box.line("double").commission == D("100") - D(net)
    assert box.line("double").net == D(net)


@pytest.mark.parametrize("boxes", [0, 6, True])
def test_the_box_limit_is_1_to_5(boxes):
    with pytest.raises(ValueError, match="a round deals to 1 to 5 boxes"):
        replace(presets.get("vn-kr-004"), max_boxes=boxes)
    assert replace(presets.get("vn-kr-004"), max_boxes=3).max_boxes == 3
