"""Closing a table session and reconciling it: the figures so far, what keeps a session
open, the count against the ledger and the variance's reason.

Locking: a close locks the session's ``TableSession`` row first (``lock_open_session``).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino import games
from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.floor import answers
from casino.floor import figures as figures_
from casino.floor.models import Round, RoundStatus, TableSession
from casino.floor.services.rotation import spell_last_ends
from casino.floor.services.sessions import (
    MAX_AMOUNT,
    check_co_signers,
    chips_total,
    drop_record,
    lock_open_session,
)
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import written
from casino.staff.roles import SUPERVISE, can
from casino.venues.signals import shift_closing

#: The longest reason for a variance a close keeps (the console's and the API's limit).
MAX_REASON = 1000
_ZERO = Decimal(0)


def session_figures(session: TableSession) -> dict[str, Decimal]:
    """Fills, credits, drop, the win by ledger and the chips sold and bought back at the
    table of a session so far (``casino.floor.figures.session_sums``)."""
    return figures_.session_sums(session)


def check_closable(session: TableSession) -> None:
    """What must be done before a table closes: every round settled or voided, every slip
    verified or voided, and what the game itself asks (``session_close_refusal``: a
    commission box collected). ``Conflict`` says which (reason
    ``rounds_unsettled``, ``slips_pending`` or the game's), in the reader's language; the
    console asks before a supervisor signs."""
    unsettled = list(
        Round.objects.filter(session=session, status=RoundStatus.DEALT).values_list(
            "number", flat=True
        )
    )
    if unsettled:
        raise Conflict(
            _("round %(numbers)s is not settled; settle or void it before closing")
            % {"numbers": ", ".join(str(n) for n in unsettled)},
            reason="rounds_unsettled",
        )
    pending = answers.pending_slips(session)
    if pending:
        raise Conflict(
            _("slip %(numbers)s is not verified; verify or void it first")
            % {"numbers": ", ".join(pending)},
            reason="slips_pending",
        )
    refusal = games.get(session.table.game).session_close_refusal(session)
    if refusal is not None:
        message, reason = refusal
        raise Conflict(message, reason=reason)


def check_variance_reason(venue: Any, variance: Decimal, reason: str) -> None:
    """Refuse a variance over the venue's ``variance_reason_over`` without a reason
    (``InvalidInput`` on ``variance_reason``, reason ``variance_reason_required``)."""
    allowed = venue.variance_reason_over
    if abs(variance) <= allowed or reason:
        return
    if allowed:
        message = _(
            "the count is %(variance)s off the ledger, more than the %(allowed)s this venue "
            "closes without a reason: say why in the reason for the variance, or count again"
        )
    else:
        message = _(
            "the count is %(variance)s off the ledger and this venue closes with a variance "
            "only with a reason: say why in the reason for the variance, or count again"
        )
    raise InvalidInput(
        message
        % {
            "variance": written(variance, venue.amount_grouping, signed=True),
            "allowed": written(allowed, venue.amount_grouping),
        },
        field="variance_reason",
        reason="variance_reason_required",
    )


@transaction.atomic
def session_close(
    *,
    session: TableSession,
    counted_by: Any,
    confirmed_by: Any,
    closing_chips: Mapping[str, Any],
    drop: Decimal | str | None = None,
    variance_reason: str = "",
) -> TableSession:
    """Close a table with the closer: ``counted_by`` (the dealer) counts the tray,
    ``confirmed_by`` (a supervisor of the venue, another person) confirms it and closes the
    table (``closed_by``); the closing count is the table's inventory from then on.

    Win by count = closing - opening + credits - fills + drop; win by ledger = what the
    settled rounds moved to the house; the variance (count - ledger) is stored. A variance
    larger than the venue accepts without one (``Venue.variance_reason_over``) needs the
    closer's reason, which the audit event keeps.
    """
    session = lock_open_session(session.pk)
    venue = session.table.venue
    user = confirmed_by
    if not can(user, SUPERVISE, venue.pk):
        raise Forbidden("only a supervisor closes a table")
    check_co_signers(
        counted_by=counted_by, confirmed_by=confirmed_by, venue=venue, field="counted_by"
    )
    check_closable(session)
    chips, closing_total = chips_total(
        closing_chips,
        session.table.chip_denominations,
        field="closing_chips",
        grouping=venue.amount_grouping,
    )
    _drop_at_close(session=session, user=user, drop=drop)
    figures, win_by_count, variance = _closing_figures(session, closing_total, venue)
    variance_reason = (variance_reason or "").strip()[:MAX_REASON]
    check_variance_reason(venue, variance, variance_reason)
    session.status = TableSession.Status.CLOSED
    session.closed_by = user
    session.closing_counted_by = counted_by
    session.closed_at = timezone.now()
    session.closing_chips = chips
    session.closing_total = closing_total
    _keep_figures(session, figures, win_by_count=win_by_count, variance=variance)
    session.save()
    spell_last_ends(session=session)
    audit_record(
        user=user,
        action=AuditAction.SESSION_CLOSE,
        obj=session,
        venue=venue,
        summary=f"closed {session.table}: win by count {win_by_count}, variance {session.variance}",
        after={k: str(v) for k, v in figures.items()}
        | {
            "closing_chips": chips,
            "closing_total": str(closing_total),
            "counted_by": counted_by.get_username(),
            "confirmed_by": confirmed_by.get_username(),
            "variance": str(session.variance),
            "variance_reason": variance_reason,
        },
    )
    # The last table of a shift to close asks for the shift's report (casino.venues.signals).
    shift_closing.send(sender=TableSession, shift_id=session.shift_id)
    return session


def _drop_at_close(*, session: TableSession, user: Any, drop: Decimal | str | None) -> None:
    """Record the drop the closer entered, if any, its refusals said of the drop."""
    if drop in (None, ""):
        return
    try:
        drop_record(session=session, user=user, amount=drop)
    except InvalidInput as error:
        # The reader's refusal quotes what was typed; the others name the amount.
        message = error.message
        if error.reason != "not_an_amount":
            message = message.replace("amount", "drop", 1)
        raise InvalidInput(message, field="drop", reason=error.reason) from None


def _closing_figures(
    session: TableSession, closing_total: Decimal, venue: Any
) -> tuple[dict[str, Decimal], Decimal, Decimal]:
    """The session's figures, its win by count and its variance, refused (``Conflict``) when
    one of them could not be stored."""
    figures = session_figures(session)
    win_by_count = figures_.win_by_count(
        opener=session.opening_total,
        closer=closing_total,
        fills=figures["fills"],
        credits=figures["credits"],
        drop=figures["drop"],
    )
    # A game that deals no rounds has no settled win to compare the count with.
    settles = games.get(session.table.game).settles_rounds
    variance = (
        figures_.variance(win_by_count=win_by_count, win_by_ledger=figures["win_by_ledger"])
        if settles
        else _ZERO
    )
    for name, value in (
        ("win by count", win_by_count),
        ("settled win", figures["win_by_ledger"]),
        ("variance", variance),
    ):
        # The totals' limit keeps these in the field; only a settled win beyond any
        # table's limits could not fit, which is a matter for the ledger's audit.
        if abs(value) >= MAX_AMOUNT:
            raise Conflict(
                f"the {name} would be {written(value, venue.amount_grouping)}, more than an "
                "amount can be; nothing was "
                "closed: run manage.py audit_ledger and check this session's rounds"
            )
    return figures, win_by_count, variance


def _keep_figures(
    session: TableSession,
    figures: dict[str, Decimal],
    *,
    win_by_count: Decimal,
    variance: Decimal,
) -> None:
    """Set the closed session's stored figures (fixed from then on; saved by the caller)."""
    session.fills_total = figures["fills"]
    session.credits_total = figures["credits"]
    session.drop_total = figures["drop"]
    session.win_by_count = win_by_count
    session.win_by_ledger = figures["win_by_ledger"]
    session.variance = variance


@transaction.atomic
def session_reconcile(*, session: TableSession, user: Any) -> TableSession:
    """Mark a closed session as reviewed by a supervisor (its figures do not change)."""
    session = TableSession.objects.select_for_update().select_related("table").get(pk=session.pk)
    if not can(user, SUPERVISE, session.table.venue_id):
        raise Forbidden("only a supervisor reconciles a table session")
    if session.status != TableSession.Status.CLOSED:
        raise Conflict(f"session {session.pk} is {session.status}; only a closed one is reconciled")
    session.status = TableSession.Status.RECONCILED
    session.save(update_fields=["status"])
    audit_record(
        user=user,
        action=AuditAction.SESSION_RECONCILE,
        obj=session,
        venue=session.table.venue,
        summary=f"reconciled, variance {session.variance}",
    )
    return session
