"""Template tags of the dealer's console: card faces, money, outcomes and boxes (a game's
hands and bets are named by its own tags, ``<game>/templatetags``).

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

from casino.floor.console import labels
from casino.kernel import registry
from casino.kernel.cards import Card, parse_card
from casino.kernel.money import format_money, plain, venue_chips, venue_money
from casino.staff.roles import SUPERVISE, can

register = template.Library()


@register.filter
def chip_lines(slip: Any) -> list[tuple[Decimal, int, Decimal]]:
    """``{% for denomination, count, amount in slip|chip_lines %}``: a slip's chips, the
    highest first."""
    from casino.cage.slip_selectors import slip_lines

    return slip_lines(slip)


@register.filter
def money(amount: Decimal | None, venue: Any) -> str:
    """``{{ amount|money:venue }}`` in the venue's currency and grouping;
    ``{{ amount|money:venue.currency }}`` in the currency, grouped with commas."""
    if isinstance(venue, str):
        return format_money(amount, venue)
    return venue_money(amount, venue)


@register.filter
def signed_money(amount: Decimal | None, venue: Any) -> str:
    if isinstance(venue, str):
        return format_money(amount, venue, signed=True)
    return venue_money(amount, venue, signed=True)


@register.filter
def chips(counts: Any, venue: Any) -> list[str]:
    """``{{ counts|chips:venue }}``: a count by denomination as the venue writes it, one
    line each, the largest first (``casino.kernel.money.venue_chips``)."""
    return venue_chips(counts, venue)


@register.filter
def signed_chips(counts: Any, venue: Any) -> list[str]:
    """A difference by denomination, each line with its sign (``+1 × 10,000``)."""
    return venue_chips(counts, venue, signed=True)


@register.filter
def computed_money(amount: Decimal | None, venue: Any) -> str:
    """A computed figure (an average bet, a theoretical win) in the venue's currency,
    rounded to its minor units."""
    return venue_money(amount, venue, computed=True)


@register.filter
def odds(value: Decimal | None) -> str:
    """Odds and multiples without trailing zeros: ``2``, ``0.5``."""
    return plain(value) if value is not None else ""


@register.filter
def game_name(code: str) -> str:
    """``{{ table.game|game_name }}``: the game's name (``casino.kernel.registry.game_name``)."""
    return registry.game_name(code)


@register.filter
def outcome_label(outcome: str) -> str:
    return labels.outcome_label(outcome)


@register.filter
def box_label(position: int | None) -> str:
    return labels.box_label(position)


@register.filter
def supervises(user: Any, venue: Any) -> bool:
    """Whether ``user`` supervises at ``venue`` (records a relief, approves a void)."""
    return can(user, SUPERVISE, venue.pk)


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
def card_picker(rows: Any, used: Any) -> SafeString:
    """The 52-card picker, a row of buttons a suit; cards already in a hand are greyed out.

    A greyed card stays clickable: clicked while its own hand has the focus, it is taken
    back out of that hand (console.js). One tag for the 52 buttons, each drawn once per
    process (used or not): the round screen and every Confirm's answer draw the picker.
    """
    return format_html_join(
        "",
        '<div class="pick-row">{}</div>',
        ((SafeString("".join(_pick(card, str(card) in used) for card in row)),) for row in rows),
    )


@lru_cache(maxsize=128)
def _pick(card: Card, used: bool) -> SafeString:
    return format_html(
        '<button type="button" class="pick{}" data-pick="{}" title="{}" tabindex="-1" '
        'aria-pressed="{}">{}</button>',
        " used" if used else "",
        str(card),
        card.symbol_text,
        "true" if used else "false",
        _face(card),
    )


def faces(text: str, high_card: str = "") -> SafeString:
    """Faces of cards given as canonical text (``"KS QH"``); ``high_card`` marked."""
    return format_html_join(
        "", "{}", ((_face(parse_card(token), token == high_card),) for token in text.split())
    )


def face(card: Card) -> SafeString:
    return _face(card)


@register.simple_tag
def table_limit(screen: Any, bet_type: str) -> str:
    """The table's limits for a bet as the venue writes them (``10.000–500.000``), or
    nothing when the table has none for it."""
    limit = screen.limits.get(bet_type)
    if limit is None:
        return ""
    return _limit_range(limit, screen.venue)


@register.simple_tag
def floor_limits(limits: Any, venue: Any) -> SafeString | str:
    """A table's limits on the floor view, a bet type each (``single 10.000–500.000; ...``),
    or "none set". One tag, not a loop of the template's: the floor view draws some 80 of
    them on every poll of a pit (docs/BENCHMARKS.md "floor")."""
    if not limits:
        return gettext("none set")
    return SafeString(
        "; ".join(
            format_html(
                '<span class="floor-limit">{} {}</span>',
                limit.bet_type,
                _limit_range(limit, venue),
            )
            for limit in limits
        )
    )


def _limit_range(limit: Any, venue: Any) -> str:
    """A limit's stakes as the venue writes them: ``10.000–500.000``."""
    return f"{venue_money(limit.min_stake, venue)}–{venue_money(limit.max_stake, venue)}"
