"""Mau Binh's rows, instant wins and fouls as the console names them, in the active
language (the engine speaks English).
"""

from __future__ import annotations

from django.utils.translation import gettext, pgettext

from maubinh.engine import Arrangement, InstantWin, RowCategory, RowHand
from maubinh.engine.rows import rank_name


def bet_label(bet_type: str) -> str:
    """The game's one bet: the table stake."""
    return pgettext("bet", "Stake") if bet_type == "stake" else bet_type


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
