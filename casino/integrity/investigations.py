"""Fluctuation investigations: opened by the shift reports' flags, worked by the managers.

- ``investigations_sync`` runs when a report's build finishes (casino.reports.services
  ``_finish``, in its transaction, the report row locked): every flagged line (a table,
  or the shift's total) without an investigation opens one, holding the line's figures,
  due ``settings.INVESTIGATION_DAYS`` later and assigned to the venue's manager with the
  fewest investigations not yet closed (none: unassigned). A rebuild of the same report
  opens nothing twice (one per report and table, also a unique index); a rebuild whose
  flag vanished appends a note to the investigation saying so, and one that flags it again
  another.
- An integrity alert opens one too (``investigations_open_integrity``, from the run).
- A cage count over or short opens one (``investigation_open_cage``, received from the
  cage's ``cage_count_imbalance``, in the count's signing transaction).
- Then the managers work it, step by step (casino.integrity.investigation_steps).
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal, InvalidOperation
from functools import reduce
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.integrity.models import FluctuationInvestigation, InvestigationNote
from casino.kernel.money import venue_money
from casino.staff.roles import MANAGER
from casino.venues.models import Table

if TYPE_CHECKING:
    from casino.reports.models import ShiftReport

Status = FluctuationInvestigation.Status


def _decimal(value: Any) -> Decimal | None:
    try:
        return Decimal(value) if value not in (None, "") else None
    except (InvalidOperation, TypeError, ValueError):
        return None


def audited(investigation: FluctuationInvestigation) -> dict[str, Any]:
    """What the audit trail keeps of an investigation, before and after a step."""

    def name(user: Any) -> str | None:
        return user.username if user is not None else None

    return {
        "line": investigation.line_label
        if investigation.integrity_result_id or investigation.cage_count_id
        else (investigation.table.code if investigation.table_id else "total"),
        "status": investigation.status,
        "assigned_to": name(investigation.assigned_to),
        "due_at": investigation.due_at.isoformat(),
        "findings_by": name(investigation.findings_by),
        "signed_off_by": name(investigation.signed_off_by),
        "outcome": investigation.outcome,
        "closed_by": name(investigation.closed_by),
    }


def venue_managers(venue_id: int) -> Any:
    """The venue's active managers (staff of the venue holding its manager's role)."""
    return (
        get_user_model()
        .objects.filter(
            is_active=True,
            venues=venue_id,
            venue_roles__venue_id=venue_id,
            venue_roles__role=MANAGER,
        )
        .distinct()
        .order_by("username")
    )


def _least_busy_manager(venue_id: int) -> Any:
    """The venue's manager with the fewest investigations not closed (then by name)."""
    return (
        venue_managers(venue_id)
        .annotate(
            busy=Count(
                "investigations_assigned",
                filter=~Q(investigations_assigned__status=Status.CLOSED),
                distinct=True,
            )
        )
        .order_by("busy", "username")
        .first()
    )


def _flagged_lines(report: ShiftReport) -> dict[int | None, dict[str, Any]]:
    """The report's flagged lines by table id (``None``: the shift's total)."""
    figures = report.figures or {}
    lines: dict[int | None, dict[str, Any]] = {}
    if (figures.get("total") or {}).get("flagged") is True:
        lines[None] = figures["total"]
    tables = [line for line in figures.get("tables", []) if line.get("flagged") is True]
    if tables:
        ids = dict(
            Table.objects.filter(
                venue_id=report.venue_id, code__in=[line["key"] for line in tables]
            ).values_list("code", "pk")
        )
        for line in tables:
            if line["key"] in ids:
                lines[ids[line["key"]]] = line
    return lines


def _system_note(investigation: FluctuationInvestigation, text: str) -> InvestigationNote:
    return InvestigationNote.objects.create(
        investigation=investigation, author=None, written_at=timezone.now(), text=text
    )


def _range_text(line: dict[str, Any], venue: Any) -> dict[str, str]:
    return {
        "house_win": venue_money(line.get("house_win"), venue, signed=True),
        "low": str(line.get("hold_low_pct") or "—"),
        "high": str(line.get("hold_high_pct") or "—"),
        "hold": str(line.get("hold_pct") or "—"),
    }


@transaction.atomic
def investigations_sync(report: ShiftReport) -> list[FluctuationInvestigation]:
    """Open an investigation for each flagged line of a finished report, once; note on the
    open ones whose flag a rebuild took away (or put back). Returns those it opened.

    Called by the report's build in its transaction, with the report row locked.
    """
    venue = report.venue
    now = timezone.now()
    flagged = _flagged_lines(report)
    existing = {
        investigation.table_id: investigation
        for investigation in FluctuationInvestigation.objects.select_for_update(of=("self",))
        .filter(report=report)
        .select_related("table")
    }
    opened = []
    with translation.override(venue.language or settings.LANGUAGE_CODE):
        for table_id, line in flagged.items():
            investigation = existing.get(table_id)
            if investigation is None:
                opened.append(_open(report, table_id, line, now))
            elif investigation.flag_cleared_at is not None:
                investigation.flag_cleared_at = None
                investigation.save(update_fields=["flag_cleared_at"])
                _system_note(
                    investigation,
                    gettext(
                        "The report was rebuilt and flags this line again: house win "
                        "%(house_win)s, hold %(hold)s%%, range %(low)s%% to %(high)s%%."
                    )
                    % _range_text(line, venue),
                )
        for table_id, investigation in existing.items():
            if table_id in flagged or investigation.flag_cleared_at is not None:
                continue
            if investigation.status == Status.CLOSED:
                continue
            line = _current_line(report, investigation)
            investigation.flag_cleared_at = now
            investigation.save(update_fields=["flag_cleared_at"])
            _system_note(
                investigation,
                gettext(
                    "The report was rebuilt and no longer flags this line: house win "
                    "%(house_win)s, hold %(hold)s%%, range %(low)s%% to %(high)s%%. The "
                    "investigation stays open until it is closed with an outcome."
                )
                % _range_text(line, venue),
            )
            audit_record(
                user=None,
                action=AuditAction.INVESTIGATION_FLAG_CLEARED,
                obj=investigation,
                venue=venue,
                summary=f"a rebuild of the report no longer flags {investigation.line_label}",
            )
    return opened


def _current_line(report: ShiftReport, investigation: FluctuationInvestigation) -> dict[str, Any]:
    figures = report.figures or {}
    if investigation.table_id is None:
        return figures.get("total") or {}
    code = investigation.table.code
    return next((line for line in figures.get("tables", []) if line.get("key") == code), {})


def _open(
    report: ShiftReport, table_id: int | None, line: dict[str, Any], now: Any
) -> FluctuationInvestigation:
    assignee = _least_busy_manager(report.venue_id)
    investigation = FluctuationInvestigation(
        venue_id=report.venue_id,
        shift_id=report.shift_id,
        report=report,
        table_id=table_id,
        handle=_decimal(line.get("handle")) or Decimal("0"),
        house_win=_decimal(line.get("house_win")) or Decimal("0"),
        theoretical_win=_decimal(line.get("theoretical_win")),
        hold_pct=_decimal(line.get("hold_pct")),
        range_low_pct=_decimal(line.get("hold_low_pct")),
        range_high_pct=_decimal(line.get("hold_high_pct")),
        figures=line,
        opened_at=now,
        due_at=now + timedelta(days=settings.INVESTIGATION_DAYS),
        assigned_to=assignee,
    )
    investigation.save()
    audit_record(
        user=None,
        action=AuditAction.INVESTIGATION_OPEN,
        obj=investigation,
        venue=report.venue,
        summary=(
            f"opened the investigation of {investigation.line_label} of {report.shift}, "
            f"assigned to {assignee.username if assignee else 'nobody'}"
        ),
        after=audited(investigation),
    )
    return investigation


#: What makes two integrity alerts the same finding: the test, its subject (the table and
#: seat, dealer, player or pit) and the dates tested.
_FINDING = (
    "integrity_result__scope",
    "integrity_result__test",
    "integrity_result__table_id",
    "integrity_result__dealer_id",
    "integrity_result__player_id",
    "integrity_result__pit_id",
    "integrity_result__position",
    "integrity_result__run__date_from",
    "integrity_result__run__date_to",
)


def _finding(result: Any) -> tuple[Any, ...]:
    """``result``'s finding, read by the paths of :data:`_FINDING` from the result on."""
    return tuple(reduce(getattr, path.split("__")[1:], result) for path in _FINDING)


def _followed(venue_id: int, date_from: Any, date_to: Any) -> set[tuple[Any, ...]]:
    """The findings over these dates that an investigation not closed already follows."""
    return set(
        FluctuationInvestigation.objects.filter(
            venue_id=venue_id,
            integrity_result__run__date_from=date_from,
            integrity_result__run__date_to=date_to,
        )
        .exclude(status=Status.CLOSED)
        .values_list(*_FINDING)
    )


def investigations_open_integrity(alerts: list[Any]) -> list[FluctuationInvestigation]:
    """Open the investigation of each integrity alert of a run (``IntegrityResult`` rows
    with their run), in the same workflow as a report's flag; none for an alert whose
    finding (the same test of the same table and seat, dealer, player or pit over the same
    dates) an investigation not closed already follows, as after a run asked for again.
    The venue's open investigations are read once for the run, not once an alert."""
    if not alerts:
        return []
    run = alerts[0].run
    followed = _followed(run.venue_id, run.date_from, run.date_to)
    opened = []
    for result in alerts:
        if (finding := _finding(result)) not in followed:
            followed.add(finding)
            opened.append(_investigation_of_alert(result))
    return opened


def _investigation_of_alert(result: Any) -> FluctuationInvestigation:
    run = result.run
    now = timezone.now()
    period = (
        run.date_from.isoformat()
        if run.date_from == run.date_to
        else f"{run.date_from.isoformat()}..{run.date_to.isoformat()}"
    )
    assignee = _least_busy_manager(result.venue_id)
    investigation = FluctuationInvestigation(
        venue_id=result.venue_id,
        table_id=result.table_id,
        integrity_result=result,
        handle=Decimal("0"),
        house_win=Decimal("0"),
        figures={
            "label": f"{result.get_scope_display()} {result.subject}: {result.get_test_display()}",
            "period": period,
            "test": result.test,
            "p_value": result.p_value,
            "q_value": result.q_value,
            "n": result.n,
        },
        opened_at=now,
        due_at=now + timedelta(days=settings.INVESTIGATION_DAYS),
        assigned_to=assignee,
    )
    investigation.save()
    audit_record(
        user=None,
        action=AuditAction.INVESTIGATION_OPEN,
        obj=investigation,
        venue=run.venue,
        summary=(
            f"opened the investigation of the integrity alert {result.test} of "
            f"{result.scope} {result.subject} over {period}, "
            f"assigned to {assignee.username if assignee else 'nobody'}"
        ),
        after=audited(investigation),
    )
    return investigation


def investigation_open_cage(count: Any) -> FluctuationInvestigation:
    """Open the investigation of a signed cage count that differs from the cage's book
    (``CageCount``), in the same workflow as a report's flag: it keeps the count's
    difference, its value and the counters' reason. One per count (a unique link)."""
    venue = count.venue
    now = timezone.now()
    assignee = _least_busy_manager(count.venue_id)
    with translation.override(venue.language or settings.LANGUAGE_CODE):
        # The count's kind names the cage already ("Cage closing count").
        label = gettext("%(count)s of %(date)s") % {
            "count": count.get_kind_display(),
            "date": count.shift.gaming_date.isoformat(),
        }
    investigation = FluctuationInvestigation(
        venue_id=count.venue_id,
        cage_count=count,
        handle=Decimal("0"),
        house_win=Decimal("0"),
        figures={
            "label": label,
            "difference": count.difference,
            "difference_value": str(count.difference_value),
            "reason": count.reason,
            "counted_by": count.counted_by.username,
            "signed_by": count.signed_by.username,
        },
        opened_at=now,
        due_at=now + timedelta(days=settings.INVESTIGATION_DAYS),
        assigned_to=assignee,
    )
    investigation.save()
    audit_record(
        user=None,
        action=AuditAction.INVESTIGATION_OPEN,
        obj=investigation,
        venue=venue,
        summary=(
            f"opened the investigation of the cage's {count.kind} count {count.pk}, "
            f"{venue_money(count.difference_value, venue, signed=True)}, "
            f"assigned to {assignee.username if assignee else 'nobody'}"
        ),
        after=audited(investigation),
    )
    return investigation
