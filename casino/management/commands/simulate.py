"""Fill a shift with simulated Niu Niu rounds, for load tests and reports.

Two ways to write the rounds, the same rows either way:

- ``--via services``: each round is dealt and settled through ``round_create`` and
  ``round_settle`` (now and then voided through ``round_void``), exactly as the console
  does; a few hundred rounds a second. Rounds carry the time they were played.
- ``--via bulk`` (PostgreSQL): the same engine settles each round through the game's
  adapter and the same adapter turns the result into ledger lines; rounds, boxes, bets and
  ledger entries are then written with COPY, a batch of whole rounds per statement, so the
  database's statement-level balance trigger checks every batch, and each round's entries
  are checked to sum to zero before they are sent. Rounds are spread over the shift's
  hours. Only the audit trail of each round (``round.create`` / ``round.settle``) is left
  out; voids, sessions, fills and closing go through the services as usual.

``--via auto`` (the default) uses the services up to 5,000 rounds and bulk above that
on PostgreSQL. Tables are opened with a fill and closed with a count that matches the
ledger, so the shift reconciles (unless ``--short`` leaves a variance on the first table).
"""

from __future__ import annotations

import json
import queue
import random
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.models import JSONField
from django.utils import timezone

from casino import games
from casino.games import BoxInput, LedgerLine, RoundResult
from casino.models import (
    Bet,
    BetTally,
    Box,
    EntryKind,
    LedgerEntry,
    Player,
    Round,
    RoundStatus,
    Ruleset,
    SeatTally,
    Shift,
    Table,
    TableLimit,
    TableSession,
    Venue,
)
from casino.roles import AUDITOR, DEALER, MANAGER, SUPERVISOR, forget, role_group
from casino.rules import version_in_force
from casino.services.sessions import session_close, session_figures, session_open
from casino.services.slips import slip_issue, slip_request, slip_verify
from casino.services.tallies import tally_settled
from casino.simulation import chips_for, play, table_stream

D = Decimal
SERVICES_UP_TO = 5_000
BATCH_ROUNDS = 2_000
DENOMINATIONS = ["5000000", "1000000", "500000", "100000", "50000", "10000", "5000", "1000"]
LIMITS = {
    "single": ("50000", "20000000"),
    "double": ("50000", "5000000"),
    "super": ("50000", "2000000"),
}
OPENING = {"5000000": 40, "1000000": 40, "500000": 40, "100000": 40}
FILL = {"1000000": 20}
PLAYERS = 40


class Command(BaseCommand):
    help = "Fill a shift with simulated Niu Niu rounds (through the services, or in bulk)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--rounds", type=int, default=1000, help="rounds in the shift")
        parser.add_argument("--tables", type=int, default=4, help="tables sharing the rounds")
        parser.add_argument("--venue", default="sim", help="venue code (created if missing)")
        parser.add_argument("--via", choices=["auto", "services", "bulk"], default="auto")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--void-rate", type=float, default=0.01)
        parser.add_argument("--hours", type=float, default=8, help="length of the shift")
        parser.add_argument("--shift", default="", help="shift name (default: sim HH:MM)")
        parser.add_argument("--batch", type=int, default=BATCH_ROUNDS, help="rounds per COPY")
        parser.add_argument(
            "--short", default="0", help="leave the first table's closing count short by this"
        )
        parser.add_argument(
            "--report", action="store_true", help="build the shift's report when done"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rounds: int = options["rounds"]
        via: str = options["via"]
        if rounds < 1 or options["tables"] < 1:
            raise CommandError("--rounds and --tables must be at least 1")
        if via == "auto":
            bulk_possible = connection.vendor == "postgresql"
            via = "bulk" if rounds > SERVICES_UP_TO and bulk_possible else "services"
        if via == "bulk" and connection.vendor != "postgresql":
            raise CommandError("--via bulk writes with COPY and needs PostgreSQL")
        started = time.perf_counter()
        floor = _floor(options["venue"], options["tables"])
        shift = _shift(floor.venue, options["shift"], options["hours"], ended=via == "bulk")
        sessions = _open_sessions(floor, shift)
        per_table = _split(rounds, len(sessions))
        voided = 0
        for index, (session, count) in enumerate(zip(sessions, per_table, strict=True)):
            seed = options["seed"] * 1000 + index
            if via == "services":
                voided += play(
                    session=session,
                    rounds=count,
                    dealer=floor.dealer,
                    supervisor=floor.supervisor,
                    seed=seed,
                    void_rate=options["void_rate"],
                )
            else:
                voided += BulkWriter(session, floor, shift, batch=options["batch"]).write(
                    count, seed=seed, void_rate=options["void_rate"]
                )
            self.stdout.write(f"  {session.table.code}: {count} rounds")
        if via == "bulk":
            # Fresh statistics, so the report's queries are planned for the rows just added.
            _analyze(GROWING)
        short = D(options["short"])
        for index, session in enumerate(sessions):
            figures = session_figures(session)
            tray = session.opening_total + figures["fills"] + figures["win_by_ledger"]
            if tray <= short:  # the players won the tray: a fill before the count
                millions = int((short - tray) // D("1000000")) + 10
                _fill(session, floor, {"1000000": millions})
                tray += millions * D("1000000")
            if index == 0:
                tray -= short
            session_close(
                session=session,
                user=floor.supervisor,
                closing_chips=chips_for(tray, DENOMINATIONS),
            )
        seconds = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"shift {shift.pk} ({shift}): {rounds} rounds via {via} at {len(sessions)} "
                f"tables, {voided} voided, in {seconds:.1f} s"
            )
        )
        if options["report"]:
            from casino.reports.services import report_build, report_request

            report = report_request(shift_id=shift.pk, send=False)
            report = report_build(report_id=report.pk, email=False)
            self.stdout.write(
                f"report {report.pk}: {report.status} in {report.build_seconds:.1f} s"
            )


class _Floor:
    def __init__(self, venue: Venue, tables: list[Table], users: dict[str, Any]) -> None:
        self.venue = venue
        self.tables = tables
        self.dealer = users["sim-dealer"]
        self.supervisor = users["sim-supervisor"]
        self.pitboss = users["sim-pitboss"]


@transaction.atomic
def _floor(code: str, tables: int) -> _Floor:
    """The venue, its staff, ruleset, tables and players (created once, then reused)."""
    from niuniu.services import venue_ruleset_from_preset

    venue, _created = Venue.objects.get_or_create(
        code=code,
        defaults={
            "name": f"Simulated venue {code}",
            "currency": "VND",
            "rounding_unit": D("1000"),
            "timezone": "Asia/Ho_Chi_Minh",
            "language": "en",
        },
    )
    users = {}
    for username, role in [
        ("sim-dealer", DEALER),
        ("sim-supervisor", SUPERVISOR),
        ("sim-pitboss", SUPERVISOR),
        ("sim-manager", MANAGER),
        ("sim-ruleset-editor", MANAGER),
        ("sim-auditor", AUDITOR),
    ]:
        user, _created = get_user_model().objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.com"}
        )
        user.groups.add(role_group(role))
        venue.staff.add(user)
        forget(user)
        users[username] = user
    ruleset = Ruleset.objects.filter(venue=venue, game="niuniu").first()
    if ruleset is None:
        ruleset = venue_ruleset_from_preset(
            venue=venue,
            preset_code="vn-kr-004",
            editor=users["sim-ruleset-editor"],
            approver=users["sim-manager"],
        ).ruleset
    made = []
    for number in range(1, tables + 1):
        table, created = Table.objects.get_or_create(
            venue=venue,
            code=f"S{number}",
            defaults={
                "game": "niuniu",
                "ruleset": ruleset,
                "seats": 5,
                "chip_denominations": DENOMINATIONS,
            },
        )
        if created:
            TableLimit.objects.bulk_create(
                TableLimit(table=table, bet_type=b, min_stake=D(lo), max_stake=D(hi))
                for b, (lo, hi) in LIMITS.items()
            )
        made.append(table)
    if not Player.objects.filter(venue=venue).exists():
        Player.objects.bulk_create(
            Player(venue=venue, membership_number=f"SIM-{n:04d}", name=f"Player {n}")
            for n in range(1, PLAYERS + 1)
        )
    return _Floor(venue, made, users)


def _shift(venue: Venue, name: str, hours: float, *, ended: bool) -> Shift:
    """A new shift: one that ended just now (bulk rounds fill its hours), or one starting now."""
    now = timezone.now().replace(second=0, microsecond=0)
    length = timedelta(hours=hours)
    starts = now - length if ended else now
    local = starts.astimezone(ZoneInfo(venue.timezone))
    taken = Shift.objects.filter(venue=venue, gaming_date=local.date())
    if name and taken.filter(name=name).exists():
        raise CommandError(f"{venue.code} already has a shift '{name}' on {local.date()}")
    if not name:
        name = f"sim {local:%H:%M}"
        if taken.filter(name__startswith=name).exists():
            name = f"{name} #{taken.filter(name__startswith=name).count() + 1}"
    return Shift.objects.create(
        venue=venue, gaming_date=local.date(), name=name, starts_at=starts, ends_at=starts + length
    )


def _open_sessions(floor: _Floor, shift: Shift) -> list[TableSession]:
    sessions = []
    for table in floor.tables:
        open_session = TableSession.objects.filter(table=table, status="open").first()
        if open_session is not None:
            raise CommandError(f"table {table} is open (session {open_session.pk}); close it")
        session = session_open(table=table, user=floor.dealer, opening_chips=OPENING, shift=shift)
        _fill(session, floor, FILL)
        sessions.append(session)
    return sessions


def _fill(session: TableSession, floor: _Floor, chips: dict[str, int]) -> None:
    """A fill slip requested, issued and verified by two supervisors (the services')."""
    slip = slip_request(session=session, user=floor.supervisor, kind="fill", chips=chips)
    slip_issue(slip=slip, user=floor.supervisor)
    slip_verify(slip=slip, user=floor.pitboss)


def _split(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if n < total % parts else 0) for n in range(parts)]


class BulkWriter:
    """Rounds settled by the engine and written with COPY, whole rounds per statement."""

    def __init__(self, session: TableSession, floor: _Floor, shift: Shift, *, batch: int) -> None:
        self.session = TableSession.objects.select_related("table__venue", "table__ruleset").get(
            pk=session.pk
        )
        self.floor = floor
        self.shift = shift
        self.batch = batch
        table = self.session.table
        self.adapter = games.get(table.game)
        self.version = version_in_force(model=self.adapter.version_model, ruleset=table.ruleset)
        self.rules = self.adapter.snapshot(self.version)

    def write(self, rounds: int, *, seed: int, void_rate: float) -> int:
        step = (self.shift.ends_at - self.shift.starts_at) / max(rounds, 1)
        voided = 0
        number = self.session.next_round_number
        done = 0
        for settled in self._settled_batches(rounds, seed=seed, void_rate=void_rate):
            voided += self._batch(settled, number, done, step, seed)
            number += len(settled)
            done += len(settled)
            _analyze_as_tables_grow()
        TableSession.objects.filter(pk=self.session.pk).update(next_round_number=number)
        return voided

    def _settled_batches(
        self, rounds: int, *, seed: int, void_rate: float
    ) -> Iterator[list[tuple[Sequence[BoxInput], RoundResult, bool, list[LedgerLine]]]]:
        """Batches of settled rounds, made by the engine in a thread while the database
        writes the previous batch (the engine needs no database: the rules, limits and
        players were read before the thread starts)."""
        rng = random.Random(seed)
        stream = table_stream(self.session, rng)
        batches: queue.Queue[Any] = queue.Queue(maxsize=2)

        def produce() -> None:
            try:
                left = rounds
                while left:
                    settled = []
                    for _n in range(min(self.batch, left)):
                        simulated = next(stream)
                        result = self.adapter.evaluate_round(
                            rules=self.rules,
                            dealer_cards=simulated.dealer_cards,
                            boxes=simulated.boxes,
                        )
                        void = rng.random() < void_rate
                        lines = self.adapter.ledger_lines(result)
                        settled.append((simulated.boxes, result, void, lines))
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
        session, venue = self.session, self.session.table.venue
        dealer, supervisor = self.floor.dealer.pk, self.floor.supervisor.pk
        count = len(settled)
        round_ids = _ids(Round, count)
        box_ids = _ids(Box, sum(len(r.boxes) for _, r, _, _ in settled))
        bet_ids = _ids(Bet, sum(len(b.bets) for _, r, _, _ in settled for b in r.boxes))
        entry_ids = _ids(
            LedgerEntry, sum(len(lines) * (2 if void else 1) for _, _, void, lines in settled)
        )
        rounds: list[dict[str, Any]] = []
        boxes: list[dict[str, Any]] = []
        bets: list[dict[str, Any]] = []
        entries: list[dict[str, Any]] = []
        box_iter, bet_iter, entry_iter = iter(box_ids), iter(bet_ids), iter(entry_ids)
        voided = 0
        for n, ((inputs, result, void, round_lines), round_id) in enumerate(
            zip(settled, round_ids, strict=True)
        ):
            number = first_number + n
            dealt_at = self.shift.starts_at + step * (done + n) + step / 4
            settled_at = dealt_at + step / 4
            voided_at = settled_at + step / 4 if void else None
            by_position: dict[int, BoxInput] = {box.position: box for box in inputs}
            box_of: dict[int, int] = {}
            bet_of: dict[tuple[int, str], int] = {}
            for box in result.boxes:
                given = by_position[box.position]
                box_id = box_of[box.position] = next(box_iter)
                boxes.append(
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
                    bet_id = bet_of[(box.position, bet.bet_type)] = next(bet_iter)
                    bets.append(
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
            if sum(line.amount for line in round_lines) != 0:
                raise CommandError(f"round {number}: the ledger lines do not balance")
            for line in round_lines:
                entry = {
                    "id": next(entry_iter),
                    "venue_id": venue.pk,
                    "session_id": session.pk,
                    "round_id": round_id,
                    "box_id": box_of.get(line.position) if line.position else None,
                    "bet_id": bet_of.get((line.position, line.bet_type)),
                    "player_id": by_position[line.position].player_id if line.position else None,
                    "account": line.account,
                    "kind": line.kind,
                    "amount": line.amount,
                    "created_by_id": dealer,
                    "created_at": settled_at,
                }
                entries.append(entry)
                if void:  # the reversing entry round_void_approve posts
                    entries.append(
                        entry
                        | {
                            "id": next(entry_iter),
                            "kind": EntryKind.VOID,
                            "amount": -line.amount,
                            "reverses_id": entry["id"],
                            "created_by_id": supervisor,
                            "created_at": voided_at,
                        }
                    )
            rounds.append(
                {
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
                    "created_by_id": dealer,
                    "created_at": dealt_at,
                    "settle_key": f"sim-{session.pk}-{seed}-{number}",
                    "settled_by_id": dealer,
                    "settled_at": settled_at,
                    "house_net": result.house_net,
                    "void_reason": "simulated misdeal" if void else "",
                    "void_requested_by_id": dealer if void else None,
                    "void_requested_at": voided_at,
                    "voided_by_id": supervisor if void else None,
                    "voided_at": voided_at,
                }
            )
            voided += void
        _copy(Round, rounds)
        _copy(Box, boxes)
        _copy(Bet, bets)
        _copy(LedgerEntry, entries)
        # The tallies the services leave: a voided round is in none.
        tally_settled([row["id"] for row in rounds if row["status"] == RoundStatus.SETTLED])
        return voided


#: Batches written by this process; statistics are refreshed each time it doubles.
_written = 0
GROWING = (TableSession, Round, Box, Bet, LedgerEntry, BetTally, SeatTally)


def _analyze_as_tables_grow() -> None:
    """Fresh statistics after batch 1, 2, 4, 8, ...: a COPY outruns autovacuum, and with
    the statistics of a small table PostgreSQL tallies each batch by scanning every bet
    (a fill that slows down as it grows). A handful of ANALYZEs in all."""
    global _written  # one counter per process
    _written += 1
    if _written & (_written - 1) == 0:
        _analyze(GROWING)


def _analyze(models: Sequence[type]) -> None:
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
            raise CommandError(f"{model.__name__} has no field {sorted(set(row) - known)}")
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
