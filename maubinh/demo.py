"""Mau Binh's demo: a table at the demo's first venue with rounds played through the real
services, and the round stream ``simulate`` deals from (``DEMO``)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import transaction

from casino.floor.models import TableSession
from casino.floor.services.rounds import round_create_written
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle_written
from casino.games import BoxInput
from casino.kernel.cards import DECK, format_cards
from casino.kernel.money import plain
from casino.players.models import Player
from casino.rulesets.selectors import version_in_force
from casino.venues.models import Table, TableLimit, Venue
from casino.venues.services.tables import table_create
from maubinh import engine
from maubinh.models import MauBinhRulesetVersion
from maubinh.seats import BET_TYPE
from maubinh.selectors import cached_snapshot
from maubinh.services import venue_ruleset_from_preset

#: The demo's venue that gets a Mau Binh table.
DEMO_VENUE = "hanoi"
DEMO_TABLE = "MB1"
DEMO_ROUNDS = 30
#: Table stakes of the demo, in rounding units of its ruleset version.
DEMO_STAKES = (10, 20, 50, 100)
#: Used when the venue has no table yet to take its chips from.
DEMO_DENOMINATIONS = (5000, 1000, 500, 100, 50, 10, 5, 1)


def seat_cards(rows: tuple[tuple[Any, ...], ...]) -> str:
    """Three rows as a seat's cards are entered: ``"back / middle / front"``."""
    return " / ".join(format_cards(row) for row in rows)


def _demo_denominations(venue: Venue) -> list[str]:
    table = Table.objects.filter(venue=venue).exclude(chip_denominations=[]).first()
    if table is not None:
        return list(table.chip_denominations)
    unit = venue.rounding_unit
    return [plain(unit * n) for n in DEMO_DENOMINATIONS]


@transaction.atomic
def maubinh_demo(
    venue: Venue, users: Mapping[str, Any], *, rounds: int = DEMO_ROUNDS, seed: int | None = None
) -> Table:
    """A Mau Binh table ``MB1`` at ``venue`` with ``rounds`` rounds played through the services.

    The ruleset is a copy of ``bigkool-2016`` edited by ``users["manager"]``, who sets up the
    table through the table service, and approved by ``users["approver"]``;
    ``users["dealer"]`` opens the session and deals. Players lay out
    with the auto-arranger; in one round a player quits, in another one fouls (lays the
    middle row at the back). The session is left open for the console. Idempotent: a venue
    that has the table already is left as it is.
    """
    existing = Table.objects.filter(venue=venue, code=DEMO_TABLE).first()
    if existing is not None:
        return existing
    version = venue_ruleset_from_preset(
        venue=venue,
        preset_code="bigkool-2016",
        editor=users["manager"],
        approver=users["approver"],
    )
    # Stakes are multiples of the version's rounding unit (it started as the venue's).
    rules = cached_snapshot(version)
    unit = rules.rounding_unit
    denominations = _demo_denominations(venue)
    table = table_create(
        venue=venue,
        user=users["manager"],
        code=DEMO_TABLE,
        game="maubinh",
        ruleset=version.ruleset,
        seats=engine.MAX_PLAYERS,
        chip_denominations=denominations,
        limits={"stake": {"min_stake": unit * DEMO_STAKES[0], "max_stake": unit * 1000}},
    )
    dealer = users["dealer"]
    session = session_open(
        table=table,
        counted_by=dealer,
        confirmed_by=users["supervisor"],
        opening_chips={d: 20 for d in denominations[:4]},
    )
    players = list(
        Player.objects.filter(venue=venue, status=Player.Status.ACTIVE).values_list("pk", flat=True)
    )
    rng = random.Random(venue.pk if seed is None else seed)
    quit_round, foul_round = rounds // 3, 2 * rounds // 3
    for number in range(rounds):
        deck = list(DECK)
        rng.shuffle(deck)
        count = rng.choice((2, 3, 4, 4, 4))
        positions = sorted(rng.sample(range(1, engine.MAX_PLAYERS + 1), count))
        stake = unit * rng.choice(DEMO_STAKES)
        seated = rng.sample(players, min(count, len(players)))
        boxes = []
        for n, position in enumerate(positions):
            rows = engine.suggest_arrangement(deck[13 * n : 13 * (n + 1)], rules)
            quit = number == quit_round and n == count - 1
            if number == foul_round and n == 0:
                rows = (rows[1], rows[0], rows[2])  # the middle laid at the back
            boxes.append(
                BoxInput(
                    position=position,
                    cards="" if quit else seat_cards(rows),
                    stakes={"stake": stake},
                    player_id=seated[n] if n < len(seated) else None,
                    quit=quit,
                )
            )
        dealt = round_create_written(session=session, user=dealer, dealer_cards="", boxes=boxes)
        key = f"mb-demo-{session.pk}-{number}"
        round_settle_written(round_=dealt.round, user=dealer, key=key, dealt=dealt)
    return table


class MauBinhDemo:
    """Demo data and simulated rounds of Mau Binh."""

    simulation_preset = "bigkool-2016"
    simulation_limits = {"stake": ("50000", "20000000")}

    #: The game's own service (``<game>.services``), which takes the Protocol's arguments.
    ruleset_from_preset = staticmethod(venue_ruleset_from_preset)

    def set_up_venue(
        self, *, venue: Venue, users: Mapping[str, AbstractUser], rounds: int
    ) -> list[str]:
        if venue.code != DEMO_VENUE:
            return []
        table = maubinh_demo(venue, users)
        return [f"  {table}: {DEMO_ROUNDS} Mau Binh rounds played; its session is open for you"]

    def round_stream(
        self, *, session: TableSession, rng: random.Random
    ) -> Iterator[tuple[str, tuple[BoxInput, ...]]]:
        """Seats of 2 to the table's seats laying out with the auto-arranger, at a table stake
        between the table's limits in steps of the minimum."""
        table = session.table
        version = version_in_force(model=MauBinhRulesetVersion, ruleset=table.ruleset)
        rules = cached_snapshot(version)
        limit = TableLimit.objects.get(table=table, bet_type=BET_TYPE)
        low, high = limit.min_stake, limit.max_stake
        players = list(
            Player.objects.filter(venue=table.venue_id, status=Player.Status.ACTIVE).values_list(
                "pk", flat=True
            )
        )
        seats = min(table.seats, engine.MAX_PLAYERS)
        return _rounds(rng, rules, seats, low, high, players)


def _rounds(
    rng: random.Random,
    rules: engine.Ruleset,
    seats: int,
    low: Decimal,
    high: Decimal,
    players: list[int],
) -> Iterator[tuple[str, tuple[BoxInput, ...]]]:
    steps = int(min(high, low * 20) // low)
    while True:
        deck = list(DECK)
        rng.shuffle(deck)
        count = rng.randint(2, seats)
        positions = sorted(rng.sample(range(1, seats + 1), count))
        stake = low * rng.randint(1, steps)
        seated = rng.sample(players, min(count, len(players)))
        boxes = []
        for n, position in enumerate(positions):
            rows = engine.suggest_arrangement(deck[13 * n : 13 * (n + 1)], rules)
            holds = engine.check_arrangement(*rows, rules).instant_win is not None
            boxes.append(
                BoxInput(
                    position=position,
                    cards=seat_cards(rows),
                    stakes={BET_TYPE: stake},
                    player_id=seated[n] if n < len(seated) and rng.random() < 0.7 else None,
                    # a simulated player declares every instant win (rules that ask, ask)
                    declared=True if holds else None,
                )
            )
        yield "", tuple(boxes)


DEMO = MauBinhDemo()
