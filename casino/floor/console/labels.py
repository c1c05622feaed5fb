"""What the console calls things every game shares, in the active language (amounts are
written by ``casino.kernel.money.venue_money``). A game names its own hands and bets
(``<game>/console/labels.py``).
"""

from __future__ import annotations

from django.utils.translation import gettext

from casino.kernel.cards import Card, Rank, Suit


def outcome_label(outcome: str) -> str:
    labels = {"win": gettext("win"), "lose": gettext("lose"), "push": gettext("push")}
    return labels.get(outcome, outcome)


def box_label(position: int | None) -> str:
    if position is None:
        return gettext("Dealer")
    return gettext("Box %(n)s") % {"n": position}


def rank_text(card: Card) -> str:
    return "10" if card.rank is Rank.TEN else card.rank.value


SUIT_NAMES = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
}
