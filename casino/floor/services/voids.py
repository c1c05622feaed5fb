"""Voiding a round: a dealer (or anyone who deals at the venue) asks, a supervisor other than
the requester approves, and a settled round's ledger entries are reversed (dealing is
``casino.floor.services.rounds``, settling ``casino.floor.services.settlement``).

Locking: the void services lock the round row, so a round is voided exactly once however
many requests arrive at the same time. Every write runs in one transaction.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from casino import games
from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.floor.models import Round, RoundStatus, TableSession
from casino.floor.services.settlement import outcomes_of
from casino.floor.services.tallies import tally_voided
from casino.floor.signals import round_tallied
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.ledger.models import EntryKind, LedgerEntry
from casino.ledger.services import ledger_post
from casino.staff.roles import PLAY, SUPERVISE, can


def _lock_round(round_: Round) -> Round:
    """Lock a round for a void; its session must still be open (a closed count is final)."""
    locked = (
        Round.objects.select_for_update(of=("self",))
        .select_related("session__table__venue")
        .get(pk=round_.pk)
    )
    if locked.session.status != TableSession.Status.OPEN:
        raise Conflict(
            f"round {locked.number} belongs to a closed session; its count is final, so "
            "correct it with the venue's adjustment procedure instead of a void"
        )
    return locked


@transaction.atomic
def round_void_request(*, round_: Round, user: Any, reason: str) -> Round:
    """Ask for a round to be voided; a supervisor other than the requester approves it."""
    round_ = _lock_round(round_)
    if not can(user, PLAY, round_.session.table.venue_id):
        raise Forbidden("you do not deal at this venue")
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput("say why the round should be voided", field="reason")
    if round_.status == RoundStatus.VOIDED:
        raise Conflict(f"round {round_.number} is already voided")
    if round_.void_requested_by_id not in (None, user.pk):
        raise Conflict(
            f"a void of round {round_.number} is already requested by "
            f"{round_.void_requested_by}; a supervisor approves or it stays as it is"
        )
    round_.void_reason = reason[:255]
    round_.void_requested_by = user
    round_.void_requested_at = timezone.now()
    round_.save(update_fields=["void_reason", "void_requested_by", "void_requested_at"])
    audit_record(
        user=user,
        action=AuditAction.ROUND_VOID_REQUEST,
        obj=round_,
        venue=round_.session.table.venue,
        summary=f"void requested: {reason[:200]}",
    )
    return round_


@transaction.atomic
def round_void_approve(*, round_: Round, user: Any) -> Round:
    """Void a round whose void was requested: a settled round's entries are reversed.

    The approver is a supervisor other than the requester. Nothing is deleted: every
    ledger entry of the round gets a reversing entry.
    """
    round_ = _lock_round(round_)
    venue = round_.session.table.venue
    if round_.status == RoundStatus.VOIDED:
        raise Conflict(f"round {round_.number} is already voided")
    if round_.void_requested_by_id is None:
        raise Conflict(f"no void was requested for round {round_.number}; request it first")
    if not can(user, SUPERVISE, venue.pk):
        raise Forbidden("a supervisor must approve a void", reason="not_supervisor")
    if user.pk == round_.void_requested_by_id:
        raise Forbidden(
            "a void needs a second person: another supervisor must approve it",
            reason="void_by_requester",
        )
    entries = list(LedgerEntry.objects.filter(round=round_, reverses__isnull=True).order_by("pk"))
    ledger_post(
        LedgerEntry(
            venue_id=entry.venue_id,
            session_id=entry.session_id,
            round=round_,
            box_id=entry.box_id,
            bet_id=entry.bet_id,
            player_id=entry.player_id,
            account=entry.account,
            kind=EntryKind.VOID,
            amount=-entry.amount,
            reverses=entry,
            created_by=user,
        )
        for entry in entries
    )
    was = round_.status
    round_.status = RoundStatus.VOIDED
    round_.voided_by = user
    round_.voided_at = timezone.now()
    round_.save(update_fields=["status", "voided_by", "voided_at"])
    if was == RoundStatus.SETTLED:
        tally_voided([round_.pk])
        voided, boxes, _bets = outcomes_of(round_, games.get(round_.game), None)
        round_tallied.send(sender=Round, round_=round_, result=voided, boxes=boxes, sign=-1)
    audit_record(
        user=user,
        action=AuditAction.ROUND_VOID,
        obj=round_,
        venue=venue,
        summary=f"voided round {round_.number} ({was}): {round_.void_reason}",
        before={"status": was},
        after={"status": RoundStatus.VOIDED, "reversed_entries": len(entries)},
    )
    return round_


@transaction.atomic
def round_void(*, round_: Round, requested_by: Any, approved_by: Any, reason: str) -> Round:
    """Request and approve a void at once (the console, with the supervisor present)."""
    round_void_request(round_=round_, user=requested_by, reason=reason)
    return round_void_approve(round_=round_, user=approved_by)
