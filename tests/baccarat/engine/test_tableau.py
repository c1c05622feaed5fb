"""The drawing tableau, card by card (docs/RULES.md, C2), and the refusals that name the card."""

from __future__ import annotations

from dataclasses import replace

import pytest

from baccarat.engine import DealError, Winner, banker_draws, deal, hands_so_far, presets
from casino.cards import parse_card

RULES = presets.get("commission")


def parse_cards(text: str) -> tuple:
    """A deal as typed: one card may come more than once from a shoe of several decks."""
    return tuple(parse_card(token) for token in text.split())


ONE_DECK = replace(RULES, decks=1)

#: The Banker's side of the tableau when the Player drew: the Player's third card values on
#: which the Banker draws, by the Banker's total (the printed table).
BANKER_DRAWS_ON = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: set(range(10)) - {8},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}
#: A card of each value (ten's value is 0).
OF_VALUE = dict(enumerate(["KH", "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]))


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third", range(10))
def test_the_banker_draws_as_the_printed_table_says(banker_total, third):
    assert banker_draws(banker_total, parse_card(OF_VALUE[third])) is (
        third in BANKER_DRAWS_ON[banker_total]
    )


@pytest.mark.parametrize("banker_total", range(10))
def test_against_a_player_who_stood_the_banker_draws_on_0_to_5(banker_total):
    assert banker_draws(banker_total, None) is (banker_total <= 5)


def test_a_natural_ends_the_deal():
    coup = deal(parse_cards("9H 3C KD 4S"), RULES)
    assert (coup.player.total, coup.banker.total) == (9, 7)
    assert coup.player.natural and not coup.banker.natural
    assert coup.winner is Winner.PLAYER


def test_the_player_draws_on_5_and_the_banker_stands_on_6_against_a_5():
    # P 4+A=5 draws 5 -> 0; B 3+3=6 against a 5: stands; Banker wins with 6 in two cards.
    coup = deal(parse_cards("4H 3C AD 3S 5S"), RULES)
    assert coup.player.drew and not coup.banker.drew
    assert (coup.player.total, coup.banker.total, coup.winner) == (0, 6, Winner.BANKER)
    assert coup.super6


def test_both_draw():
    # P 2+3=5 draws 6 -> 1; B 2+4=6 against a 6: draws 7 -> 3.
    coup = deal(parse_cards("2H 2C 3D 4S 6S 7C"), RULES)
    assert (coup.player.total, coup.banker.total) == (1, 3)
    assert coup.player.drew and coup.banker.drew
    assert coup.winner is Winner.BANKER


def test_the_player_stands_and_the_banker_draws():
    # P 3+3=6 stands; B K+4=4 draws 2 -> 6: a tie.
    coup = deal(parse_cards("3H KC 3D 4S 2S"), RULES)
    assert not coup.player.drew and coup.banker.drew
    assert coup.winner is Winner.TIE


def test_pairs_are_of_one_rank():
    assert deal(parse_cards("KH KC KD 9S"), RULES).player.pair is True
    coup = deal(parse_cards("TH 9C JD 9S"), RULES)
    assert coup.player.pair is False and coup.banker.pair is True


@pytest.mark.parametrize(
    ("cards", "code", "card", "words"),
    [
        ("4H 3C 2D 4S 5S", "banker_stands", "5S", "Banker stands on 7: '5S' is one card too many"),
        ("9H 3C KD 4S 5S", "natural", "5S", "a natural 9: both hands stand: '5S'"),
        ("3H 2C 3D 3S 2S 5C 4D", "too_many_cards", "4D", "at most six cards"),
    ],
)
def test_a_card_beyond_the_tableau_is_named(cards, code, card, words):
    with pytest.raises(DealError) as caught:
        deal(parse_cards(cards), RULES)
    assert caught.value.code == code
    assert str(caught.value.card) == card
    assert words in str(caught.value)


def test_a_missing_third_card_is_asked_for():
    with pytest.raises(DealError) as caught:
        deal(parse_cards("4H 3C AD 2S"), RULES)
    assert caught.value.code == "player_draws"
    assert "the Player draws on 5: enter the Player's third card" in str(caught.value)
    with pytest.raises(DealError) as caught:
        deal(parse_cards("3H KC 3D 4S"), RULES)
    assert caught.value.code == "banker_draws"
    assert "the Banker draws on 4: enter the Banker's third card" in str(caught.value)


def test_fewer_than_four_cards():
    with pytest.raises(DealError) as caught:
        deal(parse_cards("4H 3C AD"), RULES)
    assert caught.value.code == "too_few_cards"
    assert "got 3" in str(caught.value)


def test_a_card_beyond_the_shoes_copies_is_named():
    with pytest.raises(DealError) as caught:
        deal(parse_cards("KS 3C KS 4S"), ONE_DECK)
    assert caught.value.code == "too_many_copies"
    assert str(caught.value.card) == "KS"
    assert "'KS' is dealt 2 times; a 1-deck shoe holds it once" in str(caught.value)
    # Eight decks hold eight of it.
    assert deal(parse_cards("KS 3C KS 4S 5D"), RULES).player.total == 5


def test_hands_so_far_say_what_comes_next():
    assert hands_so_far(parse_cards("4H 3C"), RULES).next_card == "player"
    progress = hands_so_far(parse_cards("4H 3C AD 3S"), RULES)
    assert (progress.next_card, progress.reason, progress.params["total"]) == (
        "player",
        "player_draws",
        5,
    )
    progress = hands_so_far(parse_cards("3H KC 3D 4S"), RULES)
    assert (progress.next_card, progress.reason) == ("banker", "banker_draws")
    assert hands_so_far(parse_cards("4H 3C 2D 4S"), RULES).complete
    assert hands_so_far(parse_cards("4H 3C 2D 4S 5S"), RULES).error.code == "banker_stands"
