import copy
import doctest
import pickle

import pytest

import casino.kernel.cards
from casino.kernel.cards import (
    DECK,
    Card,
    Rank,
    Suit,
    check_distinct,
    check_hand,
    format_cards,
    parse_card,
    parse_cards,
)

BAD_CARD = "is not a card: rank is one of A 2-10 J Q K, suit one of S H C D or ♠ ♥ ♣ ♦"


def test_the_deck_has_52_distinct_singleton_cards():
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert [card.index for card in DECK] == list(range(52))
    assert sorted(card.strength for card in DECK) == list(range(52))
    assert all(Card(card.rank, card.suit) is card for card in DECK)
    assert Card("K", "S") is Card(Rank.KING, Suit.SPADES)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("KS", "KS"),
        ("ks", "KS"),
        ("10D", "TD"),
        ("10d", "TD"),
        ("td", "TD"),
        ("7♠", "7S"),
        ("a♥", "AH"),
        ("Q♣", "QC"),
        ("2♦", "2D"),
        ("10♤", "TS"),
        ("J♡", "JH"),
        ("3♧", "3C"),
        ("4♢", "4D"),
        ("9♠️", "9S"),  # the emoji form, with a variation selector
        ("  jc ", "JC"),
    ],
)
def test_parse_card_accepts_what_a_dealer_types(text, canonical):
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "KS QH 10D 3c 7♠",
        "KS,QH,10D,3c,7♠",
        "KS, QH, 10D, 3c, 7♠",
        " ks  qh\t10d\n3C , 7s ",
        "K♠ Q♥ T♦ 3♣ 7♠",
    ],
)
def test_parse_cards_separators_and_spellings(text):
    assert format_cards(parse_cards(text)) == "KS QH TD 3C 7S"


def test_parse_cards_from_an_iterable_of_cards_or_texts():
    cards = parse_cards(["KS", Card("Q", "H"), "10d"])
    assert cards == (Card("K", "S"), Card("Q", "H"), Card("T", "D"))
    assert parse_cards(card for card in cards) == cards
    assert parse_cards("") == ()


def test_format_round_trip_over_the_whole_deck():
    text = format_cards(DECK)
    assert parse_cards(text) == DECK
    assert all(parse_card(str(card)) is card for card in DECK)
    assert all(parse_card(card.symbol_text) is card for card in DECK)


@pytest.mark.parametrize("token", ["1X", "11S", "KX", "K", "S", "ZZ", "10", "K♠♠", "1♠"])
def test_a_bad_token_is_named_with_what_is_allowed(token):
    with pytest.raises(ValueError) as error:
        parse_cards(f"KS {token} QH")
    assert str(error.value) == f"{token!r} {BAD_CARD}"


def test_bad_card_examples_from_the_contract():
    with pytest.raises(ValueError, match=r"^'1X' is not a card: rank is one of A 2-10 J Q K"):
        parse_card("1X")
    with pytest.raises(ValueError, match="'XS' is not a card"):
        Card("X", "S")
    with pytest.raises(TypeError, match="not int"):
        parse_card(7)


def test_duplicates_are_named():
    with pytest.raises(ValueError, match=r"^'KS' appears twice$"):
        parse_cards("KS QH ks 3C 7S")
    with pytest.raises(ValueError, match=r"^'TD' appears 3 times$"):
        parse_cards("10D TD td")


def test_wrong_count_is_named():
    with pytest.raises(ValueError, match=r"^expected 5 cards, got 4$"):
        parse_cards("KS QH TD 3C", count=5)
    with pytest.raises(ValueError, match=r"^expected 5 cards, got 6$"):
        parse_cards("KS QH TD 3C 7S 8S", count=5)
    assert len(parse_cards("KS QH TD 3C 7S", count=5)) == 5
    assert check_hand(parse_cards("KS QH"), 2) == parse_cards("KS QH")


def test_check_distinct_names_the_card_and_the_hands():
    check_distinct({"box 1": parse_cards("KS QH"), "dealer": parse_cards("2C 3C")})
    with pytest.raises(ValueError, match=r"^'QH' is in both box 1 and dealer$"):
        check_distinct({"box 1": parse_cards("KS QH"), "dealer": parse_cards("2C QH")})
    with pytest.raises(ValueError, match=r"^'2C' is in both hand 1 and hand 3$"):
        check_distinct([parse_cards("2C"), parse_cards("3C"), parse_cards("4C 2C")])
    with pytest.raises(ValueError, match=r"^'2C' is twice in box 2$"):
        check_distinct({"box 2": [Card("2", "C"), Card("2", "C")]})


def test_point_values():
    values = {str(card): card.value for card in parse_cards("AS 2S 5S 9S TS JS QS KS")}
    assert values == {"AS": 1, "2S": 2, "5S": 5, "9S": 9, "TS": 10, "JS": 10, "QS": 10, "KS": 10}


def test_card_order_is_rank_then_suit_with_the_ace_lowest():
    strongest_first = sorted(DECK, key=lambda card: card.strength, reverse=True)
    assert format_cards(strongest_first[:6]) == "KS KH KC KD QS QH"
    assert format_cards(strongest_first[-5:]) == "2D AS AH AC AD"
    assert Card("K", "D").strength > Card("Q", "S").strength
    assert Card("2", "D").strength > Card("A", "S").strength


def test_cards_are_immutable_hashable_and_stay_singletons_through_copies():
    card = parse_card("QH")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(card)) is card  # noqa: S301 (our own bytes)
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert {card: 1}[Card("Q", "H")] == 1
    assert repr(card) == "Card('QH')"
    assert card.rank is Rank.QUEEN
    assert card.suit is Suit.HEARTS


def test_doctests():
    result = doctest.testmod(casino.kernel.cards)
    assert result.attempted > 10
    assert result.failed == 0
