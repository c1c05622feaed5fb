"""How the management reports show Mau Binh: players play each other and the house takes a
fee from each winner, so the report shows its volume and fees, and its theoretical win is
the fee (docs/RULES.md part B)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from casino.games import GameReports
from maubinh.console.labels import bet_label


class MauBinhReports(GameReports):
    label = _("Mau Binh")
    house_banked = False

    def bet_label(self, bet_type: str) -> str:
        return bet_label(bet_type)


REPORTS = MauBinhReports()
