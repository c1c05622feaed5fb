"""What the screens read of the players' cash: buy-ins and cash-outs at the tables."""

from __future__ import annotations

from typing import Any


def player_cash(*, player: Any) -> list[Any]:
    """The player's buy-ins and cash-outs, newest first."""
    return []
