"""The build task in a real Celery worker on the real Redis broker (not eager).

A worker is killed (SIGKILL) in the middle of a report; the report still completes: the
task is ``acks_late``, so its message stays unacknowledged in Redis, and the next worker
gets it back once the broker's visibility timeout (2 s here, 1 hour in production) has
passed; it finds the dead worker's advisory lock gone with its connection and builds the
report from the start. Building it again gives one report with the same figures.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from casino.celery import app
from casino.reports import services
from casino.reports.models import ShiftReport

from .conftest import night_shift

ROOT = Path(__file__).resolve().parents[3]
BROKER = os.environ.get("CELERY_BROKER_URL", "")

pytestmark = [
    pytest.mark.skipif(not BROKER.startswith("redis://"), reason="needs the Redis broker"),
    pytest.mark.django_db(transaction=True),
]


def _database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


class Workers:
    """Starts ``tests/celery_worker.py`` processes on one test queue; kills them at the end."""

    def __init__(self, logs: Path) -> None:
        self.queue = f"reports-test-{uuid.uuid4().hex[:10]}"
        self.logs = logs
        self.started: list[subprocess.Popen] = []

    def start(self, name: str, **env: str) -> subprocess.Popen:
        environment = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            # Its report reads on the test database too (the suite's replica is its mirror),
            # not on the database the test run's own URL names.
            "REPLICA_DATABASE_URL": _database_url(),
            "CELERY_BROKER_URL": BROKER,
            "REPORTS_TEST_QUEUE": self.queue,
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            "CELERY_VISIBILITY_TIMEOUT": "2",
            "LOG_LEVEL": "WARNING",
            **env,
        }
        log = (self.logs / f"{name}.log").open("w")
        worker = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "tests" / "celery_worker.py"),
                "--pool=solo",
                "-Q",
                self.queue,
                "-n",
                f"{name}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=WARNING",
            ],
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.started.append(worker)
        return worker

    def kill(self, worker: subprocess.Popen) -> None:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)

    def stop(self) -> None:
        for worker in self.started:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
                try:
                    worker.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.kill(worker)
        client = redis.Redis.from_url(BROKER)  # the test queue and kombu's keys for it
        for key in [self.queue, *client.scan_iter(match=f"*{self.queue}*")]:
            client.delete(key)


@pytest.fixture
def workers(transactional_db, tmp_path):
    pool = Workers(tmp_path)
    default_queue = app.conf.task_default_queue
    app.conf.task_default_queue = pool.queue  # this process sends to the test queue too
    try:
        yield pool
    finally:
        app.conf.task_default_queue = default_queue
        pool.stop()  # before the test database is flushed


def wait_for(condition, timeout: float, what: str, workers: Workers):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    logs = "\n".join(p.read_text()[-3000:] for p in sorted(workers.logs.glob("*.log")))
    pytest.fail(f"timed out waiting for {what}\n{logs}")


def test_a_killed_worker_leaves_the_report_to_the_next_one(workers):
    # given the night shift, committed where the workers see it
    night = night_shift()
    stopping = workers.start("doomed", REPORTS_TEST_PAUSE="65")
    # when the report is asked for and the first worker stops in the middle of it
    report = services.report_request(shift_id=night.shift.pk)
    running = wait_for(
        lambda: ShiftReport.objects.filter(
            pk=report.pk, status="running", progress__gte=65
        ).first(),
        timeout=60,
        what="the first worker to be half-way",
        workers=workers,
    )
    assert running.figures is None
    time.sleep(2.5)  # the visibility timeout of the unacknowledged message
    workers.kill(stopping)  # SIGKILL: no ack, no clean-up, its connection dropped
    assert ShiftReport.objects.get(pk=report.pk).status == "running"
    # then a new worker takes the message back from Redis and finishes the report
    workers.start("next")
    done = wait_for(
        lambda: ShiftReport.objects.filter(pk=report.pk, status="done").first(),
        timeout=90,
        what="the second worker to finish",
        workers=workers,
    )
    assert done.attempts == 2
    assert done.figures["total"]["handle"] == "2850000.00"
    assert done.figures["total"]["house_win"] == "-1385000.00"
    assert done.files.count() == 6
    # and building it again gives one report with the same figures
    services.report_request(shift_id=night.shift.pk)
    again = wait_for(
        lambda: ShiftReport.objects.filter(pk=report.pk, status="done", attempts=3).first(),
        timeout=90,
        what="the rebuild",
        workers=workers,
    )
    assert ShiftReport.objects.filter(shift=night.shift).count() == 1
    assert again.figures == done.figures
    # the managers got one e-mail (sent by the worker after the first finished build)
    again.refresh_from_db()
    wait_for(
        lambda: ShiftReport.objects.filter(pk=report.pk, emailed_at__isnull=False).first(),
        timeout=30,
        what="the e-mail",
        workers=workers,
    )
    assert ShiftReport.objects.get(pk=report.pk).emailed_to == ["floor-manager@example.com"]
    assert settings.CELERY_BROKER_URL == BROKER
