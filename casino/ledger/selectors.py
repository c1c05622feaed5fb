"""Reads of the ledger and the audit trail: a round's or a slip's entries with their sums, and
the audit events of the venues where the user reads them (the API's)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet

from casino.audit.models import AuditEvent
from casino.ledger.models import LedgerEntry
from casino.staff.policy import Capability, venues_allowing

if TYPE_CHECKING:
    from casino.cage.models import Slip
    from casino.floor.models import Round

_ZERO = Decimal(0)


@dataclass(frozen=True)
class Ledger:
    """A set of ledger entries with their sum (zero for every round, slip and drop)."""

    entries: Sequence[LedgerEntry]
    sum: Decimal
    by_account: dict[str, Decimal]


def _ledger(entries: QuerySet[LedgerEntry]) -> Ledger:
    rows = list(entries.select_related("box", "bet", "created_by").order_by("pk"))
    by_account: dict[str, Decimal] = {}
    for entry in rows:
        by_account[entry.account] = by_account.get(entry.account, _ZERO) + entry.amount
    return Ledger(
        entries=rows, sum=sum((entry.amount for entry in rows), _ZERO), by_account=by_account
    )


def round_ledger(*, round_: Round) -> Ledger:
    """The round's entries in the order they were posted (reversals after the originals)."""
    return _ledger(LedgerEntry.objects.filter(round=round_))


def slip_ledger(*, slip: Slip) -> Ledger:
    return _ledger(LedgerEntry.objects.filter(slip=slip))


def audit_event_list(
    *,
    user: Any,
    venue_id: int | None = None,
    action: str | None = None,
    object_type: str | None = None,
    object_id: str | None = None,
    username: str | None = None,
) -> QuerySet[AuditEvent]:
    """The audit events of the venues where the user reads the audit trail (the admin's
    rule: ``Capability.READ_AUDIT``), newest first; ``action`` ending in a dot (``round.``)
    matches every action of that kind."""
    events = (
        AuditEvent.objects.filter(venue_id__in=venues_allowing(user, Capability.READ_AUDIT))
        .select_related("venue", "user")
        .order_by("-at", "-pk")
    )
    if venue_id is not None:
        events = events.filter(venue_id=venue_id)
    if action:
        events = (
            events.filter(action__startswith=action)
            if action.endswith(".")
            else events.filter(action=action)
        )
    if object_type:
        events = events.filter(object_type=object_type)
    if object_id:
        events = events.filter(object_id=object_id)
    if username:
        events = events.filter(user__username=username)
    return events


def audit_event_get(*, user: Any, pk: int) -> AuditEvent | None:
    return audit_event_list(user=user).filter(pk=pk).first()


def audit_event_venue(*, pk: int) -> int | None:
    """The venue of the audit event ``pk`` (None for a system event or none), to tell one
    the user may not read from one that is not there."""
    return AuditEvent.objects.filter(pk=pk).values_list("venue_id", flat=True).first()
