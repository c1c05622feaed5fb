"""Mau Binh's settlement preview: the pairwise matrix (chi each seat wins from each other,
scoops marked), each seat's gross, fee and net, and the totals (the console's shared totals
and Confirm block)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from casino.floor.console.round import Totals
from casino.games import RoundResult


def preview_of(result: RoundResult, digest: str) -> dict[str, Any]:
    positions = [box.position for box in result.boxes]
    seats = []
    zero = Decimal(0)
    for box in result.boxes:
        evaluation = box.evaluation
        bet = box.bets[0]
        cells = []
        for opponent in positions:
            pair = evaluation["against"].get(str(opponent)) if opponent != box.position else None
            cells.append(
                {
                    "opponent": opponent,
                    "pair": pair,
                    "scooped": opponent in evaluation["scooped"],
                    "scooped_by": opponent in evaluation["scooped_by"],
                }
            )
        seats.append(
            {
                "position": box.position,
                "evaluation": evaluation,
                "cells": cells,
                "chi": evaluation["chi"],
                "stake": bet.stake,
                "gross": bet.gross,
                "fee": bet.commission,
                "net": bet.net,
                "outcome": bet.outcome,
            }
        )
    return {
        "positions": positions,
        "seats": seats,
        "stake": result.boxes[0].bets[0].stake,
        "gross": sum((s["gross"] for s in seats), zero),
        "totals": Totals.of(result),
        "digest": digest,
    }
