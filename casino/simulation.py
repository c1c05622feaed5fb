"""Simulated play through the real services: for demo data, load and reports.

Rounds are dealt from a shuffled deck with random stakes inside the table's limits, then
settled (and now and then voided) exactly as a dealer would through the console or API.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from casino import games
from casino.cards import DECK, format_cards
from casino.games import BoxInput
from casino.models import Player, TableLimit, TableSession
from casino.rules import version_in_force
from casino.services.rounds import round_create, round_settle, round_void


@dataclass(frozen=True)
class SimulatedRound:
    dealer_cards: str
    boxes: tuple[BoxInput, ...]


def _stake(rng: random.Random, low: Decimal, high: Decimal, unit: Decimal) -> Decimal:
    """A stake between ``low`` and ``high`` in round steps of the minimum."""
    steps = int(min(high, low * 20) // low)
    return max(low, (low * rng.randint(1, steps)) // unit * unit)


def simulated_rounds(
    *,
    rng: random.Random,
    seats: int,
    limits: dict[str, tuple[Decimal, Decimal]],
    bet_types: Sequence[str],
    deposit_multiples: dict[str, Decimal],
    unit: Decimal,
    players: Sequence[int] = (),
    boxes: int | None = None,
    side_bet_rate: float = 0.35,
) -> Iterator[SimulatedRound]:
    """An endless stream of valid Niu Niu rounds for a table."""
    while True:
        deck = list(DECK)
        rng.shuffle(deck)
        count = boxes or rng.randint(1, seats)
        positions = sorted(rng.sample(range(1, seats + 1), count))
        box_inputs = []
        for n, position in enumerate(positions):
            cards = format_cards(deck[5 * (n + 1) : 5 * (n + 2)])
            stakes = {"single": _stake(rng, *limits["single"], unit)}
            for bet_type in bet_types:
                if bet_type != "single" and bet_type in limits and rng.random() < side_bet_rate:
                    stakes[bet_type] = _stake(rng, *limits[bet_type], unit)
            deposits = {
                b: s * deposit_multiples[b] for b, s in stakes.items() if b in deposit_multiples
            }
            box_inputs.append(
                BoxInput(
                    position=position,
                    cards=cards,
                    stakes=stakes,
                    deposits=deposits,
                    player_id=rng.choice(players) if players and rng.random() < 0.7 else None,
                )
            )
        yield SimulatedRound(dealer_cards=format_cards(deck[:5]), boxes=tuple(box_inputs))


def table_stream(
    session: TableSession, rng: random.Random, **kwargs: Any
) -> Iterator[SimulatedRound]:
    """Rounds fitting ``session``'s table, its limits and the rules in force."""
    table = session.table
    adapter = games.get(table.game)
    version = version_in_force(model=adapter.version_model, ruleset=table.ruleset)
    rules = adapter.snapshot(version)
    limits = {
        limit.bet_type: (limit.min_stake, limit.max_stake)
        for limit in TableLimit.objects.filter(table=table)
    }
    players = list(
        Player.objects.filter(venue=table.venue_id, status=Player.Status.ACTIVE).values_list(
            "pk", flat=True
        )
    )
    return simulated_rounds(
        rng=rng,
        seats=table.seats,
        limits=limits,
        bet_types=adapter.offered_bet_types(rules),
        deposit_multiples={str(b): m for b, m in rules.deposit_multiples.items()},
        unit=rules.rounding_unit,
        players=players,
        **kwargs,
    )


def play(
    *,
    session: TableSession,
    rounds: int,
    dealer: Any,
    supervisor: Any | None = None,
    seed: int = 1,
    void_rate: float = 0.01,
) -> int:
    """Deal and settle ``rounds`` rounds at an open session; returns how many were voided."""
    rng = random.Random(seed)
    stream = table_stream(session, rng)
    voided = 0
    for n in range(rounds):
        simulated = next(stream)
        round_, _ = round_create(
            session=session, user=dealer, dealer_cards=simulated.dealer_cards, boxes=simulated.boxes
        )
        round_settle(round_=round_, user=dealer, key=f"sim-{session.pk}-{seed}-{n}")
        if supervisor is not None and rng.random() < void_rate:
            round_void(
                round_=round_,
                requested_by=dealer,
                approved_by=supervisor,
                reason="simulated misdeal",
            )
            voided += 1
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
