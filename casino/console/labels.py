"""What the console calls things every game shares, in the active language, and how it
writes money. A game names its own hands and bets (``<game>/console/labels.py``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext

from casino.cards import Card, Rank, Suit
from casino.money import Grouping, currency_places, to_decimal, written


def outcome_label(outcome: str) -> str:
    labels = {"win": gettext("win"), "lose": gettext("lose"), "push": gettext("push")}
    return labels.get(outcome, outcome)


def box_label(position: int | None) -> str:
    if position is None:
        return gettext("Dealer")
    return gettext("Box %(n)s") % {"n": position}


def format_money(
    amount: Decimal | int | str | None,
    currency: str,
    *,
    signed: bool = False,
    grouping: Grouping | str = Grouping.COMMA,
) -> str:
    """``1,234,000`` for VND and KRW, ``1,234.50`` for MOP, in the venue's ``grouping``
    (``1.234.000``); never hides a digit of money.

    >>> format_money(Decimal("1234000"), "VND"), format_money(Decimal("-95.5"), "MOP")
    ('1,234,000', '-95.50')
    >>> format_money(Decimal("95000"), "VND", signed=True), format_money(Decimal("0.25"), "MOP")
    ('+95,000', '0.25')
    >>> format_money(Decimal("1000.5"), "VND"), format_money("500000", "VND", grouping="dot")
    ('1,000.5', '500.000')
    """
    if amount is None or amount == "":
        return ""
    if not isinstance(amount, Decimal):
        amount = to_decimal(amount)  # a chip denomination is stored as text
    return written(amount, grouping, places=currency_places(currency), signed=signed)


def venue_money(amount: Decimal | int | str | None, venue: Any, *, signed: bool = False) -> str:
    """An amount as ``venue`` writes it: its currency's decimals, its grouping."""
    return format_money(amount, venue.currency, signed=signed, grouping=venue.amount_grouping)


def rank_text(card: Card) -> str:
    return "10" if card.rank is Rank.TEN else card.rank.value


SUIT_NAMES = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
}
