"""The steps of a fluctuation investigation, once opened (casino.integrity.investigations):
a manager of the venue reassigns it; the assignee or a manager appends notes and writes the
findings; a second manager, not the findings' author, signs them off (two-person rule); a
manager closes it with an outcome once signed off.

Every step is audited; a step repeated (the same form posted twice) changes nothing.
Nothing is deleted: rewritten findings leave the previous ones in a note.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.integrity.investigations import audited, venue_managers
from casino.integrity.models import FluctuationInvestigation, InvestigationNote
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.staff.roles import MANAGE, can

Status = FluctuationInvestigation.Status
#: The longest note or findings kept.
MAX_TEXT = 10_000


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
    before = audited(investigation)
    investigation.assigned_to = assignee
    investigation.save(update_fields=["assigned_to"])
    audit_record(
        user=user,
        action=AuditAction.INVESTIGATION_REASSIGN,
        obj=investigation,
        venue=investigation.venue,
        summary=f"assigned the investigation of {investigation.line_label} to {assignee.username}",
        before=before,
        after=audited(investigation),
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
    before = audited(investigation)
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
        after=audited(investigation),
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
    before = audited(investigation)
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
        after=audited(investigation),
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
    before = audited(investigation)
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
        after=audited(investigation),
    )
    return investigation
