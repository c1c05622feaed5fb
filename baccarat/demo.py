"""Baccarat's demo: at Macau a table on each preset (commission, no commission) with rounds
played through the real services; and the round stream ``simulate`` deals from (``DEMO``).

A stream deals from a real shoe: the decks of the rules shuffled together, dealt card by card
until the cut card (then a new shoe), the tableau deciding whether a third card goes to each
hand (docs/RULES.md, Baccarat).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractUser

from baccarat import engine
from baccarat.engine import DealError
from baccarat.models import BaccaratRulesetVersion
from baccarat.selectors import cached_snapshot
from baccarat.services import venue_ruleset_from_preset
from casino.floor.models import TableSession
from casino.floor.services.closing import session_close, session_figures
from casino.floor.services.sessions import session_open
from casino.games import BoxInput
from casino.kernel.cards import DECK, Card, format_cards
from casino.players.models import Player
from casino.rulesets.models import Ruleset
from casino.rulesets.selectors import version_in_force
from casino.simulation import chips_for, play
from casino.venues.models import TableLimit, Venue
from casino.venues.services.tables import table_create

#: The demo's venue with Baccarat tables, and its tables: code, preset.
DEMO_VENUE = "macau"
DEMO_TABLES = (("BAC1", "commission"), ("BAC2", "no-commission"))
#: The venue's chips and (min, max) stake per bet type (MOP).
DEMO_DENOMINATIONS = ["1000", "500", "100", "50", "20", "10"]
DEMO_LIMITS = {
    "player": ("20", "20000"),
    "banker": ("20", "20000"),
    "tie": ("10", "2000"),
    "player_pair": ("10", "1000"),
    "banker_pair": ("10", "1000"),
    "super6": ("10", "1000"),
}
#: Cards left behind the cut card when a new shoe is shuffled.
CUT_CARD = 14


class BaccaratDemo:
    """Demo data and simulated rounds of Baccarat."""

    simulation_preset = "commission"
    simulation_limits = {
        "player": ("50000", "20000000"),
        "banker": ("50000", "20000000"),
        "tie": ("10000", "2000000"),
        "player_pair": ("10000", "1000000"),
        "banker_pair": ("10000", "1000000"),
        "super6": ("10000", "1000000"),
    }

    #: The game's own service (``<game>.services``), which takes the Protocol's arguments.
    ruleset_from_preset = staticmethod(venue_ruleset_from_preset)

    def set_up_venue(
        self, *, venue: Venue, users: Mapping[str, AbstractUser], rounds: int
    ) -> list[str]:
        """At Macau: a ruleset copied from each preset, tables BAC1 (commission) and BAC2
        (no commission), each with a session of ``rounds`` rounds played (the venue's players
        betting), closed. Nothing at another venue; a venue that has them is left as it is."""
        if venue.code != DEMO_VENUE:
            return []
        lines = []
        for code, preset in DEMO_TABLES:
            if not Ruleset.objects.filter(venue=venue, game="baccarat", code=preset).exists():
                self.ruleset_from_preset(
                    venue=venue,
                    preset_code=preset,
                    editor=users["manager"],
                    approver=users["approver"],
                    override_reason="The shipped rules, as printed.",
                )
            ruleset = Ruleset.objects.get(venue=venue, game="baccarat", code=preset)
            if venue.tables.filter(code=code).exists():
                continue
            table = table_create(
                venue=venue,
                user=users["manager"],
                code=code,
                game="baccarat",
                ruleset=ruleset,
                seats=7,
                chip_denominations=DEMO_DENOMINATIONS,
                limits={
                    b: {"min_stake": lo, "max_stake": hi} for b, (lo, hi) in DEMO_LIMITS.items()
                },
            )
            session = session_open(
                table=table,
                counted_by=users["dealer"],
                confirmed_by=users["supervisor"],
                opening_chips={d: 40 for d in DEMO_DENOMINATIONS[:4]},
            )
            voided = play(
                session=session,
                rounds=rounds,
                dealer=users["dealer"],
                supervisor=users["supervisor"],
                seed=venue.pk + len(lines),
            )
            # Closed, its tray counted: the venue's one table left open for you is its Niu Niu.
            tray = session.opening_total + session_figures(session)["win_by_ledger"]
            closed = session_close(
                session=session,
                counted_by=users["dealer"],
                confirmed_by=users["supervisor"],
                closing_chips=chips_for(tray, DEMO_DENOMINATIONS),
                variance_reason="the demo's count: what no chip makes up is not stacked",
            )
            lines.append(
                f"  {table} ({ruleset.name}): {rounds} Baccarat rounds played ({voided} "
                f"voided), house won {closed.win_by_ledger} {venue.currency}; open it again "
                "on the console to deal"
            )
        return lines

    def round_stream(
        self, *, session: TableSession, rng: random.Random
    ) -> Iterator[tuple[str, tuple[BoxInput, ...]]]:
        """Rounds fitting ``session``'s table, its limits and the rules in force."""
        table = session.table
        version = version_in_force(model=BaccaratRulesetVersion, ruleset=table.ruleset)
        rules = cached_snapshot(version)
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
            rules=rules,
            seats=table.seats,
            limits=limits,
            players=players,
        )


class SimulatedRound(NamedTuple):
    dealer_cards: str
    boxes: tuple[BoxInput, ...]


def coups(rng: random.Random, rules: engine.Ruleset) -> Iterator[engine.Coup]:
    """Endless coups dealt from a shuffled shoe of the rules' decks: four cards, then the
    third cards the tableau draws (the engine says which deal of four, five or six cards is
    the one the tableau makes); a new shoe at the cut card."""
    shoe: list[Card] = []
    while True:
        if len(shoe) < CUT_CARD:
            shoe = list(DECK) * rules.decks
            rng.shuffle(shoe)
        for count in (4, 5, 6):
            try:
                coup = engine.deal(shoe[-count:][::-1], rules)
            except DealError:
                continue
            del shoe[-count:]
            yield coup
            break
        else:  # pragma: no cover - one of the three is always the tableau's
            raise AssertionError("no deal of 4 to 6 cards follows the tableau")


def _stake(rng: random.Random, low: Decimal, high: Decimal, unit: Decimal) -> Decimal:
    """A stake between ``low`` and ``high`` in round steps of the minimum."""
    steps = int(min(high, low * 20) // low)
    return max(low, (low * rng.randint(1, steps)) // unit * unit)


def simulated_rounds(
    *,
    rng: random.Random,
    rules: engine.Ruleset,
    seats: int,
    limits: dict[str, tuple[Decimal, Decimal]],
    players: Sequence[int] = (),
    boxes: int | None = None,
    side_bet_rate: float = 0.25,
    **_ignored: Any,
) -> Iterator[SimulatedRound]:
    """An endless stream of valid Baccarat rounds for a table: the deal and the boxes, each
    betting on the Player or the Banker (or both) and now and then a side bet."""
    offered = [str(b) for b in rules.bet_types if str(b) in limits]
    mains = [b for b in offered if b in ("player", "banker")] or offered
    sides = [b for b in offered if b not in mains]
    unit = rules.rounding_unit
    for coup in coups(rng, rules):
        count = boxes or rng.randint(1, seats)
        positions = sorted(rng.sample(range(1, seats + 1), min(count, seats)))
        box_inputs = []
        for position in positions:
            main = rng.choice(mains)
            stakes = {main: _stake(rng, *limits[main], unit)}
            for bet in sides:
                if rng.random() < side_bet_rate:
                    stakes[bet] = _stake(rng, *limits[bet], unit)
            box_inputs.append(
                BoxInput(
                    position=position,
                    cards="",
                    stakes=stakes,
                    player_id=rng.choice(players) if players and rng.random() < 0.7 else None,
                )
            )
        yield SimulatedRound(format_cards(coup.cards), tuple(box_inputs))


DEMO = BaccaratDemo()
