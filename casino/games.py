"""The game registry: the only way ``casino`` knows about games.

Each game app registers one adapter in its ``AppConfig.ready``. The floor's services ask
the adapter to check and evaluate a round, and turn the result into bets and ledger lines
without knowing the game's rules. Adding a game is one new app with one adapter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Protocol

from casino.errors import InvalidInput
from casino.models import Account, EntryKind, RulesetVersion


class RoundInputError(InvalidInput):
    """Bad input for a round; ``field`` names the input (``boxes[2].cards``) it concerns."""


@dataclass(frozen=True)
class BoxInput:
    """One box of a round as the dealer enters it."""

    position: int
    cards: str
    stakes: Mapping[str, Decimal]
    deposits: Mapping[str, Decimal] = field(default_factory=dict)
    player_id: int | None = None
    #: The player quit the round in progress (Mau Binh's quit penalty); Niu Niu ignores it.
    quit: bool = False


@dataclass(frozen=True)
class BetResult:
    """A bet settled (or to be settled, in a preview): the one settled-bet type every
    screen, answer and posting reads."""

    bet_type: str
    stake: Decimal
    deposit_required: Decimal
    outcome: str  # "win", "lose" or "push" (nothing won or lost)
    odds: Decimal
    gross: Decimal  # player's view, signed
    commission: Decimal  # taken by the house, >= 0
    net: Decimal  # gross - commission
    #: The deposit the player showed for a bet that may lose a multiple, where one was recorded.
    deposit_shown: Decimal | None = None


@dataclass(frozen=True)
class BoxResult:
    position: int
    cards: str  # canonical text
    evaluation: dict[str, Any]
    bets: tuple[BetResult, ...]

    @property
    def net(self) -> Decimal:
        return sum((b.net for b in self.bets), Decimal(0))


@dataclass(frozen=True)
class RoundResult:
    """A round evaluated and settled by the engine (a preview until it is posted)."""

    dealer_cards: str
    dealer_evaluation: dict[str, Any] | None
    boxes: tuple[BoxResult, ...]
    deal_order: tuple[int, ...] = ()
    payment_order: tuple[int, ...] = ()

    @property
    def house_net(self) -> Decimal:
        return -sum((box.net for box in self.boxes), Decimal(0))


@dataclass(frozen=True)
class LedgerLine:
    account: Account
    kind: EntryKind
    amount: Decimal
    position: int | None = None  # the box, for player lines
    bet_type: str | None = None


# --- The game's parts. Each is an object the game's app provides; the floor reaches it
# --- only through the adapter (``games.get(code).console``, ``.api``, ...).


class GameConsole(Protocol):
    """The game's round screen in the dealer's console (the shell in ``casino.console``
    renders whatever screen the table's game registers)."""


class GameApi(Protocol):
    """The game's part of the API: its ruleset version serializer and round body."""


class GameAdmin(Protocol):
    """The game's part of the admin: the version admin's hooks and the house-edge panel."""


class GameReports(Protocol):
    """How the management reports show the game."""


class GameDemo(Protocol):
    """The game's demo data and its bulk round stream for ``simulate``."""


class GameAdapter(Protocol):
    code: str
    name: str
    bet_types: tuple[str, ...]
    version_model: type[RulesetVersion]

    def snapshot(self, version: Any) -> Any:
        """The engine's frozen rules for a ruleset version (cached where it can be)."""

    def offered_bet_types(self, rules: Any) -> tuple[str, ...]:
        """The bet types these rules take, in table order."""

    def evaluate_round(
        self, *, rules: Any, dealer_cards: str, boxes: Sequence[BoxInput]
    ) -> RoundResult:
        """Check the cards and bets together and settle them; ``RoundInputError`` if wrong."""

    def ledger_lines(self, result: RoundResult) -> list[LedgerLine]:
        """The entries that post ``result``; they sum to zero."""

    def round_orders(self, boxes: Sequence[BoxInput]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The deal order and the payment order of a round's boxes (no rule is read), to show
        a settled round from what it recorded."""

    @property
    def console(self) -> GameConsole:
        """The round screen (``<game>/console/``)."""

    @property
    def api(self) -> GameApi:
        """The API's serializers for the game (``<game>/api.py``)."""

    @property
    def admin(self) -> GameAdmin:
        """The admin's hooks for the game (``<game>/admin.py``)."""

    @property
    def reports(self) -> GameReports:
        """How reports show the game."""

    @property
    def demo(self) -> GameDemo:
        """Demo data and simulated rounds."""


_REGISTRY: dict[str, GameAdapter] = {}


def register(adapter: GameAdapter) -> None:
    _REGISTRY[adapter.code] = adapter


def get(code: str) -> GameAdapter:
    try:
        return _REGISTRY[code]
    except KeyError:
        raise LookupError(f"no game '{code}' is installed") from None


def all_games() -> tuple[GameAdapter, ...]:
    return tuple(_REGISTRY.values())


def game_choices() -> list[tuple[str, str]]:
    """The installed games as model field choices (``Table.game``, ``Ruleset.game``)."""
    return [(game.code, game.name) for game in _REGISTRY.values()]
