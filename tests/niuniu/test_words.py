"""Niu Niu's hands and bets: one name per language on every screen, the venue sheets' own.

docs/RULES.md "Words on the screens" lists them with the sheet each comes from.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from niuniu.console.labels import bet_label, hand_label
from niuniu.engine.rules import BetType, Category
from niuniu.models import BET_TYPE_LABELS, CATEGORY_LABELS

#: (Niu Niu, Niu 7, No Niu, Five Face), (Single, Double, Super) in each language.
SHEET_WORDS = {
    "vi": (
        ("Ngầu Hầm", "Niu 7", "Không Ngầu", "Ngũ Hoa Ngầu"),
        ("Cược Đơn", "Cược Đôi", "Siêu Trâu"),
    ),
    "ko": (
        ("니우니우", "니우 7", "노 니우", "파이브 페이스 (슈퍼 니우니우)"),
        ("싱글", "더블", "슈퍼 니우"),
    ),
    "pt": (
        ("Niu Niu", "Niu 7", "Carta Mais Alta", "Super Niu Niu"),
        ("Even", "Double", "Super Niu"),
    ),
}
HANDS = (Category.NIU_NIU, Category(7), Category.NO_NIU, Category.FIVE_FACE)
BETS = (BetType.SINGLE, BetType.DOUBLE, BetType.SUPER)


@pytest.mark.parametrize("language", SHEET_WORDS)
def test_the_admin_and_the_console_name_a_hand_and_a_bet_alike(language):
    with translation.override(language):
        for category in Category:
            assert str(CATEGORY_LABELS[category]) == hand_label(category.name)
        for bet_type in BetType:
            assert str(BET_TYPE_LABELS[bet_type]) == bet_label(bet_type.value)


@pytest.mark.parametrize("language", SHEET_WORDS)
def test_the_names_are_the_sheets_words(language):
    hands, bets = SHEET_WORDS[language]
    with translation.override(language):
        assert tuple(hand_label(category.name) for category in HANDS) == hands
        assert tuple(bet_label(bet_type.value) for bet_type in BETS) == bets


def test_a_dealer_tells_the_five_face_hand_from_the_super_bet():
    for language in SHEET_WORDS:
        with translation.override(language):
            assert hand_label(Category.FIVE_FACE.name) != bet_label(BetType.SUPER.value)
    with translation.override("vi"):  # the hand Niu Niu is not the game Niu Niu
        assert hand_label(Category.NIU_NIU.name) != str(translation.gettext("Niu Niu"))
