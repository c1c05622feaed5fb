"""The reports' answers to what the apps below them tell (``casino.venues.signals``),
connected when the app is ready."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from casino.reports.services import shift_report_schedule_if_done
from casino.venues.signals import shift_closing


@receiver(shift_closing, dispatch_uid="casino.reports.shift_report")
def shift_report_when_done(sender: Any, *, shift_id: int, **kwargs: Any) -> None:
    """The last table of a shift to close, or the count closing its day, asks for the
    shift's report (built after commit; one already built is built again)."""
    shift_report_schedule_if_done(shift_id)
