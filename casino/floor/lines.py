"""A line of figures from its sums: hold, theoretical win, actual less theoretical and the
95% range of the hold, each as ``casino.floor.figures`` defines it. A shift report's
sections, a period's lines and a player's rating write their lines with it."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from casino.floor import figures
from casino.floor.figures import CENT, pct

#: A line's empty amount, written to the cent.
ZERO = Decimal("0.00")
#: The two-sided 95% quantile of the normal distribution: the hold's range.
Z95 = Decimal("1.96")


def figure_line(sums: dict[str, Any], *, rounds: int | None = None) -> dict[str, Any]:
    """A section's line from its sums: hold, theoretical, actual - theoretical, the range."""
    handle = sums.get("t_handle") or ZERO
    player_result = sums.get("t_player_result") or ZERO
    house_win = figures.house_win(player_result)
    unrated = sums.get("t_unrated_handle") or ZERO
    theoretical = sums.get("t_theoretical_win") if not unrated else None
    if theoretical is not None:
        theoretical = theoretical.quantize(CENT)
    line: dict[str, Any] = {
        "rounds": rounds,
        "bets": sums.get("t_bets") or 0,
        "handle": handle,
        "player_result": player_result,
        "commission": sums.get("t_commission") or ZERO,
        "house_win": house_win,
        "hold_pct": pct(house_win, handle),
        "theoretical_win": theoretical,
        "theoretical_hold_pct": pct(theoretical, handle),
        "actual_minus_theoretical": house_win - theoretical if theoretical is not None else None,
        "unrated_handle": unrated,
        "volume": sums.get("t_volume") or ZERO,
    }
    line.update(fluctuation(sums, house_win=house_win, theoretical=theoretical))
    return line


def fluctuation(
    sums: dict[str, Any], *, house_win: Decimal, theoretical: Decimal | None
) -> dict[str, Any]:
    """The 95% range of the hold implied by the bets' SD, and whether the hold is outside."""
    variance = sums.get("t_win_variance")
    handle = sums.get("t_handle") or ZERO
    if theoretical is None or variance is None or sums.get("t_unvaried_handle") or not handle:
        return {"hold_low_pct": None, "hold_high_pct": None, "flagged": None}
    spread = Z95 * Decimal(variance).sqrt()
    low, high = theoretical - spread, theoretical + spread
    return {
        "hold_low_pct": pct(low, handle),
        "hold_high_pct": pct(high, handle),
        "flagged": not low <= house_win <= high,
    }
