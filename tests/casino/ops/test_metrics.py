"""``/metrics``: only the monitoring addresses read it, and the casino's figures move with
what happens on the floor (real PostgreSQL and Redis)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal as D

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from casino.cage.services.slips import slip_request
from casino.celery import app
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import shift_current
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.integrity.models import IntegrityRun
from casino.ops import metrics as domain
from casino.reports.models import ShiftReport
from tests.casino.api import NIU_8, NIU_9
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def scrape(client=None) -> dict[tuple[str, tuple], float]:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""
    response = (client or Client()).get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def test_only_the_monitoring_addresses_read_it(settings):
    settings.METRICS_ALLOWED_ADDRESSES = ["127.0.0.1", "10.9.0.0/16"]
    assert Client(REMOTE_ADDR="10.9.4.2").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="10.8.4.2").get("/metrics").status_code == 404
    assert Client(REMOTE_ADDR="::1").get("/metrics").status_code == 404
    # behind a proxy, the address it names (as the lockout reads it), never its own
    settings.LOGIN_CLIENT_IP_HEADER = "HTTP_X_REAL_IP"
    proxied = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP="203.0.113.7")
    assert proxied.get("/metrics").status_code == 404


def test_a_settle_moves_the_floors_figures(floor, session):
    venue = (("venue", "hanoi"),)
    before = scrape()
    assert before[("casino_open_sessions", venue)] == 1
    round_, _result = round_create(
        session=session,
        user=floor.dealer,
        dealer_cards=NIU_8,
        boxes=[BoxInput(position=1, cards=NIU_9, stakes={"single": D("100000")})],
    )
    round_settle(round_=round_, user=floor.dealer, key=f"settle-{round_.pk}")
    slip_request(session=session, user=floor.dealer, kind="fill", chips={"100000": 5})

    after = scrape()
    settled = ("casino_rounds_settled_total", venue)
    assert after[settled] == before.get(settled, 0) + 1
    count = ("casino_settle_seconds_count", ())
    assert after[count] == before.get(count, 0) + 1
    assert after[("casino_settle_seconds_sum", ())] > before.get(
        ("casino_settle_seconds_sum", ()), 0
    )
    assert after[("casino_slips_waiting", (("status", "requested"), *venue))] == 1
    # the other venue has nothing open
    assert ("casino_open_sessions", (("venue", "seoul"),)) not in after
    # the web's own figures beside them
    assert after[("casino_http_requests_total", (("method", "GET"), ("status", "2xx")))] >= 1

    # a counter never goes back: the settled round voided stays counted
    round_void(
        round_=round_, requested_by=floor.dealer, approved_by=floor.supervisor, reason="misdeal"
    )
    assert scrape()[settled] == after[settled]


def test_lockouts_and_integrity_alerts_are_counted(floor, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    before = scrape()
    lockouts = ("casino_login_lockouts_total", (("outcome", "locked_out"),))
    UserFactory(username="guessed")
    guesser = Client(REMOTE_ADDR="10.0.0.9")
    for _n in range(3):
        guesser.post(django_settings.LOGIN_URL, {"username": "guessed", "password": "wrong-1"})
    IntegrityRun.objects.create(
        venue=floor.venue,
        date_from=date(2026, 1, 1),
        date_to=date(2026, 1, 31),
        status=IntegrityRun.Status.DONE,
        requested_at=timezone.now(),
        alerts=2,
    )
    after = scrape()
    assert after[lockouts] == before[lockouts] + 1
    assert after[("casino_integrity_alerts_total", (("venue", "hanoi"),))] == 2


def test_report_builds_are_a_histogram_of_the_builds_done(floor):
    samples = scrape()
    assert samples[("casino_report_build_seconds_count", ())] == 0
    assert samples[("casino_report_build_seconds_bucket", (("le", "+Inf"),))] == 0

    started = timezone.now() - timedelta(minutes=10)
    ShiftReport.objects.create(
        shift=shift_current(venue=floor.venue),
        venue=floor.venue,
        requested_at=started,
        started_at=started,
        finished_at=started + timedelta(seconds=42),
        status=ShiftReport.Status.DONE,
        figures={},
    )
    samples = scrape()
    assert samples[("casino_report_build_seconds_count", ())] == 1
    assert samples[("casino_report_build_seconds_sum", ())] == 42
    assert samples[("casino_report_build_seconds_bucket", (("le", "30.0"),))] == 0
    assert samples[("casino_report_build_seconds_bucket", (("le", "60.0"),))] == 1


def test_the_queue_depth_is_read_from_the_broker(db, monkeypatch):
    queue = "ops-test-queue"
    monkeypatch.setattr(domain, "_queue_names", lambda: [queue])
    with app.connection_for_write() as connection:
        client = connection.default_channel.client
        client.delete(queue)
        try:
            assert scrape()[("casino_celery_queue_length", (("queue", queue),))] == 0
            app.send_task("casino.ops.tasks.beat_heartbeat_task", queue=queue)
            app.send_task("casino.ops.tasks.beat_heartbeat_task", queue=queue)
            assert scrape()[("casino_celery_queue_length", (("queue", queue),))] == 2
        finally:
            client.delete(queue)
