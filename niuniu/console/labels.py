"""Niu Niu's hands and bets as the console names them, in the active language.

Looked up when a page is rendered (``pgettext``), so they follow the language of the
request; the contexts keep the hand "Niu Niu" apart from the game's name.
"""

from __future__ import annotations

from django.utils.translation import pgettext


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
    }
    return labels.get(bet_type, bet_type)
