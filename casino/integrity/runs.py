"""An integrity run: a venue's tallies of a period tested per table, dealer, player and pit.

The statistical tests read ``CategoryTally``, ``CardTally`` and ``BetTally`` (never the
rounds), group them (casino.integrity.groups), and test each group against what the rules
of the ruleset versions its rounds were dealt under give (casino.integrity.group_tests: the
categories dealt, the boxes' wins, the scoop balance, the cards, a rated player's net
result). The run also settles every settled round of its dates again from its record
(casino.integrity.resettlement), one result per table: a difference is certain, an alert
with no p-value, taking no part in the false discovery rate. It is part of the run, not a
job of its own, so that it covers the same dates after each gaming day (the sweep's task)
and on request, and its alerts reach the same page and investigations.

A test with too small a sample says so and takes no part in the false discovery rate.
The others are grouped in families, one per subject the run tests (a table with its
positions, a dealer, a player, a pit): each family goes through its own Benjamini-Hochberg
procedure at the run's rate times its share of the run's tests (``_discoveries``), and
each discovery is an alert that opens an investigation (casino.integrity.investigations).
So a subject's alerts depend on its own p-values alone (and on how many tests the run
holds), never on another subject being a discovery.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone

from casino.audit.models import AuditAction
from casino.floor.models import TableSession
from casino.integrity import statistics as st
from casino.integrity.deals import DealWatch
from casino.integrity.group_tests import Outcome, run_tests
from casino.integrity.groups import Scope
from casino.integrity.models import CategoryTally
from casino.integrity.models.tallies import IntegrityResult, IntegrityRun
from casino.integrity.resettlement import TableResettled, resettle
from casino.venues.models import Table, Venue

#: The false discovery rate the run controls across its tests.
FDR = 0.05
#: Sessions an alert's evidence names at most.
EVIDENCE_SESSIONS = 20


def integrity_request(*, venue: Venue, date_from: date, date_to: date, user: Any) -> IntegrityRun:
    """A run asked for by a manager or an auditor (the page's Run now), sent to a worker."""
    from casino.audit.services import audit_record
    from casino.integrity.tasks import integrity_run_task

    run = IntegrityRun.objects.create(
        venue=venue,
        date_from=date_from,
        date_to=date_to,
        requested_at=timezone.now(),
        requested_by=user,
        fdr=FDR,
    )
    audit_record(
        user=user,
        action=AuditAction.INTEGRITY_REQUEST,
        obj=run,
        venue=venue,
        summary=f"asked for the integrity tests of {date_from}..{date_to}",
    )
    transaction.on_commit(lambda: integrity_run_task.delay(run_id=run.pk))
    return run


def integrity_sweep(*, now: Any = None) -> int:
    """After each gaming day (the reports' sweep, every 5 minutes): a run for each venue's
    gaming day that ended in the last week and has no run of its own yet."""
    from datetime import timedelta

    from casino.integrity.tasks import integrity_run_task
    from casino.venues.models import GamingDay

    now = now or timezone.now()
    days = GamingDay.objects.filter(ends_at__lte=now, ends_at__gte=now - timedelta(days=7))
    sent = 0
    for venue_id, gaming_date in days.values_list("venue_id", "gaming_date").order_by("ends_at"):
        done = IntegrityRun.objects.filter(
            venue_id=venue_id, date_from=gaming_date, date_to=gaming_date
        ).exists()
        has_rounds = CategoryTally.objects.filter(
            venue_id=venue_id, gaming_date=gaming_date
        ).exists()
        if done or not has_rounds:
            continue
        run = IntegrityRun.objects.create(
            venue_id=venue_id,
            date_from=gaming_date,
            date_to=gaming_date,
            requested_at=now,
            fdr=FDR,
        )
        transaction.on_commit(lambda pk=run.pk: integrity_run_task.delay(run_id=pk))
        sent += 1
    return sent


def integrity_run(
    *,
    venue: Venue,
    date_from: date,
    date_to: date,
    user: Any = None,
    run: IntegrityRun | None = None,
) -> IntegrityRun:
    """Test the venue's tallies of the gaming dates ``date_from``..``date_to`` (inclusive),
    store every result and open an investigation per alert."""
    from casino.audit.services import audit_record
    from casino.integrity.investigations import investigations_open_integrity

    started = time.perf_counter()
    if run is None:
        run = IntegrityRun.objects.create(
            venue=venue,
            date_from=date_from,
            date_to=date_to,
            requested_at=timezone.now(),
            requested_by=user,
            fdr=FDR,
        )
    IntegrityRun.objects.filter(pk=run.pk).update(status=IntegrityRun.Status.RUNNING)
    deals = DealWatch()
    resettled = resettle(venue_id=venue.pk, date_from=date_from, date_to=date_to, deals=deals)
    outcomes = run_tests(venue.pk, date_from, date_to) + deals.outcomes()
    discoveries = _discoveries(outcomes, run.fdr)
    # Made before the transaction, which holds the run's writes only: while a transaction
    # that wrote stays open, PostgreSQL keeps every row version the floor's Confirms replace.
    rows = _result_rows(outcomes, discoveries) + _resettlement_rows(list(resettled.values()))
    with transaction.atomic():
        _store(run, rows)
        alerts = list(
            IntegrityResult.objects.filter(run=run, alert=True).select_related("run__venue")
        )
        run.status = IntegrityRun.Status.DONE
        run.tests = len(discoveries) + len(resettled)
        run.alerts = len(alerts)
        run.finished_at = timezone.now()
        run.seconds = time.perf_counter() - started
        run.save(update_fields=["status", "tests", "alerts", "finished_at", "seconds"])
        investigations_open_integrity(alerts)
        audit_record(
            user=user,
            action=AuditAction.INTEGRITY_RUN,
            obj=run,
            venue=venue,
            summary=(
                f"integrity tests of {date_from}..{date_to}: {run.tests} tested, "
                f"{len(alerts)} alerts"
            ),
        )
    return run


def _discoveries(outcomes: list[Outcome], fdr: float) -> dict[int, tuple[float, bool]]:
    """The q-value of every tested outcome and whether it alerts (by ``id``; a test without
    a p-value has none).

    The family is the subject: the tests of one table (its positions' too), dealer, player
    or pit. A family of m_f of the run's m tests goes through Benjamini-Hochberg at the
    rate fdr * m_f / m (its q-values times m / m_f, at most 1, compared with ``fdr``). A
    lone alert needs p <= fdr / m, as one procedure over the run asked; but a fair table
    is never admitted because another table is a discovery: no family's bar depends on
    another's p-values. The rates add up to ``fdr``, so a run in which every subject is
    fair alerts at all at most ``fdr`` of the time, and within a family holding real
    deviations the expected share of false alerts among its alerts is at most its rate."""
    tested = [o for o in outcomes if o.p_value is not None]
    families: dict[tuple[str, int], list[Outcome]] = defaultdict(list)
    for outcome in tested:
        families[(outcome.group.scope, outcome.group.key)].append(outcome)
    found: dict[int, tuple[float, bool]] = {}
    for members in families.values():
        bh = st.benjamini_hochberg([o.p_value for o in members], q=fdr)
        scale = len(tested) / len(members)
        for outcome, q_value in zip(members, bh.q_values, strict=True):
            q_run = min(1.0, q_value * scale)
            found[id(outcome)] = (q_run, q_run <= fdr)
    return found


def _result_rows(
    outcomes: list[Outcome], discoveries: dict[int, tuple[float, bool]]
) -> list[dict[str, Any]]:
    """One result per outcome (its columns, ``_store`` writes them), named as the page shows
    it, with the sessions it counted."""
    labels = _labels(outcomes)
    named = _sessions_named(
        {pk for o in outcomes for pk in sorted(o.group.sessions)[:EVIDENCE_SESSIONS]}
    )
    rows = []
    for outcome in outcomes:
        group = outcome.group
        q, alert = discoveries.get(id(outcome), (None, False))
        sessions = sorted(group.sessions)
        rows.append(
            dict(
                scope=group.scope,
                table_id=group.key if group.scope == Scope.TABLE else None,
                dealer_id=group.key if group.scope == Scope.DEALER else None,
                player_id=group.key if group.scope == Scope.PLAYER else None,
                pit_id=group.key if group.scope == Scope.PIT else None,
                label=labels.get((group.scope, group.key), str(group.key))[:120],
                position=outcome.position,
                game=group.game,
                test=outcome.test,
                method=outcome.method[:32],
                n=outcome.n,
                rounds=group.rounds,
                cells=outcome.cells,
                statistic=_finite(outcome.statistic),
                p_value=outcome.p_value,
                q_value=q,
                alert=alert,
                note=outcome.note[:200],
                evidence={
                    "sessions": sessions[:EVIDENCE_SESSIONS],
                    "counted": [named[pk] for pk in sessions[:EVIDENCE_SESSIONS]],
                    "more": len(sessions) > EVIDENCE_SESSIONS,
                },
            )
        )
    return rows


def _resettlement_rows(tables: list[TableResettled]) -> list[dict[str, Any]]:
    """One result per table whose rounds were settled again from their record: certain,
    never a p-value (so never part of the false discovery rate), an alert when any figure
    differs, its evidence naming each round, bet and amount (the first ``KEPT``)."""
    named = _sessions_named(
        {pk for table in tables for pk in sorted(table.sessions)[:EVIDENCE_SESSIONS]}
    )
    rows = []
    for table in tables:
        sessions = sorted(table.sessions)
        rows.append(
            dict(
                scope=Scope.TABLE,
                table_id=table.table_id,
                label=table.table[:120],
                game=table.game,
                test=IntegrityResult.Test.RESETTLEMENT,
                method="exact",
                n=table.rounds,
                rounds=table.rounds,
                alert=bool(table.differences_found),
                note=str(table.differences[0])[:200] if table.differences else "",
                evidence={
                    "sessions": sessions[:EVIDENCE_SESSIONS],
                    "counted": [named[pk] for pk in sessions[:EVIDENCE_SESSIONS]],
                    "more": len(sessions) > EVIDENCE_SESSIONS,
                    "rounds_differing": table.rounds_differing,
                    "differences_found": table.differences_found,
                    "differences": [d.as_dict() for d in table.differences],
                },
            )
        )
    return rows


#: The result columns ``_store`` copies (the model's own names, never input).
_COLUMNS = (
    "run_id",
    "venue_id",
    "scope",
    "table_id",
    "dealer_id",
    "player_id",
    "pit_id",
    "label",
    "position",
    "game",
    "test",
    "method",
    "n",
    "rounds",
    "cells",
    "statistic",
    "p_value",
    "q_value",
    "alert",
    "note",
    "evidence",
)
_JSON = frozenset({"cells", "evidence"})


def _store(run: IntegrityRun, rows: list[dict[str, Any]]) -> None:
    """The run's results written at once: by COPY on PostgreSQL (thousands of rows with
    their cells as JSON; an INSERT's parameters cost more than the tests), else in bulk.
    Each row is its columns, a column it does not name the model's default: a model object
    a row cost more than the tests' arithmetic (17,000 rows, 0.5 s)."""
    from django.db import connection

    run_of = {"run_id": run.pk, "venue_id": run.venue_id}
    if connection.vendor != "postgresql":
        IntegrityResult.objects.bulk_create(
            (IntegrityResult(**run_of, **row) for row in rows), batch_size=500
        )
        return
    import json

    # A column a row does not name: the run's own, else the model's default.
    base = {name: IntegrityResult._meta.get_field(name).get_default() for name in _COLUMNS}
    base.update(run_of)
    table = IntegrityResult._meta.db_table
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(
            f"COPY {table} ({', '.join(_COLUMNS)}) FROM STDIN"  # names, not input
        ) as copy,
    ):
        for row in rows:
            values = {**base, **row}
            copy.write_row(
                [json.dumps(values[name]) if name in _JSON else values[name] for name in _COLUMNS]
            )


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _sessions_named(session_ids: set[int]) -> dict[int, dict[str, Any]]:
    """Each session an alert's evidence names, as a person finds it on the floor: its
    table's code and gaming date (one query for the run)."""
    rows = TableSession.objects.filter(pk__in=session_ids).values_list(
        "pk", "table__code", "shift__gaming_date"
    )
    return {
        pk: {"session": pk, "table": code, "gaming_date": gaming_date.isoformat()}
        for pk, code, gaming_date in rows
    }


def _labels(outcomes: list[Outcome]) -> dict[tuple[str, int], str]:
    """Each group's name as the page shows it: table and pit codes, usernames, members."""
    from django.contrib.auth import get_user_model

    from casino.players.models import Player
    from casino.venues.models import Pit

    wanted: dict[str, set[int]] = defaultdict(set)
    for outcome in outcomes:
        wanted[outcome.group.scope].add(outcome.group.key)
    labels: dict[tuple[str, int], str] = {}
    for pk, code in Table.objects.filter(pk__in=wanted[Scope.TABLE]).values_list("pk", "code"):
        labels[(Scope.TABLE, pk)] = code
    for pk, code in Pit.objects.filter(pk__in=wanted[Scope.PIT]).values_list("pk", "code"):
        labels[(Scope.PIT, pk)] = code
    users = get_user_model().objects.filter(pk__in=wanted[Scope.DEALER])
    for pk, name in users.values_list("pk", "username"):
        labels[(Scope.DEALER, pk)] = name
    players = Player.objects.filter(pk__in=wanted[Scope.PLAYER])
    for pk, number in players.values_list("pk", "membership_number"):
        labels[(Scope.PLAYER, pk)] = number
    return labels
