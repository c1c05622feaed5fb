"""Reading Niu Niu's round form: cards, stakes, players, as a dealer types them."""

from __future__ import annotations

from decimal import Decimal as D
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.utils import translation

from casino.floor.console.selectors import screen_for
from casino.floor.services.sessions import session_open
from niuniu.console import forms
from niuniu.console.labels import hand_label

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def screen(floor):
    session = session_open(
        table=floor.table, counted_by=floor.dealer, confirmed_by=floor.supervisor, opening_chips={}
    )
    return screen_for(session=session)


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("ks qh 10d 3c 7s", "KS QH TD 3C 7S"),
        ("KS,QH,TD,3C,7S", "KS QH TD 3C 7S"),
        ("k♠ q♥ 10♦ 3♣ 7♠", "KS QH TD 3C 7S"),
        ("  ks   qh ", "KS QH"),
    ],
)
def test_cards_are_read_in_any_case_with_10_or_t_and_suit_letters_or_symbols(typed, canonical):
    entry = forms.read_hand(1, typed)
    assert (entry.error, entry.canonical) == ("", canonical)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("ks zz", "“zz” is not a card"),
        ("ks qh ks", "K♠ is in this hand twice"),
        ("as 2s 3s 4s 5s 6s", "A hand has 5 cards; this one has 6"),
        ("1s", "“1s” is not a card"),
    ],
)
def test_a_card_field_says_what_is_wrong(typed, message):
    assert message in forms.read_hand(2, typed).error


def test_a_card_in_two_hands_is_marked_on_the_later_hand():
    first, second, dealer = (
        forms.read_hand(1, "ks qh"),
        forms.read_hand(2, "2c 3c"),
        forms.read_hand(None, "qh 4d"),
    )
    forms.check_distinct([first, second, dealer])
    assert first.error == second.error == ""
    assert dealer.error == "Q♥ is already in Box 1"


def test_stakes_are_checked_against_the_table_and_show_the_deposit(screen):
    # the floor's table: VND, unit 1,000; single 10,000-10,000,000; double up to 5,000,000
    single, double, *_ = forms.read_stakes(
        1, {"box-1-single": "5,000", "box-1-double": "100000"}, screen
    )
    too_big = forms.read_stake(1, "double", "6,000,000", screen)
    off_unit = forms.read_stake(1, "single", "10500", screen)
    # the floor's own words (casino.floor.services.rounds.check_stake), as the API says them
    assert single.error == "the stake 5,000 is below the table minimum of 10,000"
    assert (double.error, double.deposit) == ("", D("300000"))
    assert too_big.error == "the stake 6,000,000 is above the table maximum of 5,000,000"
    assert off_unit.error == "Stakes go in steps of 1,000"


def test_a_round_needs_cards_and_the_dealer(screen):
    data = {"box-1-double": "100000", "box-2-single": "10000", "box-2-cards": "ks qh"}
    entry = forms.read_round(data, screen, players={})
    assert not entry.check_complete()
    assert entry.boxes[0].hand.error == "Enter 5 cards (0 so far)"
    assert entry.boxes[1].hand.error == "Enter 5 cards (2 so far)"
    assert entry.dealer.error == "Enter the dealer's 5 cards (0 so far)"


def test_a_complete_round_gives_the_service_its_boxes_and_a_stable_digest(screen):
    data = {
        "box-2-single": "100,000",
        "box-2-cards": "ks qs 5h 4h 10c",
        "dealer-cards": "js qh jd ac 7h",
    }
    entry = forms.read_round(data, screen, players={})
    assert entry.check_complete()
    (box,) = entry.box_inputs()
    assert (box.position, box.cards, dict(box.stakes)) == (
        2,
        "KS QS 5H 4H TC",
        {"single": D("100000")},
    )
    assert entry.boxes[1].hand.hand.category.name == "NIU_9"
    assert entry.digest() == forms.read_round(data, screen, players={}).digest()
    changed = {**data, "box-2-single": "200,000"}
    assert entry.digest() != forms.read_round(changed, screen, players={}).digest()


def test_hand_names_follow_the_language():
    assert [hand_label(c) for c in ("NIU_NIU", "NIU_9", "NO_NIU")] == [
        "Niu Niu",
        "Niu 9",
        "No Niu",
    ]
    with translation.override("vi"):
        assert [hand_label(c) for c in ("NIU_NIU", "NIU_9", "NO_NIU")] == [
            "Ngầu Hầm",
            "Niu 9",
            "Không Ngầu",
        ]
    with translation.override("ko"):
        assert [hand_label(c) for c in ("NIU_NIU", "NIU_9", "NO_NIU")] == [
            "니우니우",
            "니우 9",
            "노 니우",
        ]
    with translation.override("pt"):
        assert [hand_label(c) for c in ("NIU_NIU", "NIU_9", "NO_NIU")] == [
            "Niu Niu",
            "Niu 9",
            "Carta Mais Alta",
        ]


#: The round form's fields as the round screen's template wrote them before the tags (with
#: the cards' ``data-hand`` and ``data-hand-size`` since added).
STAKE_FIELD = """{% load console_tags %}
<input id="{{ stake.name }}" name="{{ stake.name }}" value="{{ stake.text }}" inputmode="decimal"
       aria-label="{{ box.position|box_label }}: {{ stake.label }}" placeholder="{{ stake.label }}"
       aria-describedby="limit-{{ stake.bet_type }}"
       data-field data-stake data-box="{{ box.position }}"
       hx-get="{{ stakes_url }}" hx-vals='{"box": "{{ box.position }}"}'
       hx-include="[data-stake]" hx-trigger="input changed delay:200ms"
       hx-target="#stakes-{{ box.position }}" hx-sync="#box-{{ box.position }}:queue last"
       {% if stake.error %}aria-invalid="true"{% endif %}>"""
MEMBER_FIELD = """{% load i18n console_tags %}
<input id="{{ box.member_name }}" name="{{ box.member_name }}" value="{{ box.member }}"
       placeholder="{% translate 'member no.' %}" aria-label="{{ box.position|box_label }}: {% translate 'membership number' %}"
       data-field hx-get="{{ player_url }}" hx-vals='{"box": "{{ box.position }}"}'
       hx-trigger="input changed delay:250ms" hx-target="#player-{{ box.position }}" hx-sync="this:queue last"
       {% if box.player_error %}aria-invalid="true"{% endif %}>"""  # noqa: E501
BOX_CARDS_FIELD = """{% load i18n console_tags %}
<input id="{{ box.hand.name }}" name="{{ box.hand.name }}" value="{{ box.hand.text }}"
       placeholder="ks qh 10d 3c 7s" aria-label="{{ box.position|box_label }}: {% translate 'cards' %}"
       data-field data-cards data-box="{{ box.position }}"
       data-hand="hand-{{ box.position }}" data-hand-size="5"
       hx-get="{{ hand_url }}" hx-vals='{"box": "{{ box.position }}"}'
       hx-include="[data-cards]" hx-trigger="input changed delay:120ms"
       hx-swap="none" hx-sync="this:queue last"
       {% if box.hand.error %}aria-invalid="true"{% endif %}>"""  # noqa: E501
DEALER_CARDS_FIELD = """{% load i18n %}
<input id="dealer-cards" name="dealer-cards" value="{{ entry.dealer.text }}"
       placeholder="ks qh 10d 3c 7s" aria-label="{% translate 'Dealer' %}: {% translate 'cards' %}"
       data-field data-cards data-box="dealer" data-last
       data-hand="hand-dealer" data-hand-size="5"
       hx-get="{{ hand_url }}" hx-vals='{"box": "dealer"}'
       hx-include="[data-cards]" hx-trigger="input changed delay:120ms"
       hx-swap="none" hx-sync="this:queue last"
       {% if entry.dealer.error %}aria-invalid="true"{% endif %}>"""


def attributes(html: str) -> str:
    """An element's markup with the spaces between its attributes made one."""
    return " ".join(html.split()).replace(" >", ">")


def drawn(tag: str, context: dict) -> str:
    return attributes(Template("{% load niuniu_console %}" + tag).render(Context(context)))


def as_before(template: str, context: dict) -> str:
    return attributes(Template(template).render(Context(context)))


@pytest.mark.parametrize("language", ["en", "vi", "ko", "pt"])
def test_the_round_forms_fields_are_drawn_as_the_template_drew_them(screen, language):
    """The round form's tags draw in one call each field the template's dozen nodes drew:
    the same attributes, names and words in every language, a typed text escaped, a
    mistake marked."""
    urls = {"stakes_url": "/s/7/stakes/", "player_url": "/s/7/player/", "hand_url": "/s/7/hand/"}
    typed = [("single", "100.000"), ("double", '1"><b>'), ("super", ""), ("bonus", "x")]
    hands = ["", "ks qh", "KS QS 5H 4H TC", "zz", '"><i>']
    with translation.override(language):
        for bet_type, text in typed:
            stake = forms.read_stake(3, bet_type, text, screen)
            context = {"stake": stake, "box": stake, **urls}
            assert drawn("{% stake_input stake stakes_url %}", context) == as_before(
                STAKE_FIELD, context
            )
        for member, error in (("", ""), ("M-1", ""), ('"><b>', "no such member")):
            box = forms.BoxEntry(position=2, member=member, stakes=[], hand=forms.read_hand(2, ""))
            box.player_error = error
            context = {"box": box, **urls}
            assert drawn("{% member_input box player_url %}", context) == as_before(
                MEMBER_FIELD, context
            )
        for text in hands:
            box = forms.BoxEntry(position=4, member="", stakes=[], hand=forms.read_hand(4, text))
            context = {"box": box, **urls}
            assert drawn("{% cards_input box.hand hand_url %}", context) == as_before(
                BOX_CARDS_FIELD, context
            )
            entry = SimpleNamespace(dealer=forms.read_hand(None, text))
            context = {"entry": entry, **urls}
            assert drawn("{% cards_input entry.dealer hand_url %}", context) == as_before(
                DEALER_CARDS_FIELD, context
            )
    # the mistakes above were marked
    assert forms.read_stake(3, "bonus", "x", screen).error and forms.read_hand(None, "zz").error
