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
entries) as plain tuples, never model instances (the last three as plain SQL, their keys one
array); outside a transaction, in a pass that settles alone (not a worker's), each chunk after
the first is read by a thread on its own connection while the chunk before is settled.
Memory is bounded by three chunks (one settled, one handed over, one being read) and by the
differences kept per table (``KEPT``). A round whose bets and entries come back as recorded,
in the order settling wrote them, is compared one by one (the entries of a game that posts
the default ledger lines in one comparison with ``casino.games.ledger_figures``, tuples
against tuples); only one that differs is summed per account, kind, box and bet to name what
differs.

A period of many rounds at several tables is split between worker processes (``workers``,
by default one a CPU), a table to each in turn, the largest first: each reads and settles
its tables' rounds on its own connection, and the tables come back in the order one process
would have given them, with the same differences. A resettlement inside a transaction (a
test's, the demo's), in a daemonic process (a task worker's) or where processes cannot be
forked runs in the calling process, as it does with ``workers=1``.

Long because one pass is read here whole: the rounds read, settled again and compared, in
this process or split between workers that run that same pass a table each.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import multiprocessing.util
import os
import queue
import threading
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from operator import attrgetter
from typing import Any

from django.db import connections
from django.db.models import Count, Min

from casino import games
from casino.floor.models import Bet, Box, Round, RoundStatus
from casino.floor.rules import rules_of_version
from casino.games import BoxInput, RoundResult, ledger_figures
from casino.integrity.deals import DealWatch, deal_of
from casino.kernel.errors import InvalidInput
from casino.kernel.money import plain
from casino.ledger.models import LedgerEntry

#: Rounds read and settled again per chunk.
CHUNK = 2000
#: The fewest rounds split between processes: fewer are settled again sooner in one.
PARALLEL_FROM = 10_000
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
# The columns of the boxes, bets and entries read (by their fields' names).
_BOX = ("id", "round", "position", "player", "cards", "quit", "evaluation")
_BET = ("box", "id", "bet_type", "stake", "deposit_shown", *BET_FIELDS)
_ENTRY = ("round", "box", "bet", "account", "kind", "amount")
#: A settled bet's figures, in ``BET_FIELDS`` order.
_FIGURES = attrgetter(*BET_FIELDS)


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
    workers: int | None = None,
) -> dict[int, TableResettled]:
    """Every settled round of the venue's gaming dates (or the shift's; every round when
    nothing is given) settled again from its record, per table (by its key, in the order of
    the tables' first rounds). ``deals``, if given, is shown each round's deal in the order
    dealt (the same pass, no query more). ``workers``: the processes the tables are split
    between (default: one a CPU; 1 settles them in this process)."""
    where = {
        "venue_id": venue_id,
        "date_from": date_from,
        "date_to": date_to,
        "shift_id": shift_id,
    }
    rounds = _settled_rounds(**where)
    if workers is None:
        workers = os.cpu_count() or 1
    if workers > 1 and _may_fork(rounds.db):
        tables = list(
            rounds.values_list("session__table_id")
            .annotate(first=Min("pk"), rounds=Count("pk"))
            .order_by("first")
        )
        if len(tables) > 1 and sum(table[2] for table in tables) >= PARALLEL_FROM:
            return _in_workers(where, tables, min(workers, len(tables)), chunk, deals)
    return _resettled(rounds, chunk, deals)


def differences(**where: Any) -> Iterator[Difference]:
    """The differences :func:`resettle` found, table by table (``where``: its arguments)."""
    for table in resettle(**where).values():
        yield from table.differences


def _settled_rounds(
    *,
    venue_id: int | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    shift_id: int | None = None,
    table_id: int | None = None,
) -> Any:
    rounds = Round.objects.filter(status=RoundStatus.SETTLED)
    if venue_id is not None:
        rounds = rounds.filter(session__table__venue_id=venue_id)
    if date_from is not None:
        rounds = rounds.filter(session__shift__gaming_date__gte=date_from)
    if date_to is not None:
        rounds = rounds.filter(session__shift__gaming_date__lte=date_to)
    if shift_id is not None:
        rounds = rounds.filter(session__shift_id=shift_id)
    if table_id is not None:
        rounds = rounds.filter(session__table_id=table_id)
    return rounds


def _resettled(rounds: Any, chunk: int, deals: DealWatch | None) -> dict[int, TableResettled]:
    """The rounds settled again in this process, per table in the order met."""
    with _fewer_collections():
        return _resettled_here(rounds, chunk, deals)


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """The cyclic garbage collector run less often while rounds are settled again: a pass
    makes millions of short-lived tuples and dicts and next to no cycles, and collecting
    after every 700 of them took 8% of it. The thresholds are set back after."""
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], 50_000), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def _resettled_here(rounds: Any, chunk: int, deals: DealWatch | None) -> dict[int, TableResettled]:
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


def _may_fork(alias: str) -> bool:
    """Whether worker processes may be forked to read what this process would: not inside
    a transaction (what it wrote is not theirs to see), not from a daemonic process (which
    may have no children), and only where a process can be forked."""
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and not multiprocessing.current_process().daemon
        and not connections[alias].in_atomic_block
        and not any(connection.in_atomic_block for connection in connections.all())
    )


def _in_workers(
    where: dict[str, Any],
    tables: list[tuple[int, int, int]],
    workers: int,
    chunk: int,
    deals: DealWatch | None,
) -> dict[int, TableResettled]:
    """The tables (``(key, first round, rounds)``, in the order of their first rounds) settled
    again by ``workers`` forked processes, a table at a time, the largest first; merged in
    the tables' order, as one process gives them."""
    # Nothing open crosses the fork: each worker connects on its own (this process again
    # when it next reads).
    connections.close_all()
    largest_first = sorted(tables, key=lambda table: (-table[2], table[1]))
    done: dict[int, tuple[TableResettled, Any]] = {}
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_worker_started,
    ) as pool:
        futures = [
            pool.submit(_table_resettled, where, table[0], chunk, deals is not None)
            for table in largest_first
        ]
        try:
            for future in futures:
                table_id, resettled, watched = future.result()
                done[table_id] = (resettled, watched)
        except BaseException:
            pool.shutdown(cancel_futures=True)  # the tables not begun are not settled
            raise
    found: dict[int, TableResettled] = {}
    for table_id, _first, _rounds in tables:
        resettled, watched = done[table_id]
        if resettled is not None:
            found[table_id] = resettled
        if deals is not None:
            deals.merge(watched)
    return found


def _worker_started() -> None:
    """A worker's start: the connections it inherited were closed before the fork; it opens
    its own on its first read (the same settings, so the same database), and reads no chunk
    ahead (:func:`_may_read_ahead`)."""
    global _IN_WORKER  # this process's, set once as it starts
    _IN_WORKER = True
    for connection in connections.all(initialized_only=True):
        connection.connection = None  # never the parent's socket, and nothing to close
    # Its own connections are closed when it ends (not dropped for the server to log).
    multiprocessing.util.Finalize(None, connections.close_all, exitpriority=0)


def _table_resettled(
    where: dict[str, Any], table_id: int, chunk: int, watch: bool
) -> tuple[int, TableResettled | None, Any]:
    """One table's rounds of the period settled again (in a worker), with its deals' figures
    when ``watch``."""
    deals = DealWatch() if watch else None
    tables = _resettled(_settled_rounds(**where, table_id=table_id), chunk, deals)
    return table_id, tables.get(table_id), deals.figures() if deals is not None else None


#: A box as read: (position, player, cards, quit, evaluation (None for a game that reads no
#: declaration from it), [bet rows]).
_BoxRead = tuple[int, int | None, str, bool, Any, list[tuple[Any, ...]]]


def _chunks(rounds: Any, chunk: int) -> Iterator[tuple[tuple[Any, ...], list[Any], list[Any]]]:
    """Each round's row with its boxes (their bets in them) and its ledger entries (box
    and bet named by position and bet type), a chunk of rounds at a time, by key: read ahead
    by a thread of its own after the first chunk, where it may (:func:`_may_read_ahead`)."""
    reading = _read_chunks(rounds, chunk)
    first = next(reading, [])
    if len(first) == chunk and _may_read_ahead(rounds.db):  # more may follow
        reading.close()
        reading = _read_ahead(rounds, chunk, after=first[-1][0][0])
    yield from first
    for part in reading:
        yield from part


#: Set in a worker process: its wait for PostgreSQL is the other workers' time on the cores.
_IN_WORKER = False


def _may_read_ahead(alias: str) -> bool:
    """Whether another connection reads what this one would, and gains by it: on
    PostgreSQL, outside any transaction (what it wrote is not another connection's to see),
    and not in a worker process (the workers keep every core busy already: a thread would
    only add its own cost, about 4 µs a round)."""
    return (
        not _IN_WORKER
        and connections[alias].vendor == "postgresql"
        and not any(connection.in_atomic_block for connection in connections.all())
    )


def _read_ahead(rounds: Any, chunk: int, *, after: int) -> Iterator[list[Any]]:
    """The chunks :func:`_read_chunks` gives after the round ``after``, each read by a
    thread on its own connection while the chunk before is settled again here: PostgreSQL
    finds and sends the rows (on the other core) in the time a pass waited for them. The
    thread turns the rows into tuples too (holding the interpreter then), so only the wait
    is won. Two chunks at most wait to be settled (the one handed over and the one being
    read); the thread stops when the pass does, and closes its connection."""
    ready: queue.Queue[Any] = queue.Queue(maxsize=1)
    stop = threading.Event()

    def hand(part: Any) -> bool:
        while not stop.is_set():
            try:
                ready.put(part, timeout=0.1)
            except queue.Full:
                continue
            return True
        return False  # the pass stopped: nothing more to read

    def read() -> None:
        try:
            for part in _read_chunks(rounds, chunk, after=after):
                if not hand(part):
                    return
            hand(None)
        except BaseException as error:  # raised again where the chunks are settled
            hand(error)
        finally:
            connections.close_all()  # the thread's own

    reader = threading.Thread(target=read, name="resettle-read", daemon=True)
    reader.start()
    try:
        while (part := ready.get()) is not None:
            if isinstance(part, BaseException):
                raise part
            yield part
    finally:
        stop.set()
        reader.join()


def _read_chunks(rounds: Any, chunk: int, *, after: int = 0) -> Iterator[list[Any]]:
    """The rounds as :func:`_chunks` gives them (those after the round ``after``), a list a
    chunk, read on this thread's connection."""
    connection = connections[rounds.db]
    declaring: dict[str, bool] = {}  # per game: whether its adapter reads a declaration
    last = after
    while True:
        rows = list(rounds.filter(pk__gt=last).order_by("pk").values_list(*_ROUND)[:chunk])
        if not rows:
            return
        last = rows[-1][0]
        ids = [row[0] for row in rows]
        for row in rows:
            if row[6] not in declaring:
                declaring[row[6]] = _declares(games.get(row[6]))
        boxes: dict[int, list[Any]] = {pk: [] for pk in ids}
        by_box: dict[int, list[tuple[Any, ...]]] = {}
        position_of: dict[int, int] = {}
        # A box's evaluation is read only for a game that reads a declaration from it.
        names = _BOX if any(declaring[game] for game in {row[6] for row in rows}) else _BOX[:-1]
        for pk, round_id, position, player_id, cards, quit_, *evaluation in _read(
            connection, Box, names, "round", ids, order=True
        ):
            bets = by_box[pk] = []
            position_of[pk] = position
            boxes[round_id].append(
                (position, player_id, cards, quit_, evaluation[0] if evaluation else None, bets)
            )
        bet_type_of: dict[int, str] = {}
        for bet in _read(
            connection, Bet, _BET, "box", list(by_box), order=True, where={"box__round__in": ids}
        ):
            by_box[bet[0]].append(bet[2:])
            bet_type_of[bet[1]] = bet[2]
        entries: dict[int, list[Any]] = {pk: [] for pk in ids}
        for round_id, box_id, bet_id, account, kind, amount in _read(
            connection, LedgerEntry, _ENTRY, "round", ids, order=True
        ):
            entries[round_id].append(
                (account, kind, position_of.get(box_id), bet_type_of.get(bet_id), amount)
            )
        part = []
        for row in rows:
            read = boxes[row[0]]
            if declaring[row[6]]:  # the evaluation as its field reads it (JSON text here)
                read = [(*box[:4], _json(box[4]), box[5]) for box in read]
            part.append((row, read, entries[row[0]]))
        yield part


def _read(
    connection: Any,
    model: Any,
    names: Sequence[str],
    key: str,
    keys: list[int],
    *,
    order: bool,
    where: dict[str, Any] | None = None,
) -> list[tuple[Any, ...]]:
    """The fields ``names`` of the rows of ``model`` whose ``key`` is one of ``keys`` (by
    key when ``order``): on PostgreSQL a plain SELECT with the keys as one array; elsewhere
    (SQLite, ``make run``) the queryset, filtered by ``where`` if given (fewer parameters)."""
    if connection.vendor != "postgresql":
        rows = model._base_manager.using(connection.alias).filter(**(where or {f"{key}__in": keys}))
        return list((rows.order_by("pk") if order else rows).values_list(*names))
    meta = model._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(name).column) for name in names)
    sql = (
        f"SELECT {columns} FROM {quote(meta.db_table)} "  # noqa: S608 (names, not input)
        f"WHERE {quote(meta.get_field(key).column)} = ANY(%s::bigint[])"
    )
    if order:
        sql += f" ORDER BY {quote(meta.pk.column)}"
    with connection.cursor() as cursor:
        # The keys as the array's text, made in one join: a list is dumped a key at a time.
        cursor.execute(sql, ["{" + ",".join(map(str, keys)) + "}"])
        return cursor.fetchall()


def _declares(adapter: games.GameAdapter) -> bool:
    """Whether the game reads what a player declared from a box's evaluation (its adapter
    has its own ``declared_of``; the default gives None whatever it is shown)."""
    return type(adapter).declared_of is not games.GameAdapter.declared_of


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def compare_round(
    row: tuple[Any, ...], boxes: list[_BoxRead], entries: list[Any], rules: Any
) -> list[Difference]:
    """One round's record settled again under ``rules`` and compared with what it holds."""
    adapter = games.get(row[6])

    def diff(position: int | None, bet_type: str, name: str, recorded: Any, again: Any) -> Any:
        figures = (position, bet_type or "", name, _shown(recorded), _shown(again))
        return Difference(row[0], row[1], row[2], row[4], row[5], *figures)

    declares = _declares(adapter)
    inputs = [  # positional, in the fields' order: a keyword call costs twice as much
        BoxInput(
            position,
            cards,
            {bet[0]: bet[1] for bet in bets},  # stakes
            {bet[0]: bet[2] for bet in bets if bet[2] is not None},  # deposits
            player_id,
            quit_,
            adapter.declared_of(evaluation) if declares else None,  # declared
        )
        for position, player_id, cards, quit_, evaluation, bets in boxes
    ]
    try:
        result = adapter.evaluate_round(rules=rules, dealer_cards=row[8], boxes=inputs)
    except (InvalidInput, ValueError) as error:
        return [diff(None, "", "settlement", "settled", str(error))]
    house_net = result.house_net
    if row[9] == house_net and _same_bets(boxes, result):
        if (
            _posts_by_default(adapter)
            and entries == ledger_figures(result)
            and all([box[0] for box in boxes])  # no box at 0 (named None, below)
        ):
            return []  # as recorded (nearly every round): nothing to name
        lines = adapter.ledger_lines(result)
        if _same_lines(entries, lines, boxes):
            return []
    else:
        lines = adapter.ledger_lines(result)
    recorded = {(box[0], bet[0]): bet for box in boxes for bet in box[5]}
    again = {(box.position, bet.bet_type): bet for box in result.boxes for bet in box.bets}
    kept_lines, made_lines = _sums(entries), _sums(_lines(lines, recorded))
    found = []
    for position, bet_type in sorted(recorded.keys() | again.keys()):
        kept, made = recorded.get((position, bet_type)), again.get((position, bet_type))
        if kept is None or made is None:
            found.append(diff(position, bet_type, "bet", kept and kept[1], made and made.stake))
            continue
        for index, name in enumerate(BET_FIELDS, start=3):
            if kept[index] != getattr(made, name):
                found.append(diff(position, bet_type, name, kept[index], getattr(made, name)))
    if row[9] != house_net:
        found.append(diff(None, "", "house_net", row[9], house_net))
    for key in sorted(kept_lines.keys() | made_lines.keys(), key=str):
        if kept_lines.get(key) != made_lines.get(key):
            account, kind, position, bet_type = key
            name = f"ledger:{account}:{kind}"
            found.append(diff(position, bet_type, name, kept_lines.get(key), made_lines.get(key)))
    return found


def _posts_by_default(adapter: games.GameAdapter) -> bool:
    """Whether the game posts a round with the default ``ledger_lines``: then its entries,
    as read, are compared with ``ledger_figures`` in one comparison of tuples."""
    return type(adapter).ledger_lines is games.GameAdapter.ledger_lines


def _same_bets(boxes: list[_BoxRead], result: RoundResult) -> bool:
    """Whether the boxes settled again are the recorded ones, in the same order, each bet's
    figures as recorded (bets in the order recorded): then so is every bet by box and type."""
    if len(boxes) != len(result.boxes):
        return False
    for box, made in zip(boxes, result.boxes, strict=True):
        bets = box[5]
        if box[0] != made.position or len(bets) != len(made.bets):
            return False
        for bet, again in zip(bets, made.bets, strict=True):
            if bet[0] != again.bet_type or bet[3:] != _FIGURES(again):
                return False
    return True


def _same_lines(entries: list[Any], lines: Sequence[Any], boxes: list[_BoxRead]) -> bool:
    """Whether the round's entries (in the order posted) are its ledger lines one by one,
    each named as :func:`_lines` names it: then so are their sums per account, kind, box and
    bet, which a round whose entries differ is compared by."""
    if len(entries) != len(lines):
        return False
    placed = None
    for entry, line in zip(entries, lines, strict=True):
        bet_type = line.bet_type
        if bet_type is not None:
            if placed is None:
                placed = {(box[0], bet[0]) for box in boxes for bet in box[5]}
            if (line.position, bet_type) not in placed:
                bet_type = None
        if (
            entry[4] != line.amount
            or entry[0] != line.account
            or entry[1] != line.kind
            or entry[2] != (line.position or None)
            or entry[3] != bet_type
        ):
            return False
    return True


def _lines(
    lines: Iterable[Any], bets: dict[tuple[int, str], Any]
) -> Iterator[tuple[str, str, int | None, str | None, Decimal]]:
    """The ledger lines settling posts for the round (the adapter's ``ledger_lines``), named
    as its entries are: a line's bet only when the box has that bet
    (``casino.floor.services.settlement.round_settle_written``)."""
    text = _TEXTS.get
    for line in lines:
        position = line.position or None
        bet_type = line.bet_type if (line.position, line.bet_type) in bets else None
        account = text(line.account) or _text(line.account)
        yield account, text(line.kind) or _text(line.kind), position, bet_type, line.amount


def _sums(lines: Iterable[tuple[str, str, int | None, str | None, Decimal]]) -> dict[Any, Any]:
    """Amounts summed per account, kind, box and bet (zero sums left out)."""
    sums: dict[Any, Any] = {}
    for account, kind, position, bet_type, amount in lines:
        key = (account, kind, position, bet_type)
        sums[key] = sums.get(key, 0) + amount
    return {key: total for key, total in sums.items() if total}


#: An account's or an entry kind's text (a choice is its own text: a str).
_TEXTS: dict[str, str] = {}


def _text(choice: str) -> str:
    text = _TEXTS.get(choice)
    if text is None:
        text = str(choice)
        if len(_TEXTS) < 256:  # the accounts and kinds there are
            _TEXTS[choice] = text
    return text


def _shown(value: Any) -> str:
    if value is None:
        return NONE
    if isinstance(value, Decimal):
        return plain(value)
    return str(value)
