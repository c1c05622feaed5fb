"""Mau Binh's rows, instant wins and fouls in the dealer's language."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from casino.kernel.cards import DECK
from maubinh.console.labels import foul_label, instant_win_label, row_label
from maubinh.engine import InstantWin, check_arrangement, evaluate_row, presets


@pytest.fixture
def rules():
    return presets.get("bigkool-2016")


def test_in_english_a_row_reads_as_the_engine_describes_it(rules):
    rng = random.Random(5)
    seen = set()
    for _n in range(3000):
        hand = evaluate_row(rng.sample(DECK, rng.choice((3, 5))), rules)
        with translation.override("en"):
            assert row_label(hand) == hand.describe()
        seen.add(hand.category)
    for cards in ("AS 2S 3S 4S 5S", "9H TH JH QH KH", "2C 2D 2H 2S 9C", "AS AH AD KC KD"):
        hand = evaluate_row(cards, rules)
        with translation.override("en"):
            assert row_label(hand) == hand.describe()
    assert len(seen) >= 7


def test_in_vietnamese_the_sheets_words(rules):
    with translation.override("vi"):
        assert row_label(evaluate_row("9S 9D 2C 2H KS", rules)) == "Thú 9 và 2"
        assert row_label(evaluate_row("KS KH KD", rules)) == "Sám cô K"
        assert row_label(evaluate_row("AS 2S 3S 4S 5S", rules)) == "Thùng phá sảnh 5"
        assert instant_win_label(InstantWin.SIX_PAIRS) == "Lục phé bôn"
        fouled = check_arrangement("QS QH JC JD 3C", "AS AH KD KC 2S", "7S 5H 4C", rules)
        assert foul_label(fouled) == "chi giữa (Thú A và K) lớn hơn chi đầu (Thú Q và J)"


def test_a_hand_in_order_has_no_foul(rules):
    hand = check_arrangement("AS AH KD KC 2S", "QS QH 7C 5D 3C", "9S 8H 4C", rules)
    assert not hand.fouled and foul_label(hand) == ""


#: One row of each category, strongest first.
ONE_OF_EACH = (
    "9H TH JH QH KH",
    "2C 2D 2H 2S 9C",
    "AS AH AD KC KD",
    "2H 5H 9H JH KH",
    "5C 6D 7H 8S 9C",
    "KS KH KD",
    "9S 9D 2C 2H KS",
    "7S 7D 4C",
    "AS 9D 4C",
)


@pytest.mark.parametrize("language", ["vi", "ko", "pt"])
def test_the_admin_names_a_rows_hand_as_the_console_does(rules, language):
    from maubinh.models import CATEGORY_LABELS

    hands = [evaluate_row(cards, rules) for cards in ONE_OF_EACH]
    assert [hand.category for hand in hands] == sorted(CATEGORY_LABELS, reverse=True)
    with translation.override(language):
        for hand in hands:
            admin = str(CATEGORY_LABELS[hand.category])
            assert row_label(hand).casefold().startswith(admin.casefold())
    with translation.override("vi"):  # sheet 002's words
        assert [str(CATEGORY_LABELS[hand.category]) for hand in hands] == [
            "Thùng phá sảnh",
            "Tứ quý",
            "Cù lũ",
            "Thùng",
            "Sảnh",
            "Sám cô",
            "Thú",
            "Đôi",
            "Mậu thầu",
        ]


def test_a_seat_that_did_not_declare_its_instant_win_says_so():
    from maubinh.templatetags.maubinh_console import seat_verdict

    undeclared = {"instant_win": None, "undeclared_instant_win": "six_pairs", "fouled": False}
    with translation.override("vi"):
        assert seat_verdict(undeclared) == "Không báo Lục phé bôn"
        assert seat_verdict({**undeclared, "undeclared_instant_win": None}) == ""
    with translation.override("en"):
        assert seat_verdict(undeclared) == "Six Pairs not declared"
