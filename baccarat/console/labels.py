"""Baccarat's seats, bets, hands and deal as the console names them, in the active language.

Looked up when a page is rendered (``pgettext``), so they follow the language of the
request; the contexts keep the bet "Player" apart from the hand and from a person.
"""

from __future__ import annotations

from django.utils.translation import gettext, pgettext

from baccarat.selectors import behind_number


def seat_label(position: int) -> str:
    """Positions 1 to 7 are the seats ("Seat 3"); 8 and up bet behind ("Behind 1")."""
    behind = behind_number(position)
    if behind is None:
        return gettext("Seat %(n)s") % {"n": position}
    return gettext("Behind %(n)s") % {"n": behind}


def bet_label(bet_type: str) -> str:
    labels = {
        "player": pgettext("baccarat bet", "Player"),
        "banker": pgettext("baccarat bet", "Banker"),
        "tie": pgettext("baccarat bet", "Tie"),
        "player_pair": pgettext("baccarat bet", "Player Pair"),
        "banker_pair": pgettext("baccarat bet", "Banker Pair"),
        "super6": pgettext("baccarat bet", "Super 6"),
    }
    return labels.get(bet_type, bet_type)


def side_label(side: str) -> str:
    """A hand of the deal: the Player's or the Banker's."""
    if side == "player":
        return pgettext("baccarat hand", "Player")
    return pgettext("baccarat hand", "Banker")


def winner_label(winner: str | None) -> str:
    labels = {
        "player": gettext("Player wins"),
        "banker": gettext("Banker wins"),
        "tie": gettext("Tie"),
    }
    return labels.get(winner or "", "")


#: The deal's six card fields in deal order: (name, side, what the field is called).
CARD_FIELDS = ("bac-p1", "bac-b1", "bac-p2", "bac-b2", "bac-p3", "bac-b3")


def card_field_label(name: str) -> str:
    labels = {
        "bac-p1": gettext("Player card 1"),
        "bac-b1": gettext("Banker card 1"),
        "bac-p2": gettext("Player card 2"),
        "bac-b2": gettext("Banker card 2"),
        "bac-p3": gettext("Player third card"),
        "bac-b3": gettext("Banker third card"),
    }
    return labels[name]
