"""Simulated play through the real services: for demo data, load and reports.

Rounds come from the table's game (its ``GameDemo.round_stream``: shuffled decks, random
stakes inside the table's limits), then are settled (and now and then voided) exactly as a
dealer would through the console or API. ``casino.simulation.bulk`` writes them in bulk.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from casino import games
from casino.floor.models import TableSession
from casino.floor.services.rounds import round_create_written
from casino.floor.services.settlement import round_settle_written
from casino.floor.services.voids import round_void


def play(
    *,
    session: TableSession,
    rounds: int,
    dealer: Any,
    supervisor: Any | None = None,
    seed: int = 1,
    void_rate: float = 0.01,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Deal and settle ``rounds`` rounds at an open session; returns how many were voided.
    ``progress`` is told of each round played (with 1)."""
    rng = random.Random(seed)
    stream = games.get(session.table.game).demo.round_stream(session=session, rng=rng)
    voided = 0
    for n in range(rounds):
        dealer_cards, boxes = next(stream)
        dealt = round_create_written(
            session=session, user=dealer, dealer_cards=dealer_cards, boxes=boxes
        )
        round_ = dealt.round
        round_settle_written(
            round_=round_, user=dealer, key=f"sim-{session.pk}-{seed}-{n}", dealt=dealt
        )
        if supervisor is not None and rng.random() < void_rate:
            round_void(
                round_=round_,
                requested_by=dealer,
                approved_by=supervisor,
                reason="simulated misdeal",
            )
            voided += 1
        if progress is not None:
            progress(1)
    return voided


def chips_for(total: Decimal, denominations: Sequence[str]) -> dict[str, int]:
    """A chip count worth ``total``, largest chips first (what a closer would stack)."""
    chips: dict[str, int] = {}
    left = total
    for denomination in sorted(denominations, key=Decimal, reverse=True):
        count = int(left // Decimal(denomination))
        if count:
            chips[denomination] = count
            left -= count * Decimal(denomination)
    return chips


def tray_chips(total: Decimal, denominations: Sequence[str]) -> dict[str, int]:
    """The chips of a tray worth exactly ``total`` (``chips_for``), so that a demo's closer
    is the tray as it truly stands and its day reconciles to the unit: a ``ValueError``
    where no chip makes up what is left (a settled amount finer than the smallest chip:
    stakes in steps of the minimum bet keep every payout and commission whole chips).

    >>> tray_chips(Decimal("1500"), ["1000", "500"])
    {'1000': 1, '500': 1}
    >>> tray_chips(Decimal("1499.50"), ["1000", "500"])
    Traceback (most recent call last):
    ...
    ValueError: no chip makes up 499.50 of a tray of 1499.50
    """
    chips = chips_for(total, denominations)
    left = total - sum((Decimal(d) * n for d, n in chips.items()), Decimal(0))
    if left:
        raise ValueError(f"no chip makes up {left} of a tray of {total}")
    return chips
