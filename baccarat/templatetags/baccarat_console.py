"""Template tags of Baccarat's round screen and history: seats, bets and the deal in the
page's language, and the shoe a round was dealt from."""

from __future__ import annotations

from typing import Any

from django import template

from baccarat.console import labels
from baccarat.engine import BetType
from baccarat.engine.odds import price
from baccarat.models import Shoe

register = template.Library()


@register.filter(name="price")
def price_filter(odds: Any) -> str:
    """Odds as the table's sign says them (``baccarat.engine.odds.price``): "8:1", "1:2"."""
    return price(odds) if odds is not None else ""


@register.filter
def seat_label(position: int) -> str:
    return labels.seat_label(position)


@register.filter
def bet_label(bet_type: str) -> str:
    return labels.bet_label(bet_type)


@register.filter
def winner_label(winner: str | None) -> str:
    return labels.winner_label(winner)


@register.simple_tag
def bet_labels() -> dict[str, str]:
    """Every bet's name, for ``console/_bets.html``."""
    return {str(bet): labels.bet_label(str(bet)) for bet in BetType}


@register.simple_tag(takes_context=True)
def round_shoe(context: template.Context, round_: Any) -> int:
    """The number of the shoe ``round_`` was dealt from: the last of its session's shoes
    started before it was created (1 before any). The session's shoes are read once per
    page, however many rounds it lists (kept at the page's root: each round's partial is
    a template of its own)."""
    cache = context.render_context.dicts[0].setdefault("baccarat_shoes", {})
    shoes = cache.get(round_.session_id)
    if shoes is None:
        shoes = cache[round_.session_id] = list(
            Shoe.objects.filter(session_id=round_.session_id)
            .order_by("number")
            .values_list("number", "started_at")
        )
    started = [number for number, at in shoes if at <= round_.created_at]
    return max(started, default=1)
