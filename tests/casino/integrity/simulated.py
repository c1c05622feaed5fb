"""Rounds dealt by the Niu Niu engine and written straight to the integrity tallies (and a
rated player's bet tallies), as settlement would have: a fair game, or one manipulated."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.utils import timezone

from casino import games
from casino.floor.models import BetTally
from casino.floor.services.rounds import _rules_in_force
from casino.games import BoxInput
from casino.integrity.tallies import (
    round_counts,
    write_card_tallies,
    write_category_tallies,
)
from casino.kernel.cards import DECK, format_cards

STAKE = Decimal("100000")


@dataclass
class Manipulation:
    """What a crooked table does: the deck it deals (cards left out), how often the dealer
    swaps its hand for the best hand dealt, how often a losing box of ``paid_position`` is
    paid as a win, how often the box at ``favoured_position`` is given the best of the
    boxes' hands (the boxes' hands and the dealer's stay the same, only their places
    change)."""

    missing: tuple[str, ...] = ()
    swap_rate: float = 0.0
    pay_rate: float = 0.0
    paid_position: int = 1
    favour_rate: float = 0.0
    favoured_position: int = 2


def tally_base(session, game: str, gaming_date: date | None = None) -> dict:
    """The session's columns of a tally row, as settlement writes them."""
    return {
        "venue_id": session.table.venue_id,
        "shift_id": session.shift_id,
        "session_id": session.pk,
        "table_id": session.table_id,
        "dealer_id": session.dealer_id,
        "gaming_date": gaming_date or session.shift.gaming_date,
        "game": game,
    }


def deal(
    session,
    rounds: int,
    *,
    seed: int,
    boxes: int = 4,
    players: dict[int, int] | None = None,
    gaming_date: date | None = None,
    crooked: Manipulation | None = None,
) -> None:
    """Deal ``rounds`` rounds at the session's table and tally them."""
    adapter = games.get("niuniu")
    _adapter, version, rules = _rules_in_force(session)
    crooked = crooked or Manipulation()
    deck = [card for card in DECK if str(card) not in crooked.missing]
    rng = random.Random(seed)
    players = players or {}
    base = tally_base(session, "niuniu", gaming_date)
    categories: Counter = Counter()
    cards: Counter = Counter()
    bets: dict[int, list] = {}
    for _round in range(rounds):
        dealt = rng.sample(deck, 5 * (boxes + 1))
        hands = [dealt[5 * i : 5 * i + 5] for i in range(boxes + 1)]
        if crooked.swap_rate and rng.random() < crooked.swap_rate:
            ranked = sorted(
                range(boxes + 1), key=lambda i: _strength(adapter, rules, hands, i), reverse=True
            )
            best = ranked[0]
            hands[0], hands[best] = hands[best], hands[0]
        if crooked.favour_rate and rng.random() < crooked.favour_rate:
            best = max(range(1, boxes + 1), key=lambda i: _strength(adapter, rules, hands, i))
            seat = crooked.favoured_position
            hands[seat], hands[best] = hands[best], hands[seat]
        result = adapter.evaluate_round(
            rules=rules,
            dealer_cards=format_cards(hands[0]),
            boxes=[
                BoxInput(
                    position=p,
                    cards=format_cards(hands[p]),
                    stakes={"single": STAKE},
                    player_id=players.get(p),
                )
                for p in range(1, boxes + 1)
            ],
        )
        counts = adapter.integrity_counts(result)
        nets = {box.position: box.net for box in result.boxes}
        if crooked.pay_rate:
            keys = list(counts.keys)
            for i, key in enumerate(keys):
                if (
                    key.subject == "box_outcome"
                    and key.position == crooked.paid_position
                    and key.category == "lose"
                    and rng.random() < crooked.pay_rate
                ):
                    keys[i] = type(key)(key.subject, "win", key.position)
                    nets[key.position] = STAKE * Decimal("0.95")
            outcomes = [k.category for k in keys if k.subject == "box_outcome"]
            won = sum(o == "win" for o in outcomes)
            keys = [k for k in keys if k.subject != "round_outcome"]
            keys.append(type(keys[0])("round_outcome", f"{won}/{len(outcomes)}"))
            counts = type(counts)(tuple(keys), counts.cards)
        round_categories, round_cards = round_counts(
            counts, players=players, ruleset_version_id=version.pk
        )
        categories.update(round_categories)
        cards.update(round_cards)
        for position, player in players.items():
            entry = bets.setdefault(player, [0, Decimal(0), Decimal(0), Decimal(0)])
            entry[0] += 1
            entry[1] += STAKE
            entry[2] += STAKE * STAKE
            entry[3] += nets[position]
    write_category_tallies([(base, key, n) for key, n in categories.items()])
    write_card_tallies([(base, key, n) for key, n in cards.items()])
    hour = timezone.now().replace(minute=0, second=0, microsecond=0)
    for player, (n, handle, squared, result) in bets.items():
        BetTally.objects.create(
            venue_id=base["venue_id"],
            shift_id=base["shift_id"],
            session_id=base["session_id"],
            table_id=base["table_id"],
            dealer_id=base["dealer_id"],
            hour=hour,
            player_id=player,
            game="niuniu",
            ruleset_version_id=version.pk,
            bet_type="single",
            bets=n,
            handle=handle,
            stake_squared=squared,
            player_result=result,
            commission=Decimal(0),
            volume=Decimal(0),
            max_net=STAKE,
        )


def _strength(adapter, rules, hands, index):
    """How a hand ranks against the others (wins against them, the engine settling)."""
    wins = 0
    for other in range(len(hands)):
        if other == index:
            continue
        result = adapter.evaluate_round(
            rules=rules,
            dealer_cards=format_cards(hands[other]),
            boxes=[
                BoxInput(position=1, cards=format_cards(hands[index]), stakes={"single": STAKE})
            ],
        )
        wins += result.boxes[0].bets[0].outcome == "win"
    return wins
