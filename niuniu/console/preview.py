"""Niu Niu's settlement preview: the boxes in payment order with each bet's result, and the
table's totals (the console's shared totals and Confirm block)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from casino.floor.console.round import Totals
from casino.games import BetResult, RoundResult
from casino.players.models import Player


@dataclass(frozen=True)
class PreviewBox:
    position: int
    player: Player | None
    cards: str
    evaluation: dict[str, Any]
    bets: tuple[BetResult, ...]
    net: Decimal


@dataclass(frozen=True)
class Preview:
    """A settlement as the dealer pays it: boxes in payment order, the table's totals."""

    dealer_cards: str
    dealer_evaluation: dict[str, Any] | None
    boxes: tuple[PreviewBox, ...]
    deal_order: tuple[int, ...]
    payment_order: tuple[int, ...]
    totals: Totals
    from_deposit: Decimal
    digest: str = ""


def preview_of(
    result: RoundResult, players: Mapping[int, Player | None], digest: str = ""
) -> Preview:
    by_position = {box.position: box for box in result.boxes}
    boxes = tuple(
        PreviewBox(
            position=position,
            player=players.get(position),
            cards=by_position[position].cards,
            evaluation=by_position[position].evaluation,
            bets=by_position[position].bets,
            net=by_position[position].net,
        )
        for position in result.payment_order
    )
    return Preview(
        dealer_cards=result.dealer_cards,
        dealer_evaluation=result.dealer_evaluation,
        boxes=boxes,
        deal_order=tuple(result.deal_order),
        payment_order=tuple(result.payment_order),
        totals=Totals.of(result),
        from_deposit=sum((b.from_deposit for box in boxes for b in box.bets), Decimal(0)),
        digest=digest,
    )
