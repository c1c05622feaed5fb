"""The drawing tableau, card by card (docs/RULES.md, C2), and the refusals that name the card."""

from __future__ import annotations

from dataclasses import replace

import pytest

from baccarat.engine import DealError, Winner, banker_draws, deal, hands_so_far, presets
from casino.kernel.cards import parse_card

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


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third", range(10))
def test_a_deal_follows_the_banker_table_card_by_card(banker_total, third):
    # P 2+3=5 draws ``third``; B K+x is ``banker_total``.
    five = parse_cards(f"2D KS 3C {OF_VALUE[banker_total]} {OF_VALUE[third]}")
    six = (*five, parse_card("9C"))
    if third in BANKER_DRAWS_ON[banker_total]:
        with pytest.raises(DealError) as caught:
            deal(five, RULES)
        assert caught.value.code == "banker_draws"
        assert hands_so_far(five, RULES).next_card == "banker"
        coup = deal(six, RULES)
        assert coup.banker.drew and coup.banker.total == (banker_total + 9) % 10
    else:
        coup = deal(five, RULES)
        assert coup.player.drew and not coup.banker.drew
        with pytest.raises(DealError) as caught:
            deal(six, RULES)
        assert caught.value.code == "banker_stands"
        assert (str(caught.value.card), caught.value.index) == ("9C", 5)
        assert f"Banker stands on {banker_total}: '9C' is one card too many" in str(caught.value)


@pytest.mark.parametrize("player_total", [6, 7])
@pytest.mark.parametrize("banker_total", range(8))
def test_against_a_player_who_stood_a_deal_draws_the_banker_on_0_to_5(player_total, banker_total):
    four = parse_cards(f"{OF_VALUE[player_total]} KS KC {OF_VALUE[banker_total]}")
    progress = hands_so_far(four, RULES)
    if banker_total <= 5:
        assert (progress.next_card, progress.reason) == ("banker", "banker_draws")
        assert deal((*four, parse_card("AC")), RULES).banker.total == banker_total + 1
    else:
        assert (progress.next_card, progress.reason) == (None, "banker_stands")
        assert deal(four, RULES).winner is (
            Winner.TIE
            if player_total == banker_total
            else Winner.PLAYER
            if player_total > banker_total
            else Winner.BANKER
        )


@pytest.mark.parametrize("player", ["8H", "9H"])
@pytest.mark.parametrize("banker", ["KC", "5C", "8C", "9C"])
def test_either_natural_stands_both_hands(player, banker):
    four = parse_cards(f"{player} {banker} KD KS")
    progress = hands_so_far(four, RULES)
    assert (progress.next_card, progress.reason) == (None, "natural")
    assert progress.params["total"] == max(int(player[0]), int(banker[0].replace("K", "0")))
    coup = deal(four, RULES)
    assert coup.player.natural and not coup.player.drew and not coup.banker.drew
    assert coup.banker.natural is (banker[0] in "89")


def test_a_banker_natural_stops_a_player_on_0():
    coup = deal(parse_cards("KH 9C KD KS"), RULES)
    assert coup.banker.natural and not coup.player.drew
    assert coup.winner is Winner.BANKER


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
    assert caught.value.index == 2  # the copy the shoe does not hold
    assert caught.value.params == {"card": "KS", "times": 2, "decks": 1, "held": "once"}
    with pytest.raises(DealError) as caught:
        deal(parse_cards("KS 3C 2D 4S KS"), replace(RULES, decks=1))
    assert (caught.value.code, caught.value.index) == ("too_many_copies", 4)
    two_decks = replace(RULES, decks=2)
    with pytest.raises(DealError) as caught:
        deal(parse_cards("KS KS 2D KS"), two_decks)
    assert "'KS' is dealt 3 times; a 2-deck shoe holds it 2 times" in str(caught.value)
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


def test_hands_so_far_while_typing():
    progress = hands_so_far((), RULES)
    assert (progress.next_card, progress.reason, progress.player.cards) == ("player", "deal", ())
    progress = hands_so_far(parse_cards("4H"), RULES)
    assert (progress.next_card, progress.player.total) == ("banker", 4)
    progress = hands_so_far(parse_cards("9H 3C KD 4S"), RULES)
    assert (progress.next_card, progress.reason, progress.params) == (None, "natural", {"total": 9})
    assert progress.complete and progress.player.natural
    progress = hands_so_far(parse_cards("2H 2C 3D 4S 6S"), RULES)
    assert (progress.next_card, progress.reason) == ("banker", "banker_draws")
    assert progress.params == {"total": 6, "third": "6S"}
    progress = hands_so_far(parse_cards("2H 2C 3D 4S 6S 7C"), RULES)
    assert (progress.reason, progress.complete, progress.banker.total) == ("complete", True, 3)
    progress = hands_so_far(parse_cards("2H 2C 3D 4S 6S 7C 8D"), RULES)
    assert (progress.error.code, str(progress.error.card), progress.error.index) == (
        "too_many_cards",
        "8D",
        6,
    )
    assert not progress.complete
    progress = hands_so_far(parse_cards("KS 3C KS"), ONE_DECK)
    assert progress.error.code == "too_many_copies" and not progress.complete


def test_a_deal_keeps_its_cards_in_deal_order():
    cards = parse_cards("2H 2C 3D 4S 6S 7C")
    coup = deal(cards, RULES)
    assert coup.cards == cards
    assert [str(c) for c in coup.player.cards] == ["2H", "3D", "6S"]
    assert [str(c) for c in coup.banker.cards] == ["2C", "4S", "7C"]


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("", "the Player's first card"),
        ("4H", "the Banker's first card"),
        ("4H 3C", "the Player's second card"),
        ("4H 3C AD", "the Banker's second card"),
        ("4H 3C KD 3S", "Player draws on 4"),
        ("3H KC 3D 4S", "Banker draws on 4"),
        ("4H 3C 2D 4S", "Banker stands on 7"),
        ("9H 3C KD 4S", "natural 9: no more cards"),
        ("2H 2C 3D 4S 6S 7C", "complete"),
        ("4H 3C 2D 4S KS", "Banker stands on 7: 'KS' is one card too many"),
    ],
)
def test_hands_so_far_say_in_words_what_comes_next(cards, message):
    assert hands_so_far(parse_cards(cards), RULES).message == message
