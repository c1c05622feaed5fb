"""The game registry: the only way ``casino`` knows about games.

Each game app registers one adapter (a ``GameAdapter``) in its ``AppConfig.ready``. The
floor's services ask the adapter to check and evaluate a round, and turn the result into bets
and ledger lines without knowing the game's rules; its screens, reports, admin and demo ask
the adapter's parts. The adapter is the only way a game plugs in: every hook is one of its
methods, with a default here. Adding a game is one new app and its line in
``INSTALLED_APPS``.

Long because it is the whole contract a game implements (the round's result types, its parts'
types and the adapter with every hook's default), read in one place the way Saleor's
``BasePlugin`` is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from django.utils.translation import gettext as _

from casino.kernel.errors import InvalidInput
from casino.kernel.money import plain

# The registry (casino.kernel.registry), asked here by the games and the floor.
from casino.kernel.registry import all_games as all_games
from casino.kernel.registry import game_choices as game_choices
from casino.kernel.registry import get as get
from casino.kernel.registry import of_version as of_version
from casino.kernel.registry import register as register
from casino.kernel.registry import round_games as round_games
from casino.ledger.models import Account, EntryKind
from casino.rulesets.models import ROUNDING_FIELDS, RulesetVersion

if TYPE_CHECKING:  # the types of the game's parts (their modules import this one)
    import random
    from collections.abc import Iterator

    from django.contrib.auth.models import AbstractUser
    from django.db.models import TextChoices
    from django.http import HttpRequest, HttpResponse
    from django.urls import URLPattern
    from django.utils.functional import StrOrPromise
    from rest_framework.serializers import Serializer

    from casino.floor.console.round import ConsoleEntry
    from casino.floor.console.selectors import Screen
    from casino.floor.models import Round, TableSession
    from casino.rulesets.admin.house_edge import HouseEdgeRow
    from casino.venues.models import Venue


_ZERO = Decimal(0)


class RoundInputError(InvalidInput):
    """Bad input for a round; ``field`` names the input (``boxes[2].cards``) it concerns."""


#: No deposits shown: the default of a ``BoxInput``'s, read-only as the tuple holding it.
NO_DEPOSITS: Mapping[str, Decimal] = MappingProxyType({})


# The round's input and result types are named tuples, not frozen dataclasses: as immutable,
# and a re-settlement makes about a dozen of them a round for every round of a day, where a
# frozen dataclass's ``__init__`` (each field set through ``object.__setattr__``) cost three
# times a tuple's making (docs/BENCHMARKS.md, "resettle"). A changed copy is ``_replace``.


class BoxInput(NamedTuple):
    """One box of a round as the dealer enters it."""

    position: int
    cards: str
    stakes: Mapping[str, Decimal]
    deposits: Mapping[str, Decimal] = NO_DEPOSITS
    player_id: int | None = None
    #: The player quit the round in progress (a game with a quit penalty charges it; a game
    #: without one ignores it).
    quit: bool = False
    #: Whether the player declared the hand that wins outright, in a game whose rules leave
    #: that to the player; None when not said.
    declared: bool | None = None


class BetResult(NamedTuple):
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

    @property
    def from_deposit(self) -> Decimal:
        """What a lost bet takes beyond its stake, out of the deposit the player showed."""
        return max(-self.net - self.stake, Decimal(0))


class BoxResult(NamedTuple):
    position: int
    cards: str  # canonical text
    evaluation: dict[str, Any]
    bets: tuple[BetResult, ...]

    @property
    def net(self) -> Decimal:
        return sum([bet.net for bet in self.bets], _ZERO)


class RoundResult(NamedTuple):
    """A round evaluated and settled by the engine (a preview until it is posted)."""

    dealer_cards: str
    dealer_evaluation: dict[str, Any] | None
    boxes: tuple[BoxResult, ...]
    deal_order: tuple[int, ...] = ()
    payment_order: tuple[int, ...] = ()

    @property
    def house_net(self) -> Decimal:
        return -sum([bet.net for box in self.boxes for bet in box.bets], _ZERO)


@dataclass(frozen=True)
class LedgerLine:
    account: Account
    kind: EntryKind
    amount: Decimal
    position: int | None = None  # the box, for player lines
    bet_type: str | None = None


def ledger_figures(result: RoundResult) -> list[tuple[Account, EntryKind, int, None, Decimal]]:
    """The lines the default ``GameAdapter.ledger_lines`` posts for ``result``, each as the
    figures a ledger entry of the round names, in this order: account, kind, box position,
    bet type (None: a box's lines, not a bet's) and amount. Per box, the bets' result
    between the player and the house, then the commission from the player to the house
    (zero amounts not posted); they sum to zero. A re-settlement compares a round's entries
    with these tuples as they are (``casino.integrity.resettlement``), without a
    ``LedgerLine`` a line."""
    # The members once, not looked up on their enums for every line (a re-settlement
    # makes this call for each of a day's rounds).
    player, house = Account.PLAYER, Account.HOUSE
    result_kind, commission_kind = EntryKind.STAKE_RESULT, EntryKind.COMMISSION
    lines: list[tuple[Account, EntryKind, int, None, Decimal]] = []
    append = lines.append
    for box in result.boxes:
        bets = box.bets
        gross = sum([bet.gross for bet in bets], _ZERO)
        commission = sum([bet.commission for bet in bets], _ZERO)
        position = box.position
        if gross:
            append((player, result_kind, position, None, gross))
            append((house, result_kind, position, None, -gross))
        if commission:
            append((player, commission_kind, position, None, -commission))
            append((house, commission_kind, position, None, commission))
    return lines


# --- The game's parts. Each is an object the game's app provides; the floor reaches it
# --- only through the adapter (``games.get(code).console``, ``.api``, ...).


class GameConsole(Protocol):
    """The game's round screen in the dealer's console (the shell in ``casino.floor.console``
    renders whatever screen the table's game registers).

    The shell mounts ``urls()`` (the screen's live partials) under ``/console/`` (their
    names in its ``console`` namespace), renders ``screen`` at ``sessions/<id>/``, and
    serves the preview and the Confirm itself (``console:preview``, ``console:confirm``:
    ``casino.floor.console.round``) with the game's reading of the entry, its preview and its
    template; the history shows a round's boxes with the game's two templates.
    A game that deals no rounds (``settles_rounds`` False) renders its own page at
    ``screen`` (and its ``urls``); its round hooks are never called.
    """

    #: The round screen's template; its partials ``round`` and ``preview`` are what the
    #: Confirm and the preview answer htmx with.
    template: str
    #: Included in a history row (``round``, ``venue`` in its context): the cells that sum up
    #: the round's hands, one per header of ``history_columns``.
    summary_template: str
    #: The history's headers of those cells (a game without a dealer's hand names no dealer).
    history_columns: Sequence[StrOrPromise]
    #: Included in a round's detail (``round``, ``venue``): its hands and each box's bets.
    detail_template: str

    @property
    def stale_preview(self) -> str:
        """What a Confirm of an entry that changed after its preview says."""
        ...

    def urls(self) -> list[URLPattern]:
        """The screen's own views (its live partials), by name."""
        ...

    def positions(self, seats: int) -> tuple[int, ...]:
        """The boxes the screen shows at a table of ``seats`` boxes."""
        ...

    def deposit_multiples(self, rules: Any, bet_types: Sequence[str]) -> Mapping[str, Decimal]:
        """What a player shows per unit staked on each bet type (1: the stake)."""
        ...

    def screen(self, request: HttpRequest, session: TableSession) -> HttpResponse:
        """The whole round screen of the session (``casino.floor.console.round.whole_screen``)."""
        ...

    def entry_in(self, data: Mapping[str, str]) -> bool:
        """Whether ``data`` holds any field of the round form."""
        ...

    def read_entry(
        self, data: Mapping[str, str], screen: Screen, *, evaluate: bool = True
    ) -> ConsoleEntry:
        """The round form read field by field, every mistake beside its field; each card
        parsed once, each hand evaluated only with ``evaluate`` (not on a Confirm)."""
        ...

    def form_data(
        self, dealer_cards: str, boxes: Sequence[BoxInput], screen: Screen
    ) -> dict[str, str]:
        """The round form as a dealer fills it for this round: what ``read_entry`` reads back
        into the same dealer's cards and boxes (players by membership number)."""
        ...

    def data_from_round(self, round_: Round | None, screen: Screen) -> dict[str, str]:
        """The next round's form after ``round_``: its players and stakes, no cards."""
        ...

    def preview_of(self, result: RoundResult, entry: ConsoleEntry) -> object:
        """The preview the template shows for ``result`` (``totals`` and ``digest`` among
        what it has, for the shared totals and Confirm block)."""
        ...

    def context(
        self,
        screen: Screen,
        entry: ConsoleEntry,
        *,
        preview: object | None = None,
        settled: Round | None = None,
        last: Round | None = None,
    ) -> dict[str, Any]:
        """The template's context for ``entry``, with the preview or the round just settled."""
        ...


class GameApi(Protocol):
    """The game's part of the API: its ruleset version serializer, round body and own
    endpoints."""

    #: A ruleset version with its rules (``GET /api/v1/rulesets/<pk>/versions/<n>/``).
    version_serializer: type[Serializer]
    #: What a box's ``cards`` holds in a round body, for the API's schema.
    cards_help: StrOrPromise
    #: What the round body's ``dealer_cards`` holds (empty for a game with no dealer hand).
    dealer_cards_help: StrOrPromise
    #: What a hand's ``evaluation`` says in a round's answer.
    evaluation_help: StrOrPromise

    def urls(self) -> list[URLPattern]:
        """The game's own endpoints, mounted under ``/api/v1/`` (their names in the API's
        ``api`` namespace); each an ``ApiView`` declaring its capabilities."""
        ...


@dataclass(frozen=True)
class PlainApi:
    """The API of a game that says nothing of its own (``GameAdapter.api``'s default)."""

    version_serializer: type[Serializer]
    cards_help: StrOrPromise = ""
    dealer_cards_help: StrOrPromise = ""
    evaluation_help: StrOrPromise = ""

    def urls(self) -> list[URLPattern]:
        """No endpoints of its own."""
        return []


class GameAdmin(Protocol):
    """The game's part of the admin: the version admin's hooks and the house-edge panel.

    The version admin and the panel's view are written once in ``casino.admin``; the panel
    computes the rules' figures (the house edge of a paytable, the house take of a fee
    game) in a task and is polled until they are ready.
    """

    #: The game's table of its figures in the ready panel (the shell, its warnings and its
    #: other states are ``templates/admin/house_edge_panel.html``'s).
    house_edge_template: str
    #: The admin permissions (app label, codename) of a manager on the game's rulesets.
    manager_permissions: tuple[tuple[str, str], ...]
    #: The admin permissions of an auditor, who reads the game's rulesets.
    viewer_permissions: tuple[tuple[str, str], ...]

    def house_edge_refusal(self, version: RulesetVersion) -> dict[str, object] | None:
        """The panel's context when the rules cannot be computed yet (incomplete ones):
        ``state`` ``failed`` with the ``error``, or ``invalid`` with the ``errors``."""

    def house_edge_row(self, version: RulesetVersion) -> HouseEdgeRow:
        """The stored figures of the version's rules, their computation sent (once) when
        they are not there yet."""

    def house_edge_summary(self, version: RulesetVersion, row: HouseEdgeRow) -> dict[str, Any]:
        """What a done row says, as approval stores it on the version (``figures``)."""

    def house_edge_ready(
        self, version: RulesetVersion, summary: dict[str, Any], compared: dict[str, Any] | None
    ) -> dict[str, object]:
        """The ready panel's context: warnings and rows, changes against ``compared`` (the
        summary of the version in force, when it is another one)."""

    def house_edge_waiting(self, version: RulesetVersion) -> dict[str, object]:
        """What the panel says while the figures are computed: ``waiting`` (the message)
        and ``poll_seconds`` (how often it asks again)."""


@dataclass(frozen=True)
class RatedPlay:
    """A player's rated play at one table session, as a game rates it: what the player page,
    the comps and the reports read for a game whose play is rated by hand (a supervisor's
    rating: average bet, time in and out) rather than from settled bets."""

    player_id: int
    session_id: int
    table_code: str
    game: str
    started_at: datetime
    ended_at: datetime
    average_bet: Decimal
    #: Decisions (hands, spins) the rating stands for; None when the game does not count them.
    decisions: int | None
    theoretical_win: Decimal
    #: The house's win from the player, when the rating records it (None: not recorded).
    actual_win: Decimal | None


class GameReports:
    """How the management reports show the game; every hook has its default here.

    A game whose play is rated by hand (a supervisor's rating, not settled bets) gives
    ``rated_play``; a game that deals no rounds (``settles_rounds`` False) has no tallies, so
    it gives the shift report its lines (``shift_lines``) and may name the game each of its
    tables plays (``game_names``). The floor reads the card games' play from their tallies.
    """

    #: True when the players play against the house (the report rates its bets by the
    #: house edge); False when they play each other and the house takes a fee (the
    #: report shows its volume and fees, and its theoretical win is the fee).
    house_banked: bool = True
    #: The game's name in a report (translatable).
    label: StrOrPromise

    def __init__(self, label: StrOrPromise | None = None) -> None:
        if label is not None:
            self.label = label

    def bet_label(self, bet_type: str) -> str:
        """A bet type's name in a report, in the active language (the console's word for
        it). Default: the bet type as stored."""
        return bet_type

    def rated_play(
        self,
        *,
        player_ids: Sequence[int] | None,
        date_from: date,
        date_to: date,
        venue_id: int | None = None,
    ) -> list[RatedPlay]:
        """The play rated by hand in the gaming dates (inclusive); ``player_ids`` None for
        every player, ``venue_id`` None for every venue's tables. Default: none."""
        return []

    def shift_lines(self, shift: Any) -> dict[str, list[dict[str, Any]]]:
        """The shift report's lines of a game with no tallies: ``{"tables": [...], "games":
        [...], "players": [...]}``, each line a dict with ``key``, ``label`` (a table's also
        ``game``; a player's also ``hands``, ``minutes``) and ``sums``, the sums
        ``casino.reports.sections.figure_line`` reads (``t_handle``, ``t_player_result``,
        ``t_theoretical_win``, ...). Default: none (the tallies give the game's lines)."""
        return {}

    def game_names(self, table_ids: list[int]) -> dict[int, str]:
        """The game each table plays (blackjack, roulette...), which the statistical
        report's lines per game are of; a table left out is of the game's ``label``.
        Default: none."""
        return {}


class GameDemo(Protocol):
    """The game's demo data and its bulk round stream for ``simulate``."""

    #: The preset ``simulate`` copies to its venue, and its tables' limits per bet type
    #: (min, max stake in the venue's currency, chips of 1,000 and up).
    simulation_preset: str
    simulation_limits: Mapping[str, tuple[str, str]]

    def ruleset_from_preset(
        self,
        *,
        venue: Venue,
        preset_code: str,
        editor: AbstractUser,
        approver: AbstractUser | None = None,
        override_reason: str = "",
    ) -> RulesetVersion:
        """The venue's own ruleset of the game copied from a preset (approved and active
        when an ``approver`` is given)."""

    def set_up_venue(
        self, *, venue: Venue, users: Mapping[str, AbstractUser], rounds: int
    ) -> list[str]:
        """The game's demo at a new ``venue`` (nothing at a venue it does not play at):
        ruleset, tables and rounds played through the services by the demo's staff
        (``users`` by username). Returns what to tell the person who ran the demo."""

    def round_stream(
        self, *, session: TableSession, rng: random.Random
    ) -> Iterator[tuple[str, tuple[BoxInput, ...]]]:
        """An endless stream of valid rounds (dealer's cards, boxes) for the session's table:
        its seats, limits, players and the rules in force."""


@dataclass(frozen=True)
class IntegrityKey:
    """One category a settled round counts for the integrity tests (``casino.integrity``).

    ``subject`` names what is tested (the dealer's hand, a box's hand, a box's outcome
    against the dealer, an event of a box), ``category`` what this round's instance of it
    was; ``position`` is the box it belongs to (its player's tally), None for the dealer's.
    """

    subject: str
    category: str
    position: int | None = None


@dataclass(frozen=True)
class IntegrityCounts:
    """What a settled round gives the integrity tallies: its categories and the cards dealt
    (canonical text of each card, every hand's, the dealer's first)."""

    keys: tuple[IntegrityKey, ...]
    cards: tuple[str, ...] = ()


class GameAdapter:
    """Everything the floor asks of a game, in one place, each hook with its default.

    A game's app subclasses this once (``<game>/adapter.py``), overrides what its rules need,
    and registers an instance in its ``AppConfig.ready`` (``games.register``). The floor
    calls nothing else of a game: not its modules by name, not its models' methods.

    A game names itself (``code``, ``name``), its bet types and its ruleset version model
    (a subclass of ``casino.floor.models.RulesetVersion``), and provides its round screen
    (``console``), its part of the admin (``admin``) and its demo (``demo``): those have no
    default, and the base class says so when asked. Every other hook has a default that fits
    a game without the feature.
    """

    code: str
    name: StrOrPromise
    bet_types: tuple[str, ...]
    version_model: type[RulesetVersion]

    #: Whether the game deals rounds on the system (False: its tables are kept for their
    #: accounting only, sessions, slips, drop, win by the count and ratings; the floor's
    #: paths that deal, settle, stream or simulate rounds leave such a game out).
    settles_rounds: bool = True

    #: The audit actions the game's own services record, each a ``TextChoices`` whose values
    #: start with a name of the game's own (``casino.audit.models.AuditAction`` holds the floor's).
    audit_actions: tuple[type[TextChoices], ...] = ()

    # --- The game's parts: objects the game's app provides.

    def _missing(self, part: str) -> Any:
        raise NotImplementedError(f"the game '{self.code}' provides no {part}")

    @property
    def console(self) -> GameConsole:
        """The round screen (``GameConsole``). No default: every game has a screen."""
        return self._missing("console")

    @cached_property
    def api(self) -> GameApi:
        """The API's serializers for the game (``GameApi``). Default: a version with the
        rules every version has (``casino.api``'s serializer), and no help of its own."""
        from casino.rulesets.api.serializers import RulesetVersionSerializer

        return PlainApi(version_serializer=RulesetVersionSerializer)

    @property
    def admin(self) -> GameAdmin:
        """The admin's hooks for the game (``GameAdmin``). No default."""
        return self._missing("admin")

    @property
    def demo(self) -> GameDemo:
        """Demo data and simulated rounds (``GameDemo``). No default."""
        return self._missing("demo")

    @cached_property
    def reports(self) -> GameReports:
        """How reports show the game. Default: a house-banked game under its ``name``, rated
        from its tallies only."""
        return GameReports(self.name)

    # --- The rules: a ruleset version as the engine takes it, and as the floor keeps it.

    #: The version model's fields that are rules (copied by a clone, in the audit trail and
    #: the approval's fingerprint). Default: the rounding every version has.
    rule_fields: tuple[str, ...] = ROUNDING_FIELDS
    #: The version model's relations holding its rows of rules (a paytable, bonus lines),
    #: loaded with a version's detail. Default: none.
    rule_relations: tuple[str, ...] = ()

    def snapshot(self, version: Any) -> Any:
        """The engine's frozen rules for a ruleset version (cached where it can be).
        Default: the version itself, for a game whose rules are its version's fields."""
        return version

    def offered_bet_types(self, rules: Any) -> tuple[str, ...]:
        """The bet types these rules take, in table order. Default: every bet type."""
        return self.bet_types

    def rules_copy(self, version: Any, draft: Any) -> None:
        """Copy ``version``'s rules (fields and rows) onto the saved ``draft``. Default: the
        ``rule_fields``."""
        for name in self.rule_fields:
            setattr(draft, name, getattr(version, name))
        draft.save(update_fields=list(self.rule_fields))

    def rules_as_dict(self, version: Any) -> dict[str, Any]:
        """The rules as plain JSON data, for the audit trail and the approval's fingerprint.
        Default: the ``rule_fields``, amounts as plain strings."""
        return {
            name: plain(value) if isinstance(value := getattr(version, name), Decimal) else value
            for name in self.rule_fields
        }

    def rule_errors(self, version: Any) -> list[str]:
        """What stops ``version`` from being approved, one sentence each. Default: nothing."""
        return []

    def approval_figures(self, version: Any) -> tuple[dict[str, Any], list[str]]:
        """The figures to store on approval (house edge per bet type, ...) and the warnings
        that make approving need an explicit override. Default: none of either."""
        return {}, []

    # --- A round.

    def boxes_dealt(self, rules: Any, seats: int) -> int:
        """How many of a table's ``seats`` boxes a round under these rules deals to (the
        round screen shows that many). Default: every one."""
        return seats

    def evaluate_round(
        self, *, rules: Any, dealer_cards: str, boxes: Sequence[BoxInput]
    ) -> RoundResult:
        """Check the cards and bets together and settle them; ``RoundInputError`` if wrong.
        Default: refused, for a game that deals no rounds (``settles_rounds`` False)."""
        raise RoundInputError(
            _("%(game)s deals no rounds on the system.") % {"game": self.name},
            field="session",
            reason="no_rounds",
        )

    def ledger_lines(self, result: RoundResult) -> list[LedgerLine]:
        """The entries that post ``result``; they sum to zero. Default: per box, the bets'
        result between the player and the house, then the commission from the player to the
        house (zero amounts not posted): the lines of :func:`ledger_figures`."""
        return [
            LedgerLine(account, kind, amount, position)
            for account, kind, position, _bet_type, amount in ledger_figures(result)
        ]

    def declared_of(self, evaluation: Mapping[str, Any] | None) -> bool | None:
        """What a box's player declared (``BoxInput.declared``), read back from the box's
        recorded evaluation, so a settled round can be settled again from its record
        (``casino.integrity.resettlement``). Default: None, nothing declared."""
        return None

    def round_orders(self, boxes: Sequence[BoxInput]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The deal order and the payment order of a round's boxes (no rule is read), to show
        a settled round from what it recorded. Default: position order for both."""
        positions = tuple(box.position for box in boxes)
        return positions, positions

    def session_close_refusal(self, session: Any) -> tuple[str, str] | None:
        """``(message, reason)`` when the game's own state of the session must be settled
        before the table closes (a commission box still owed), in the reader's language;
        the floor's closing refuses with it (``Conflict``). Default: None, it may close."""
        return None

    # --- The integrity tests (docs/INTEGRITY.md).

    #: Whether the integrity tests cover the game (False: its rounds are not counted, and
    #: the integrity page says the game is not tested). Default: not tested.
    integrity_tested: bool = False

    def integrity_counts(self, result: RoundResult) -> IntegrityCounts | None:
        """What a settled round counts for the integrity tests: one ``IntegrityKey`` per
        subject instance (the dealer's category, each box's category, each box's outcome
        against the dealer ``win``/``lose``/``push``, a box's events) and the cards dealt.
        A game whose boxes play one dealer's hand also gives ``round_outcome``
        ``"<boxes won>/<boxes decided>"`` (no position): the boxes of a round are not
        independent, so the table's and dealer's win rate is tested on rounds from it.
        A game whose players play each other may give each box ``scoop_balance``
        ``"<given>/<taken>"``: what its cards take from the others' against what theirs take
        from it, by a rule of the cards alone (equal means under a fair deal; no figures).
        Called in the settlement's transaction and again on a void (to take it off).
        Default: None, the game is not tested."""
        return None

    def integrity_expected(self, rules: Any) -> Mapping[str, Mapping[str, Any]] | None:
        """``{subject: {category: probability}}`` under these rules (Fraction or float,
        summing to 1), from the game's own odds engine (exact, or simulated with a fixed
        seed, cached): every category ``integrity_counts`` can give for the subject, an
        impossible one at 0. Default: None, the game is not tested."""
        return None

    def integrity_decks(self, rules: Any) -> int:
        """The standard 52-card decks a round is dealt from. Default: 1."""
        return 1
