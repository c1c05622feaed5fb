"""Drop boxes and the count: two counters count each box, the count posts the drop, and
the gaming day's count is closed.

- A box is attached to each session when it opens (``casino.count.boxes``): the table's box
  of the gaming day (the session's shift's ``gaming_date``), or a box of its own where the
  venue drops at each close (``Venue.drop_each_close``). A box already taken to the count
  is not used again: the next session of that day gets the table's next box.
- A box is counted once every session it covers is closed. The first count takes it from
  the table (``removed``); the second count, by another counter, is the verification
  count. When it differs from the first (any denomination, or the other instruments'
  total), the counter says why; either way the box's drop is the second count's total,
  posted as a ``Drop`` of the box with balanced ledger entries (drop box +, players -) to
  the box's last session. The session's stored figures (its drop at close, its win by
  count) do not change: history is never evaluated again; the day's figures
  (``casino.count.selectors.win_figures``) add the counted drop.
- Segregation of duties (``casino.count.duties.box_count_refusal``): a counter has the count
  team's role at the venue, does not supervise there, and took no part in a session of the
  box's table that gaming day (dealt a spell of it, a relief included, opened, closed or
  confirmed it, or requested or signed one of its slips). The two counts are by two people.
- The gaming day's count closes only once the gaming day has ended (``gaming_day_end``),
  no session of that day is still open and every box of the day is counted; a closed
  count takes no more counts. So no box of a day is left out of its count: a session
  cannot open in a day whose count is closed (``dropbox_attach``), and a box stranded by
  a count closed under the old rule is counted after a manager reopens the day's count
  with a reason (``casino.count.reopening.count_reopen``, audited).
- Nor while a manual series of one of the day's tables has a gap (a number below the
  highest used that is neither entered nor recorded as spoiled,
  ``casino.cage.manual_selectors.day_gaps``): the paper of a system-down period is all
  entered, or accounted for, before the count that it adds to closes (N.J.A.C.
  13:69D-1.22(c)).

Locking: a count locks the day's ``CountDay`` row, then the ``DropBox`` row; attaching a
session locks its table (``session_open`` does), then the box. Nothing here locks in the
other order, so the two cannot deadlock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.manual_selectors import day_gaps
from casino.cage.marker_selectors import markers_in_drop
from casino.count.contents import count_differences, read_notes, read_others
from casino.count.duties import box_count_refusal, count_close_refusal
from casino.count.models import BoxCount, CountDay, DropBox
from casino.floor.models import TableSession
from casino.floor.services.sessions import SESSION_TOTAL_LIMIT, chips_total
from casino.kernel.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.kernel.money import plain, written
from casino.kernel.timezones import venue_time
from casino.ledger.models import Account, Drop, EntryKind, LedgerEntry
from casino.ledger.services import ledger_post
from casino.staff.roles import COUNT_TEAM, SUPERVISE, can, venue_ids
from casino.venues.models import Shift, Venue
from casino.venues.services.gaming_days import gaming_day_end
from casino.venues.signals import shift_closing

#: The longest reason for a difference between the two counts.
MAX_REASON = 1000


def box_sessions(box: DropBox) -> list[TableSession]:
    """The sessions whose drop went into the box, first opened first."""
    return list(
        TableSession.objects.filter(drop_box_link__box=box)
        .select_related("dealer", "opened_by", "closed_by")
        .order_by("opened_at", "pk")
    )


def counter_refusal(*, box: DropBox, user: Any) -> Forbidden | None:
    """Why ``user`` may not count ``box`` (segregation of duties: ``casino.count.duties``), or
    None. The screens ask it to offer the form; ``count_record`` raises it."""
    return box_count_refusal(user=user, box=box)


def _count_day(venue: Venue, gaming_date: date) -> CountDay:
    """The day's count, locked (made at its first use)."""
    try:
        with transaction.atomic():
            CountDay.objects.get_or_create(venue=venue, gaming_date=gaming_date)
    except IntegrityError:
        pass  # made at the same moment by another counter
    return CountDay.objects.select_for_update().get(venue=venue, gaming_date=gaming_date)


def _closed_count(day: CountDay, box: DropBox) -> Conflict:
    if box.status != DropBox.Status.COUNTED:
        # Only a count closed before the day's close had to wait for every box can leave
        # one behind: say how to count it, not that it never will be.
        return Conflict(
            _(
                "the count of %(date)s was closed before box %(box)s was counted; a manager "
                "reopens that day's count, saying why, then count the box and close the "
                "count again"
            )
            % {"date": day.gaming_date.isoformat(), "box": box.label},
            reason="count_closed",
        )
    return Conflict(
        _("the count of %(date)s is closed; it takes no more counts")
        % {"date": day.gaming_date.isoformat()},
        reason="count_closed",
    )


@transaction.atomic
def count_record(
    *,
    box: DropBox,
    user: Any,
    notes: Mapping[str, Any] | None = None,
    chips: Mapping[str, Any] | None = None,
    others: Sequence[Mapping[str, Any]] | None = None,
    reason: str = "",
) -> BoxCount:
    """Record a counter's count of ``box``: bank notes by the venue's notes, chips by the
    table's denominations, other instruments (what and amount).

    The first count removes the box from the table. The second, by another counter, is
    the verification count: when it differs from the first (``count_differences``) it
    needs ``reason``; the box is then counted and its drop, the second count's total, is
    posted to the ledger (nothing is posted for an empty box).
    """
    box, sessions = _box_to_count(box, user)
    first = BoxCount.objects.filter(box=box, ordinal=1).first()
    if first is not None and first.counted_by_id == user.pk:
        raise Forbidden(
            _("you made the first count of box %(box)s; another counter makes the second")
            % {"box": box.label},
            reason="same_counter",
        )
    counted = _counted(box, sessions, notes=notes, chips=chips, others=others)
    reason = (reason or "").strip()[:MAX_REASON]
    if first is None:
        return _first_count(box, user=user, counted=counted)
    return _second_count(
        box, first=first, session=sessions[-1], user=user, counted=counted, reason=reason
    )


def _box_to_count(box: DropBox, user: Any) -> tuple[DropBox, list[TableSession]]:
    """The box, locked after its day's count (the stated order), once ``user`` may count it
    now: a counter it is not kept from, the day's count open, the box not yet counted twice
    and every session it covers closed; with those sessions."""
    if box.venue_id not in venue_ids(user):
        raise NotFound(_("there is no such drop box at your venues"), field="box")
    box = DropBox.objects.select_related("table", "venue").get(pk=box.pk)
    refused = counter_refusal(box=box, user=user)
    if refused is not None:
        raise refused
    venue = box.venue
    day = _count_day(venue, box.gaming_date)
    box = DropBox.objects.select_for_update().select_related("table").get(pk=box.pk)
    box.venue = venue
    if day.status == CountDay.Status.CLOSED:
        raise _closed_count(day, box)
    if box.status == DropBox.Status.COUNTED:
        raise Conflict(
            _("box %(box)s is already counted twice") % {"box": box.label}, reason="box_counted"
        )
    sessions = box_sessions(box)
    if any(s.status == TableSession.Status.OPEN for s in sessions):
        raise Conflict(
            _("table %(table)s is still open; its box is counted once it closes")
            % {"table": box.table.code},
            reason="session_open",
        )
    return box, sessions


def _counted(
    box: DropBox,
    sessions: Sequence[TableSession],
    *,
    notes: Mapping[str, Any] | None,
    chips: Mapping[str, Any] | None,
    others: Sequence[Mapping[str, Any]] | None,
) -> dict[str, Any]:
    """What the counter typed, cleaned: notes, chips, other instruments and their total,
    with the copies of the markers issued at the box's sessions that count in the drop
    (each an instrument of the box, ``casino.cage.marker_selectors.markers_in_drop``,
    docs/MARKERS.md), which the counter does not type."""
    venue = box.venue
    clean_notes, notes_total = read_notes(notes, venue.note_denominations, field="notes")
    clean_chips, chips_sum = chips_total(
        chips or {}, box.table.chip_denominations, field="chips", grouping=venue.amount_grouping
    )
    clean_chips = {d: n for d, n in clean_chips.items() if n}
    clean_others, others_total = read_others(others, venue)
    for marker in markers_in_drop([session.pk for session in sessions]):
        clean_others.append({"what": f"marker {marker.label}", "amount": plain(marker.amount)})
        others_total += marker.amount
    total = notes_total + chips_sum + others_total
    if total >= SESSION_TOTAL_LIMIT:
        raise InvalidInput(
            _("the box comes to %(total)s, more than a box can hold; check the count")
            % {"total": written(total, venue.amount_grouping)},
            field="notes",
        )
    return {"notes": clean_notes, "chips": clean_chips, "others": clean_others, "total": total}


def _first_count(box: DropBox, *, user: Any, counted: dict[str, Any]) -> BoxCount:
    """The first count: recorded, and the box taken from the table."""
    count = BoxCount.objects.create(
        box=box, ordinal=1, counted_by=user, counted_at=timezone.now(), **counted
    )
    box.status = DropBox.Status.REMOVED
    box.save(update_fields=["status"])
    total = counted["total"]
    audit_record(
        user=user,
        action=AuditAction.COUNT_FIRST,
        obj=count,
        venue=box.venue,
        summary=f"first count of box {box.label}: {total}",
        after={**counted, "total": str(total)},
    )
    return count


def _second_count(
    box: DropBox,
    *,
    first: BoxCount,
    session: TableSession,
    user: Any,
    counted: dict[str, Any],
    reason: str,
) -> BoxCount:
    """The verification count: a difference from the first needs a reason; the box is
    counted and its drop posted to its last session."""
    venue = box.venue
    total = counted["total"]
    differences = count_differences(first, counted)
    if not differences["agrees"] and not reason:
        raise InvalidInput(
            _(
                "this count is %(difference)s off the first count: say why in the reason, or "
                "count again"
            )
            % {"difference": written(differences["total"], venue.amount_grouping, signed=True)},
            field="reason",
            reason="count_difference_reason_required",
        )
    now = timezone.now()
    count = BoxCount.objects.create(
        box=box,
        ordinal=2,
        counted_by=user,
        counted_at=now,
        difference=differences["total"],
        reason=reason if not differences["agrees"] else "",
        **counted,
    )
    if total > 0:
        _post_drop(box=box, session=session, user=user, amount=total, at=now)
    box.status = DropBox.Status.COUNTED
    box.counted_at = now
    box.total = total
    box.save(update_fields=["status", "counted_at", "total"])
    audit_record(
        user=user,
        action=AuditAction.COUNT_SECOND,
        obj=count,
        venue=venue,
        summary=f"second count of box {box.label}: {total}, posted",
        before={"first_total": str(first.total)},
        after={
            **counted,
            "total": str(total),
            "difference": str(differences["total"]),
            "reason": count.reason,
        },
    )
    return count


def _post_drop(*, box: DropBox, session: TableSession, user: Any, amount: Decimal, at) -> Drop:
    drop = Drop.objects.create(
        session=session, amount=amount, counted_by=user, counted_at=at, drop_box=box
    )
    ledger_post(
        [
            LedgerEntry(
                venue_id=box.venue_id,
                session=session,
                drop=drop,
                account=account,
                kind=EntryKind.DROP,
                amount=signed,
                created_by=user,
            )
            for account, signed in ((Account.DROP, amount), (Account.PLAYER, -amount))
        ]
    )
    return drop


@transaction.atomic
def count_close(*, venue: Venue, gaming_date: date, user: Any, confirmed_by: Any) -> CountDay:
    """Close the venue's count of ``gaming_date`` once the gaming day has ended, no session
    of it is still open and every box of the day is counted (and so posted); a counter of
    the venue who does not supervise there closes it, and a second one confirms it
    (``casino.count.duties.count_close_refusal``). Each refusal says what to wait for: the
    instant the day ends (venue time), the tables still open, the boxes not counted."""
    _check_closers(venue, user=user, confirmed_by=confirmed_by)
    if not DropBox.objects.filter(venue=venue, gaming_date=gaming_date).exists():
        raise Conflict(
            _("there is no drop box on %(date)s to count") % {"date": gaming_date.isoformat()},
            reason="no_boxes",
        )
    day = _count_day(venue, gaming_date)
    if day.status == CountDay.Status.CLOSED:
        raise Conflict(
            _("the count of %(date)s is already closed") % {"date": gaming_date.isoformat()},
            reason="count_closed",
        )
    boxes = _day_done(venue, gaming_date)
    _papers_complete(venue, gaming_date)
    day.status = CountDay.Status.CLOSED
    day.closed_by = user
    day.closed_at = timezone.now()
    day.save(update_fields=["status", "closed_by", "closed_at"])
    audit_record(
        user=user,
        action=AuditAction.COUNT_CLOSE,
        obj=day,
        venue=venue,
        summary=(
            f"closed the count of {gaming_date.isoformat()}: {len(boxes)} boxes, confirmed "
            f"by {confirmed_by.get_username()}"
        ),
        after={
            "status": day.status,
            "closed_by": user.get_username(),
            "confirmed_by": confirmed_by.get_username(),
        },
    )
    # The count completes the day: each of its shifts' reports is built again with the
    # drop counted (a shift not ended or with a table open waits for its own close;
    # casino.venues.signals).
    for shift_id in (
        Shift.objects.filter(venue=venue, gaming_date=gaming_date)
        .order_by("pk")
        .values_list("pk", flat=True)
    ):
        shift_closing.send(sender=CountDay, shift_id=shift_id)
    return day


def _check_closers(venue: Venue, *, user: Any, confirmed_by: Any) -> None:
    """A counter of the venue who does not supervise there closes the count, and a second
    one confirms it; raises why not."""
    if venue.pk not in venue_ids(user):
        raise NotFound(_("there is no such venue among yours"), field="venue")
    if not can(user, COUNT_TEAM, venue.pk):
        raise Forbidden(_("only the count team closes the count"), reason="not_counter")
    if can(user, SUPERVISE, venue.pk):
        raise Forbidden(
            _("you supervise the tables at this venue, so you do not close their count"),
            reason="counter_supervises",
        )
    second = count_close_refusal(user=user, confirmed_by=confirmed_by, venue_id=venue.pk)
    if second is not None:
        raise second


def _day_done(venue: Venue, gaming_date: date) -> list[DropBox]:
    """The day's boxes, once the gaming day has ended, none of its tables is still open and
    every box is counted; raises what to wait for."""
    ends = gaming_day_end(venue, gaming_date)
    if timezone.now() < ends:
        raise Conflict(
            _(
                "the gaming day %(date)s is still being played: its count closes once the day "
                "ends, from %(end)s"
            )
            % {"date": gaming_date.isoformat(), "end": venue_time(ends, venue)},
            reason="day_not_ended",
        )
    still_open = (
        TableSession.objects.filter(
            table__venue=venue, shift__gaming_date=gaming_date, status=TableSession.Status.OPEN
        )
        .order_by("table__code")
        .values_list("table__code", flat=True)
    )
    if still_open:
        raise Conflict(
            _(
                "these tables are still open on %(date)s: %(tables)s; close them and count "
                "their boxes before closing the count"
            )
            % {"date": gaming_date.isoformat(), "tables": ", ".join(still_open)},
            reason="sessions_open",
        )
    boxes = list(
        DropBox.objects.filter(venue=venue, gaming_date=gaming_date).select_related("table")
    )
    waiting = [box.label for box in boxes if box.status != DropBox.Status.COUNTED]
    if waiting:
        raise Conflict(
            _("these boxes are not counted yet: %(boxes)s; count them before closing")
            % {"boxes": ", ".join(waiting)},
            reason="boxes_not_counted",
        )
    return boxes


def _papers_complete(venue: Venue, gaming_date: date) -> None:
    """Refuse the close while a manual series of the day's tables has a gap, naming each
    series, its table and the numbers missing, and how to account for them."""
    gaps = day_gaps(venue=venue, gaming_date=gaming_date)
    if gaps:
        missing = "; ".join(
            _("series %(series)s of table %(table)s: %(numbers)s")
            % {
                "series": line.series.label,
                "table": line.series.table.code,
                "numbers": line.gaps_written,
            }
            for line in gaps
        )
        raise Conflict(
            _(
                "manual papers are missing on %(date)s: %(missing)s. A supervisor enters each "
                "paper as written, or records it as spoiled with the reason, then close the "
                "count again"
            )
            % {"date": gaming_date.isoformat(), "missing": missing},
            reason="manual_series_gap",
        )
