"""Every settled round settled again from its record, and compared with what it recorded.

A round records the cards of every hand, each box's stakes (and the deposit shown), what a
player declared where the game leaves it to them (read back from the box's evaluation by
the adapter's ``declared_of``) and the ruleset version it was dealt under. The game's
adapter evaluates that record again with ``evaluate_round`` (the function the round was
dealt with: no second evaluator) and turns the result into ledger lines with
``ledger_lines`` (what settling posted). Then every bet's outcome, odds, gross, commission,
net and deposit required, the round's house result and its ledger entries (summed per
account, kind, box and bet) are compared with the record. The engines are deterministic,
so a difference is certain, not a chance: a record altered after settlement, or a posting
that is not what the cards gave.

The rounds are read in chunks by key, four queries a chunk (rounds, boxes, bets, ledger
entries) as plain tuples, never model instances; memory is bounded by the chunk and by the
differences kept per table (``KEPT``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from casino import games
from casino.floor.models import Bet, Box, Round, RoundStatus
from casino.floor.rules import rules_of_version
from casino.games import BoxInput, RoundResult
from casino.integrity.deals import DealWatch, deal_of
from casino.kernel.errors import InvalidInput
from casino.kernel.money import plain
from casino.ledger.models import LedgerEntry

#: Rounds read and settled again per chunk.
CHUNK = 2000
#: Differences kept per table (every one is counted).
KEPT = 200
#: A bet's recorded figures, compared one by one.
BET_FIELDS = ("outcome", "odds", "gross", "commission", "net", "deposit_required")
#: Shown for a figure one side does not have (a bet or a ledger line missing).
NONE = "—"

# The rounds' columns read (by position, below).
_ROUND = (
    "pk",
    "number",
    "session_id",
    "session__table_id",
    "session__table__code",
    "session__shift__gaming_date",
    "game",
    "ruleset_version_id",
    "dealer_cards",
    "house_net",
)
_BOX = ("pk", "round_id", "position", "player_id", "cards", "quit", "evaluation")
_BET = ("box_id", "pk", "bet_type", "stake", "deposit_shown", *BET_FIELDS)
_ENTRY = ("round_id", "box_id", "bet_id", "account", "kind", "amount")


@dataclass(frozen=True)
class Difference:
    """One figure of a settled round that its record, settled again, does not give.

    ``field`` is a bet's figure (``BET_FIELDS``), ``bet`` (a bet one side lacks),
    ``house_net``, ``settlement`` (the record cannot be settled at all: ``resettled`` says
    why) or ``ledger:<account>:<kind>`` (the round's entries of that account and kind, for
    that box and bet, summed)."""

    round_id: int
    number: int
    session_id: int
    table: str
    gaming_date: date
    position: int | None
    bet_type: str
    field: str
    recorded: str
    resettled: str

    def as_dict(self) -> dict[str, Any]:
        """As an alert's evidence keeps it (JSON)."""
        return {
            "round": self.round_id,
            "number": self.number,
            "session": self.session_id,
            "table": self.table,
            "gaming_date": self.gaming_date.isoformat(),
            "position": self.position,
            "bet_type": self.bet_type,
            "field": self.field,
            "recorded": self.recorded,
            "resettled": self.resettled,
        }

    def __str__(self) -> str:
        box = f"box {self.position} " if self.position is not None else ""
        bet = f"{self.bet_type} " if self.bet_type else ""
        return (
            f"round {self.round_id} (number {self.number} at {self.table}, "
            f"{self.gaming_date.isoformat()}): {box}{bet}{self.field} recorded {self.recorded}, "
            f"settled again from its record {self.resettled}"
        )


@dataclass
class TableResettled:
    """A table's settled rounds of the period, settled again: how many, in which sessions,
    how many differ, and the first ``KEPT`` differences."""

    table_id: int
    table: str
    game: str
    rounds: int = 0
    rounds_differing: int = 0
    differences_found: int = 0
    sessions: set[int] = field(default_factory=set)
    differences: list[Difference] = field(default_factory=list)


def resettle(
    *,
    venue_id: int | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    shift_id: int | None = None,
    chunk: int = CHUNK,
    deals: DealWatch | None = None,
) -> dict[int, TableResettled]:
    """Every settled round of the venue's gaming dates (or the shift's; every round when
    nothing is given) settled again from its record, per table (by its key). ``deals``, if
    given, is shown each round's deal in the order dealt (the same pass, no query more)."""
    rounds = Round.objects.filter(status=RoundStatus.SETTLED)
    if venue_id is not None:
        rounds = rounds.filter(session__table__venue_id=venue_id)
    if date_from is not None:
        rounds = rounds.filter(session__shift__gaming_date__gte=date_from)
    if date_to is not None:
        rounds = rounds.filter(session__shift__gaming_date__lte=date_to)
    if shift_id is not None:
        rounds = rounds.filter(session__shift_id=shift_id)
    tables: dict[int, TableResettled] = {}
    rules: dict[tuple[str, int], Any] = {}
    for row, boxes, entries in _chunks(rounds, chunk):
        table = tables.get(row[3])
        if table is None:
            table = tables[row[3]] = TableResettled(row[3], row[4], row[6])
        table.rounds += 1
        table.sessions.add(row[2])
        key = (row[6], row[7])
        if key not in rules:
            adapter = games.get(row[6])
            version_rules = rules_of_version(adapter, row[7])
            rules[key] = (version_rules, adapter.integrity_decks(version_rules))
        found = compare_round(row, boxes, entries, rules[key][0])
        if deals is not None:
            deal = deal_of(row[8], ((box[0], box[2]) for box in boxes))
            deals.add(
                table_id=row[3], game=row[6], session_id=row[2], number=row[1], deal=deal,
                decks=rules[key][1],
            )  # fmt: skip
        if found:
            table.rounds_differing += 1
            table.differences_found += len(found)
            table.differences += found[: KEPT - len(table.differences)]
    return tables


def differences(**where: Any) -> Iterator[Difference]:
    """The differences :func:`resettle` found, table by table (``where``: its arguments)."""
    for table in resettle(**where).values():
        yield from table.differences


#: A box as read: (position, player, cards, quit, evaluation, [bet rows]).
_BoxRead = tuple[int, int | None, str, bool, Any, list[tuple[Any, ...]]]


def _chunks(rounds: Any, chunk: int) -> Iterator[tuple[tuple[Any, ...], list[Any], list[Any]]]:
    """Each round's row with its boxes (their bets in them) and its ledger entries (box
    and bet named by position and bet type), a chunk of rounds at a time, by key."""
    last = 0
    while True:
        rows = list(rounds.filter(pk__gt=last).order_by("pk").values_list(*_ROUND)[:chunk])
        if not rows:
            return
        last = rows[-1][0]
        ids = [row[0] for row in rows]
        boxes: dict[int, list[Any]] = {pk: [] for pk in ids}
        by_box: dict[int, list[tuple[Any, ...]]] = {}
        position_of: dict[int, int] = {}
        for pk, round_id, position, player_id, cards, quit_, evaluation in (
            Box.objects.filter(round_id__in=ids).order_by("pk").values_list(*_BOX)
        ):
            bets = by_box[pk] = []
            position_of[pk] = position
            boxes[round_id].append((position, player_id, cards, quit_, evaluation, bets))
        bet_type_of: dict[int, str] = {}
        for bet in Bet.objects.filter(box__round_id__in=ids).order_by("pk").values_list(*_BET):
            by_box[bet[0]].append(bet[2:])
            bet_type_of[bet[1]] = bet[2]
        entries: dict[int, list[Any]] = {pk: [] for pk in ids}
        for round_id, box_id, bet_id, account, kind, amount in LedgerEntry.objects.filter(
            round_id__in=ids
        ).values_list(*_ENTRY):
            entries[round_id].append(
                (account, kind, position_of.get(box_id), bet_type_of.get(bet_id), amount)
            )
        for row in rows:
            yield row, boxes[row[0]], entries[row[0]]


def compare_round(
    row: tuple[Any, ...], boxes: list[_BoxRead], entries: list[Any], rules: Any
) -> list[Difference]:
    """One round's record settled again under ``rules`` and compared with what it holds."""
    adapter = games.get(row[6])

    def diff(position: int | None, bet_type: str, name: str, recorded: Any, again: Any) -> Any:
        figures = (position, bet_type or "", name, _shown(recorded), _shown(again))
        return Difference(row[0], row[1], row[2], row[4], row[5], *figures)

    inputs = [
        BoxInput(
            position=position,
            cards=cards,
            stakes={bet[0]: bet[1] for bet in bets},
            deposits={bet[0]: bet[2] for bet in bets if bet[2] is not None},
            player_id=player_id,
            quit=quit_,
            declared=adapter.declared_of(evaluation),
        )
        for position, player_id, cards, quit_, evaluation, bets in boxes
    ]
    try:
        result = adapter.evaluate_round(rules=rules, dealer_cards=row[8], boxes=inputs)
    except (InvalidInput, ValueError) as error:
        return [diff(None, "", "settlement", "settled", str(error))]
    found = []
    recorded = {(box[0], bet[0]): bet for box in boxes for bet in box[5]}
    again = {(box.position, bet.bet_type): bet for box in result.boxes for bet in box.bets}
    for position, bet_type in sorted(recorded.keys() | again.keys()):
        kept, made = recorded.get((position, bet_type)), again.get((position, bet_type))
        if kept is None or made is None:
            found.append(diff(position, bet_type, "bet", kept and kept[1], made and made.stake))
            continue
        for index, name in enumerate(BET_FIELDS, start=3):
            if kept[index] != getattr(made, name):
                found.append(diff(position, bet_type, name, kept[index], getattr(made, name)))
    if row[9] != result.house_net:
        found.append(diff(None, "", "house_net", row[9], result.house_net))
    kept_lines, made_lines = _sums(entries), _sums(_lines(adapter, result, recorded))
    for key in sorted(kept_lines.keys() | made_lines.keys(), key=str):
        if kept_lines.get(key) != made_lines.get(key):
            account, kind, position, bet_type = key
            name = f"ledger:{account}:{kind}"
            found.append(diff(position, bet_type, name, kept_lines.get(key), made_lines.get(key)))
    return found


def _lines(
    adapter: games.GameAdapter, result: RoundResult, bets: dict[tuple[int, str], Any]
) -> Iterator[tuple[str, str, int | None, str | None, Decimal]]:
    """The ledger lines settling posts for ``result``, named as its entries are: a line's
    bet only when the box has that bet
    (``casino.floor.services.settlement.round_settle_written``)."""
    for line in adapter.ledger_lines(result):
        position = line.position or None
        bet_type = line.bet_type if (line.position, line.bet_type) in bets else None
        yield str(line.account), str(line.kind), position, bet_type, line.amount


def _sums(lines: Iterable[tuple[str, str, int | None, str | None, Decimal]]) -> dict[Any, Any]:
    """Amounts summed per account, kind, box and bet (zero sums left out)."""
    sums: Counter[Any] = Counter()
    for account, kind, position, bet_type, amount in lines:
        sums[(account, kind, position, bet_type)] += amount
    return {key: total for key, total in sums.items() if total}


def _shown(value: Any) -> str:
    if value is None:
        return NONE
    if isinstance(value, Decimal):
        return plain(value)
    return str(value)
