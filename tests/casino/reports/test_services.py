"""Requesting, building, sweeping and e-mailing reports (in process; the worker is in
test_worker.py)."""

from __future__ import annotations

import io
from datetime import timedelta

import psycopg
import pytest
from celery.exceptions import Retry
from django.db import OperationalError, connection
from django.utils import timezone

from casino.audit.models import AuditEvent
from casino.floor.models import TableSession
from casino.kernel.errors import Forbidden
from casino.reports import outputs, services
from casino.reports.models import ShiftReport
from casino.reports.tasks import shift_report_build_task
from casino.venues.models import Shift

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """The build tasks the services would send (nothing reaches the broker)."""
    calls: list[int] = []
    monkeypatch.setattr(services, "_send", calls.append)
    return calls


@pytest.fixture
def no_email(monkeypatch):
    from casino.reports import tasks

    monkeypatch.setattr(tasks.shift_report_email_task, "delay_on_commit", lambda *a: None)


def test_building_twice_gives_one_report_with_the_same_figures(report, quick_pdf, no_email):
    # when
    first = services.report_build(report_id=report.pk)
    files = dict(first.files.values_list("name", "size"))
    services.report_request(shift_id=report.shift_id, send=False)
    second = services.report_build(report_id=report.pk)
    # then
    assert ShiftReport.objects.filter(shift=report.shift).count() == 1
    assert (first.status, second.status) == ("done", "done")
    assert second.figures == first.figures
    assert second.attempts == 2 and second.progress == 100
    # replaced in place (the XLSX carries its creation time, so only its size may differ)
    assert set(second.files.values_list("name", flat=True)) == set(files)
    assert set(files) == {
        outputs.CSV_NAME,
        outputs.XLSX_NAME,
        outputs.PDF_NAME,
        "win-by-table.svg",
        "hold-vs-theoretical.svg",
        "win-by-hour.svg",
    }
    assert AuditEvent.objects.filter(action="report.build", object_id=str(report.pk)).count() == 2


def test_a_second_delivery_of_a_done_report_changes_nothing(report, quick_pdf, no_email):
    done = services.report_build(report_id=report.pk)
    again = services.report_build(report_id=report.pk)
    assert again.attempts == done.attempts == 1
    assert again.finished_at == done.finished_at


def test_a_request_during_a_build_sends_it_again(report, quick_pdf, no_email, sent, monkeypatch):
    real = services.shift_figures

    def figures_then_click(report, progress):
        figures = real(report, progress=progress)
        services.report_request(shift_id=report.shift_id)  # a manager clicks "rebuild"
        return figures

    monkeypatch.setattr(services, "shift_figures", figures_then_click)
    built = services.report_build(report_id=report.pk)
    # the build's figures may predate the click: it finishes pending and is sent again
    assert built.status == "pending"
    assert sent == [report.pk]
    assert built.figures is not None


def _other_connection() -> psycopg.Connection:
    """A connection of another worker, to the database the tests use (directly or through
    PgBouncer, as they do)."""
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        dbname=settings["NAME"],
        autocommit=True,
    )


def _advisory_locks(report_id: int) -> list[str]:
    """The states of the sessions holding the report's build lock."""
    with _other_connection() as other:
        return [
            state
            for (state,) in other.execute(
                "SELECT a.state FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
                "WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objid = %s",
                [services.LOCK_SPACE, report_id],
            )
        ]


def test_a_report_another_worker_holds_is_left_alone(report, night):
    # given another worker's transaction holding the report's advisory lock
    with _other_connection() as other, other.transaction():
        other.execute("SELECT pg_advisory_xact_lock(%s, %s)", [services.LOCK_SPACE, report.pk])
        # when
        left = services.report_build(report_id=report.pk)
    # then
    assert left.status == "pending" and left.attempts == 0


def test_the_build_lock_lives_in_a_transaction_and_ends_with_the_build(
    report, quick_pdf, no_email, monkeypatch
):
    real = services.shift_figures
    during: list[list[str]] = []

    def figures_seen_from_outside(report, progress):
        during.append(_advisory_locks(report.pk))
        return real(report, progress=progress)

    monkeypatch.setattr(services, "shift_figures", figures_seen_from_outside)
    built = services.report_build(report_id=report.pk)
    # held by a transaction that waits beside the build (no session keeps it), then let go
    assert during == [["idle in transaction"]]
    assert _advisory_locks(report.pk) == []
    assert built.status == "done"


def test_a_failed_build_says_why(report, monkeypatch):
    def broken(report, progress):
        raise ValueError("no figures today")

    monkeypatch.setattr(services, "shift_figures", broken)
    with pytest.raises(ValueError):
        services.report_build(report_id=report.pk)
    report.refresh_from_db()
    assert report.status == "failed"
    assert report.error == "ValueError: no figures today"


def test_a_passing_error_is_retried_by_the_task(report, monkeypatch):
    attempts = []

    def flaky(*, report_id, email=True):
        attempts.append(report_id)
        raise OperationalError("the database went away")

    monkeypatch.setattr(services, "report_build", flaky)
    with pytest.raises(Retry) as retry:
        shift_report_build_task.apply(args=[report.pk])
    # sent again later (10 s base, doubling, with jitter), the report says so meanwhile
    assert attempts == [report.pk]
    assert 0 <= retry.value.when <= 10
    report.refresh_from_db()
    assert (report.status, report.step) == ("pending", "waiting to try again")
    assert "database went away" in report.error


def test_only_a_manager_asks_for_a_rebuild(night, report):
    with pytest.raises(Forbidden):
        services.report_request(shift_id=night.shift.pk, user=night.floor.auditor)
    with pytest.raises(Forbidden):
        services.report_request(shift_id=night.shift.pk, user=night.floor.other_manager)
    asked = services.report_request(shift_id=night.shift.pk, user=night.floor.manager, send=False)
    assert asked.pk == report.pk and asked.requested_by == night.floor.manager


def test_the_last_table_to_close_after_the_end_asks_for_the_report(night, sent):
    # the night shift ended at 06:00 and all its tables are closed
    report = services.shift_report_schedule_if_done(night.shift.pk)
    assert report is not None and sent == [report.pk]
    # a shift still running is not reported when a table closes
    Shift.objects.filter(pk=night.shift.pk).update(ends_at=timezone.now() + timedelta(hours=1))
    assert services.shift_report_schedule_if_done(night.shift.pk) is None
    # nor one with a table still open
    Shift.objects.filter(pk=night.shift.pk).update(ends_at=timezone.now() - timedelta(hours=1))
    TableSession.objects.filter(pk=night.sessions["NN1"].pk).update(status="open")
    assert services.shift_report_schedule_if_done(night.shift.pk) is None


def test_the_sweep_reports_ended_shifts_and_resends_lost_builds(night, sent):
    # closing the last table already asked for the report; the sweep is the fallback when
    # that request was lost, so start without it
    ShiftReport.objects.all().delete()
    sent.clear()
    now = night.shift.ends_at + timedelta(minutes=5)
    # an ended shift without a report: requested
    assert services.reports_sweep(now=now) == {
        "requested": 1,
        "resent": 0,
        "retried": 0,
        "integrity": 0,  # no gaming day with integrity tallies ended
    }
    report = ShiftReport.objects.get(shift=night.shift)
    assert sent == [report.pk]
    ShiftReport.objects.filter(pk=report.pk).update(requested_at=now)  # as the sweep's clock
    # asked again five minutes later: nothing new
    assert services.reports_sweep(now=now + timedelta(minutes=5))["requested"] == 0
    # pending and not taken up for ten minutes: sent again
    assert services.reports_sweep(now=now + timedelta(minutes=11))["resent"] == 1
    # running with no heartbeat past the time limit: its worker died; sent again
    ShiftReport.objects.filter(pk=report.pk).update(status="running", heartbeat_at=now)
    assert services.reports_sweep(now=now + timedelta(minutes=2))["resent"] == 0
    assert services.reports_sweep(now=now + services.STALE_AFTER)["resent"] == 1
    # failed: tried again until it failed MAX_ATTEMPTS times
    ShiftReport.objects.filter(pk=report.pk).update(status="failed", attempts=1)
    assert services.reports_sweep(now=now)["retried"] == 1
    ShiftReport.objects.filter(pk=report.pk).update(status="failed", attempts=3)
    assert services.reports_sweep(now=now)["retried"] == 0
    # a week later a shift with no report is left alone
    ShiftReport.objects.all().delete()
    assert services.reports_sweep(now=now + timedelta(days=8))["requested"] == 0


def test_a_shift_with_open_tables_is_reported_two_hours_after_its_end(night, sent):
    ShiftReport.objects.all().delete()  # (the closing in the fixture asked for one)
    TableSession.objects.filter(pk=night.sessions["NN1"].pk).update(status="open")
    ended = night.shift.ends_at
    assert services.reports_sweep(now=ended + timedelta(minutes=30))["requested"] == 0
    assert services.reports_sweep(now=ended + services.OPEN_GRACE)["requested"] == 1


def test_the_report_is_emailed_to_the_managers_once(night, report, quick_pdf, mailoutbox):
    from casino.reports import tasks

    queued = []
    tasks.shift_report_email_task.delay_on_commit = queued.append  # undone below
    try:
        services.report_build(report_id=report.pk)
    finally:
        del tasks.shift_report_email_task.delay_on_commit
    assert queued == [report.pk]
    assert services.report_email(report_id=report.pk) == 1
    assert services.report_email(report_id=report.pk) == 0  # a second delivery
    (message,) = mailoutbox
    assert message.to == ["floor-manager@example.com"]
    assert message.subject == "Shift report: Venue hanoi, 2026-11-28 night"
    # amounts as the report's page writes them: no decimals VND has not got
    assert "Handle: 2,850,000 VND\nHouse win: -1,385,000 VND (hold -48.60%)" in message.body
    assert sorted(name for name, _content, _type in message.attachments) == [
        outputs.PDF_NAME,
        outputs.XLSX_NAME,
    ]
    report.refresh_from_db()
    assert report.emailed_to == ["floor-manager@example.com"]


def test_the_sweep_is_on_beats_schedule_every_five_minutes(db):
    from django.core.management import call_command
    from django_celery_beat.models import PeriodicTask

    from casino.reports.schedules import SWEEP_NAME, SWEEP_TASK

    PeriodicTask.objects.filter(name=SWEEP_NAME).delete()
    call_command("setup_schedules", stdout=io.StringIO())
    call_command("setup_schedules", stdout=io.StringIO())  # idempotent
    (task,) = PeriodicTask.objects.filter(name=SWEEP_NAME)
    assert (task.task, task.interval.every, task.interval.period) == (SWEEP_TASK, 5, "minutes")
