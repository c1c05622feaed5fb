"""Requesting, building and e-mailing shift reports.

A report is one row per shift and kind (``ShiftReport``), rebuilt in place:

- ``report_request`` creates it (pending) or marks it out of date, and sends the build
  task when the transaction commits. Asking while a build waits changes nothing; asking
  while one runs makes that build finish as pending and be sent again, since its figures
  may predate the request.
- ``report_build`` (the build task's one service) takes a PostgreSQL advisory lock on the
  report, in a transaction kept open beside the build, so two workers never build one
  report at once; a worker that dies holding it (SIGKILL, a lost machine) frees it with its
  database connection. A report that is done is not built again by a second delivery of
  the same task.
- ``reports_sweep`` (every 5 minutes, from beat) requests the reports of shifts that have
  ended and sends again the builds that were lost: pending for too long, or running with
  no heartbeat for longer than the task's hard time limit (their worker died).
- ``report_email`` sends the PDF and XLSX to the venue's managers, once per report.

Redelivery after a worker dies mid-build has two paths: the broker's (the task is
``acks_late``: its message stays unacknowledged and Redis hands it out again after the
visibility timeout) and the sweep's (a running report without a heartbeat past the time
limit is sent again). Either way the next build finds the lock free and starts over.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import timedelta
from decimal import Decimal as D
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db import DatabaseError, connection, connections, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.floor.models import TableSession
from casino.integrity.investigations import investigations_sync
from casino.kernel.errors import Forbidden
from casino.kernel.money import Grouping, grouped
from casino.kernel.replicas import PRIMARY
from casino.reports import outputs
from casino.reports.figures import shift_figures, theoretical_note
from casino.reports.models import ShiftReport, ShiftReportFile
from casino.staff.roles import MANAGE, MANAGER, can
from casino.venues.models import Shift

logger = logging.getLogger(__name__)

#: The build task's limits (seconds): the soft one stops the build, the hard one the worker.
SOFT_TIME_LIMIT = 270
TIME_LIMIT = 300
#: A running report whose heartbeat is older than this lost its worker.
STALE_AFTER = timedelta(seconds=TIME_LIMIT + 60)
#: A pending report no worker took up in this long is sent again.
LOST_AFTER = timedelta(minutes=10)
#: A shift whose tables are still open this long after its end is reported anyway.
OPEN_GRACE = timedelta(hours=2)
#: The sweep looks back this far for shifts without a report.
SWEEP_DAYS = 7
#: A failed build is tried again by the sweep until it has failed this often.
MAX_ATTEMPTS = 3
#: Key space of the reports' advisory locks (the first half of the two-int lock key).
LOCK_SPACE = 7_301


def _send(report_id: int) -> None:
    from casino.reports.tasks import shift_report_build_task

    shift_report_build_task.delay_on_commit(report_id)


@transaction.atomic
def report_request(
    *,
    shift_id: int,
    kind: str = ShiftReport.Kind.SHIFT,
    user: Any = None,
    send: bool = True,
) -> ShiftReport:
    """Ask for a shift's report to be (re)built; the build task is sent on commit.

    ``user`` is the manager asking from the page (``None`` for the schedule). Locks the
    report row, so concurrent requests queue behind each other.
    """
    shift = Shift.objects.select_related("venue").get(pk=shift_id)
    if user is not None and not can(user, MANAGE, shift.venue_id):
        raise Forbidden("only a manager of the venue rebuilds its reports")
    now = timezone.now()
    report, created = ShiftReport.objects.select_for_update().get_or_create(
        shift=shift,
        kind=kind,
        defaults={
            "venue": shift.venue,
            "requested_at": now,
            "requested_by": user,
            "step": gettext_noop("waiting for a worker"),
        },
    )
    if not created:
        report.requested_at = now
        report.requested_by = user
        fields = ["requested_at", "requested_by"]
        if report.status != ShiftReport.Status.RUNNING:
            report.status = ShiftReport.Status.PENDING
            report.progress = 0
            report.step = gettext_noop("waiting for a worker")
            fields += ["status", "progress", "step"]
        report.save(update_fields=fields)
    if user is not None:
        audit_record(
            user=user,
            action=AuditAction.REPORT_REQUEST,
            obj=report,
            venue=shift.venue,
            summary=f"asked for the {report.get_kind_display().lower()} of {shift}",
        )
    if send and (created or report.status == ShiftReport.Status.PENDING):
        _send(report.pk)
    return report


def shift_report_schedule_if_done(shift_id: int) -> ShiftReport | None:
    """Request the shift's report if the shift has ended and none of its tables is open.

    Called when a table session closes (the last one to close triggers the report); a
    report already built is rebuilt, since the closing changed its figures.
    """
    shift = Shift.objects.filter(pk=shift_id, ends_at__lte=timezone.now()).first()
    if shift is None:
        return None
    if TableSession.objects.filter(shift=shift, status=TableSession.Status.OPEN).exists():
        return None
    return report_request(shift_id=shift.pk)


@contextmanager
def build_lock(report_id: int) -> Iterator[bool]:
    """Hold the report's advisory lock while building; ``False`` if another holds it.

    The build commits its progress as it goes, so the lock is held by a transaction of a
    connection of its own, open (and writing nothing) for the whole build:
    ``pg_try_advisory_xact_lock``, never a session's lock, which PgBouncer in transaction
    mode would leave on whichever server connection it lent for the statement. A worker
    that dies ends that transaction with its connection (PostgreSQL, or PgBouncer for it,
    rolls back a transaction whose client has gone), and the lock with it. SQLite (the
    quick start, eager tasks in one process) needs none.
    """
    if connection.vendor != "postgresql":
        yield True
        return
    holder = connections.create_connection(PRIMARY)
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [LOCK_SPACE, report_id])
            locked = cursor.fetchone()[0]
        yield locked
    finally:
        with suppress(DatabaseError):  # a connection that died took the lock with it
            holder.rollback()  # the lock ends with the transaction
        holder.close()


def _progress(report_id: int, percent: int, step: str) -> None:
    ShiftReport.objects.filter(pk=report_id).update(
        progress=percent, step=step[:120], heartbeat_at=timezone.now()
    )


def report_build(*, report_id: int, email: bool = True) -> ShiftReport:
    """Build a report's figures and files, in place; idempotent.

    A report already done is returned as it is (a duplicate delivery); one being built by
    another worker too. Progress is committed as the build goes, for the page to poll.
    The figures depend only on the shift's rows, so building twice gives the same figures.
    Not atomic as a whole (progress must be seen); the files and figures are written in
    one transaction at the end, under a lock on the report row.
    """
    with build_lock(report_id) as locked:
        if not locked:
            logger.info("report %s is being built by another worker", report_id)
            return ShiftReport.objects.get(pk=report_id)
        report = ShiftReport.objects.select_related("shift__venue").get(pk=report_id)
        if report.status == ShiftReport.Status.DONE:
            return report
        started = timezone.now()
        ShiftReport.objects.filter(pk=report_id).update(
            status=ShiftReport.Status.RUNNING,
            started_at=started,
            heartbeat_at=started,
            progress=1,
            step=gettext_noop("starting"),
            error="",
            attempts=F("attempts") + 1,
        )
        clock = time.perf_counter()
        language = report.shift.venue.language
        try:
            figures = shift_figures(report, progress=partial(_progress, report_id))
            _progress(report_id, 70, gettext_noop("charts, CSV, XLSX and PDF"))
            # The figures speak no language; the files speak the venue's.
            files = outputs.render_all(
                figures, progress=partial(_progress, report_id), language=language
            )
        except Exception as error:
            report_failed(report_id=report_id, error=f"{type(error).__name__}: {error}")
            raise
        return _finish(report_id, figures, files, started, time.perf_counter() - clock, email)


@transaction.atomic
def _finish(
    report_id: int,
    figures: dict[str, Any],
    files: dict[str, tuple[str, bytes]],
    started: Any,
    seconds: float,
    email: bool,
) -> ShiftReport:
    report = (
        ShiftReport.objects.select_for_update(of=("self",))
        .select_related("shift", "venue")
        .get(pk=report_id)
    )
    for name, (content_type, content) in files.items():
        ShiftReportFile.objects.update_or_create(
            report=report,
            name=name,
            defaults={"content_type": content_type, "content": content, "size": len(content)},
        )
    ShiftReportFile.objects.filter(report=report).exclude(name__in=files).delete()
    out_of_date = report.requested_at > started
    report.figures = figures
    report.status = ShiftReport.Status.PENDING if out_of_date else ShiftReport.Status.DONE
    report.progress = 0 if out_of_date else 100
    report.step = (
        gettext_noop("asked again while building: waiting for a worker")
        if out_of_date
        else gettext_noop("ready")
    )
    report.finished_at = timezone.now()
    report.build_seconds = round(seconds, 3)
    report.save()
    audit_record(
        user=None,
        action=AuditAction.REPORT_BUILD,
        obj=report,
        venue=report.venue,
        summary=f"built the report of {report.shift} in {seconds:.1f} s",
    )
    if not out_of_date:
        investigations_sync(report)
    if out_of_date:
        _send(report.pk)
    elif email and report.emailed_at is None:
        from casino.reports.tasks import shift_report_email_task

        shift_report_email_task.delay_on_commit(report.pk)
    return report


def report_failed(*, report_id: int, error: str) -> None:
    """Record a failed build (kept until the next one starts)."""
    ShiftReport.objects.filter(pk=report_id).update(
        status=ShiftReport.Status.FAILED, step=gettext_noop("failed"), error=error[:2000]
    )


def report_retry_wait(*, report_id: int, error: str) -> None:
    """Record that a build hit a passing error and waits to be tried again."""
    ShiftReport.objects.filter(pk=report_id).update(
        status=ShiftReport.Status.PENDING,
        step=gettext_noop("waiting to try again"),
        error=error[:2000],
    )


def reports_sweep(*, now: Any = None) -> dict[str, int]:
    """What beat runs every 5 minutes: report ended shifts, resend lost builds.

    A shift is reported once it has ended and all its tables closed, or two hours after
    it ended whatever its tables (the report then shows them open). Shifts that ended
    more than a week ago are left alone (no flood of builds on a first deployment).
    """
    now = now or timezone.now()
    open_tables = TableSession.objects.filter(shift=OuterRef("pk"), status=TableSession.Status.OPEN)
    ended = (
        Shift.objects.filter(
            ends_at__lte=now,
            ends_at__gte=now - timedelta(days=SWEEP_DAYS),
        )
        .filter(Exists(TableSession.objects.filter(shift=OuterRef("pk"))))
        .filter(~Exists(open_tables) | Q(ends_at__lte=now - OPEN_GRACE))
        .exclude(
            Exists(ShiftReport.objects.filter(shift=OuterRef("pk"), kind=ShiftReport.Kind.SHIFT))
        )
        .order_by("ends_at")
    )
    requested = 0
    for shift_id in ended.values_list("pk", flat=True)[:100]:
        report_request(shift_id=shift_id)
        requested += 1
    lost = ShiftReport.objects.filter(
        Q(status=ShiftReport.Status.PENDING, requested_at__lte=now - LOST_AFTER)
        | Q(status=ShiftReport.Status.RUNNING, heartbeat_at__lte=now - STALE_AFTER)
    )
    resent = 0
    for report_id in lost.values_list("pk", flat=True)[:100]:
        _send(report_id)
        resent += 1
    retried = 0
    failed = ShiftReport.objects.filter(
        status=ShiftReport.Status.FAILED, attempts__lt=MAX_ATTEMPTS
    ).values_list("shift_id", flat=True)
    for shift_id in failed[:100]:
        report_request(shift_id=shift_id)
        retried += 1
    from casino.integrity.runs import integrity_sweep

    return {
        "requested": requested,
        "resent": resent,
        "retried": retried,
        "integrity": integrity_sweep(now=now),
    }


def report_managers(report: ShiftReport) -> list[str]:
    """E-mail addresses of the venue's active managers."""
    return sorted(
        set(
            get_user_model()
            .objects.filter(venues=report.venue_id, groups__name=MANAGER, is_active=True)
            .exclude(email="")
            .values_list("email", flat=True)
        )
    )


@transaction.atomic
def report_email(*, report_id: int) -> int:
    """E-mail a finished report (PDF and XLSX attached) to the venue's managers, once.

    Locks the report row, so two deliveries of the task send one message.
    """
    report = (
        ShiftReport.objects.select_for_update(of=("self",))
        .select_related("shift__venue")
        .get(pk=report_id)
    )
    if report.status != ShiftReport.Status.DONE or report.emailed_at is not None:
        return 0
    recipients = report_managers(report)
    if recipients:
        with translation.override(report.shift.venue.language):
            subject, body = report_message(report)
        message = EmailMessage(subject=subject, body=body, to=recipients)
        for stored in report.files.filter(name__in=[outputs.PDF_NAME, outputs.XLSX_NAME]):
            message.attach(stored.name, bytes(stored.content), stored.content_type)
        message.send()
    report.emailed_at = timezone.now()
    report.emailed_to = recipients
    report.save(update_fields=["emailed_at", "emailed_to"])
    return len(recipients)


def report_message(report: ShiftReport) -> tuple[str, str]:
    """The e-mail's subject and body in the active language, amounts as the report's
    page writes them (the currency's decimals, the venue's grouping)."""
    shift = report.shift
    figures = report.figures
    total = figures["total"]
    currency = figures["shift"]["currency"]
    grouping = figures["shift"].get("grouping", Grouping.COMMA)

    def amount(key: str) -> str:
        return outputs.figure_money(key, total[key], currency, grouping)

    names = {
        "venue": shift.venue.name,
        "date": shift.gaming_date.isoformat(),
        "shift": shift.name,
        "currency": currency,
    }
    subject = _("Shift report: %(venue)s, %(date)s %(shift)s") % names
    theoretical = (
        f"{amount('theoretical_win')} {currency}"
        if total["theoretical_win"] is not None
        else theoretical_note(figures)
    )
    lines = [
        _("The report of the %(shift)s shift of %(date)s at %(venue)s is ready.") % names,
        "",
        _("Rounds: %(rounds)s") % {"rounds": grouped(D(total["rounds"]), 0, grouping)},
        _("Handle: %(amount)s %(currency)s") % {**names, "amount": amount("handle")},
        _("House win: %(amount)s %(currency)s (hold %(hold)s)")
        % {
            **names,
            "amount": amount("house_win"),
            "hold": f"{grouped(D(total['hold_pct']), 2, grouping)}%"
            if total["hold_pct"] is not None
            else "—",
        },
        _("Theoretical win: %(amount)s") % {"amount": theoretical},
        "",
        _("The PDF and the XLSX are attached."),
    ]
    return subject, "\n".join(str(line) for line in lines)


def report_file(report: ShiftReport, name: str) -> ShiftReportFile | None:
    return report.files.filter(name=name).first()
