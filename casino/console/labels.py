"""What the console calls things, in the active language, and how it writes money.

Hand and bet names are looked up when a page is rendered (``pgettext``), so they follow the
language of the request; the contexts keep the hand "Niu Niu" apart from the game's name.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext, pgettext

from casino.cards import Card, Rank, Suit
from casino.money import to_decimal
from maubinh.engine import Arrangement, InstantWin, RowCategory, RowHand
from maubinh.engine.rows import rank_name

#: Digits after the decimal point per ISO 4217 currency (the ones the venues use); others 2.
MINOR_UNITS = {"VND": 0, "KRW": 0, "JPY": 0, "MOP": 2, "HKD": 2, "USD": 2, "EUR": 2}


def hand_label(category: str) -> str:
    """A hand category (``NIU_8``, ``NO_NIU``...) as the venue's sheets name it."""
    if category.startswith("NIU_") and category[4:].isdigit():
        return pgettext("hand", "Niu %(n)s") % {"n": int(category[4:])}
    labels = {
        "NIU_NIU": pgettext("hand", "Niu Niu"),
        "NO_NIU": pgettext("hand", "No Niu"),
        "FIVE_FACE": pgettext("hand", "Five Face (Super Niu Niu)"),
        "FOUR_OF_A_KIND": pgettext("hand", "Four of a Kind"),
        "FIVE_SMALL": pgettext("hand", "Five Small"),
    }
    return labels.get(category, category)


def bet_label(bet_type: str) -> str:
    labels = {
        "single": pgettext("bet", "Single"),
        "double": pgettext("bet", "Double"),
        "super": pgettext("bet", "Super"),
        "bonus": pgettext("bet", "Bonus"),
        "stake": pgettext("bet", "Stake"),  # Mau Binh's one bet: the table stake
    }
    return labels.get(bet_type, bet_type)


def outcome_label(outcome: str) -> str:
    labels = {"win": gettext("win"), "lose": gettext("lose"), "push": gettext("push")}
    return labels.get(outcome, outcome)


def box_label(position: int | None) -> str:
    if position is None:
        return gettext("Dealer")
    return gettext("Box %(n)s") % {"n": position}


def format_money(amount: Decimal | int | str | None, currency: str, *, signed: bool = False) -> str:
    """``1,234,000`` for VND and KRW, ``1,234.50`` for MOP; never hides a digit of money.

    >>> format_money(Decimal("1234000"), "VND"), format_money(Decimal("-95.5"), "MOP")
    ('1,234,000', '-95.50')
    >>> format_money(Decimal("95000"), "VND", signed=True), format_money(Decimal("0.25"), "MOP")
    ('+95,000', '0.25')
    >>> format_money(Decimal("1000.5"), "VND"), format_money("500000", "VND")
    ('1,000.5', '500,000')
    """
    if amount is None or amount == "":
        return ""
    if not isinstance(amount, Decimal):
        amount = to_decimal(amount)  # a chip denomination is stored as text
    places = MINOR_UNITS.get(currency, 2)
    exponent = amount.normalize().as_tuple().exponent
    if isinstance(exponent, int) and -exponent > places:
        places = -exponent  # more digits than the currency has: show them all
    text = f"{amount:,.{places}f}"
    if signed and amount > 0:
        text = "+" + text
    return text


def rank_text(card: Card) -> str:
    return "10" if card.rank is Rank.TEN else card.rank.value


SUIT_NAMES = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
}


# Mau Binh: rows, instant wins and fouls in the active language (the engine speaks English)


def row_label(hand: RowHand) -> str:
    """A Mau Binh row as a dealer calls it: "Two Pair, 9s and 2s", "Thú 9 và 2".

    The English reads as ``RowHand.describe()``; a rank is written as on the card.
    """
    c, r = hand.category, [rank_name(rank) for rank in hand.ranks]
    if c is RowCategory.FOUR_OF_A_KIND:
        return pgettext("row", "Four of a Kind, %(rank)ss") % {"rank": r[0]}
    if c is RowCategory.THREE_OF_A_KIND:
        return pgettext("row", "Three of a Kind, %(rank)ss") % {"rank": r[0]}
    if c is RowCategory.FULL_HOUSE:
        return pgettext("row", "Full House, %(three)ss over %(two)ss") % {
            "three": r[0],
            "two": r[1],
        }
    if c is RowCategory.TWO_PAIR:
        return pgettext("row", "Two Pair, %(high)ss and %(low)ss") % {"high": r[0], "low": r[1]}
    if c is RowCategory.PAIR:
        return pgettext("row", "Pair of %(rank)ss") % {"rank": r[0]}
    if c is RowCategory.HIGH_CARD:
        return pgettext("row", "High Card, %(rank)s") % {"rank": r[0]}
    # Straights and flushes: named by the top card; a wheel by its 5, wherever it ranks.
    top = "5" if c is not RowCategory.FLUSH and r[:2] == ["A", "5"] else r[0]
    if c is RowCategory.STRAIGHT_FLUSH:
        return pgettext("row", "Straight Flush, %(rank)s high") % {"rank": top}
    if c is RowCategory.FLUSH:
        return pgettext("row", "Flush, %(rank)s high") % {"rank": top}
    return pgettext("row", "Straight, %(rank)s high") % {"rank": top}


def instant_win_label(kind: InstantWin) -> str:
    """An instant win ("mậu binh") by the name the venue's sheet gives it."""
    labels = {
        InstantWin.DRAGON_FLUSH: pgettext("instant win", "Dragon Flush"),
        InstantWin.DRAGON: pgettext("instant win", "Dragon"),
        InstantWin.SIX_PAIRS: pgettext("instant win", "Six Pairs"),
        InstantWin.THREE_FLUSHES: pgettext("instant win", "Three Flushes"),
        InstantWin.THREE_STRAIGHTS: pgettext("instant win", "Three Straights"),
    }
    return labels.get(kind, kind.label)


def foul_label(arrangement: Arrangement) -> str:
    """Which rows of a fouled hand are out of order ("" when it is not fouled)."""
    back, middle, front = arrangement.hands
    if back.strength < middle.strength:
        return gettext("the middle row (%(middle)s) beats the back row (%(back)s)") % {
            "middle": row_label(middle),
            "back": row_label(back),
        }
    if middle.strength < front.strength:
        return gettext("the front row (%(front)s) beats the middle row (%(middle)s)") % {
            "front": row_label(front),
            "middle": row_label(middle),
        }
    return ""
