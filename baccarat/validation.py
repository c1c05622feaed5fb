"""What makes Baccarat rules sane, in words a venue manager can act on.

Used by the admin's form (before saving), by the house-edge panel and by approval (before
anything goes live). The model's validators catch a field on its own; these are the rules
read together.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Protocol

from django.utils.translation import gettext as _

from baccarat.models import MAX_DECKS, Variant
from casino.kernel.money import plain


class VersionLike(Protocol):
    decks: int | None
    variant: str
    banker_commission: Decimal | None
    banker_six_odds: Decimal | None
    tie_odds: Decimal | None
    pair_odds: Decimal | None
    super6_two_card_odds: Decimal | None
    super6_three_card_odds: Decimal | None

    def offered_bet_types(self) -> list[str]: ...


ODDS_FIELDS = {
    "tie_odds": "Tie",
    "pair_odds": "Player Pair and Banker Pair",
    "super6_two_card_odds": "Super 6 (two cards)",
    "super6_three_card_odds": "Super 6 (three cards)",
}


def ruleset_errors(version: VersionLike) -> list[str]:
    """Every reason the rules cannot be approved; empty when they are sane."""
    errors: list[str] = []
    if version.decks is None or not 1 <= version.decks <= MAX_DECKS:
        errors.append(
            _("The shoe holds 1 to %(most)s decks, got %(decks)s.")
            % {"most": MAX_DECKS, "decks": version.decks}
        )
    commission = version.banker_commission
    if version.variant == Variant.COMMISSION:
        if commission is None or not Decimal(0) <= commission < Decimal(1):
            errors.append(
                _(
                    "The Banker commission is from 0 up to, not including, 1 (0.05 is 5%%), "
                    "got %(rate)s."
                )
                % {"rate": plain(commission) if commission is not None else "-"}
            )
    elif version.variant == Variant.NO_COMMISSION:
        six = version.banker_six_odds
        if six is None or not Decimal(0) < six <= Decimal(1):
            errors.append(
                _(
                    "A Banker win on 6 pays more than 0 and at most 1 (0.5 is 1:2) in the "
                    "no-commission variant, got %(odds)s."
                )
                % {"odds": plain(six) if six is not None else "-"}
            )
    else:
        errors.append(_("Choose the variant: commission or no commission."))
    for field, label in ODDS_FIELDS.items():
        odds = getattr(version, field)
        if odds is None or odds <= 0:
            errors.append(
                _("%(bet)s pays more than 0 (N:1), got %(odds)s.")
                % {"bet": label, "odds": plain(odds) if odds is not None else "-"}
            )
    return errors
