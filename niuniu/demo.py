"""Niu Niu's demo: at each of the demo's venues a ruleset copied from the venue's rule sheet,
two tables, and rounds played at the first through the real services; and the round stream
``simulate`` deals from (``DEMO``)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from datetime import timedelta
from decimal import Decimal
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractUser
from django.utils import timezone

from casino.cage.services.slips import (
    slip_confirm_dealer,
    slip_confirm_supervisor,
    slip_issue,
    slip_request,
)
from casino.floor.models import Bet, RoundStatus, TableSession
from casino.floor.services.closing import session_close, session_figures
from casino.floor.services.rounds import round_create_written
from casino.floor.services.sessions import session_open, shift_current
from casino.floor.services.settlement import round_settle_written
from casino.games import BoxInput
from casino.kernel.cards import DECK, format_cards
from casino.players.models import Player
from casino.rulesets.models import Ruleset
from casino.rulesets.selectors import version_in_force
from casino.simulation import play, tray_chips
from casino.venues.models import TableLimit, Venue
from casino.venues.services.tables import table_create
from niuniu.models import NiuNiuRulesetVersion
from niuniu.selectors import cached_snapshot
from niuniu.services import venue_ruleset_from_preset

#: The rule sheet (preset) of each of the demo's venues.
#: The demo's crooked table: rounds dealt from a deck missing this card.
MISSING_CARD = "AS"
CROOKED_ROUNDS = 60
#: The round of NN3 whose deal its last round deals again.
REPEATED_DEAL = 20
#: The round of NN3 one of whose bets has its stored result altered after settlement, in the
#: database behind the services' back (as tampering would): the integrity run settles the
#: round again from its record and names that bet.
ALTERED_ROUND = 40

PRESETS = {"hanoi": "vn-kr-004", "seoul": "vn-kr-004", "macau": "macau-001"}

#: Per venue: chip denominations and (min, max) stake per bet type.
TABLE_SETUP = {
    "hanoi": (
        ["5000000", "1000000", "500000", "100000", "50000", "10000", "5000", "1000"],
        {
            "single": ("50000", "20000000"),
            "double": ("50000", "5000000"),
            "super": ("50000", "2000000"),
        },
    ),
    "seoul": (
        ["1000000", "100000", "50000", "10000", "5000", "1000", "500", "100"],
        {
            "single": ("10000", "5000000"),
            "double": ("10000", "1000000"),
            "super": ("10000", "500000"),
        },
    ),
    "macau": (
        ["10000", "5000", "1000", "500", "100", "50", "10", "5", "1"],
        {
            "single": ("100", "50000"),
            "double": ("100", "20000"),
            "super": ("100", "5000"),
            "bonus": ("100", "2000"),
        },
    ),
}


class NiuNiuDemo:
    """Demo data and simulated rounds of Niu Niu."""

    simulation_preset = "vn-kr-004"
    simulation_limits = {
        "single": ("50000", "20000000"),
        "double": ("50000", "5000000"),
        "super": ("50000", "2000000"),
    }

    #: The game's own service (``<game>.services``), which takes the Protocol's arguments.
    ruleset_from_preset = staticmethod(venue_ruleset_from_preset)

    def set_up_venue(
        self, *, venue: Venue, users: Mapping[str, AbstractUser], rounds: int
    ) -> list[str]:
        """The venue's ruleset from its rule sheet, tables NN1 and NN2, its players, and
        ``rounds`` rounds at NN1 (with the venue's players), closed (the project's demo
        reports its shift); NN2 is left open."""
        preset = PRESETS.get(venue.code)
        if preset is None:
            return []
        if not Ruleset.objects.filter(venue=venue, game="niuniu").exists():
            self.ruleset_from_preset(
                venue=venue,
                preset_code=preset,
                editor=users["manager"],
                approver=users["approver"],
                override_reason="The venue's own rule sheet, as printed.",
            )
        ruleset = Ruleset.objects.get(venue=venue, game="niuniu")
        denominations, limits = TABLE_SETUP[venue.code]
        manager = users["manager"]
        tables = [
            table_create(
                venue=venue,
                user=manager,
                code=f"NN{number}",
                game="niuniu",
                ruleset=ruleset,
                seats=5,
                chip_denominations=denominations,
                limits={b: {"min_stake": lo, "max_stake": hi} for b, (lo, hi) in limits.items()},
            )
            for number in (1, 2)
        ]
        opening = {d: 40 for d in denominations[:4]}
        # NN1 played yesterday's gaming day, whose drop box the count has counted.
        yesterday = shift_current(venue=venue, at=timezone.now() - timedelta(days=1))
        session = session_open(
            table=tables[0],
            counted_by=users["dealer"],
            confirmed_by=users["supervisor"],
            opening_chips=opening,
            shift=yesterday,
        )
        fill = demo_fill(session, users, denominations[1])
        voided = play(
            session=session,
            rounds=rounds,
            dealer=users["dealer"],
            supervisor=users["supervisor"],
            seed=venue.pk,
        )
        # Players bought chips with cash: out of the tray, the notes into the drop box.
        cash = 10 * Decimal(denominations[1])
        tray = session.opening_total + session_figures(session)["win_by_ledger"] + fill - cash
        closed = session_close(
            session=session,
            counted_by=users["dealer"],
            confirmed_by=users["supervisor"],
            # the tray as it stands, to the unit: the counted day reconciles exactly
            closing_chips=tray_chips(tray, denominations),
            variance_reason="the chips sold for cash are paid for in the drop box",
        )
        session_open(
            table=tables[1],
            counted_by=users["dealer"],
            confirmed_by=users["supervisor"],
            opening_chips=opening,
        )
        assert closed.status == TableSession.Status.CLOSED
        crooked = self._crooked_table(venue, users, ruleset, denominations, limits, opening)
        return [
            f"  Niu Niu ruleset from {preset}",
            f"  {tables[0]}: {rounds} rounds played ({voided} voided), house won "
            f"{closed.win_by_ledger} {venue.currency}; {tables[1]} is open for you",
            f"  {crooked}: {CROOKED_ROUNDS} rounds dealt from a deck missing the {MISSING_CARD} "
            "(the integrity page flags it)",
            f"  {crooked} #{ALTERED_ROUND}: a settled bet's result altered in the database, "
            "not through the services (the integrity page flags it)",
        ]

    def _crooked_table(
        self,
        venue: Venue,
        users: Mapping[str, AbstractUser],
        ruleset: Ruleset,
        denominations: Sequence[str],
        limits: Mapping[str, tuple[str, str]],
        opening: Mapping[str, int],
    ) -> str:
        """Table NN3 deals ``CROOKED_ROUNDS`` rounds from a deck the ace of spades is missing
        from (through the services, as a dealer would enter them), its last round the deal
        of round ``REPEATED_DEAL`` again (a recycled order), then closes."""
        table = table_create(
            venue=venue,
            user=users["manager"],
            code="NN3",
            game="niuniu",
            ruleset=ruleset,
            seats=5,
            chip_denominations=denominations,
            limits={b: {"min_stake": lo, "max_stake": hi} for b, (lo, hi) in limits.items()},
        )
        session = session_open(
            table=table,
            counted_by=users["dealer"],
            confirmed_by=users["supervisor"],
            opening_chips=dict(opening),
        )
        rng = random.Random(venue.pk + 3)
        stream = table_stream(session, rng)
        deck = [card for card in DECK if str(card) != MISSING_CARD]
        repeated: tuple[list, list] | None = None
        for n in range(CROOKED_ROUNDS):
            _cards, boxes = next(stream)
            dealt = rng.sample(deck, 5 * (len(boxes) + 1))
            boxes = [
                box._replace(cards=format_cards(dealt[5 * i + 5 : 5 * i + 10]))
                for i, box in enumerate(boxes)
            ]
            if n + 1 == REPEATED_DEAL:
                repeated = (dealt, boxes)
            elif n + 1 == CROOKED_ROUNDS and repeated is not None:
                dealt, boxes = repeated
            written = round_create_written(
                session=session,
                user=users["dealer"],
                dealer_cards=format_cards(dealt[:5]),
                boxes=boxes,
            )
            round_settle_written(
                round_=written.round, user=users["dealer"], key=f"demo-crooked-{n}", dealt=written
            )
        # A chip goes missing from the tray before the close: today's reconciliation
        # shows the difference at NN3, explained by the close's variance and its reason.
        missing = Decimal(denominations[3])
        tray = session.opening_total + session_figures(session)["win_by_ledger"] - missing
        session_close(
            session=session,
            counted_by=users["dealer"],
            confirmed_by=users["supervisor"],
            closing_chips=tray_chips(tray, denominations),
            variance_reason=f"a {missing} chip missing from the tray at the close; "
            "surveillance is reviewing the table",
        )
        alter_a_settled_bet(session, ALTERED_ROUND)
        return str(table)

    def round_stream(
        self, *, session: TableSession, rng: random.Random
    ) -> Iterator[tuple[str, tuple[BoxInput, ...]]]:
        """Rounds fitting ``session``'s table, its limits and the rules in force."""
        return table_stream(session, rng)


def alter_a_settled_bet(session: TableSession, number: int) -> Bet:
    """The first bet of round ``number`` of ``session`` that won or lost made to pay the
    other way, its outcome and net changed by a plain UPDATE after settlement: a record
    altered behind the services (no audit event, no ledger entry, no tally follows), which
    only settling the round again from its record shows. The bet as it was settled."""
    round_ = session.rounds.get(number=number, status=RoundStatus.SETTLED)
    bet = Bet.objects.filter(box__round=round_).exclude(net=0).order_by("pk").first()
    Bet.objects.filter(pk=bet.pk).update(outcome="win" if bet.net < 0 else "lose", net=-bet.net)
    return bet


class SimulatedRound(NamedTuple):
    dealer_cards: str
    boxes: tuple[BoxInput, ...]


def demo_fill(session: TableSession, users: Mapping[str, AbstractUser], chip: str) -> Decimal:
    """A fill of ten ``chip`` chips through the cage: requested by the dealer, issued by
    the cashier, signed for by the dealer and the pit boss. Its amount."""
    slip = slip_request(session=session, user=users["dealer"], kind="fill", chips={chip: 10})
    slip = slip_issue(slip=slip, user=users["cashier"], runner="runner")
    slip = slip_confirm_dealer(slip=slip, user=users["dealer"])
    slip = slip_confirm_supervisor(slip=slip, user=users["pitboss"])
    return slip.amount


def table_stream(
    session: TableSession, rng: random.Random, **kwargs: Any
) -> Iterator[SimulatedRound]:
    """Rounds fitting ``session``'s table, its limits and the rules in force (``kwargs``:
    ``boxes``, ``side_bet_rate`` of ``simulated_rounds``)."""
    table = session.table
    version = version_in_force(model=NiuNiuRulesetVersion, ruleset=table.ruleset)
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
        seats=table.seats,
        limits=limits,
        bet_types=tuple(b.value for b in rules.bet_types),
        deposit_multiples={str(b): m for b, m in rules.deposit_multiples.items()},
        unit=rules.rounding_unit,
        players=players,
        **kwargs,
    )


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
    """An endless stream of valid Niu Niu rounds for a table: the dealer's cards and the
    boxes."""
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
        yield SimulatedRound(format_cards(deck[:5]), tuple(box_inputs))


DEMO = NiuNiuDemo()
