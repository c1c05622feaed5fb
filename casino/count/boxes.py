"""Drop boxes at the tables: each session's drop goes into a box when it opens.

A table has one box per gaming day (the session's shift's ``gaming_date``), or one box per
session where the venue drops at each close (``Venue.drop_each_close``). A box taken to
the count (its first count made) is not used again: the next session of that day gets the
table's next box. No session opens in a gaming day whose count is closed: its box could
never be counted. The count itself: ``casino.count.services``.
"""

from __future__ import annotations

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.count.models import CountDay, DropBox, DropBoxSession
from casino.floor.models import TableSession
from casino.kernel.errors import Conflict


def dropbox_attach(*, session: TableSession) -> DropBox:
    """Put the opened session's drop into a box (on ``session_opened``, which
    ``session_open`` sends holding the table's lock): the table's box of the gaming day
    still at the table, or a new one."""
    table = session.table
    venue = table.venue
    gaming_date = session.shift.gaming_date
    if CountDay.objects.filter(
        venue=venue, gaming_date=gaming_date, status=CountDay.Status.CLOSED
    ).exists():
        raise Conflict(
            _(
                "the count of gaming day %(date)s is closed, so no table opens in it: its drop "
                "box could never be counted"
            )
            % {"date": gaming_date.isoformat()},
            reason="count_closed",
        )
    box = None
    if not venue.drop_each_close:
        box = (
            DropBox.objects.select_for_update()
            .filter(table=table, gaming_date=gaming_date, per_session=False)
            .order_by("-number")
            .first()
        )
        if box is not None and (box.status != DropBox.Status.IN_USE or box.counts.exists()):
            box = None
    if box is None:
        number = DropBox.objects.filter(table=table, gaming_date=gaming_date).aggregate(
            top=Max("number")
        )["top"]
        box = DropBox.objects.create(
            venue=venue,
            table=table,
            gaming_date=gaming_date,
            number=(number or 0) + 1,
            per_session=venue.drop_each_close,
            created_at=timezone.now(),
        )
    DropBoxSession.objects.create(box=box, session=session)
    return box
