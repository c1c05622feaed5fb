"""Template tags of the dealer's console: card faces, money, hand and bet names.

Card faces are HTML boxes with the suit drawn from the SVG symbols in ``base.html``
(``#suit-S`` ...), so nothing depends on a font having the suit characters.
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from casino.cards import Card, parse_card
from casino.console import labels
from casino.money import plain
from maubinh.engine import InstantWin, evaluate_row

register = template.Library()


@register.filter
def money(amount: Decimal | None, currency: str) -> str:
    """``{{ amount|money:venue.currency }}``."""
    return labels.format_money(amount, currency)


@register.filter
def signed_money(amount: Decimal | None, currency: str) -> str:
    return labels.format_money(amount, currency, signed=True)


@register.filter
def odds(value: Decimal | None) -> str:
    """Odds and multiples without trailing zeros: ``2``, ``0.5``."""
    return plain(value) if value is not None else ""


@register.filter
def hand_label(category: str | None) -> str:
    return labels.hand_label(category) if category else ""


@register.filter
def bet_label(bet_type: str) -> str:
    return labels.bet_label(bet_type)


@register.filter
def outcome_label(outcome: str) -> str:
    return labels.outcome_label(outcome)


@register.filter
def box_label(position: int | None) -> str:
    return labels.box_label(position)


@register.filter
def sign_class(amount: Decimal | None) -> str:
    if amount is None or amount == 0:
        return "zero"
    return "plus" if amount > 0 else "minus"


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """``{{ mapping|get:key }}``: a dictionary look-up in a template."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@lru_cache(maxsize=128)
def _face(card: Card, high: bool = False) -> SafeString:
    """A card's face; the 52 cards x high or not are drawn once per process."""
    red = card.suit.value in "HD"
    classes = f"card {'red' if red else 'black'}{' high' if high else ''}"
    return format_html(
        '<span class="{}" data-card="{}" title="{}">'
        '<span class="rank">{}</span>'
        '<svg class="pip" viewBox="0 0 100 100" aria-hidden="true">'
        '<use href="#suit-{}"></use></svg>'
        "</span>",
        classes,
        str(card),
        card.symbol_text,
        labels.rank_text(card),
        card.suit.value,
    )


@register.simple_tag
def card_face(card: Card | str, high_card: str = "") -> SafeString:
    """One card face: ``{% card_face "TS" %}``; ``high_card`` marks the hand's high card."""
    card = parse_card(card) if isinstance(card, str) else card
    return _face(card, high=str(card) == high_card)


@register.simple_tag
def card_faces(cards: Any, high_card: str = "") -> SafeString:
    """Faces of several cards (canonical text ``"KS QH"`` or Card objects), in order."""
    if isinstance(cards, str):
        cards = [parse_card(token) for token in cards.split()]
    return format_html_join(
        "", "{}", ((_face(card, high=str(card) == high_card),) for card in cards)
    )


@register.simple_tag
def picker_card(card: Card, used: Any) -> SafeString:
    """A button of the 52-card picker; cards already in a hand are greyed out.

    A greyed card stays clickable: clicked while its own hand has the focus, it is taken
    back out of that hand (console.js).
    """
    is_used = str(card) in used
    return format_html(
        '<button type="button" class="pick{}" data-pick="{}" title="{}" tabindex="-1" '
        'aria-pressed="{}">{}</button>',
        " used" if is_used else "",
        str(card),
        card.symbol_text,
        "true" if is_used else "false",
        _face(card),
    )


def _faces(text: str, high_card: str) -> SafeString:
    return format_html_join(
        "", "{}", ((_face(parse_card(token), token == high_card),) for token in text.split())
    )


@register.simple_tag
def hand_split(evaluation: dict[str, Any] | None, cards: str = "") -> SafeString:
    """A hand laid out as the dealer lays it on the felt (seed 001): the two cards above
    the three that make Niu; without Niu, the five cards in a row. Then its name in the
    page's language and its high card.

    Drawn here rather than by an included template: the preview draws six of them and
    it is the part of the page a dealer waits for.
    """
    if not evaluation:
        return SafeString("")
    high = evaluation["high_card"]
    if evaluation.get("three"):
        felt = format_html(
            '<div class="two">{}</div><div class="three">{}</div>',
            _faces(evaluation["two"], high),
            _faces(evaluation["three"], high),
        )
        kind = "niu"
    else:
        felt = format_html('<div class="five">{}</div>', _faces(cards, high))
        kind = "no-niu"
    return format_html(
        '<div class="split {}" data-category="{}"><div class="felt">{}</div>'
        '<div class="verdict"><strong class="category">{}</strong>'
        '<span class="high">{} {}</span></div></div>',
        kind,
        evaluation["category"],
        felt,
        labels.hand_label(evaluation["category"]),
        gettext("high card"),
        _face(parse_card(high)),
    )


# Mau Binh: a seat as stored on its box (maubinh.adapter.seat_evaluation)


@register.simple_tag
def seat_rows(evaluation: dict[str, Any] | None) -> SafeString:
    """A Mau Binh seat's three rows: name, cards and hand, in the page's language."""
    if not evaluation or not evaluation.get("rows"):
        return SafeString("")
    items = []
    for row in evaluation["rows"]:
        hand = evaluate_row(row["cards"])  # the rules only place a wheel, never name it
        items.append(
            (row["row"], gettext(row["row"]), _faces(row["cards"], ""), labels.row_label(hand))
        )
    return format_html(
        '<ol class="mb-rows history-rows">{}</ol>',
        format_html_join(
            "",
            '<li data-row="{}"><span class="row-name">{}</span> '
            '<span class="faces">{}</span> <b>{}</b></li>',
            items,
        ),
    )


@register.filter
def seat_verdict(evaluation: dict[str, Any] | None) -> str:
    """What decided a Mau Binh seat before its rows: a quit, an instant win, a foul."""
    if not evaluation:
        return ""
    if evaluation.get("quit"):
        return gettext("Quit")
    if evaluation.get("instant_win"):
        return labels.instant_win_label(InstantWin(evaluation["instant_win"]))
    if evaluation.get("fouled"):
        return gettext("Fouled")
    return ""
