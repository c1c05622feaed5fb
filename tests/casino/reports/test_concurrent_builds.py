"""Two workers building one report at the same moment: one builds it, the other leaves it
(the build lock, ``casino.reports.services.build_lock``). Transactional, so each thread's
connection sees the committed night shift, as two workers would."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from casino.audit.models import AuditAction, AuditEvent
from casino.reports import services
from casino.reports.models import ShiftReport

from .conftest import night_shift

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_builds_at_once_write_one_report(quick_pdf, monkeypatch):
    # given the night shift's report, and a build that takes a second to sum its figures
    night = night_shift()
    report = services.report_request(shift_id=night.shift.pk, send=False)
    real = services.shift_figures
    summed: list[int] = []

    def slow_figures(report, progress):
        summed.append(report.pk)
        time.sleep(1)  # the other build asks for the lock meanwhile
        return real(report, progress=progress)

    monkeypatch.setattr(services, "shift_figures", slow_figures)
    start = threading.Barrier(2)
    built: list[ShiftReport | None] = [None, None]

    def build(index: int) -> None:
        try:
            start.wait(timeout=10)
            built[index] = services.report_build(report_id=report.pk, email=False)
        finally:
            connection.close()

    # when two workers build it at once
    threads = [threading.Thread(target=build, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    # then one summed and wrote the figures, the other left the report as it found it
    assert summed == [report.pk]
    assert sorted(b.status != "done" for b in built if b is not None) == [False, True]
    report.refresh_from_db()
    assert (report.status, report.attempts) == ("done", 1)
    assert report.figures["total"]["house_win"] == "-1385000.00"
    assert report.files.count() == 6
    built_events = AuditEvent.objects.filter(
        action=AuditAction.REPORT_BUILD, object_id=str(report.pk)
    )
    assert built_events.count() == 1
