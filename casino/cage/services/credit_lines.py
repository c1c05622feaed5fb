"""A member's credit line and a venue's marker terms (docs/MARKERS.md); the markers
themselves are ``casino.cage.services.markers``.

- ``credit_line_propose`` / ``credit_line_approve``: a manager proposes a member's credit
  limit, a second manager approves it; the approved version is in force until a later one is
  approved (every version is kept). A limit above 0 is credit to play with, so it asks the
  eligibility question of a buy-in (a barred member is given none); 0, which stops further
  markers, is set for anyone.
- ``marker_terms_set``: a manager sets the venue's days to pay and whether a table's markers
  count in its drop; a marker keeps the terms it was issued under.

The player's row is locked as a marker's issue locks it. Every write is audited.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.marker_selectors import available_credit, terms_in_force
from casino.cage.models import CreditLine, MarkerTerms
from casino.kernel import amounts
from casino.kernel.errors import Forbidden, InvalidInput
from casino.kernel.money import venue_money
from casino.players.eligibility import Activity, check_player_may
from casino.players.models import Player
from casino.staff.policy import approves_own
from casino.staff.roles import MANAGE, can
from casino.venues.models import Venue

MAX_NOTE = 255


def _locked_player(player: Player, venue: Venue) -> Player:
    """The player's row, locked: every marker and payment of theirs waits for it."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.venue_id != venue.pk:
        raise InvalidInput(gettext("This player is not a member of this venue."), field="player")
    return player


def _text(value: str, field: str) -> str:
    value = (value or "").strip()
    if len(value) > MAX_NOTE:
        raise InvalidInput(
            gettext("Keep the note under %(max)d characters.") % {"max": MAX_NOTE}, field=field
        )
    return value


def _money(amount: Any, venue: Venue) -> str:
    return venue_money(amount, venue)


# Credit lines


@transaction.atomic
def credit_line_propose(
    *, venue: Venue, player: Player, user: Any, limit: Any, reason: str = ""
) -> CreditLine:
    """A manager proposes the member's credit limit (0 stops further markers); a second
    manager approves it (``credit_line_approve``)."""
    if not can(user, MANAGE, venue.pk):
        raise Forbidden(gettext("Only a manager of the venue proposes a credit limit."))
    limit = amounts.check_amount(limit, venue, field="limit", unit=venue.rounding_unit)
    if limit < 0:
        raise InvalidInput(gettext("A credit limit is 0 or more."), field="limit")
    reason = _text(reason, "reason")
    player = _locked_player(player, venue)
    if limit > 0:
        check_player_may(player=player, venue=venue, activity=Activity.BUY_IN)
    line = CreditLine.objects.create(
        venue=venue,
        player=player,
        limit=limit,
        reason=reason,
        proposed_by=user,
        proposed_at=timezone.now(),
    )
    audit_record(
        user=user,
        action=AuditAction.CREDIT_LINE_PROPOSE,
        obj=line,
        venue=venue,
        summary=f"proposed a credit limit of {_money(limit, venue)} for {player.membership_number}",
        after={"player": player.membership_number, "limit": str(limit), "reason": reason},
    )
    return line


@transaction.atomic
def credit_line_approve(*, line: CreditLine, user: Any) -> CreditLine:
    """A second manager (not the proposer) approves a proposed credit limit: in force from
    now, in place of the one before (which is kept)."""
    line = (
        CreditLine.objects.select_for_update(of=("self",))
        .select_related("venue", "player")
        .get(pk=line.pk)
    )
    venue = line.venue
    if not can(user, MANAGE, venue.pk):
        raise Forbidden(gettext("Only a manager of the venue approves a credit limit."))
    if line.status == CreditLine.Status.APPROVED:
        return line
    if approves_own(user=user, made_by=[line.proposed_by_id]):
        raise Forbidden(
            gettext("A second manager approves the credit limit, not the one who proposed it.")
        )
    player = _locked_player(line.player, venue)
    if line.limit > 0:
        check_player_may(player=player, venue=venue, activity=Activity.BUY_IN)
    before = available_credit(player)
    line.status = CreditLine.Status.APPROVED
    line.approved_by, line.approved_at = user, timezone.now()
    line.save(update_fields=["status", "approved_by", "approved_at"])
    audit_record(
        user=user,
        action=AuditAction.CREDIT_LINE_APPROVE,
        obj=line,
        venue=venue,
        summary=(
            f"approved a credit limit of {_money(line.limit, venue)} for {player.membership_number}"
        ),
        before={"limit": str(before[0]), "outstanding": str(before[1])},
        after={"limit": str(line.limit)},
    )
    return line


# Terms


@transaction.atomic
def marker_terms_set(*, venue: Venue, user: Any, term_days: Any, credit_drop: bool) -> MarkerTerms:
    """A manager sets the venue's marker terms: in force for the markers issued from now."""
    if not can(user, MANAGE, venue.pk):
        raise Forbidden(gettext("Only a manager of the venue sets its marker terms."))
    try:
        days = int(str(term_days).strip())
    except ValueError:
        days = 0
    if not 1 <= days <= 365:
        raise InvalidInput(
            gettext("Give the days to pay as a whole number from 1 to 365."), field="term_days"
        )
    before = terms_in_force(venue)
    terms = MarkerTerms.objects.create(
        venue=venue,
        term_days=days,
        credit_drop=bool(credit_drop),
        set_by=user,
        set_at=timezone.now(),
    )
    audit_record(
        user=user,
        action=AuditAction.MARKER_TERMS_SET,
        obj=terms,
        venue=venue,
        summary=(
            f"marker terms: {days} days to pay, table markers "
            f"{'in' if terms.credit_drop else 'not in'} the drop"
        ),
        before={"term_days": before.term_days, "credit_drop": before.credit_drop},
        after={"term_days": days, "credit_drop": terms.credit_drop},
    )
    return terms
