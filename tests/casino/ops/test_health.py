"""``/healthz`` and ``/readyz`` on the real PostgreSQL, Redis and broker: ready when every
check passes, 503 naming the check when one does not, and nothing secret in the body."""

from __future__ import annotations

import time
from io import StringIO

import pytest
from celery.signals import heartbeat_sent
from django.core.management import call_command
from django_celery_beat.models import PeriodicTask

from casino.celery import app
from casino.ops import checks, heartbeats, views
from casino.ops.heartbeats import BEAT, WORKER, heartbeat_age, heartbeat_write
from casino.ops.tasks import beat_heartbeat_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def beating():
    """The worker and beat both wrote their heartbeat just now."""
    heartbeat_write(WORKER)
    heartbeat_write(BEAT)


def ready(client) -> tuple[int, dict]:
    response = client.get("/readyz")
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    return response.status_code, response.json()


def test_healthz_answers_without_a_login(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "pass"}


def test_ready_when_every_check_passes(client, beating):
    status, body = ready(client)
    assert status == 200, body
    assert body["status"] == "pass"
    assert set(body["checks"]) == {
        "database",
        "migrations",
        "cache",
        "replica",  # the suite's replica alias, Django's mirror of the primary
        "broker",
        "worker",
        "beat",
    }
    assert all(check == {"status": "pass"} for check in body["checks"].values())


def test_an_unapplied_migration_makes_it_not_ready(client, beating, settings):
    settings.MIGRATION_MODULES = {
        **settings.MIGRATION_MODULES,
        "ops": "tests.casino.ops.ahead",
    }
    status, body = ready(client)
    assert status == 503
    assert body["status"] == "fail"
    assert body["checks"]["migrations"] == {
        "status": "fail",
        "output": "1 migrations not applied: ops.0002_ahead",
    }
    assert body["checks"]["database"] == {"status": "pass"}


def test_a_stale_worker_heartbeat_and_no_beat_make_it_not_ready(client, settings):
    settings.HEARTBEAT_STALE_SECONDS = 60
    heartbeat_write(WORKER, at=time.time() - 300)
    status, body = ready(client)
    assert status == 503
    assert body["checks"]["worker"]["status"] == "fail"
    assert body["checks"]["worker"]["output"].startswith("the worker heartbeat is 30")
    assert body["checks"]["beat"] == {"status": "fail", "output": "no beat heartbeat"}
    assert body["checks"]["database"] == {"status": "pass"}


def test_a_replica_behind_its_limit_makes_it_not_ready(client, beating, monkeypatch, settings):
    settings.REPLICA_LAG_LIMIT_SECONDS = 30
    monkeypatch.setattr(views, "replica_configured", lambda: True)
    monkeypatch.setattr(checks, "replica_lag_seconds", lambda: 12.0)
    status, body = ready(client)
    assert status == 200, body
    assert body["checks"]["replica"] == {"status": "pass"}

    monkeypatch.setattr(checks, "replica_lag_seconds", lambda: 95.0)
    status, body = ready(client)
    assert status == 503
    assert body["checks"]["replica"] == {
        "status": "fail",
        "output": "the replica is 95 s behind (limit 30 s)",
    }


@pytest.mark.django_db(transaction=True, databases=["default", "replica"])
def test_the_replica_lag_is_read_from_the_replica():
    from casino.kernel.replicas import replica_lag_seconds

    # The test's replica mirrors the primary: not in recovery, so nothing to replay.
    assert replica_lag_seconds() == 0.0


def test_a_broker_that_does_not_answer_makes_it_not_ready(client, beating, monkeypatch):
    monkeypatch.setattr(app.conf, "broker_write_url", "redis://127.0.0.1:1/0")
    status, body = ready(client)
    assert status == 503
    assert body["checks"]["broker"] == {"status": "fail", "output": "the broker does not answer"}


def test_the_body_names_no_host_user_or_password(client, settings):
    settings.HEARTBEAT_STALE_SECONDS = 1
    heartbeat_write(WORKER, at=time.time() - 30)
    body = client.get("/readyz").content.decode()
    for secret in ("postgres", "127.0.0.1", "6379", "redis://", settings.SECRET_KEY):
        assert secret not in body


def test_the_worker_writes_its_heartbeat_with_celerys_own(monkeypatch):
    monkeypatch.setattr(heartbeats, "_last_written", {})
    assert heartbeat_age(WORKER) is None
    heartbeat_sent.send(sender=None)
    age = heartbeat_age(WORKER)
    assert age is not None and age < 5


def test_beat_sends_its_heartbeat_task_and_the_worker_writes_it():
    # Migration ops.0001 installed it (a transactional test before this one may have
    # flushed it: setup_schedules puts it back, as an operator would)
    call_command("setup_schedules", stdout=StringIO())
    schedule = PeriodicTask.objects.get(task="casino.ops.tasks.beat_heartbeat_task")
    assert schedule.enabled
    assert schedule.expire_seconds == 2 * heartbeats.BEAT_EVERY
    assert schedule.interval.every == heartbeats.BEAT_EVERY
    assert schedule.task in app.tasks
    assert heartbeat_age(BEAT) is None
    beat_heartbeat_task.apply()
    age = heartbeat_age(BEAT)
    assert age is not None and age < 5
