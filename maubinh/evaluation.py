"""A Mau Binh seat as stored on its box and shown on the console: its rows described, a
foul, an instant win (declared or not), a quit, its chi and its result against each other
seat, the seats it scooped and those that scooped it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from casino.kernel.cards import Card, format_cards
from maubinh import engine
from maubinh.engine import Arrangement, PairResult, Row, SeatResult


def _row_evaluation(name: Row, cards: tuple[Card, ...], hand: engine.RowHand) -> dict[str, Any]:
    return {
        "row": name.value,
        "cards": format_cards(cards),
        "category": hand.category.name,
        "label": hand.describe(),
    }


def _pair_evaluation(pair: PairResult) -> dict[str, Any]:
    return {
        "chi": pair.chi,
        "basis": pair.basis.value,
        "rows": list(pair.rows),
        "scoop": pair.scoop,
    }


def _won_all_rows(pair: PairResult) -> bool:
    return pair.scoop and all(chi > 0 for chi in pair.rows)


def _lost_all_rows(pair: PairResult) -> bool:
    return pair.scoop and all(chi < 0 for chi in pair.rows)


def seat_evaluation(
    seat: SeatResult,
    against: Sequence[PairResult],
    rules: engine.Ruleset,
    *,
    undeclared: bool = False,
) -> dict[str, Any]:
    """A seat as stored on its box and shown on the console (``undeclared``: the player did
    not declare the instant win the hand holds)."""
    hand: Arrangement | None = seat.arrangement
    judged = None if seat.quit else hand  # a quitter's cards are shown, never compared
    held = judged.instant_win if judged is not None else None
    instant = None if undeclared else held
    rows = (
        [
            _row_evaluation(name, cards, evaluated)
            for name, cards, evaluated in zip(engine.ROWS, hand.rows, hand.hands, strict=True)
        ]
        if hand is not None
        else []
    )
    if seat.quit:
        label = f"Quit: pays {rules.quit_penalty} chi to each other player"
    elif instant is not None:
        label = f"{instant.label} (instant win, {rules.instant_win_amount(instant)} chi)"
    elif judged is not None and judged.fouled:
        label = f"Fouled: {judged.foul_reason}"
    else:
        label = " / ".join(row["label"] for row in rows)
    if held is not None and instant is None:
        label = f"{label} ({held.label} not declared)"
    return {
        "label": label,
        "rows": rows,
        "fouled": judged is not None and judged.fouled,
        "foul_reason": judged.foul_reason if judged is not None else None,
        "instant_win": instant.value if instant is not None else None,
        "undeclared_instant_win": held.value if held is not None and instant is None else None,
        "quit": seat.quit,
        "chi": seat.chi,
        "against": {str(pair.opponent): _pair_evaluation(pair) for pair in against},
        "scooped": [pair.opponent for pair in against if _won_all_rows(pair)],
        "scooped_by": [pair.opponent for pair in against if _lost_all_rows(pair)],
    }
