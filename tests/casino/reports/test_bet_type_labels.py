"""A report names a bet type as the game's console does, in the reader's language: "Niu Niu
Double", not the stored "niuniu double"."""

from __future__ import annotations

import pytest
from django.utils import translation

from casino.floor.kinds import bet_type_label


@pytest.mark.parametrize(
    ("language", "game", "bet_type", "label"),
    [
        ("en", "niuniu", "double", "Niu Niu Double"),
        ("en", "niuniu", "single", "Niu Niu Single"),
        ("vi", "niuniu", "super", "Niu Niu Siêu Trâu"),
        ("ko", "baccarat", "banker", "바카라 뱅커"),
        ("pt", "baccarat", "super6", "Bacará Super 6"),
        ("en", "maubinh", "stake", "Mau Binh Stake"),
    ],
)
def test_a_bet_type_is_named_as_the_console_names_it(language, game, bet_type, label):
    with translation.override(language):
        assert bet_type_label(game, bet_type) == label


def test_a_game_no_longer_installed_keeps_its_stored_words():
    assert bet_type_label("roulette", "red") == "roulette red"
