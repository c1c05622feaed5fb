"""The writes of a suspicious-activity case, each a step recorded (``CaseStep``) and audited:

- ``case_open`` (a compliance officer of the venue) and ``case_open_from_alert`` (the
  system, from an alert: any app above the cage may call it with its ``source`` and
  ``evidence``) make a draft, its deadline counted from the detection
  (``casino.compliance.deadlines``);
- ``case_submit``: the draft goes to review, submitted by its author (for a case the system
  opened, the officer who submits it is its author);
- ``case_decide``: a second compliance officer, never the author nor the submitter, decides
  "file" or "no filing" with the reasons; the deadline is counted again where the period
  runs from the decision;
- ``case_file``: a case decided to be filed is filed with the authority's reference, by any
  compliance officer of the venue (the author or the reviewer too);
- neither is done by an officer too close to the case's player: one who dealt to them,
  supervised their table or recorded their cash on the case's days
  (``casino.compliance.conflicts.case_conflict_refusal``);
- ``case_viewed``: every reading of a case (its page, the API) is an audit event, so the
  case shows who read it; ``lctr_built``: every large-cash-transaction report file built.

Only the venue's compliance staff do any of it (``Capability.COMPLIANCE``); nothing is
deleted.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.models import CashAlert, CashTransaction
from casino.compliance.conflicts import case_conflict_refusal
from casino.compliance.deadlines import case_deadline
from casino.compliance.models import CaseSource, CaseStatus, CaseStep, Decision, SuspicionCase
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.staff.policy import Capability, allows, approves_own
from casino.venues.models import Venue

#: The evidence kinds a case's lines name.
EVIDENCE_KINDS = ("cash_alert", "cash_transaction", "note")
MAX_REFERENCE = 100


def compliance_refusal(user: Any, venue_id: int) -> Forbidden | None:
    """Why ``user`` may not work the venue's cases, or None."""
    if allows(user, Capability.COMPLIANCE, venue_id):
        return None
    return Forbidden(
        _("Only the venue's compliance staff work on suspicious-activity cases."),
        reason="not_compliance",
    )


def _check(user: Any, venue_id: int) -> None:
    refused = compliance_refusal(user, venue_id)
    if refused is not None:
        raise refused


def clean_evidence(lines: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The evidence lines as stored: a known kind, a reference (an id, or "" for a note)
    and a note."""
    cleaned = []
    for line in lines:
        kind = str(line.get("kind", ""))
        if kind not in EVIDENCE_KINDS:
            raise InvalidInput(
                _("An evidence line is an alert, a transaction or a note."), field="evidence"
            )
        ref = line.get("ref", "")
        if kind != "note" and not str(ref).isdigit():
            raise InvalidInput(_("An alert or a transaction is named by its number."), "evidence")
        note = str(line.get("note", "")).strip()
        if kind == "note" and not note:
            continue
        cleaned.append({"kind": kind, "ref": int(ref) if kind != "note" else "", "note": note})
    return cleaned


def _check_evidence_at(venue: Venue, lines: list[dict[str, Any]]) -> None:
    """Every alert and transaction named is the venue's."""
    for kind, model in (("cash_alert", CashAlert), ("cash_transaction", CashTransaction)):
        refs = {line["ref"] for line in lines if line["kind"] == kind}
        if refs and model.objects.filter(venue=venue, pk__in=refs).count() != len(refs):
            raise InvalidInput(
                _("An alert or a transaction named is not of this venue."), field="evidence"
            )


def _step(case: SuspicionCase, step: str, user: Any, at: datetime, note: str = "") -> None:
    CaseStep.objects.create(
        case=case,
        step=step,
        by=user if getattr(user, "is_authenticated", False) else None,
        at=at,
        note=note,
    )


def _state(case: SuspicionCase) -> dict[str, Any]:
    return {
        "status": case.status,
        "decision": case.decision,
        "deadline": case.deadline.isoformat(),
        "filing_reference": case.filing_reference,
    }


def _open(
    *,
    venue: Venue,
    user: Any,
    player: Any,
    subject_description: str,
    grounds: str,
    evidence: Iterable[dict[str, Any]],
    source: str,
    detected_at: datetime | None,
    finding: str = "",
) -> SuspicionCase:
    grounds = (grounds or "").strip()
    subject_description = (subject_description or "").strip()
    if not grounds:
        raise InvalidInput(_("Say the grounds for suspicion."), field="grounds")
    if player is None and not subject_description:
        raise InvalidInput(
            _("Name the member, or describe the patron nobody knows."), field="subject"
        )
    if player is not None and player.venue_id != venue.pk:
        raise InvalidInput(_("The member is not of this venue."), field="subject")
    lines = clean_evidence(evidence)
    _check_evidence_at(venue, lines)
    now = timezone.now()
    detected = detected_at or now
    case = SuspicionCase.objects.create(
        venue=venue,
        player=player,
        subject_description=subject_description,
        grounds=grounds,
        evidence=lines,
        source=source,
        finding=finding,
        detected_at=detected,
        opened_by=user if getattr(user, "is_authenticated", False) else None,
        opened_at=now,
        deadline=case_deadline(venue, detected_at=detected, decided_at=None),
    )
    _step(case, CaseStep.Step.OPEN, user, now, grounds)
    audit_record(
        user=user,
        action=AuditAction.COMPLIANCE_CASE_OPEN,
        obj=case,
        venue=venue,
        summary=f"{case.label} opened ({source})",
        after=_state(case),
    )
    return case


@transaction.atomic
def case_open(
    *,
    venue: Venue,
    user: Any,
    grounds: str,
    player: Any = None,
    subject_description: str = "",
    evidence: Iterable[dict[str, Any]] = (),
    detected_at: datetime | None = None,
) -> SuspicionCase:
    """A draft case opened by a compliance officer of the venue."""
    _check(user, venue.pk)
    return _open(
        venue=venue,
        user=user,
        player=player,
        subject_description=subject_description,
        grounds=grounds,
        evidence=evidence,
        source=CaseSource.PERSON,
        detected_at=detected_at,
    )


@transaction.atomic
def case_open_from_alert(
    *,
    venue: Venue,
    grounds: str,
    evidence: Iterable[dict[str, Any]],
    detected_at: datetime,
    player: Any = None,
    subject_description: str = "",
    source: str = CaseSource.ALERT,
    finding: str = "",
) -> SuspicionCase:
    """A draft case the system opens (no person opens it), from what ``source`` says raised
    it (an alert, by default); ``evidence`` names the alert and what it rests on, as
    ``clean_evidence`` reads them. A compliance officer submits it, becoming its author."""
    if source == CaseSource.PERSON or source not in CaseSource.values:
        raise InvalidInput(_("A case the system opens says what raised it."), field="source")
    return _open(
        venue=venue,
        user=None,
        player=player,
        subject_description=subject_description,
        grounds=grounds,
        evidence=evidence,
        source=source,
        detected_at=detected_at,
        finding=finding,
    )


def _check_not_close(user: Any, case: SuspicionCase) -> None:
    refused = case_conflict_refusal(user=user, case=case)
    if refused is not None:
        raise refused


def _locked(case: SuspicionCase) -> SuspicionCase:
    return SuspicionCase.objects.select_for_update().select_related("venue").get(pk=case.pk)


def _moved(case: SuspicionCase, user: Any, action: AuditAction, before: dict, text: str) -> None:
    audit_record(
        user=user,
        action=action,
        obj=case,
        venue=case.venue,
        summary=text,
        before=before,
        after=_state(case),
    )


@transaction.atomic
def case_submit(*, case: SuspicionCase, user: Any, note: str = "") -> SuspicionCase:
    """The draft to review, by its author (anyone of the venue's compliance staff for a case
    the system opened)."""
    case = _locked(case)
    _check(user, case.venue_id)
    if case.status != CaseStatus.DRAFT:
        raise Conflict(_("Only a draft is submitted for review."), reason="not_draft")
    if case.opened_by_id is not None and case.opened_by_id != user.pk:
        raise Forbidden(_("Only the case's author submits it for review."), reason="not_author")
    before, now = _state(case), timezone.now()
    case.status, case.submitted_by, case.submitted_at = CaseStatus.IN_REVIEW, user, now
    case.save(update_fields=["status", "submitted_by", "submitted_at"])
    _step(case, CaseStep.Step.SUBMIT, user, now, note.strip())
    _moved(case, user, AuditAction.COMPLIANCE_CASE_SUBMIT, before, f"{case.label} submitted")
    return case


@transaction.atomic
def case_decide(*, case: SuspicionCase, user: Any, decision: str, reasons: str) -> SuspicionCase:
    """A second compliance officer's decision on a case in review: to file or not, with the
    reasons. The author and the submitter never decide (four eyes)."""
    case = _locked(case)
    _check(user, case.venue_id)
    if case.status != CaseStatus.IN_REVIEW:
        raise Conflict(_("Only a case in review is decided."), reason="not_in_review")
    if approves_own(user=user, made_by=(case.opened_by_id, case.submitted_by_id)):
        raise Forbidden(
            _("You opened or submitted this case; a second compliance officer decides it."),
            reason="four_eyes",
        )
    _check_not_close(user, case)
    if decision not in Decision.values:
        raise InvalidInput(_("Decide to file a report or not to."), field="decision")
    reasons = (reasons or "").strip()
    if not reasons:
        raise InvalidInput(_("Give the reasons for the decision."), field="reasons")
    before, now = _state(case), timezone.now()
    case.status, case.decision, case.decision_reasons = CaseStatus.DECIDED, decision, reasons
    case.decided_by, case.decided_at = user, now
    case.deadline = case_deadline(case.venue, detected_at=case.detected_at, decided_at=now)
    case.save(
        update_fields=[
            "status",
            "decision",
            "decision_reasons",
            "decided_by",
            "decided_at",
            "deadline",
        ]
    )
    _step(case, CaseStep.Step.DECIDE, user, now, f"{decision}: {reasons}")
    _moved(case, user, AuditAction.COMPLIANCE_CASE_DECIDE, before, f"{case.label} {decision}")
    return case


@transaction.atomic
def case_file(*, case: SuspicionCase, user: Any, reference: str) -> SuspicionCase:
    """A case decided to be filed, filed: the authority's reference, who filed it, when."""
    case = _locked(case)
    _check(user, case.venue_id)
    if case.status != CaseStatus.DECIDED or case.decision != Decision.FILE:
        raise Conflict(_("Only a case decided to be filed is filed."), reason="not_to_be_filed")
    _check_not_close(user, case)
    reference = (reference or "").strip()
    if not reference:
        raise InvalidInput(_("Give the filing reference the authority gave."), field="reference")
    if len(reference) > MAX_REFERENCE:
        raise InvalidInput(_("The filing reference is too long."), field="reference")
    before, now = _state(case), timezone.now()
    case.status, case.filing_reference = CaseStatus.FILED, reference
    case.filed_by, case.filed_at = user, now
    case.save(update_fields=["status", "filing_reference", "filed_by", "filed_at"])
    _step(case, CaseStep.Step.FILE, user, now, reference)
    _moved(case, user, AuditAction.COMPLIANCE_CASE_FILE, before, f"{case.label} filed")
    return case


def case_viewed(*, case: SuspicionCase, user: Any, where: str) -> None:
    """Record that ``user`` read the case (``where``: its page, the API, the admin); the
    reading view has decided they may."""
    audit_record(
        user=user,
        action=AuditAction.COMPLIANCE_CASE_VIEW,
        obj=case,
        venue=case.venue,
        summary=f"{case.label} read ({where})",
    )


def lctr_built(
    *, venue: Venue, user: Any, layout: str, date_from: date, date_to: date, lines: int
) -> None:
    """Record a large-cash-transaction report file built (its layout, days and lines)."""
    _check(user, venue.pk)
    audit_record(
        user=user,
        action=AuditAction.COMPLIANCE_LCTR_BUILD,
        obj=venue,
        venue=venue,
        summary=f"LCTR {layout} {date_from.isoformat()}..{date_to.isoformat()}: {lines} lines",
        after={"layout": layout, "from": date_from.isoformat(), "to": date_to.isoformat()},
    )
