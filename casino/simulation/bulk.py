"""Simulated rounds written in bulk, for load tests and reports of millions of bets.

The game's engine settles each round (``GameDemo.round_stream`` deals it, the adapter
evaluates it and turns the result into ledger lines, in a thread while the database
writes the previous batch); rounds, boxes, bets and ledger entries are then written with
COPY, a batch of whole rounds per statement, so the database's statement-level balance
trigger checks every batch, and the entries are checked with ``check_balanced`` (what
``ledger_post`` checks) before they are sent. The reports' tallies and the integrity
tallies are added a batch at a time by the services' own code (``tally_settled``,
``integrity_tally_rounds``). Only the audit trail of each round (``round.create`` /
``round.settle``) is left out.
"""

from __future__ import annotations

import json
import queue
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import JSONField

from casino import games
from casino.floor.models import Bet, BetTally, Box, Round, RoundStatus, SeatTally, TableSession
from casino.floor.services.tallies import tally_settled
from casino.games import BoxInput, LedgerLine, RoundResult
from casino.integrity.tallies import TalliedRound, integrity_tally_rounds
from casino.ledger.models import EntryKind, LedgerEntry
from casino.ledger.services import check_balanced
from casino.rulesets.selectors import version_in_force
from casino.venues.models import Shift

#: Batches written by this process; statistics are refreshed each time it doubles.
_written = 0
GROWING = (TableSession, Round, Box, Bet, LedgerEntry, BetTally, SeatTally)


class BulkWriter:
    """Rounds settled by the engine and written with COPY, whole rounds per statement."""

    def __init__(
        self, session: TableSession, shift: Shift, *, dealer: Any, supervisor: Any, batch: int
    ) -> None:
        self.session = TableSession.objects.select_related(
            "table__venue", "table__ruleset", "shift"
        ).get(pk=session.pk)
        self.dealer, self.supervisor = dealer, supervisor
        self.shift = shift
        self.batch = batch
        table = self.session.table
        self.adapter = games.get(table.game)
        self.version = version_in_force(model=self.adapter.version_model, ruleset=table.ruleset)
        self.rules = self.adapter.snapshot(self.version)

    def write(
        self,
        rounds: int,
        *,
        seed: int,
        void_rate: float,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Write ``rounds`` rounds; ``progress`` is told of each batch written (its rounds)."""
        step = (self.shift.ends_at - self.shift.starts_at) / max(rounds, 1)
        voided = 0
        number = self.session.next_round_number
        done = 0
        for settled in self._settled_batches(rounds, seed=seed, void_rate=void_rate):
            voided += self._batch(settled, number, done, step, seed)
            number += len(settled)
            done += len(settled)
            _analyze_as_tables_grow()
            if progress is not None:
                progress(len(settled))
        TableSession.objects.filter(pk=self.session.pk).update(next_round_number=number)
        return voided

    def _settled_batches(
        self, rounds: int, *, seed: int, void_rate: float
    ) -> Iterator[list[tuple[Sequence[BoxInput], RoundResult, bool, list[LedgerLine]]]]:
        """Batches of settled rounds, made by the engine in a thread while the database
        writes the previous batch (the engine needs no database: the rules, limits and
        players were read before the thread starts)."""
        rng = random.Random(seed)
        stream = self.adapter.demo.round_stream(session=self.session, rng=rng)
        batches: queue.Queue[Any] = queue.Queue(maxsize=2)

        def produce() -> None:
            try:
                left = rounds
                while left:
                    settled = []
                    for _n in range(min(self.batch, left)):
                        dealer_cards, boxes = next(stream)
                        result = self.adapter.evaluate_round(
                            rules=self.rules, dealer_cards=dealer_cards, boxes=boxes
                        )
                        void = rng.random() < void_rate
                        lines = self.adapter.ledger_lines(result)
                        settled.append((boxes, result, void, lines))
                    left -= len(settled)
                    batches.put(settled)
                batches.put(None)
            except BaseException as error:  # handed to the writer, which raises it
                batches.put(error)

        threading.Thread(target=produce, daemon=True).start()
        while (item := batches.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item

    @transaction.atomic
    def _batch(
        self,
        settled: list[tuple[Sequence[BoxInput], RoundResult, bool, list[LedgerLine]]],
        first_number: int,
        done: int,
        step: timedelta,
        seed: int,
    ) -> int:
        """Write one batch of settled rounds and their tallies; returns how many it voided."""
        count = len(settled)
        round_ids = _ids(Round, count)
        box_ids = _ids(Box, sum(len(r.boxes) for _, r, _, _ in settled))
        bet_ids = _ids(Bet, sum(len(b.bets) for _, r, _, _ in settled for b in r.boxes))
        entry_ids = _ids(
            LedgerEntry, sum(len(lines) * (2 if void else 1) for _, _, void, lines in settled)
        )
        rows = _Rows(box_ids=iter(box_ids), bet_ids=iter(bet_ids), entry_ids=iter(entry_ids))
        voided = 0
        for n, ((inputs, result, void, round_lines), round_id) in enumerate(
            zip(settled, round_ids, strict=True)
        ):
            number = first_number + n
            at = _Times.of(self.shift.starts_at + step * (done + n), step, void=void)
            by_position: dict[int, BoxInput] = {box.position: box for box in inputs}
            box_of, bet_of = _box_rows(rows, round_id, result, by_position)
            for line in round_lines:
                self._entry_rows(rows, round_id, line, by_position, box_of, bet_of, at)
            rows.rounds.append(self._round_row(round_id, number, result, at, seed=seed))
            voided += void
        self._write(rows, settled)
        return voided

    def _entry_rows(
        self,
        rows: _Rows,
        round_id: int,
        line: LedgerLine,
        by_position: dict[int, BoxInput],
        box_of: dict[int, int],
        bet_of: dict[tuple[int, str], int],
        at: _Times,
    ) -> None:
        """A ledger line's entry, and the entry reversing it when the round is voided."""
        entry = {
            "id": next(rows.entry_ids),
            "venue_id": self.session.table.venue.pk,
            "session_id": self.session.pk,
            "round_id": round_id,
            "box_id": box_of.get(line.position) if line.position else None,
            "bet_id": bet_of.get((line.position, line.bet_type)),
            "player_id": by_position[line.position].player_id if line.position else None,
            "account": line.account,
            "kind": line.kind,
            "amount": line.amount,
            "created_by_id": self.dealer.pk,
            "created_at": at.settled,
        }
        rows.entries.append(entry)
        if at.voided is not None:  # the reversing entry round_void_approve posts
            rows.entries.append(
                entry
                | {
                    "id": next(rows.entry_ids),
                    "kind": EntryKind.VOID,
                    "amount": -line.amount,
                    "reverses_id": entry["id"],
                    "created_by_id": self.supervisor.pk,
                    "created_at": at.voided,
                }
            )

    def _round_row(
        self, round_id: int, number: int, result: RoundResult, at: _Times, *, seed: int
    ) -> dict[str, Any]:
        """The round's row: settled, or voided as a misdeal when ``at`` says when."""
        session, dealer = self.session, self.dealer.pk
        void = at.voided is not None
        return {
            "id": round_id,
            "session_id": session.pk,
            "number": number,
            "game": self.adapter.code,
            "status": RoundStatus.VOIDED if void else RoundStatus.SETTLED,
            "ruleset_id": session.table.ruleset_id,
            "ruleset_version_id": self.version.pk,
            "ruleset_version_number": self.version.number,
            "dealer_cards": result.dealer_cards,
            "dealer_evaluation": result.dealer_evaluation,
            "dealer_id": session.dealer_id,
            "created_by_id": dealer,
            "created_at": at.dealt,
            "settle_key": f"sim-{session.pk}-{seed}-{number}",
            "settled_by_id": dealer,
            "settled_at": at.settled,
            "house_net": result.house_net,
            "void_reason": "simulated misdeal" if void else "",
            "void_requested_by_id": dealer if void else None,
            "void_requested_at": at.voided,
            "voided_by_id": self.supervisor.pk if void else None,
            "voided_at": at.voided,
        }

    def _write(
        self,
        rows: _Rows,
        settled: list[tuple[Sequence[BoxInput], RoundResult, bool, list[LedgerLine]]],
    ) -> None:
        """Check the entries balance, COPY the rows and add the tallies the services add."""
        # What the services' ledger_post refuses is refused here too, before anything is sent.
        check_balanced(
            LedgerEntry(round_id=e["round_id"], amount=e["amount"]) for e in rows.entries
        )
        _copy(Round, rows.rounds)
        _copy(Box, rows.boxes)
        _copy(Bet, rows.bets)
        _copy(LedgerEntry, rows.entries)
        # The tallies the services leave: a voided round is in none.
        tally_settled([row["id"] for row in rows.rounds if row["status"] == RoundStatus.SETTLED])
        integrity_tally_rounds(
            self.session,
            (
                TalliedRound(
                    game=self.adapter.code,
                    dealer_id=self.session.dealer_id,
                    ruleset_version_id=self.version.pk,
                    result=result,
                    players={box.position: box.player_id for box in inputs},
                )
                for inputs, result, void, _lines in settled
                if not void
            ),
        )


@dataclass
class _Rows:
    """A batch's rows for COPY, and the ids reserved for its boxes, bets and entries."""

    box_ids: Iterator[int]
    bet_ids: Iterator[int]
    entry_ids: Iterator[int]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    boxes: list[dict[str, Any]] = field(default_factory=list)
    bets: list[dict[str, Any]] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class _Times:
    """When a simulated round was dealt, settled and (a voided one) voided."""

    dealt: datetime
    settled: datetime
    voided: datetime | None

    @classmethod
    def of(cls, slot: datetime, step: timedelta, *, void: bool) -> _Times:
        """A round's times in its ``step`` long slot: a quarter apart, from a quarter in."""
        dealt = slot + step / 4
        settled = dealt + step / 4
        return cls(dealt=dealt, settled=settled, voided=settled + step / 4 if void else None)


def _box_rows(
    rows: _Rows, round_id: int, result: RoundResult, by_position: dict[int, BoxInput]
) -> tuple[dict[int, int], dict[tuple[int, str], int]]:
    """The round's boxes and bets; returns each box's id by position and each bet's by
    position and bet type, which its ledger entries name."""
    box_of: dict[int, int] = {}
    bet_of: dict[tuple[int, str], int] = {}
    for box in result.boxes:
        given = by_position[box.position]
        box_id = box_of[box.position] = next(rows.box_ids)
        rows.boxes.append(
            {
                "id": box_id,
                "round_id": round_id,
                "position": box.position,
                "player_id": given.player_id,
                "cards": box.cards,
                "evaluation": box.evaluation,
                "quit": given.quit,
            }
        )
        for bet in box.bets:
            bet_id = bet_of[(box.position, bet.bet_type)] = next(rows.bet_ids)
            rows.bets.append(
                {
                    "id": bet_id,
                    "box_id": box_id,
                    "bet_type": bet.bet_type,
                    "stake": bet.stake,
                    "deposit_shown": given.deposits.get(bet.bet_type),
                    "deposit_required": bet.deposit_required,
                    "outcome": bet.outcome,
                    "odds": bet.odds,
                    "gross": bet.gross,
                    "commission": bet.commission,
                    "net": bet.net,
                }
            )
    return box_of, bet_of


def _analyze_as_tables_grow() -> None:
    """Fresh statistics after batch 1, 2, 4, 8, ...: a COPY outruns autovacuum, and with
    the statistics of a small table PostgreSQL tallies each batch by scanning every bet
    (a fill that slows down as it grows). A handful of ANALYZEs in all."""
    global _written  # one counter per process
    _written += 1
    if _written & (_written - 1) == 0:
        analyze(GROWING)


def analyze(models: Sequence[type] = GROWING) -> None:
    """Fresh statistics of the tables that grew, so later queries are planned for them."""
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def _ids(model: type, count: int) -> list[int]:
    """``count`` primary keys taken from the table's own sequence (so later inserts fit)."""
    if count == 0:
        return []
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
            [table, count],
        )
        return [row[0] for row in cursor.fetchall()]


def _copy(model: type, rows: list[dict[str, Any]]) -> None:
    """One COPY statement for ``rows`` (so statement-level triggers see them together).

    Every column of the model is written: a value missing from a row gets the field's
    default, as ``Model.objects.create`` would, so a field added later needs no change here.
    """
    fields = model._meta.concrete_fields
    known = {field.attname for field in fields}
    for row in rows[:1]:
        if set(row) - known:
            raise ValueError(f"{model.__name__} has no field {sorted(set(row) - known)}")
    defaults = {f.attname: f.get_default() for f in fields if not f.primary_key}
    json_fields = {f.attname for f in fields if isinstance(f, JSONField)}
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            values = defaults | row
            for name in json_fields:
                if values[name] is not None:
                    values[name] = json.dumps(values[name])
            copy.write_row([values[f.attname] for f in fields])
