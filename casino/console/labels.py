"""What the console calls things every game shares, in the active language, and how it
writes money. A game names its own hands and bets (``<game>/console/labels.py``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext

from casino.cards import Card, Rank, Suit
from casino.money import Grouping, grouped, to_decimal

#: Digits after the decimal point per ISO 4217 currency (the ones the venues use); others 2.
MINOR_UNITS = {"VND": 0, "KRW": 0, "JPY": 0, "MOP": 2, "HKD": 2, "USD": 2, "EUR": 2}


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
    places = MINOR_UNITS.get(currency, 2)
    exponent = amount.normalize().as_tuple().exponent
    if isinstance(exponent, int) and -exponent > places:
        places = -exponent  # more digits than the currency has: show them all
    text = grouped(amount, places, grouping)
    if signed and amount > 0:
        text = "+" + text
    return text


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
