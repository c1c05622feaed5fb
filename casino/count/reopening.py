"""Reopening a closed count that left a box of its day uncounted: only a count closed
before the day's close waited for every box (an older rule) can have done so. A manager of
the venue reopens it, saying why; the counters then count the box and close the count again
(casino.count.services). Locks the day's ``CountDay`` row alone.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.count.duties import count_reopen_refusal
from casino.count.models import CountDay
from casino.count.selectors import uncounted_boxes
from casino.count.services import MAX_REASON
from casino.kernel.errors import Conflict, InvalidInput, NotFound
from casino.staff.roles import venue_ids
from casino.venues.models import Venue


@transaction.atomic
def count_reopen(*, venue: Venue, gaming_date: date, user: Any, reason: str) -> CountDay:
    """Reopen a closed count that left a box of its day uncounted (closed before the day's
    close waited for every box): a manager of the venue
    (``casino.count.duties.count_reopen_refusal``), saying why; audited with who closed it
    and when. The counters then count the box and close the count again.

    A count whose every box is counted is final and is not reopened: two counters signed
    it, its drop is posted and the day's reports are built from it, and what a regulator
    reads is that record as signed, not a later edit of it. Reopening is the way back only
    for a box the close left out, whose drop no figure holds yet."""
    if venue.pk not in venue_ids(user):
        raise NotFound(_("there is no such venue among yours"), field="venue")
    refused = count_reopen_refusal(user=user, venue_id=venue.pk)
    if refused is not None:
        raise refused
    reason = (reason or "").strip()[:MAX_REASON]
    if not reason:
        raise InvalidInput(_("say why the count is reopened"), field="reason")
    day = CountDay.objects.select_for_update().filter(venue=venue, gaming_date=gaming_date).first()
    if day is None or day.status != CountDay.Status.CLOSED:
        raise Conflict(
            _("the count of %(date)s is not closed") % {"date": gaming_date.isoformat()},
            reason="count_not_closed",
        )
    stranded = uncounted_boxes(venue, gaming_date)
    if not stranded:
        raise Conflict(
            _("every box of %(date)s is counted; its closed count is final")
            % {"date": gaming_date.isoformat()},
            reason="count_final",
        )
    before = {
        "status": day.status,
        "closed_by": day.closed_by.get_username() if day.closed_by else None,
        "closed_at": day.closed_at.isoformat() if day.closed_at else None,
    }
    day.status = CountDay.Status.OPEN
    day.closed_by = None
    day.closed_at = None
    day.save(update_fields=["status", "closed_by", "closed_at"])
    audit_record(
        user=user,
        action=AuditAction.COUNT_REOPEN,
        obj=day,
        venue=venue,
        summary=(
            f"reopened the count of {gaming_date.isoformat()} to count "
            f"{', '.join(stranded)}: {reason}"
        ),
        before=before,
        after={"status": day.status, "boxes": stranded, "reason": reason},
    )
    return day
