"""How the management reports show Baccarat: a house-banked game, its bets rated by the house
edge of the version they were played under."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from baccarat.console.labels import bet_label
from casino.games import GameReports


class BaccaratReports(GameReports):
    label = _("Baccarat")
    house_banked = True

    def bet_label(self, bet_type: str) -> str:
        return bet_label(bet_type)


REPORTS = BaccaratReports()
