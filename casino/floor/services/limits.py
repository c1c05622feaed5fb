"""Scheduling a change of a table's limits (``TableLimitChange``; ``casino.venues.limits`` reads
the limits in force).

A supervisor or manager of the venue schedules it for one bet type the table has a limit
for, with a reason, to take effect no sooner than ``settings.LIMIT_NOTICE_MINUTES`` from
now: the players at the table are told before the limits change under them. Audited;
nothing is deleted (a later change overtakes one made in error).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel.amounts import check_amount
from casino.kernel.errors import Forbidden, InvalidInput
from casino.kernel.money import written
from casino.kernel.timezones import venue_time
from casino.staff.roles import SUPERVISE, can
from casino.venues.models import Table, TableLimit, TableLimitChange

MAX_REASON = 255


def notice() -> timedelta:
    """How long before it takes effect a change must be scheduled."""
    return timedelta(minutes=settings.LIMIT_NOTICE_MINUTES)


@transaction.atomic
def limit_change_schedule(
    *,
    user: Any,
    table: Table,
    bet_type: str,
    min_stake: Decimal,
    max_stake: Decimal,
    effective_at: datetime,
    reason: str,
    now: datetime | None = None,
) -> TableLimitChange:
    """Schedule ``table``'s limits for ``bet_type`` from ``effective_at`` on."""
    now = now or timezone.now()
    table = Table.objects.select_for_update(of=("self",)).select_related("venue").get(pk=table.pk)
    venue = table.venue
    if not can(user, SUPERVISE, venue.pk):
        raise Forbidden(_("Only a supervisor or manager of the venue changes a table's limits."))
    if not TableLimit.objects.filter(table=table, bet_type=bet_type).exists():
        raise InvalidInput(
            _("Table %(table)s has no limit for %(bet)s; a manager adds it on the table first.")
            % {"table": table.code, "bet": bet_type},
            field="bet_type",
            reason="no_such_limit",
        )
    if min_stake is None or max_stake is None or min_stake <= 0 or max_stake < min_stake:
        raise InvalidInput(
            _("Give a minimum above 0 and a maximum at least the minimum."),
            field="min_stake",
            reason="limits_inverted",
        )
    # Each a multiple of the venue's chip unit, refused in the words of every amount.
    unit = venue.rounding_unit
    min_stake = check_amount(min_stake, venue, field="min_stake", unit=unit)
    max_stake = check_amount(max_stake, venue, field="max_stake", unit=unit)
    earliest = now + notice()
    if effective_at < earliest:
        raise InvalidInput(
            _("A change of limits needs %(minutes)s minutes' notice: choose %(earliest)s or later.")
            % {"minutes": settings.LIMIT_NOTICE_MINUTES, "earliest": venue_time(earliest, venue)},
            field="effective_at",
            reason="notice_too_short",
        )
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(
            _("Say why the limits change (e.g. a high-limit evening)."), field="reason"
        )
    change = TableLimitChange.objects.create(
        table=table,
        bet_type=bet_type,
        min_stake=min_stake,
        max_stake=max_stake,
        effective_at=effective_at,
        requested_by=user,
        reason=reason[:MAX_REASON],
        created_at=now,
    )
    audit_record(
        user=user,
        action=AuditAction.TABLE_LIMIT_SCHEDULE,
        obj=change,
        venue=venue,
        summary=(
            f"{table} {bet_type}: {written(min_stake)}-{written(max_stake)} from "
            f"{venue_time(effective_at, venue)}"
        ),
        after={
            "table": table.code,
            "bet_type": bet_type,
            "min_stake": str(min_stake),
            "max_stake": str(max_stake),
            "effective_at": effective_at.isoformat(),
            "reason": change.reason,
        },
    )
    return change
