"""Template tags of Niu Niu's round screen: hand and bet names, a hand laid out on the felt,
the round form's fields (a box's member, stakes and cards, the dealer's cards)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from casino.floor.console.labels import box_label
from casino.kernel.cards import parse_card
from casino.templatetags.console_tags import face
from casino.templatetags.console_tags import faces as _faces
from niuniu.console import labels
from niuniu.console.forms import HAND_SIZE

register = template.Library()


@register.filter
def hand_label(category: str | None) -> str:
    return labels.hand_label(category) if category else ""


@register.filter
def bet_label(bet_type: str) -> str:
    return labels.bet_label(bet_type)


@register.simple_tag
def stake_input(stake: Any, stakes_url: str) -> SafeString:
    """A box's field for one bet's stake, which asks ``stakes_url`` (the stakes partial)
    as the dealer types. A tag, not a dozen template nodes, as the member's and the cards'
    fields are: the round screen and every Confirm's answer draw one for each bet of each
    box, 37 fields in all for six boxes (docs/BENCHMARKS.md "floor")."""
    position = stake.position
    return format_html(
        '<input id="{name}" name="{name}" value="{text}" inputmode="decimal" '
        'aria-label="{box}: {label}" placeholder="{label}" aria-describedby="limit-{bet_type}" '
        'data-field data-stake data-box="{position}" '
        'hx-get="{url}" hx-vals=\'{{"box": "{position}"}}\' '
        'hx-include="[data-stake]" hx-trigger="input changed delay:200ms" '
        'hx-target="#stakes-{position}" hx-sync="#box-{position}:queue last"{invalid}>',
        name=stake.name,
        text=stake.text,
        box=box_label(position),
        label=stake.label,
        bet_type=stake.bet_type,
        position=position,
        url=stakes_url,
        invalid=_INVALID if stake.error else "",
    )


@register.simple_tag
def member_input(box: Any, player_url: str) -> SafeString:
    """A box's field for the player's membership number, which asks ``player_url`` (the
    player partial) as the dealer types."""
    position = box.position
    return format_html(
        '<input id="{name}" name="{name}" value="{member}" placeholder="{placeholder}" '
        'aria-label="{box}: {label}" data-field hx-get="{url}" '
        'hx-vals=\'{{"box": "{position}"}}\' hx-trigger="input changed delay:250ms" '
        'hx-target="#player-{position}" hx-sync="this:queue last"{invalid}>',
        name=box.member_name,
        member=box.member,
        placeholder=gettext("member no."),
        box=box_label(position),
        label=gettext("membership number"),
        url=player_url,
        position=position,
        invalid=_INVALID if box.player_error else "",
    )


@register.simple_tag
def cards_input(hand: Any, hand_url: str) -> SafeString:
    """A hand's field for its cards, a box's or the dealer's (``hand.position`` None, the
    last field of the round), which asks ``hand_url`` (the hand partial) as cards are typed.

    ``data-hand`` names where the hand is drawn and ``data-hand-size`` how many cards make
    it whole: a hand still short of them, every card readable and none in another hand, is
    drawn by the browser as the hand partial would draw it (``static/js/console.js``,
    ``shortHand``), and the partial is asked only for the rest."""
    box = "dealer" if hand.position is None else hand.position
    return format_html(
        '<input id="{name}" name="{name}" value="{text}" placeholder="ks qh 10d 3c 7s" '
        'aria-label="{label}: {cards}" data-field data-cards data-box="{box}"{last} '
        'data-hand="{hand}" data-hand-size="{size}" '
        'hx-get="{url}" hx-vals=\'{{"box": "{box}"}}\' '
        'hx-include="[data-cards]" hx-trigger="input changed delay:120ms" '
        'hx-swap="none" hx-sync="this:queue last"{invalid}>',
        name=hand.name,
        text=hand.text,
        label=box_label(hand.position),
        cards=gettext("cards"),
        box=box,
        hand=hand.dom_id,
        size=HAND_SIZE,
        last=SafeString(" data-last") if hand.position is None else "",
        url=hand_url,
        invalid=_INVALID if hand.error else "",
    )


_INVALID = SafeString(' aria-invalid="true"')


@register.simple_tag
def hand_split(evaluation: dict[str, Any] | None, cards: str = "") -> SafeString:
    """A hand laid out as the dealer lays it on the felt (seed 001): the two cards above
    the three that make Niu; without Niu, the first two as dealt above the other three, so
    every hand has the same shape. Then its name in the page's language and its high card.

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
        dealt = cards.split()
        felt = format_html(
            '<div class="two">{}</div><div class="three">{}</div>',
            _faces(" ".join(dealt[:2]), high),
            _faces(" ".join(dealt[2:]), high),
        )
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
        face(parse_card(high)),
    )


@register.simple_tag
def bet_labels() -> dict[str, str]:
    """Every bet's name, for the console's shared bets table."""
    return {
        bet_type: labels.bet_label(bet_type) for bet_type in ("single", "double", "super", "bonus")
    }
