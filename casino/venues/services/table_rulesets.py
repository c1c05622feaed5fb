"""A table's change of ruleset, with a second manager's approval.

A table's ruleset is its paytable: switching it changes what every bet pays. So one
manager requests the change (with a reason), another manager of the venue approves it,
and it applies at that moment if no session is open at the table; otherwise the approval
is refused and the request waits for the table to be closed. A change to a ruleset of
another game changes the table's game with it (the only way a game changes); the limits
of bet types the new game does not have are dropped, and recorded in the audit trail.

Locking: approving locks the table row (the lock ``session_open`` takes, so no session
can open while the change applies), then the request's row; the other steps lock the
request's row. One request per table is pending at a time (a partial unique index).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel import registry
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.staff.policy import approves_own
from casino.staff.roles import MANAGE, can
from casino.venues.hooks import open_session_at
from casino.venues.models import Table, TableRulesetChange
from casino.venues.services.tables import (
    check_ruleset,
    current_limits,
    set_limits,
    table_state,
)

# The rulesets sit above the venues, which take a ruleset as it is given (its venue, code and
# game): only a type checker reads its class.
if TYPE_CHECKING:
    from casino.rulesets.models import Ruleset

#: The longest reason or note kept.
MAX_REASON = 1000


def _reason(text: Any, *, field: str, required: bool) -> str:
    reason = (text or "").strip() if isinstance(text, str | None) else None
    if reason is None:
        raise InvalidInput(gettext("give the reason as text"), field=field)
    if required and not reason:
        raise InvalidInput(
            gettext("give the reason for the change; the approving manager reads it"),
            field=field,
        )
    if len(reason) > MAX_REASON:
        raise InvalidInput(
            gettext("the reason is longer than %(max)s characters") % {"max": MAX_REASON},
            field=field,
        )
    return reason


def _as_dict(change: TableRulesetChange) -> dict[str, Any]:
    return {
        "table": change.table.code,
        "from_ruleset": change.from_ruleset.code,
        "to_ruleset": change.to_ruleset.code,
        "from_game": change.from_game,
        "to_game": change.to_game,
        "reason": change.reason,
        "status": change.status,
        "requested_by": change.requested_by.username,
        "decided_by": change.decided_by.username if change.decided_by else None,
        "decision_note": change.decision_note,
    }


def _pending_at(table: Table) -> TableRulesetChange | None:
    return (
        TableRulesetChange.objects.filter(table=table, status=TableRulesetChange.Status.PENDING)
        .select_related("to_ruleset")
        .first()
    )


def _already_pending(table: Table, pending: TableRulesetChange) -> Conflict:
    return Conflict(
        gettext(
            "table %(table)s already has a change of ruleset waiting for approval (request "
            "%(id)s, to %(ruleset)s); approve, refuse or withdraw it first"
        )
        % {"table": table.code, "id": pending.pk, "ruleset": pending.to_ruleset.code}
    )


def _lock(change: TableRulesetChange) -> TableRulesetChange:
    change = (
        TableRulesetChange.objects.select_for_update(of=("self",))
        .select_related("table__venue", "from_ruleset", "to_ruleset", "requested_by")
        .get(pk=change.pk)
    )
    if change.status != TableRulesetChange.Status.PENDING:
        raise Conflict(
            gettext("request %(id)s is already %(status)s; nothing is left to decide")
            % {"id": change.pk, "status": change.get_status_display().lower()}
        )
    return change


@transaction.atomic
def ruleset_change_request(
    *,
    table: Table,
    user: Any,
    ruleset: Ruleset,
    reason: str,
    game: str | None = None,
) -> TableRulesetChange:
    """Ask for ``table`` to play ``ruleset`` (a ruleset of its venue and of ``game``, the
    table's own game unless a change of game is asked). Nothing changes until another
    manager of the venue approves it."""
    table = Table.objects.select_for_update(of=("self",)).select_related("venue").get(pk=table.pk)
    venue = table.venue
    if not can(user, MANAGE, venue.pk):
        raise Forbidden(gettext("only a manager of the venue requests a change of ruleset"))
    game = game or table.game
    try:
        registry.get(game)
    except LookupError:
        installed = ", ".join(adapter.code for adapter in registry.all_games())
        raise InvalidInput(
            gettext("'%(game)s' is not a game here; use %(games)s")
            % {"game": game, "games": installed},
            field="game",
        ) from None
    if ruleset.pk == table.ruleset_id:
        if game != table.game:
            raise InvalidInput(
                gettext(
                    "a table's game changes only together with a ruleset of that game: choose "
                    "a ruleset of the new game"
                ),
                field="ruleset",
            )
        raise InvalidInput(
            gettext("table %(table)s already plays ruleset %(ruleset)s; choose another one")
            % {"table": table.code, "ruleset": ruleset.code},
            field="ruleset",
        )
    check_ruleset(ruleset, venue=venue, game=game)
    reason = _reason(reason, field="reason", required=True)
    pending = _pending_at(table)
    if pending is not None:
        raise _already_pending(table, pending)
    change = TableRulesetChange(
        table=table,
        from_ruleset_id=table.ruleset_id,
        to_ruleset=ruleset,
        from_game=table.game,
        to_game=game,
        reason=reason,
        requested_by=user,
        requested_at=timezone.now(),
    )
    try:
        with transaction.atomic():
            change.save()
    except IntegrityError:  # another request for the table, saved a moment ago
        raise _already_pending(table, _pending_at(table) or change) from None
    audit_record(
        user=user,
        action=AuditAction.TABLE_RULESET_CHANGE_REQUEST,
        obj=change,
        venue=venue,
        summary=f"requested table {table.code}'s change of ruleset to {ruleset.code}",
        after=_as_dict(change),
    )
    return change


@transaction.atomic
def ruleset_change_approve(*, change: TableRulesetChange, user: Any) -> TableRulesetChange:
    """Approve a pending request (a manager of the venue other than the requester) and
    apply it; refused while a session is open at the table (close the table first)."""
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("venue")
        .get(pk=change.table_id)
    )
    change = _lock(change)
    venue = table.venue
    if not can(user, MANAGE, venue.pk):
        raise Forbidden(gettext("only a manager of the venue approves a change of ruleset"))
    if approves_own(user=user, made_by=[change.requested_by_id]):
        raise Forbidden(
            gettext(
                "you requested this change, so another manager of the venue must approve it "
                "(two-person rule)"
            )
        )
    session_id = open_session_at(table)
    if session_id is not None:
        raise Conflict(
            gettext(
                "table %(table)s is open (session %(session)s); close the table first, then "
                "approve the change of ruleset"
            )
            % {"table": table.code, "session": session_id}
        )
    if table.ruleset_id != change.from_ruleset_id or table.game != change.from_game:
        raise Conflict(
            gettext(
                "table %(table)s no longer plays %(ruleset)s, the ruleset this request "
                "changes; refuse it and request the change again"
            )
            % {"table": table.code, "ruleset": change.from_ruleset.code}
        )
    check_ruleset(change.to_ruleset, venue=venue, game=change.to_game)

    old_limits = current_limits(table)
    before = table_state(table, old_limits)
    bet_types = registry.get(change.to_game).bet_types
    new_limits = {bt: limit for bt, limit in old_limits.items() if bt in bet_types}
    table.ruleset = change.to_ruleset
    table.game = change.to_game
    table.save(update_fields=["ruleset", "game"])
    if new_limits != old_limits:
        set_limits(table, new_limits)
    change.status = TableRulesetChange.Status.APPLIED
    change.decided_by = user
    change.decided_at = timezone.now()
    change.save(update_fields=["status", "decided_by", "decided_at"])
    audit_record(
        user=user,
        action=AuditAction.TABLE_RULESET_CHANGE_APPROVE,
        obj=change,
        venue=venue,
        summary=f"approved table {table.code}'s change of ruleset to {change.to_ruleset.code}",
        after=_as_dict(change),
    )
    audit_record(
        user=user,
        action=AuditAction.TABLE_UPDATE,
        obj=table,
        venue=venue,
        summary=(
            f"changed table {table.code}'s ruleset to {change.to_ruleset.code} (request "
            f"{change.pk} by {change.requested_by.username})"
        ),
        before=before,
        after=table_state(table, new_limits),
    )
    return change


@transaction.atomic
def ruleset_change_refuse(
    *, change: TableRulesetChange, user: Any, note: str = ""
) -> TableRulesetChange:
    """Close a pending request without applying it: refused by another manager of the
    venue, or withdrawn by the manager who requested it."""
    change = _lock(change)
    venue = change.table.venue
    if not can(user, MANAGE, venue.pk):
        raise Forbidden(gettext("only a manager of the venue refuses a change of ruleset"))
    withdrawn = change.requested_by_id == user.pk
    change.status = (
        TableRulesetChange.Status.WITHDRAWN if withdrawn else TableRulesetChange.Status.REFUSED
    )
    change.decided_by = user
    change.decided_at = timezone.now()
    change.decision_note = _reason(note, field="note", required=False)
    change.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])
    verb = "withdrew" if withdrawn else "refused"
    audit_record(
        user=user,
        action=(
            AuditAction.TABLE_RULESET_CHANGE_WITHDRAW
            if withdrawn
            else AuditAction.TABLE_RULESET_CHANGE_REFUSE
        ),
        obj=change,
        venue=venue,
        summary=f"{verb} table {change.table.code}'s change of ruleset to {change.to_ruleset.code}",
        before={"status": TableRulesetChange.Status.PENDING},
        after=_as_dict(change),
    )
    return change
