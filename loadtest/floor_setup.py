"""The floor the floor run plays on: one venue, its pits of tables, its people logged in.

A Niu Niu table per dealer, each with an open session, ``pit_size`` tables to a pit and a
supervisor per pit; a cashier, two counters and a manager. Everyone's console login is a
Django session made here, in the database and the shared cache the server reads, as the
login page would make it: ``force_login`` (the password's check skipped, nothing else),
and for the roles that give a second factor (the cage, the count, managers) the session
marked verified by a confirmed TOTP device of theirs, as ``django_otp.login`` marks it
after the code (``tests.second_factor.force_login_verified``). Dealers and supervisors log
in with the password alone, as at the table. The password of everyone is
``tests.factories``' one, which a supervisor types to approve a void.

The rounds the dealers type come from ``niuniu.demo``'s simulated table (the table's limits,
its rules, 70% of boxes with a member), as the round form holds them
(``NiuNiuConsole.form_data``): a pool of them, each dealer taking the next.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from loadtest.common import load_venue

#: The venue's one password for the load's people (``tests.factories.UserFactory``).
PASSWORD = "pw-for-tests"  # noqa: S105 (a test database's)


@dataclass
class Desk:
    """One table as the load plays it: its session, its pit, its dealer's cookie."""

    table_id: int
    session_id: int
    pit: int
    cookie: str
    supervisor: str  # the pit's supervisor, who approves a void with their password
    dealt: int = 0  # the rounds dealt at it so far in the run (their cards' seed)


@dataclass
class BigFloor:
    venue_id: int
    desks: list[Desk]
    pits: list[tuple[int, Any, str]]  # (pit id, its supervisor, the supervisor's cookie)
    cashier: str
    counters: list[str]
    manager: str
    venue_code: str
    pit_size: int
    forms: list[dict[str, str]] = field(default_factory=list)
    #: Rounds already settled at each table when it opens (a shift some hours old).
    shift_rounds: int = 0


def login_cookie(user: Any, *, verified: bool = False) -> str:
    """The value of ``user``'s console session cookie (verified: past the second factor)."""
    from django.conf import settings
    from django.test import Client

    from tests.second_factor import force_login_unverified, force_login_verified

    client = Client()
    (force_login_verified if verified else force_login_unverified)(client, user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def build_big_floor(
    *, tables: int, pit_size: int, code: str = "floor", shift_rounds: int = 0
) -> BigFloor:
    """The venue, ``tables`` open tables in pits of ``pit_size``, and everyone logged in;
    each table's session ``shift_rounds`` rounds old (``aged``)."""
    from casino.players.models import Player
    from casino.staff.roles import CAGE, COUNT, MANAGER
    from tests.factories import staff

    venue = load_venue(code)
    Player.objects.bulk_create(
        Player(venue=venue, membership_number=f"F{n:05d}", name=f"Player {n}") for n in range(200)
    )
    manager = staff(f"{code}-manager", MANAGER, venue)
    floor = BigFloor(
        venue_id=venue.pk,
        desks=[],
        pits=[],
        cashier=login_cookie(staff(f"{code}-cashier", CAGE, venue), verified=True),
        counters=[
            login_cookie(staff(f"{code}-counter-{n}", COUNT, venue), verified=True)
            for n in range(2)
        ],
        manager=login_cookie(manager, verified=True),
        venue_code=code,
        pit_size=pit_size,
        shift_rounds=shift_rounds,
    )
    tables_added(floor, tables)
    return floor


def tables_added(floor: BigFloor, tables: int) -> None:
    """More open tables (and pits, each with its supervisor) until the floor has ``tables``:
    a step of the run builds only what it plays on."""
    from casino.floor.services.sessions import session_open
    from casino.staff.roles import DEALER, SUPERVISOR
    from casino.venues.models import Pit, Table, Venue
    from tests.factories import niuniu_table, staff

    venue = Venue.objects.get(pk=floor.venue_id)
    code, size = floor.venue_code, floor.pit_size
    for n in range(len(floor.pits), (tables + size - 1) // size):
        pit = Pit.objects.create(venue=venue, code=f"p{n + 1}", name=f"Pit {n + 1}")
        supervisor = staff(f"{code}-supervisor-{n + 1}", SUPERVISOR, venue)
        pit.supervisors.add(supervisor)
        floor.pits.append((pit.pk, supervisor, login_cookie(supervisor)))
    for n in range(len(floor.desks), tables):
        pit_id, supervisor, _cookie = floor.pits[n // size]
        table = niuniu_table(venue, code=f"T{n + 1:04d}")
        Table.objects.filter(pk=table.pk).update(pit_id=pit_id)
        dealer = staff(f"{code}-dealer-{n + 1:04d}", DEALER, venue)
        session = session_open(
            table=table,
            counted_by=dealer,
            confirmed_by=supervisor,
            opening_chips={"1000000": 100},
        )
        aged(session, floor.shift_rounds, dealer=dealer, supervisor=supervisor, seed=n)
        desk = Desk(table.pk, session.pk, n // size, login_cookie(dealer), supervisor.username)
        floor.desks.append(desk)


def aged(session: Any, rounds: int, *, dealer: Any, supervisor: Any, seed: int) -> None:
    """``rounds`` rounds settled at the session, voided at the model's rate, written in bulk
    as ``manage.py simulate --via bulk`` writes them (``casino.simulation.bulk``: the engine
    settles them, COPY writes rounds, bets, ledger and tallies; their times spread over the
    session's shift, as the writer spreads them): a floor view late in a shift sums them all
    on every poll."""
    if not rounds:
        return
    from casino.management.commands.simulate import BATCH_ROUNDS
    from casino.simulation.bulk import BulkWriter
    from loadtest.floor_model import VOID_RATE  # floor_model imports this module

    writer = BulkWriter(
        session, session.shift, dealer=dealer, supervisor=supervisor, batch=BATCH_ROUNDS
    )
    writer.write(rounds, seed=seed, void_rate=VOID_RATE)


def round_forms(session_id: int, *, count: int, seed: int) -> list[dict[str, str]]:
    """``count`` rounds as the round form holds them once typed (no key, no card order)."""
    from casino.floor.console import selectors
    from casino.floor.models import TableSession
    from casino.players.models import Player
    from niuniu.console import forms as niuniu_forms
    from niuniu.demo import table_stream

    session = TableSession.objects.select_related("table__venue").get(pk=session_id)
    screen = selectors.screen_for(session=session)
    stream = table_stream(session, random.Random(seed), boxes=5, side_bet_rate=0.3)
    numbers = dict(Player.objects.values_list("pk", "membership_number"))
    forms = []
    for _n in range(count):
        simulated = next(stream)
        ids = {box.player_id for box in simulated.boxes if box.player_id is not None}
        players = {pk: numbers[pk] for pk in ids}
        forms.append(
            niuniu_forms.form_data(simulated.dealer_cards, simulated.boxes, screen, players)
        )
    return forms
