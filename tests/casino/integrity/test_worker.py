"""``integrity_run_task`` in a real Celery worker on the real Redis broker (not eager): a
run asked for from the page (Run now) and a gaming day's run sent by the sweep are tested by
the worker, which stores every result, opens the alert's investigation and audits the run."""

from __future__ import annotations

import os

import pytest

from casino.audit.models import AuditEvent
from casino.integrity.models import FluctuationInvestigation, IntegrityResult, IntegrityRun
from casino.integrity.runs import integrity_request
from casino.integrity.tasks import integrity_run_task
from tests.casino.integrity.simulated import Manipulation, deal
from tests.casino.integrity.test_runs import open_tables

# The suite's worker fixture (a subprocess on a test queue of its own, stopped at the end).
from tests.casino.reports.test_worker import _database_url, wait_for, workers  # noqa: F401

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("CELERY_BROKER_URL", "").startswith("redis://"),
        reason="needs the Redis broker",
    ),
    pytest.mark.django_db(transaction=True),
]


def test_a_worker_runs_the_integrity_tests_it_is_sent(floor, workers):  # noqa: F811
    # given a gaming day at two tables, one dealt from a deck missing the ace of spades
    sessions = open_tables(floor, 2)
    deal(sessions[0], 30, seed=51, crooked=Manipulation(missing=("AS",)))
    deal(sessions[1], 30, seed=52)
    day = sessions[0].shift.gaming_date
    assert not integrity_run_task.app.conf.task_always_eager  # sent, not run in here
    workers.start("integrity", REPLICA_DATABASE_URL=_database_url())
    # when a manager asks for the day's tests (sent to the worker once committed)
    asked = integrity_request(venue=floor.venue, date_from=day, date_to=day, user=floor.manager)
    assert asked.status == IntegrityRun.Status.PENDING
    # then the worker stores the run, its results and the alert's investigation
    run = wait_for(
        lambda: IntegrityRun.objects.filter(pk=asked.pk, status="done").first(),
        timeout=60,
        what="the worker to finish the run",
        workers=workers,
    )
    results = IntegrityResult.objects.filter(run=run)
    assert run.tests == results.filter(p_value__isnull=False).count() > 0
    assert {r.table.code for r in results.filter(scope="table")} == {s.table.code for s in sessions}
    flagged = results.get(scope="table", test="cards", table=sessions[0].table)
    assert flagged.alert and flagged.p_value < 1e-5
    assert run.alerts == results.filter(alert=True).count() >= 1
    assert FluctuationInvestigation.objects.filter(integrity_result=flagged).exists()
    audited = AuditEvent.objects.filter(action="integrity.run", object_id=str(run.pk))
    assert audited.count() == 1
    assert f"{run.tests} tested, {run.alerts} alerts" in audited.get().summary
    # and a gaming day sent by venue and date (the sweep's way) is run as its own run
    integrity_run_task.delay(venue_id=floor.venue.pk, gaming_date=day.isoformat())
    swept = wait_for(
        lambda: (
            IntegrityRun.objects.filter(venue=floor.venue, status="done").exclude(pk=run.pk).first()
        ),
        timeout=60,
        what="the worker to run the gaming day",
        workers=workers,
    )
    assert (swept.date_from, swept.date_to) == (day, day)
    assert swept.results.count() == results.count()
    assert AuditEvent.objects.filter(action="integrity.run", object_id=str(swept.pk)).exists()
