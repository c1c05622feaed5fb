"""Fill and credit slips: requested, issued, verified by named people, or voided.

Who takes which step is said once, by ``slip_refusal``: each step's service raises what it
answers, and a screen asks it (``slip_steps``) to offer a viewer only the steps they may
take, so the console, the API and the commands refuse alike.

Locking: a slip's number is allocated under a lock on its venue row, so numbers are
sequential per venue and year with no gaps from concurrent requests; each later step locks
the slip row.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.errors import Conflict, Forbidden, InvalidInput, ServiceError
from casino.models import Account, EntryKind, LedgerEntry, Slip, SlipStatus, Venue
from casino.roles import PLAY, SUPERVISE, can
from casino.services.audit import audit_record
from casino.services.ledger import ledger_post
from casino.services.sessions import check_session_total, chips_total, lock_open_session

#: A slip that is not voided counts against its session's limit from its request on, so
#: verifying it never takes the session's fills or credits past what a close can hold.
_COUNTED = (SlipStatus.REQUESTED, SlipStatus.ISSUED, SlipStatus.VERIFIED)

#: The steps of a slip after its request, each a service below, in the order it takes them.
ISSUE, VERIFY, VOID = "issue", "verify", "void"
STEPS = (ISSUE, VERIFY, VOID)
#: The states each step starts from.
_STEP_FROM = {
    ISSUE: (SlipStatus.REQUESTED,),
    VERIFY: (SlipStatus.ISSUED,),
    VOID: (SlipStatus.REQUESTED, SlipStatus.ISSUED),
}
_WRONG_STATE = {
    ISSUE: _("slip %(slip)s is %(status)s; only a requested slip is issued"),
    VERIFY: _("slip %(slip)s is %(status)s; only an issued slip is verified"),
    VOID: _(
        "slip %(slip)s is %(status)s; only a requested or issued slip is voided, and a "
        "verified one is corrected by an opposite slip"
    ),
}


def slip_refusal(*, slip: Slip, user: Any, step: str) -> ServiceError | None:
    """Why ``user`` may not take ``step`` (``ISSUE``, ``VERIFY``, ``VOID``) on ``slip`` as
    it stands, or ``None`` when they may.

    Supervisors (and managers) of the slip's venue take every step; the dealer only
    requests. The verifier is not the issuer: the chips are counted by a second person.
    """
    if not can(user, SUPERVISE, slip.venue_id):
        return Forbidden(_("only a supervisor handles fills and credits"), reason="not_supervisor")
    if slip.status not in _STEP_FROM[step]:
        status = str(slip.get_status_display()).lower()
        return Conflict(
            _WRONG_STATE[step] % {"slip": slip.label, "status": status}, reason="slip_state"
        )
    if step == VERIFY and slip.issued_by_id == user.pk:
        return Forbidden(
            _("you issued slip %(slip)s; a second person must verify it") % {"slip": slip.label},
            reason="verify_by_issuer",
        )
    return None


def slip_steps(*, slip: Slip, user: Any) -> tuple[str, ...]:
    """The steps ``user`` may take on ``slip`` now (none for a dealer or a settled slip)."""
    return tuple(step for step in STEPS if slip_refusal(slip=slip, user=user, step=step) is None)


def _check_step(slip: Slip, user: Any, step: str) -> None:
    refusal = slip_refusal(slip=slip, user=user, step=step)
    if refusal is not None:
        raise refusal


@transaction.atomic
def slip_request(*, session: Any, user: Any, kind: str, chips: Mapping[str, Any]) -> Slip:
    """Request a fill or a credit of ``chips`` (denomination -> count) for an open table.

    The dealer (or a supervisor) requests; supervisors issue and verify.
    """
    session = lock_open_session(session.pk)
    venue = Venue.objects.select_for_update().get(pk=session.table.venue_id)
    if not can(user, PLAY, venue.pk):
        raise Forbidden("you do not work at this table's venue")
    if kind not in Slip.Kind.values:
        raise InvalidInput(f"{kind!r} is not a slip kind: use fill or credit", field="kind")
    clean, amount = chips_total(
        chips, session.table.chip_denominations, field="chips", grouping=venue.amount_grouping
    )
    if amount <= 0:
        raise InvalidInput("a slip needs at least one chip", field="chips")
    check_session_total(
        what=_totals_name(kind),
        total=_session_total(session.pk, kind, _COUNTED),
        adding=amount,
        field="chips",
        grouping=venue.amount_grouping,
    )
    now = timezone.now()
    year = now.astimezone(zoneinfo.ZoneInfo(venue.timezone)).year  # the venue's calendar
    last = Slip.objects.filter(venue=venue, year=year).aggregate(n=Max("number"))["n"] or 0
    slip = Slip.objects.create(
        venue=venue,
        session=session,
        kind=kind,
        year=year,
        number=last + 1,
        amount=amount,
        chips=clean,
        requested_by=user,
        requested_at=now,
    )
    audit_record(
        user=user,
        action="slip.request",
        obj=slip,
        venue=venue,
        summary=f"{kind} {slip.label} for {amount}",
    )
    return slip


def _totals_name(kind: str) -> str:
    return "fills" if kind == Slip.Kind.FILL else "credits"


def _session_total(session_id: int, kind: str, statuses: tuple[str, ...]) -> Decimal:
    total = Slip.objects.filter(session_id=session_id, kind=kind, status__in=statuses).aggregate(
        total=Sum("amount")
    )["total"]
    return total or Decimal(0)


def _lock(slip: Slip) -> Slip:
    return Slip.objects.select_for_update().get(pk=slip.pk)


def _venue(slip: Slip) -> Venue:
    return Venue.objects.get(pk=slip.venue_id)


@transaction.atomic
def slip_issue(*, slip: Slip, user: Any) -> Slip:
    """A supervisor issues the chips of a requested slip (from the cage, or back to it)."""
    slip = _lock(slip)
    _check_step(slip, user, ISSUE)
    slip.status = SlipStatus.ISSUED
    slip.issued_by = user
    slip.issued_at = timezone.now()
    slip.save(update_fields=["status", "issued_by", "issued_at"])
    audit_record(
        user=user,
        action="slip.issue",
        obj=slip,
        venue=_venue(slip),
        summary=f"issued {slip.kind} {slip.label}",
    )
    return slip


@transaction.atomic
def slip_verify(*, slip: Slip, user: Any) -> Slip:
    """The table verifies the chips arrived (a fill) or left (a credit); posted to the ledger.

    The verifier must be someone other than the issuer.
    """
    slip = _lock(slip)
    _check_step(slip, user, VERIFY)
    venue = _venue(slip)
    try:  # counted since its request; checked again as it reaches the ledger
        check_session_total(
            what=_totals_name(slip.kind),
            total=_session_total(slip.session_id, slip.kind, (SlipStatus.VERIFIED,)),
            adding=slip.amount,
            field="slip",
            grouping=venue.amount_grouping,
        )
    except InvalidInput as error:
        raise Conflict(error.message) from None
    into_tray = slip.amount if slip.kind == Slip.Kind.FILL else -slip.amount
    kind = EntryKind.FILL if slip.kind == Slip.Kind.FILL else EntryKind.CREDIT
    ledger_post(
        [
            LedgerEntry(
                venue_id=slip.venue_id,
                session_id=slip.session_id,
                slip=slip,
                account=Account.TRAY,
                kind=kind,
                amount=into_tray,
                created_by=user,
            ),
            LedgerEntry(
                venue_id=slip.venue_id,
                session_id=slip.session_id,
                slip=slip,
                account=Account.CAGE,
                kind=kind,
                amount=-into_tray,
                created_by=user,
            ),
        ]
    )
    slip.status = SlipStatus.VERIFIED
    slip.verified_by = user
    slip.verified_at = timezone.now()
    slip.save(update_fields=["status", "verified_by", "verified_at"])
    audit_record(
        user=user,
        action="slip.verify",
        obj=slip,
        venue=venue,
        summary=f"verified {slip.kind} {slip.label} of {slip.amount}",
    )
    return slip


@transaction.atomic
def slip_void(*, slip: Slip, user: Any, reason: str) -> Slip:
    """Void a slip that was not verified; a verified one is corrected by an opposite slip."""
    slip = _lock(slip)
    _check_step(slip, user, VOID)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(_("say why the slip is voided"), field="reason", reason="reason_missing")
    before = slip.status
    slip.status = SlipStatus.VOID
    slip.voided_by = user
    slip.voided_at = timezone.now()
    slip.void_reason = reason[:255]
    slip.save(update_fields=["status", "voided_by", "voided_at", "void_reason"])
    audit_record(
        user=user,
        action="slip.void",
        obj=slip,
        venue=_venue(slip),
        summary=f"voided {slip.kind} {slip.label}: {reason[:200]}",
        before={"status": before},
        after={"status": SlipStatus.VOID},
    )
    return slip
