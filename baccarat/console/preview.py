"""Baccarat's settlement preview: the deal (both hands, the winner, a Super 6), each seat in
payment order with each bet's outcome, gross, commission and net, and the table's totals
(the console's shared totals and Confirm block)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from baccarat.console.labels import bet_label, seat_label, winner_label
from casino.floor.console.round import Totals
from casino.games import BetResult, RoundResult
from casino.players.models import Player


@dataclass(frozen=True)
class PreviewBet:
    label: str
    bet: BetResult


@dataclass(frozen=True)
class PreviewBox:
    position: int
    player: Player | None
    bets: tuple[PreviewBet, ...]
    net: Decimal

    @property
    def label(self) -> str:
        return seat_label(self.position)


@dataclass(frozen=True)
class Preview:
    """A settlement as the dealer pays it: seats in payment order, the table's totals."""

    dealer_cards: str
    deal: dict[str, Any]  # the round's ``dealer_evaluation``: player, banker, winner, super6
    boxes: tuple[PreviewBox, ...]
    totals: Totals
    digest: str = ""

    @property
    def winner(self) -> str:
        return winner_label(self.deal.get("winner"))


def preview_of(
    result: RoundResult, players: Mapping[int, Player | None], digest: str = ""
) -> Preview:
    by_position = {box.position: box for box in result.boxes}
    boxes = tuple(
        PreviewBox(
            position=position,
            player=players.get(position),
            bets=tuple(PreviewBet(bet_label(b.bet_type), b) for b in by_position[position].bets),
            net=by_position[position].net,
        )
        for position in result.payment_order
    )
    return Preview(
        dealer_cards=result.dealer_cards,
        deal=result.dealer_evaluation or {},
        boxes=boxes,
        totals=Totals.of(result),
        digest=digest,
    )
