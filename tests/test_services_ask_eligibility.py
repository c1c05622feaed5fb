"""Every service that takes a player asks the eligibility question.

The services are found by introspection: every public function of ``casino.floor.services.*``,
the console's services and each registered game's ``services`` module that has a parameter
named ``player`` or ``player_id``, or typed with ``Player`` or with an entry carrying a
player (a dataclass or named tuple with a ``player_id`` field, as a round's ``BoxInput``).
Each is either called below with a barred member, under a spy on ``players_eligibility`` (which
``player_eligibility`` and ``check_player_may`` answer through), or listed as exempt with
the reason. A new service taking a player fails here until it asks, or says why it need not.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import inspect
import pkgutil
import sys
import types
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.utils import timezone

import casino.floor.services
from casino import games
from casino.games import BoxInput
from casino.kernel.errors import ServiceError
from casino.kernel.timezones import venue_today, venue_zone
from casino.players import eligibility
from casino.players.eligibility import Activity
from casino.players.models import Player
from casino.players.services import player_bar
from tests.factories import PlayerFactory

NO_NIU = "KH 8H 4D JH AD"
NIU_8 = "JS QH JD AC 7H"

#: Services that take a player but let them do nothing, with why they need not ask.
EXEMPT = {
    "casino.cage.services.thresholds.day_total": "reads the cash recorded; records nothing",
    "casino.cage.services.thresholds.threshold_crossing": "reads whether cash reaches a threshold; "
    "cash_record asks before recording",
    "casino.reports.comps.comp_earned": "reads what play earned; comp_issue asks before giving",
    "casino.players.services.identity_of": "reads the player's identity",
    "casino.players.services.player_update": "a manager keeps a barred player's record too",
    "casino.players.services.player_identity_update": "a manager keeps a barred player's "
    "identity too",
    "casino.players.services.player_bar": "barring is what the question reads",
    "casino.cage.services.front_money.front_money_return": "pays a barred member's own money "
    "back; it asks (a cash-out, allowed) where a balance covers it, which a barred member here "
    "has not: tests/casino/services/test_front_money.py pays one back",
    "casino.players.services.player_link": "a manager links a barred player's memberships too",
    "casino.players.services.player_unlink": "a manager unlinks a barred player's membership too",
    "casino.compliance.services.case_open": "a suspicious-activity case is opened about any "
    "member, a barred one too; it is no play, rating or comp",
    "casino.compliance.services.case_open_from_alert": "the system's case about any member, a "
    "barred one too",
    "casino.cage.services.cage_book.cage_move": "posts what its caller asked for: the window's "
    "chip_purchase and chip_redemption ask",
    "casino.cage.services.patrons.person_locked": "locks the person's rows; its callers ask",
    "casino.cage.services.patrons.unknown_patron_link": "a supervisor links a barred member's "
    "unknown patron too: their cash adds up with the member's",
    "casino.cage.services.thresholds.day_alert": "raises the alert of cash already recorded",
    "casino.cage.services.cage_identification.member_cash_identification": "asks the "
    "identification the thresholds ask for and records nothing; front money's deposit and "
    "return ask the eligibility question before it, a marker's payment settles a debt",
}


#: Service modules of the apps beside their ``services`` module.
MORE_SERVICES = ["casino.reports.comps"]


def _service_modules() -> Iterator[types.ModuleType]:
    for found in pkgutil.iter_modules(casino.floor.services.__path__):
        yield importlib.import_module(f"casino.floor.services.{found.name}")
    yield importlib.import_module("casino.floor.console.services")
    for config in django_apps.get_app_configs():
        name = f"{config.name}.services"
        if not config.name.startswith("casino.") or not importlib.util.find_spec(name):
            continue
        services = importlib.import_module(name)
        yield services
        for found in pkgutil.iter_modules(getattr(services, "__path__", [])):
            yield importlib.import_module(f"{name}.{found.name}")
    for name in MORE_SERVICES:
        yield importlib.import_module(name)
    for adapter in games.all_games():
        app = type(adapter).__module__.split(".")[0]
        if importlib.util.find_spec(f"{app}.services") is not None:
            yield importlib.import_module(f"{app}.services")


def _carries_a_player(annotation: Any) -> bool:
    if isinstance(annotation, type):
        if issubclass(annotation, Player):
            return True
        if dataclasses.is_dataclass(annotation):
            return any(f.name in ("player", "player_id") for f in dataclasses.fields(annotation))
        if issubclass(annotation, tuple) and hasattr(annotation, "_fields"):  # a named tuple
            return any(name in ("player", "player_id") for name in annotation._fields)
    return any(_carries_a_player(arg) for arg in typing.get_args(annotation))


_MODELS = {model.__name__: model for model in django_apps.get_models()}


def _player_parameter(function: Callable) -> str | None:
    """The parameter through which ``function`` takes a player, if it takes one."""
    # A service may name a model of an app above its own in a hint only (under
    # ``TYPE_CHECKING``): the hints are read with every installed model's name at hand.
    hints = typing.get_type_hints(function, localns=_MODELS)
    for name in inspect.signature(function).parameters:
        if name in ("player", "player_id") or _carries_a_player(hints.get(name)):
            return name
    return None


def _services_taking_a_player() -> dict[str, str]:
    """``module.function`` -> the parameter it takes a player through."""
    found = {}
    for module in _service_modules():
        for name, function in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(function):
                continue
            if function.__module__ != module.__name__:
                continue  # imported: found in its own module
            parameter = _player_parameter(function)
            if parameter is not None:
                found[f"{module.__name__}.{name}"] = parameter
    return found


TAKING_A_PLAYER = _services_taking_a_player()


# The calls: each with a barred member, what it asks about and whether it must refuse.


@dataclass
class World:
    floor: Any
    session: Any
    barred: Player

    def boxes(self) -> list[BoxInput]:
        stakes = {"single": Decimal("100000")}
        return [BoxInput(1, NO_NIU, stakes, player_id=self.barred.pk)]


def _cash(kind: str) -> Callable[[World], Any]:
    from casino.cage.services.cash import cash_record

    return lambda w: cash_record(
        session=w.session,
        user=w.floor.dealer,
        player=w.barred,
        amount=Decimal("1000000"),
        kind=kind,
    )


def _preview(w: World) -> Any:
    from casino.floor.services.rounds import round_preview

    return round_preview(session=w.session, dealer_cards=NIU_8, boxes=w.boxes())


def _create(w: World) -> Any:
    from casino.floor.services.rounds import round_create

    return round_create(session=w.session, user=w.floor.dealer, dealer_cards=NIU_8, boxes=w.boxes())


def _create_written(w: World) -> Any:
    from casino.floor.services.rounds import round_create_written

    return round_create_written(
        session=w.session, user=w.floor.dealer, dealer_cards=NIU_8, boxes=w.boxes()
    )


def _confirm(w: World) -> Any:
    from casino.floor.console.services import round_confirm

    return round_confirm(
        session=w.session, user=w.floor.dealer, dealer_cards=NIU_8, boxes=w.boxes(), key="k" * 32
    )


def _comp(w: World) -> Any:
    from casino.reports.comps import comp_issue

    return comp_issue(player=w.barred, user=w.floor.supervisor, amount="1000", kind="meal")


def _rating(w: World) -> Any:
    from tests.tablegames.test_tablegames import Blackjack

    bj = Blackjack()
    started = bj.opened + timedelta(minutes=10)
    w.barred = PlayerFactory(venue=bj.venue, membership_number="BJ-9")
    on = timezone.localdate(started, timezone=venue_zone(bj.venue))
    player_bar(player=w.barred, user=bj.manager, reason="self-exclusion", starts_on=on)
    return bj.rate(player=w.barred, started_at=started)


def _front_money_deposit(w: World) -> Any:
    from casino.cage.services.front_money import front_money_deposit
    from casino.staff.roles import CAGE
    from tests.factories import staff

    cashier = staff("cashier", CAGE, w.floor.venue)
    return front_money_deposit(venue=w.floor.venue, player=w.barred, user=cashier, amount="1000")


def _front_money_draw(w: World) -> Any:
    from casino.cage.services.front_money import front_money_draw

    return front_money_draw(session=w.session, player=w.barred, user=w.floor.dealer, amount="1000")


def _paper_round(w: World) -> Any:
    from casino.cage.services.manual import manual_round_enter, manual_series_issue

    series = manual_series_issue(
        table=w.floor.table, user=w.floor.manager, kind="round", prefix="R-", first=1, last=9
    )
    return manual_round_enter(
        series=series,
        user=w.floor.supervisor,
        number=1,
        session=w.session,
        dealer_cards=NIU_8,
        boxes=w.boxes(),
        written_at=timezone.now(),
    )


def _credit_line_propose(w: World) -> Any:
    from casino.cage.services.credit_lines import credit_line_propose

    return credit_line_propose(
        venue=w.floor.venue, player=w.barred, user=w.floor.manager, limit="1000000"
    )


def _marker_at_table(w: World) -> Any:
    from casino.cage.services.markers import marker_issue_at_table

    return marker_issue_at_table(
        session=w.session,
        player=w.barred,
        user=w.floor.dealer,
        supervisor=w.floor.supervisor,
        amount="1000",
        player_signed=True,
    )


def _marker_at_cage(w: World) -> Any:
    from casino.cage.services.markers import marker_issue_at_cage
    from casino.staff.roles import CAGE
    from tests.factories import staff

    cashier = staff("cashier", CAGE, w.floor.venue)
    return marker_issue_at_cage(
        venue=w.floor.venue,
        player=w.barred,
        user=cashier,
        supervisor=w.floor.supervisor,
        amount="1000",
        player_signed=True,
    )


def _window(kind: str) -> Callable[[World], Any]:
    def call(w: World) -> Any:
        from casino.cage.services import inventory
        from casino.cage.services.patrons import WindowPatron
        from casino.staff.roles import CAGE
        from tests.factories import staff

        w.floor.venue.note_denominations = ["100000"]
        w.floor.venue.save(update_fields=["note_denominations"])
        return getattr(inventory, kind)(
            venue=w.floor.venue,
            user=staff("cashier", CAGE, w.floor.venue),
            chips={"100000": 1},
            notes={"100000": 1},
            patron=WindowPatron(player=w.barred),
        )

    return call


def _window_patron(w: World) -> Any:
    from casino.cage.services.patrons import WindowPatron, window_patron

    return window_patron(
        venue=w.floor.venue,
        user=w.floor.dealer,
        direction="buy_in",
        amount=Decimal("1000"),
        patron=WindowPatron(player=w.barred),
        at=timezone.now(),
    )


#: service -> [(how to call it with a barred member, the activity asked, refused?)]
CALLS: dict[str, list[tuple[Callable[[World], Any], Activity, bool]]] = {
    "casino.cage.services.cash.cash_record": [
        (_cash("buy_in"), Activity.BUY_IN, True),
        (_cash("cash_out"), Activity.CASH_OUT, False),
    ],
    "casino.cage.services.front_money.front_money_deposit": [
        (_front_money_deposit, Activity.BUY_IN, True)
    ],
    "casino.cage.services.front_money.front_money_draw": [
        (_front_money_draw, Activity.BUY_IN, True)
    ],
    # A round sheet entered late is dealt by round_create_written: a barred member's box is
    # refused as it is live (the supervisor enters it as written, and the refusal says why).
    "casino.cage.services.manual.manual_round_enter": [(_paper_round, Activity.PLAY, True)],
    "casino.cage.services.credit_lines.credit_line_propose": [
        (_credit_line_propose, Activity.BUY_IN, True)
    ],
    "casino.cage.services.markers.marker_issue_at_table": [
        (_marker_at_table, Activity.BUY_IN, True)
    ],
    "casino.cage.services.markers.marker_issue_at_cage": [(_marker_at_cage, Activity.BUY_IN, True)],
    "casino.cage.services.inventory.chip_purchase": [
        (_window("chip_purchase"), Activity.BUY_IN, True)
    ],
    "casino.cage.services.inventory.chip_redemption": [
        (_window("chip_redemption"), Activity.CASH_OUT, False)
    ],
    "casino.cage.services.patrons.window_patron": [(_window_patron, Activity.BUY_IN, True)],
    "casino.floor.services.rounds.round_preview": [(_preview, Activity.PLAY, True)],
    "casino.floor.services.rounds.round_create": [(_create, Activity.PLAY, True)],
    "casino.floor.services.rounds.round_create_written": [(_create_written, Activity.PLAY, True)],
    "casino.floor.console.services.round_confirm": [(_confirm, Activity.PLAY, True)],
    "casino.reports.comps.comp_issue": [(_comp, Activity.COMP, True)],
    "tablegames.services.rating_enter": [(_rating, Activity.RATE, True)],
}


@contextmanager
def asked() -> Iterator[list[tuple[Activity, set[int]]]]:
    """Every question asked meanwhile, wherever the services imported it from."""
    original = eligibility.players_eligibility
    calls: list[tuple[Activity, set[int]]] = []

    def spy(**kwargs: Any) -> Any:
        players = list(kwargs["players"])
        calls.append((kwargs["activity"], {player.pk for player in players}))
        return original(**{**kwargs, "players": players})

    with pytest.MonkeyPatch.context() as patch:
        for module in list(sys.modules.values()):
            if getattr(module, "__dict__", {}).get("players_eligibility") is original:
                patch.setattr(module, "players_eligibility", spy)
        yield calls


def test_every_service_taking_a_player_is_called_here_or_exempt_with_a_reason():
    unknown = sorted(set(TAKING_A_PLAYER) - set(CALLS) - set(EXEMPT))
    assert not unknown, (
        "these services take a player but the eligibility guard does not know them: "
        + ", ".join(f"{name} (parameter {TAKING_A_PLAYER[name]!r})" for name in unknown)
        + ". Ask casino.players.eligibility.check_player_may in them and add a call to CALLS "
        "in tests/test_services_ask_eligibility.py, or add them to EXEMPT saying why not."
    )
    stale = sorted((set(CALLS) | set(EXEMPT)) - set(TAKING_A_PLAYER))
    assert not stale, f"no longer services taking a player, take them off the guard: {stale}"


def test_the_guard_finds_the_services_it_is_meant_for():
    # The introspection itself: a parameter by name, by type, and a round's boxes.
    assert TAKING_A_PLAYER["casino.cage.services.cash.cash_record"] == "player"
    assert TAKING_A_PLAYER["casino.floor.services.rounds.round_create"] == "boxes"
    assert TAKING_A_PLAYER["tablegames.services.rating_enter"] == "player"
    assert "casino.floor.services.sessions.session_open" not in TAKING_A_PLAYER


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("service", "case"),
    [(name, index) for name, cases in CALLS.items() for index in range(len(cases))],
)
def test_the_service_asks_the_eligibility_question(floor, session, service, case):
    call, activity, refused = CALLS[service][case]
    member = PlayerFactory(venue=floor.venue, membership_number="BARRED-1")
    player_bar(
        player=member,
        user=floor.manager,
        reason="self-exclusion",
        starts_on=venue_today(floor.venue),
    )
    world = World(floor=floor, session=session, barred=member)
    with asked() as questions:
        try:
            call(world)
        except ServiceError as error:
            assert refused, f"{service} refused a barred member's {activity}: {error}"
            assert error.reason == "player_barred", f"{service} refused otherwise: {error}"
        else:
            assert not refused, f"{service} let a barred member {activity}"
    assert any(asked_ == activity and world.barred.pk in pks for asked_, pks in questions), (
        f"{service} did not ask the eligibility question about {activity}: {questions}"
    )
