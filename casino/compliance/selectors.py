"""What the compliance screens and the API read: the cases a compliance officer may see
(their venues' only: ``Capability.COMPLIANCE`` there), a case with its steps, the evidence
it names resolved at its venue, who read it (the ``compliance.case.view`` audit events),
and the large-cash-transaction report's lines (the cage's alerts at the reporting level)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from casino.audit.models import AuditAction, AuditEvent
from casino.cage.cash_log import cash_log, cash_people
from casino.cage.models import CashAlert, CashTransaction
from casino.compliance.models import CaseStatus, Decision, SuspicionCase
from casino.staff.policy import Capability, venues_allowing
from casino.staff.roles import venue_ids
from casino.venues.models import Venue

#: The most rows a list shows, and the most gaming days one report file covers.
LIST_LIMIT = 200
MAX_LCTR_DAYS = 92


def compliance_venues(*, user: Any) -> list[Venue]:
    """The venues whose cases the user works on."""
    ids = venues_allowing(user, Capability.COMPLIANCE)
    return list(Venue.objects.filter(pk__in=ids).order_by("code"))


def venue_for(*, user: Any, pk: int) -> Venue | None:
    """The venue if the user works there (whatever their role), else None."""
    return Venue.objects.filter(pk=pk, pk__in=venue_ids(user)).first()


def _open_filter() -> Q:
    """Cases with something left to do (not filed, not decided against filing)."""
    return ~Q(status=CaseStatus.FILED) & ~Q(status=CaseStatus.DECIDED, decision=Decision.NO_FILING)


def overdue_filter(now: Any = None) -> Q:
    return _open_filter() & Q(deadline__lt=now or timezone.now())


def cases(*, venue: Venue, status: str = "", overdue: bool = False) -> QuerySet[SuspicionCase]:
    """The venue's cases, newest first, by status and whether they are overdue."""
    found = SuspicionCase.objects.filter(venue=venue).select_related("player", "opened_by", "venue")
    if status in CaseStatus.values:
        found = found.filter(status=status)
    if overdue:
        found = found.filter(overdue_filter())
    return found.order_by("-opened_at", "-id")


def open_counts(venues: list[Venue]) -> dict[int, tuple[int, int]]:
    """Per venue: its cases with something left to do, and how many of them are overdue."""
    rows = (
        SuspicionCase.objects.filter(_open_filter(), venue__in=venues)
        .values("venue_id")
        .annotate(open=Count("id"), overdue=Count("id", filter=Q(deadline__lt=timezone.now())))
    )
    return {row["venue_id"]: (row["open"], row["overdue"]) for row in rows}


def case_for(*, user: Any, pk: int) -> SuspicionCase | None:
    """The case if it is at one of the user's venues (whatever their role there): whether
    they may read it is ``Capability.COMPLIANCE`` at its venue."""
    return (
        SuspicionCase.objects.filter(pk=pk, venue_id__in=venue_ids(user))
        .select_related("venue", "player", "opened_by", "submitted_by", "decided_by", "filed_by")
        .first()
    )


def is_overdue(case: SuspicionCase, now: Any = None) -> bool:
    return not case.settled and case.deadline < (now or timezone.now())


def case_steps(case: SuspicionCase) -> list[Any]:
    return list(case.steps.select_related("by").order_by("at", "id"))


def case_readers(case: SuspicionCase) -> list[AuditEvent]:
    """Who read the case and when, newest first (the action is only ever a case's)."""
    return list(
        AuditEvent.objects.filter(
            action=AuditAction.COMPLIANCE_CASE_VIEW,
            object_id=str(case.pk),
        )
        .select_related("user")
        .order_by("-at", "-id")[:LIST_LIMIT]
    )


@dataclass(frozen=True)
class EvidenceLine:
    kind: str
    ref: Any
    note: str
    #: The alert or transaction named, found at the case's venue (None: a note, or gone).
    alert: CashAlert | None = None
    transaction: CashTransaction | None = None


def case_evidence(case: SuspicionCase) -> list[EvidenceLine]:
    """The case's evidence lines with what each names, read at the case's venue only."""
    lines = list(case.evidence or [])
    alert_ids = [line["ref"] for line in lines if line.get("kind") == "cash_alert"]
    tx_ids = [line["ref"] for line in lines if line.get("kind") == "cash_transaction"]
    alerts = CashAlert.objects.filter(venue=case.venue_id, pk__in=alert_ids).select_related(
        "player", "unknown_patron"
    )
    txs = CashTransaction.objects.filter(venue=case.venue_id, pk__in=tx_ids).select_related(
        "player", "table"
    )
    by_alert = {alert.pk: alert for alert in alerts}
    by_tx = {tx.pk: tx for tx in txs}
    return [
        EvidenceLine(
            kind=line.get("kind", ""),
            ref=line.get("ref", ""),
            note=line.get("note", ""),
            alert=by_alert.get(line.get("ref")) if line.get("kind") == "cash_alert" else None,
            transaction=by_tx.get(line.get("ref"))
            if line.get("kind") == "cash_transaction"
            else None,
        )
        for line in lines
    ]


def recent_alerts(*, venue: Venue, limit: int = 50) -> list[CashAlert]:
    """The venue's latest cash alerts: what a new case may name as evidence."""
    return list(
        CashAlert.objects.filter(venue=venue)
        .select_related("player", "unknown_patron")
        .order_by("-raised_at", "-id")[:limit]
    )


def largest_movements(lines: list[CashAlert]) -> dict[int, Decimal]:
    """Each alert's largest single movement among those its total adds up (the person's rows
    of the cash log of that day and direction that count), by the alert's id: a reversal is
    a row of its own, so a movement later reversed is still its own size here."""
    largest = {}
    for alert in lines:
        people = cash_people(player=alert.player, unknown_patron=alert.unknown_patron)
        amounts = [
            row.amount
            for row in cash_log(gaming_date=alert.gaming_date, people=people)
            if row.counts and row.direction == alert.direction
        ]
        largest[alert.pk] = max(amounts, default=alert.total)
    return largest


def lctr_lines(*, venue: Venue, date_from: date, date_to: date) -> list[CashAlert]:
    """The report candidates of the venue's gaming days ``date_from`` to ``date_to``: the
    cash alerts raised at the reporting threshold (one per player, day and direction), by
    day, then time raised."""
    return list(
        CashAlert.objects.filter(venue=venue, gaming_date__gte=date_from, gaming_date__lte=date_to)
        .select_related("player", "unknown_patron", "transaction__table")
        .order_by("gaming_date", "raised_at", "id")
    )
