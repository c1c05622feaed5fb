"""Rated table games' demo: a blackjack table at the demo's first venue with its session
open and a player rated, and the ``simulate`` hooks, which a game dealing no rounds has
nothing to stream for (``DEMO``)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.utils import timezone

from casino.floor.models import TableSession
from casino.floor.services.sessions import session_open
from casino.games import BoxInput
from casino.kernel.money import plain
from casino.players.models import Player
from casino.venues.models import Table, Venue
from casino.venues.services.tables import table_create
from tablegames.models import Rating
from tablegames.selectors import BET_TYPE
from tablegames.services import rating_enter, venue_ruleset_from_preset

#: The demo's venue that gets a blackjack table.
DEMO_VENUE = "hanoi"
DEMO_TABLE = "BJ1"
DEMO_PRESET = "blackjack-6deck"
#: The table's limits in rounding units of the venue, and the demo's average bet.
DEMO_LIMITS = (10, 5000)
DEMO_AVERAGE_BET = 200
DEMO_DENOMINATIONS = (5000, 1000, 500, 100, 50, 10, 5, 1)


@transaction.atomic
def blackjack_demo(venue: Venue, users: Mapping[str, Any]) -> tuple[Table, Rating | None]:
    """A blackjack table ``BJ1`` at ``venue``: its ruleset a copy of ``blackjack-6deck``
    edited by the manager and approved by the approver, its session opened by the dealer and
    the supervisor, and the venue's first player rated by the supervisor. Idempotent."""
    existing = Table.objects.filter(venue=venue, code=DEMO_TABLE).first()
    if existing is not None:
        return existing, None
    version = venue_ruleset_from_preset(
        venue=venue, preset_code=DEMO_PRESET, editor=users["manager"], approver=users["approver"]
    )
    unit = venue.rounding_unit
    denominations = [plain(unit * n) for n in DEMO_DENOMINATIONS]
    table = table_create(
        venue=venue,
        user=users["manager"],
        code=DEMO_TABLE,
        game="tablegames",
        ruleset=version.ruleset,
        seats=7,
        chip_denominations=denominations,
        limits={BET_TYPE: {"min_stake": unit * DEMO_LIMITS[0], "max_stake": unit * DEMO_LIMITS[1]}},
    )
    session = session_open(
        table=table,
        counted_by=users["dealer"],
        confirmed_by=users["supervisor"],
        opening_chips={d: 20 for d in denominations[:4]},
    )
    player = Player.objects.filter(venue=venue, status=Player.Status.ACTIVE).first()
    if player is None:
        return table, None
    rating = rating_enter(
        session=session,
        user=users["supervisor"],
        player=player,
        average_bet=unit * DEMO_AVERAGE_BET,
        started_at=session.opened_at,
        ended_at=max(timezone.now(), session.opened_at + timedelta(microseconds=1)),
        actual_win=unit * DEMO_AVERAGE_BET,
    )
    return table, rating


class TableGamesDemo:
    """Demo data of rated table games; ``simulate`` deals no rounds of them."""

    simulation_preset = DEMO_PRESET
    simulation_limits = {BET_TYPE: ("10000", "5000000")}

    ruleset_from_preset = staticmethod(venue_ruleset_from_preset)

    def set_up_venue(
        self, *, venue: Venue, users: Mapping[str, AbstractUser], rounds: int
    ) -> list[str]:
        if venue.code != DEMO_VENUE:
            return []
        table, rating = blackjack_demo(venue, users)
        rated = f", {rating.player.name} rated" if rating is not None else ""
        return [f"  {table}: a blackjack table kept for its accounting, session open{rated}"]

    def round_stream(
        self, *, session: TableSession, rng: random.Random
    ) -> Iterator[tuple[str, tuple[BoxInput, ...]]]:
        raise NotImplementedError("a rated table game deals no rounds to stream")


DEMO = TableGamesDemo()
