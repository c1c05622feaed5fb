"""Fill and credit slips through the cage: each step signed by a named person.

A fill (chips from the cage to the table):
1. requested at the table, by denomination, by its dealer or a supervisor (``slip_request``);
2. issued at the cage by a cashier, who counts the chips out and names the runner who
   carries them (``slip_issue``);
3. the chips travel; at the table the dealer and a supervisor each confirm receipt, in
   either order (``slip_confirm_dealer``, ``slip_confirm_supervisor``): two people, neither
   the cashier who issued it. The second confirmation posts the fill to the ledger
   (status ``verified``).

A credit (chips from the table back to the cage), in the order a cage count expects, with
the chips always in someone's signed hands:
1. requested at the table as a fill is;
2. issued (prepared) at the cage by a cashier, who sends the runner for the chips;
3. the dealer and a supervisor count the chips out of the tray and sign them out, in
   either order (the same two services as a fill's receipt);
4. the runner carries them to the cage, where a cashier (not one of the table's signers)
   counts them in and confirms receipt (``slip_receive``), which posts the credit.

The cage's inventory moves with the chips, in the same transaction (``casino.cage.services.
inventory.slip_move``, the cage book): a fill's chips leave the cage as the cashier issues it
(and come back if the issued fill is voided), a credit's arrive as the cashier receives it.

A slip is voided (``slip_void``) at any step before it is posted; it keeps its number,
with the reason and who voided it. A requested slip is voided by a supervisor at the table
or a cashier at the cage; once issued, by the side the chips came from: a fill by a cashier
(the chips go back into the cage), a credit by a supervisor (they stay in, or go back to,
the tray). A posted slip is corrected by an opposite slip.

Who takes which step is said once, by ``slip_refusal`` (who signs a line:
``casino.staff.policy``): each step's service raises what it answers, and a screen asks it
(``slip_steps``) to offer a viewer only the steps they may take, so the console, the API
and the commands refuse alike.

Locking: a slip's number is allocated under a lock on its venue row (after the session's
row), so numbers are sequential per venue and year with no gaps from concurrent requests;
each later step locks the slip row. The console requests a slip once per form
(``slip_request_once``): the form carries how many slips the session had when it was
drawn; under the session row's lock (the lock ``slip_request`` itself takes first, so the
order is the same) a form whose count is out of date is a repeat and requests nothing.
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

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.models import Slip, SlipStatus
from casino.cage.services.inventory import slip_move
from casino.floor.models import TableSession
from casino.floor.services.sessions import check_session_total, chips_total, lock_open_session
from casino.kernel.errors import Conflict, Forbidden, InvalidInput, ServiceError
from casino.ledger.models import Account, EntryKind, LedgerEntry
from casino.ledger.services import ledger_post
from casino.staff.policy import (
    CAGE_ISSUE,
    CAGE_RECEIVE,
    DEALER_LINE,
    SUPERVISOR_LINE,
    slip_person_refusal,
    slip_role_refusal,
)
from casino.staff.roles import CASHIER, PLAY, SUPERVISE, can
from casino.venues.models import Venue

#: A slip that is not voided counts against its session's limit from its request on, so
#: posting it never takes the session's fills or credits past what a close can hold.
_COUNTED = (SlipStatus.REQUESTED, SlipStatus.ISSUED, SlipStatus.VERIFIED)

#: The steps of a slip after its request, each a service below, in the order it takes them.
ISSUE, CONFIRM_DEALER, CONFIRM_SUPERVISOR, RECEIVE = (
    CAGE_ISSUE,
    DEALER_LINE,
    SUPERVISOR_LINE,
    CAGE_RECEIVE,
)
VOID = "void"
STEPS = (ISSUE, CONFIRM_DEALER, CONFIRM_SUPERVISOR, RECEIVE, VOID)
#: The steps taken at the cage (by a cashier) and at the table.
CAGE_STEPS = (ISSUE, RECEIVE)
TABLE_STEPS = (CONFIRM_DEALER, CONFIRM_SUPERVISOR)
#: What the audit records of a signature at the table, by its step.
_SIGNED = {
    CONFIRM_DEALER: AuditAction.SLIP_CONFIRM_DEALER,
    CONFIRM_SUPERVISOR: AuditAction.SLIP_CONFIRM_SUPERVISOR,
}

_WRONG_STATE = {
    ISSUE: _("slip %(slip)s is %(status)s; only a requested slip is issued"),
    CONFIRM_DEALER: _("slip %(slip)s is %(status)s; only an issued slip is signed at the table"),
    CONFIRM_SUPERVISOR: _(
        "slip %(slip)s is %(status)s; only an issued slip is signed at the table"
    ),
    RECEIVE: _("slip %(slip)s is %(status)s; only an issued credit is received at the cage"),
    VOID: _(
        "slip %(slip)s is %(status)s; only a requested or issued slip is voided, and a "
        "verified one is corrected by an opposite slip"
    ),
}


def _refuse_role(slip: Slip, user: Any, step: str) -> ServiceError | None:
    if step == VOID:
        return _refuse_void_role(slip, user)
    return slip_role_refusal(user=user, slip=slip, line=step)


def _refuse_void_role(slip: Slip, user: Any) -> ServiceError | None:
    cashier = can(user, CASHIER, slip.venue_id)
    supervisor = can(user, SUPERVISE, slip.venue_id)
    if slip.status != SlipStatus.ISSUED:
        if cashier or supervisor:
            return None
        return Forbidden(
            _("only a supervisor at the table or the cage's cashier voids a slip"),
            reason="not_voider",
        )
    if slip.kind == Slip.Kind.FILL and not cashier:
        return Forbidden(
            _(
                "fill %(slip)s was issued: only the cage's cashier voids it, taking the "
                "chips back into the cage"
            )
            % {"slip": slip.label},
            reason="void_at_cage",
        )
    if slip.kind == Slip.Kind.CREDIT and not supervisor:
        return Forbidden(
            _(
                "credit %(slip)s was issued: only a supervisor at the table voids it, the "
                "chips staying in the tray"
            )
            % {"slip": slip.label},
            reason="void_at_table",
        )
    return None


def _refuse_state(slip: Slip, step: str) -> ServiceError | None:
    wanted = SlipStatus.REQUESTED if step == ISSUE else SlipStatus.ISSUED
    if step == VOID:
        ok = slip.status in (SlipStatus.REQUESTED, SlipStatus.ISSUED)
    elif step == RECEIVE:
        ok = slip.status == wanted and slip.kind == Slip.Kind.CREDIT
    else:
        ok = slip.status == wanted
    if not ok:
        if step == RECEIVE and slip.kind == Slip.Kind.FILL:
            return Conflict(
                _("slip %(slip)s is a fill: its chips are received at the table, not the cage")
                % {"slip": slip.label},
                reason="slip_state",
            )
        status = str(slip.get_status_display()).lower()
        return Conflict(
            _WRONG_STATE[step] % {"slip": slip.label, "status": status}, reason="slip_state"
        )
    signed = {
        CONFIRM_DEALER: slip.dealer_confirmed_by_id,
        CONFIRM_SUPERVISOR: slip.supervisor_confirmed_by_id,
    }
    if signed.get(step) is not None:
        return Conflict(
            _("slip %(slip)s is already signed on that line at the table") % {"slip": slip.label},
            reason="already_signed",
        )
    if step == RECEIVE and (
        slip.dealer_confirmed_by_id is None or slip.supervisor_confirmed_by_id is None
    ):
        return Conflict(
            _(
                "credit %(slip)s is not signed out at the table yet: its dealer and a "
                "supervisor sign first"
            )
            % {"slip": slip.label},
            reason="not_signed_out",
        )
    return None


def _refuse_person(slip: Slip, user: Any, step: str) -> ServiceError | None:
    """Segregation of duties (``casino.staff.policy.slip_person_refusal``)."""
    if step == VOID:
        return None
    return slip_person_refusal(user=user, slip=slip, line=step)


def slip_refusal(*, slip: Slip, user: Any, step: str) -> ServiceError | None:
    """Why ``user`` may not take ``step`` (one of ``STEPS``) on ``slip`` as it stands, or
    ``None`` when they may.

    In order: the role at the slip's venue (``Forbidden``), the slip's state (``Conflict``),
    then who the signer is (``Forbidden``, ``casino.staff.policy.slip_person_refusal``): the
    dealer's line is the dealer's on duty at the slip's table (or a supervisor's covering
    it), the supervisor's line not that dealer's; the cashier who issued a slip signs neither
    of the table's lines; the dealer's and the supervisor's lines are two people; whoever
    signed a credit out at the table does not receive it at the cage.
    """
    return (
        _refuse_role(slip, user, step)
        or _refuse_state(slip, step)
        or _refuse_person(slip, user, step)
    )


def slip_steps(*, slip: Slip, user: Any) -> tuple[str, ...]:
    """The steps ``user`` may take on ``slip`` now (none for an auditor or a posted slip)."""
    return tuple(step for step in STEPS if slip_refusal(slip=slip, user=user, step=step) is None)


def _check_step(slip: Slip, user: Any, step: str) -> None:
    refusal = slip_refusal(slip=slip, user=user, step=step)
    if refusal is not None:
        raise refusal


@transaction.atomic
def slip_request(*, session: Any, user: Any, kind: str, chips: Mapping[str, Any]) -> Slip:
    """Request a fill or a credit of ``chips`` (denomination -> count) for an open table.

    The dealer (or a supervisor) requests at the table; the cage's cashier issues it.
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
        action=AuditAction.SLIP_REQUEST,
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
def slip_issue(*, slip: Slip, user: Any, runner: str = "") -> Slip:
    """The cage's cashier issues a requested slip: counts a fill's chips out to ``runner``
    (who carries them), or sends ``runner`` for a credit's chips."""
    slip = _lock(slip)
    _check_step(slip, user, ISSUE)
    slip.status = SlipStatus.ISSUED
    slip.issued_by = user
    slip.issued_at = timezone.now()
    slip.runner = (runner or "").strip()[:150]
    slip.save(update_fields=["status", "issued_by", "issued_at", "runner"])
    if slip.kind == Slip.Kind.FILL:  # the chips are counted out of the cage to the runner
        slip_move(slip=slip, user=user)
    audit_record(
        user=user,
        action=AuditAction.SLIP_ISSUE,
        obj=slip,
        venue=_venue(slip),
        summary=f"issued {slip.kind} {slip.label}",
    )
    return slip


@transaction.atomic
def slip_confirm_dealer(*, slip: Slip, user: Any) -> Slip:
    """The table's dealer signs for an issued slip's chips (a fill's received, a credit's
    sent); a fill is posted when the supervisor has signed too."""
    return _table_sign(slip, user, CONFIRM_DEALER)


@transaction.atomic
def slip_confirm_supervisor(*, slip: Slip, user: Any) -> Slip:
    """A supervisor signs for an issued slip's chips at the table (from their own login);
    a fill is posted when the dealer has signed too."""
    return _table_sign(slip, user, CONFIRM_SUPERVISOR)


def _table_sign(slip: Slip, user: Any, step: str) -> Slip:
    slip = _lock(slip)
    _check_step(slip, user, step)
    now = timezone.now()
    line = "dealer_confirmed" if step == CONFIRM_DEALER else "supervisor_confirmed"
    setattr(slip, f"{line}_by", user)
    setattr(slip, f"{line}_at", now)
    slip.save(update_fields=[f"{line}_by", f"{line}_at"])
    audit_record(
        user=user,
        action=_SIGNED[step],
        obj=slip,
        venue=_venue(slip),
        summary=f"{step} on {slip.kind} {slip.label}",
    )
    both = slip.dealer_confirmed_by_id is not None and slip.supervisor_confirmed_by_id is not None
    if both and slip.kind == Slip.Kind.FILL:
        slip_to_ledger(slip, user)
    return slip


@transaction.atomic
def slip_receive(*, slip: Slip, user: Any) -> Slip:
    """The cage's cashier counts a credit's chips in, signed out at the table; posted."""
    slip = _lock(slip)
    _check_step(slip, user, RECEIVE)
    slip.received_by = user
    slip.received_at = timezone.now()
    slip.save(update_fields=["received_by", "received_at"])
    slip_move(slip=slip, user=user)  # the chips are counted into the cage
    slip_to_ledger(slip, user)
    return slip


def slip_to_ledger(slip: Slip, user: Any) -> None:
    """Post ``slip`` (locked) to the ledger, the cage against the table's tray: the last
    step of a slip's own services, and of a paper slip entered late
    (``casino.cage.services.manual``), in their transaction."""
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
                account=account,
                kind=kind,
                amount=amount,
                created_by=user,
            )
            for account, amount in ((Account.TRAY, into_tray), (Account.CAGE, -into_tray))
        ]
    )
    slip.status = SlipStatus.VERIFIED
    slip.verified_by = user
    slip.verified_at = timezone.now()
    slip.save(update_fields=["status", "verified_by", "verified_at"])
    audit_record(
        user=user,
        action=AuditAction.SLIP_VERIFY,
        obj=slip,
        venue=venue,
        summary=f"posted {slip.kind} {slip.label} of {slip.amount}",
    )


@transaction.atomic
def slip_void(*, slip: Slip, user: Any, reason: str) -> Slip:
    """Void a slip that is not posted; it keeps its number, with ``reason`` and who voided
    it. A posted one is corrected by an opposite slip."""
    slip = _lock(slip)
    _check_step(slip, user, VOID)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(_("say why the slip is voided"), field="reason", reason="reason_missing")
    before = slip.status
    if before == SlipStatus.ISSUED and slip.kind == Slip.Kind.FILL:
        slip_move(slip=slip, user=user, back=True)  # the cashier takes the chips back
    slip.status = SlipStatus.VOID
    slip.voided_by = user
    slip.voided_at = timezone.now()
    slip.void_reason = reason[:255]
    slip.save(update_fields=["status", "voided_by", "voided_at", "void_reason"])
    audit_record(
        user=user,
        action=AuditAction.SLIP_VOID,
        obj=slip,
        venue=_venue(slip),
        summary=f"voided {slip.kind} {slip.label}: {reason[:200]}",
        before={"status": before},
        after={"status": SlipStatus.VOID},
    )
    return slip


@transaction.atomic
def slip_request_once(
    *, session: TableSession, user: Any, kind: str, chips: Mapping[str, int], seen: int
) -> Slip | None:
    """Request a slip unless the session has had a slip since the form showed ``seen``.

    Returns the new slip, or ``None`` when the form was already used (nothing is written).
    """
    locked = TableSession.objects.select_for_update(of=("self",)).get(pk=session.pk)
    if Slip.objects.filter(session=locked).count() != seen:
        return None
    return slip_request(session=locked, user=user, kind=kind, chips=chips)
