"""Niu Niu's hands and bets as the console names them, in the active language.

Looked up when a page is rendered, so they follow the language of the request; the contexts
keep the hand "Niu Niu" apart from the game's name. Each name is a lazy translation made once,
so a label translates the one name it shows (a round's screen asks for a few hundred).
"""

from __future__ import annotations

from django.utils.translation import pgettext, pgettext_lazy

HAND_LABELS = {
    "NIU_NIU": pgettext_lazy("hand", "Niu Niu"),
    "NO_NIU": pgettext_lazy("hand", "No Niu"),
    "FIVE_FACE": pgettext_lazy("hand", "Five Face (Super Niu Niu)"),
    "FOUR_OF_A_KIND": pgettext_lazy("hand", "Four of a Kind"),
    "FIVE_SMALL": pgettext_lazy("hand", "Five Small"),
}
BET_LABELS = {
    "single": pgettext_lazy("bet", "Single"),
    "double": pgettext_lazy("bet", "Double"),
    "super": pgettext_lazy("bet", "Super"),
    "bonus": pgettext_lazy("bet", "Bonus"),
}


def hand_label(category: str) -> str:
    """A hand category (``NIU_8``, ``NO_NIU``...) as the venue's sheets name it."""
    if category.startswith("NIU_") and category[4:].isdigit():
        return pgettext("hand", "Niu %(n)s") % {"n": int(category[4:])}
    label = HAND_LABELS.get(category)
    return str(label) if label is not None else category


def bet_label(bet_type: str) -> str:
    label = BET_LABELS.get(bet_type)
    return str(label) if label is not None else bet_type
