"""Fluctuation investigations: opened by the shift reports' flags, worked by the managers.

- ``investigations_sync`` runs when a report's build finishes (casino.reports.services
  ``_finish``, in its transaction, the report row locked): every flagged line (a table,
  or the shift's total) without an investigation opens one, holding the line's figures,
  due ``settings.INVESTIGATION_DAYS`` later and assigned to the venue's manager with the
  fewest investigations not yet closed (none: unassigned). A rebuild of the same report
  opens nothing twice (one per report and table, also a unique index); a rebuild whose
  flag vanished appends a note to the investigation saying so, and one that flags it again
  another.
- A manager of the venue reassigns it; the assignee or a manager appends notes and writes
  the findings; a second manager, not the findings' author, signs them off (two-person
  rule); a manager closes it with an outcome once signed off.

Every step is audited; a step repeated (the same form posted twice) changes nothing.
Nothing is deleted: rewritten findings leave the previous ones in a note.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from casino.integrity.models import FluctuationInvestigation, InvestigationNote
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import venue_money
from casino.models import AuditAction, ShiftReport, Table
from casino.services.audit import audit_record
from casino.staff.roles import MANAGE, MANAGER, can

Status = FluctuationInvestigation.Status
#: The longest note or findings kept.
MAX_TEXT = 10_000


def _decimal(value: Any) -> Decimal | None:
    try:
        return Decimal(value) if value not in (None, "") else None
    except (InvalidOperation, TypeError, ValueError):
        return None


def _as_dict(investigation: FluctuationInvestigation) -> dict[str, Any]:
    def name(user: Any) -> str | None:
        return user.username if user is not None else None

    return {
        "line": investigation.line_label
        if investigation.integrity_result_id
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
        after=_as_dict(investigation),
    )
    return investigation


def investigation_open_integrity(result: Any) -> FluctuationInvestigation | None:
    """Open the investigation of an integrity alert (``IntegrityResult``), in the same
    workflow as a report's flag; None when one not closed already follows the same test of
    the same table (and seat), dealer, player or pit over the same dates (a run asked for
    again)."""
    run = result.run
    same = FluctuationInvestigation.objects.filter(
        venue_id=result.venue_id,
        integrity_result__scope=result.scope,
        integrity_result__test=result.test,
        integrity_result__table_id=result.table_id,
        integrity_result__dealer_id=result.dealer_id,
        integrity_result__player_id=result.player_id,
        integrity_result__pit_id=result.pit_id,
        integrity_result__position=result.position,
        integrity_result__run__date_from=run.date_from,
        integrity_result__run__date_to=run.date_to,
    ).exclude(status=Status.CLOSED)
    if same.exists():
        return None
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
        after=_as_dict(investigation),
    )
    return investigation


def _lock(investigation: FluctuationInvestigation) -> FluctuationInvestigation:
    return (
        FluctuationInvestigation.objects.select_for_update(of=("self",))
        .select_related(
            "venue", "shift", "table", "assigned_to", "findings_by", "signed_off_by", "closed_by"
        )
        .get(pk=investigation.pk)
    )


def _text(value: Any, *, field: str, what: str) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise InvalidInput(
            gettext("write the %(what)s: it cannot be empty") % {"what": what}, field=field
        )
    if len(text) > MAX_TEXT:
        raise InvalidInput(
            gettext("the %(what)s is longer than %(max)s characters; shorten it")
            % {"what": what, "max": MAX_TEXT},
            field=field,
        )
    return text


def _not_closed(investigation: FluctuationInvestigation) -> None:
    if investigation.status == Status.CLOSED:
        raise Conflict(
            gettext("investigation %(id)s is closed; nothing more is written to it")
            % {"id": investigation.pk}
        )


def _manager(user: Any, investigation: FluctuationInvestigation, doing: str) -> None:
    if not can(user, MANAGE, investigation.venue_id):
        raise Forbidden(
            gettext("only a manager of the venue %(doing)s") % {"doing": doing},
            reason="not_a_manager",
        )


def _manager_or_assignee(user: Any, investigation: FluctuationInvestigation, doing: str) -> None:
    if can(user, MANAGE, investigation.venue_id):
        return
    if investigation.assigned_to_id == getattr(user, "pk", None):
        return
    raise Forbidden(
        gettext("only the investigation's assignee or a manager of the venue %(doing)s")
        % {"doing": doing},
        reason="not_assignee",
    )


@transaction.atomic
def investigation_reassign(
    *, investigation: FluctuationInvestigation, user: Any, assignee: Any
) -> FluctuationInvestigation:
    """Give the investigation to another manager of the venue (a manager does it)."""
    investigation = _lock(investigation)
    _manager(user, investigation, gettext("reassigns an investigation"))
    _not_closed(investigation)
    if assignee is None or not can(assignee, MANAGE, investigation.venue_id):
        raise InvalidInput(
            gettext("assign the investigation to a manager of the venue %(venue)s")
            % {"venue": investigation.venue.name},
            field="assignee",
        )
    if investigation.assigned_to_id == assignee.pk:
        return investigation
    before = _as_dict(investigation)
    investigation.assigned_to = assignee
    investigation.save(update_fields=["assigned_to"])
    audit_record(
        user=user,
        action=AuditAction.INVESTIGATION_REASSIGN,
        obj=investigation,
        venue=investigation.venue,
        summary=f"assigned the investigation of {investigation.line_label} to {assignee.username}",
        before=before,
        after=_as_dict(investigation),
    )
    return investigation


@transaction.atomic
def investigation_note_add(
    *, investigation: FluctuationInvestigation, user: Any, text: str, key: str = ""
) -> InvestigationNote:
    """Append a note (the assignee or a manager). ``key``, the form's one-time key, makes
    the same form posted twice add one note."""
    investigation = _lock(investigation)
    _manager_or_assignee(user, investigation, gettext("adds notes to an investigation"))
    text = _text(text, field="text", what=gettext("note"))
    key = (key or "")[:64]
    if key:
        already = InvestigationNote.objects.filter(investigation=investigation, key=key).first()
        if already is not None:
            return already
    note = InvestigationNote.objects.create(
        investigation=investigation, author=user, written_at=timezone.now(), text=text, key=key
    )
    audit_record(
        user=user,
        action=AuditAction.INVESTIGATION_NOTE,
        obj=investigation,
        venue=investigation.venue,
        summary=f"added a note to the investigation of {investigation.line_label}",
        after={"note": note.pk},
    )
    return note


@transaction.atomic
def investigation_findings(
    *, investigation: FluctuationInvestigation, user: Any, findings: str
) -> FluctuationInvestigation:
    """Write the findings (the assignee or a manager), until they are signed off. Written
    again, the previous findings are kept in a note."""
    investigation = _lock(investigation)
    _manager_or_assignee(user, investigation, gettext("writes an investigation's findings"))
    _not_closed(investigation)
    if investigation.status == Status.SIGNED_OFF:
        raise Conflict(
            gettext(
                "the findings of investigation %(id)s are signed off; add a note instead, "
                "or close it with an outcome"
            )
            % {"id": investigation.pk}
        )
    findings = _text(findings, field="findings", what=gettext("findings"))
    if investigation.findings == findings and investigation.findings_by_id == user.pk:
        return investigation
    before = _as_dict(investigation)
    if investigation.findings:
        InvestigationNote.objects.create(
            investigation=investigation,
            author=user,
            written_at=timezone.now(),
            text=gettext("Findings replaced. The previous findings, by %(author)s:\n%(text)s")
            % {
                "author": investigation.findings_by.username,
                "text": investigation.findings,
            },
        )
    investigation.findings = findings
    investigation.findings_by = user
    investigation.findings_at = timezone.now()
    investigation.status = Status.FINDINGS
    investigation.save(update_fields=["findings", "findings_by", "findings_at", "status"])
    audit_record(
        user=user,
        action=AuditAction.INVESTIGATION_FINDINGS,
        obj=investigation,
        venue=investigation.venue,
        summary=f"wrote the findings of the investigation of {investigation.line_label}",
        before=before,
        after=_as_dict(investigation),
    )
    return investigation


def sign_off_refusal(investigation: FluctuationInvestigation) -> str:
    """Why the findings' author may not sign them off, and who may."""
    others = [
        manager.username
        for manager in venue_managers(investigation.venue_id).exclude(
            pk=investigation.findings_by_id
        )
    ]
    if others:
        return gettext(
            "you wrote these findings, so you may not sign them off: another manager of the "
            "venue must (two-person rule). Who may sign: %(managers)s."
        ) % {"managers": ", ".join(others)}
    return gettext(
        "you wrote these findings, so you may not sign them off: another manager of the "
        "venue must (two-person rule), and the venue has no other manager; give a second "
        "person the manager's role at the venue"
    )


@transaction.atomic
def investigation_sign_off(
    *, investigation: FluctuationInvestigation, user: Any
) -> FluctuationInvestigation:
    """Sign off the findings: a manager of the venue who did not write them."""
    investigation = _lock(investigation)
    _manager(user, investigation, gettext("signs off an investigation's findings"))
    if investigation.status in (Status.SIGNED_OFF, Status.CLOSED):
        if investigation.signed_off_by_id == user.pk:
            return investigation
        raise Conflict(
            gettext("investigation %(id)s was already signed off by %(name)s")
            % {"id": investigation.pk, "name": investigation.signed_off_by.username}
        )
    if investigation.status != Status.FINDINGS:
        raise Conflict(
            gettext("investigation %(id)s has no findings yet; they are written first")
            % {"id": investigation.pk}
        )
    if investigation.findings_by_id == user.pk:
        raise Forbidden(sign_off_refusal(investigation), reason="own_findings")
    before = _as_dict(investigation)
    investigation.signed_off_by = user
    investigation.signed_off_at = timezone.now()
    investigation.status = Status.SIGNED_OFF
    investigation.save(update_fields=["signed_off_by", "signed_off_at", "status"])
    audit_record(
        user=user,
        action=AuditAction.INVESTIGATION_SIGN_OFF,
        obj=investigation,
        venue=investigation.venue,
        summary=(
            f"signed off the findings of {investigation.findings_by.username} on "
            f"{investigation.line_label}"
        ),
        before=before,
        after=_as_dict(investigation),
    )
    return investigation


@transaction.atomic
def investigation_close(
    *, investigation: FluctuationInvestigation, user: Any, outcome: str
) -> FluctuationInvestigation:
    """Close a signed-off investigation with its outcome (a manager of the venue)."""
    investigation = _lock(investigation)
    _manager(user, investigation, gettext("closes an investigation"))
    if outcome not in FluctuationInvestigation.Outcome.values:
        choices = ", ".join(str(label) for label in FluctuationInvestigation.Outcome.labels)
        raise InvalidInput(
            gettext("choose the outcome, one of: %(choices)s") % {"choices": choices},
            field="outcome",
        )
    if investigation.status == Status.CLOSED:
        if investigation.outcome == outcome:
            return investigation
        raise Conflict(
            gettext("investigation %(id)s is already closed (%(outcome)s)")
            % {"id": investigation.pk, "outcome": investigation.get_outcome_display()}
        )
    if investigation.status != Status.SIGNED_OFF:
        raise Conflict(
            gettext(
                "investigation %(id)s is closed once a second manager has signed off its findings"
            )
            % {"id": investigation.pk}
        )
    before = _as_dict(investigation)
    investigation.outcome = outcome
    investigation.closed_by = user
    investigation.closed_at = timezone.now()
    investigation.status = Status.CLOSED
    try:
        with transaction.atomic():
            investigation.save(update_fields=["outcome", "closed_by", "closed_at", "status"])
    except IntegrityError:  # pragma: no cover - the checks above keep the constraints
        raise Conflict(gettext("the investigation could not be closed; reload it")) from None
    audit_record(
        user=user,
        action=AuditAction.INVESTIGATION_CLOSE,
        obj=investigation,
        venue=investigation.venue,
        summary=f"closed the investigation of {investigation.line_label}: {outcome}",
        before=before,
        after=_as_dict(investigation),
    )
    return investigation
