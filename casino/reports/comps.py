"""Comps: what a venue gives back to its rated players, within its comp policy.

The policy (``CompPolicy``) is money rules, so it is versioned with four eyes: a manager
proposes one, a second manager approves it, and the newest approved one is in force.

A comp is issued by a supervisor or a manager against what the player has **earned**:
the policy's reinvestment rate x the player's theoretical win over the last
``EARNED_DAYS`` gaming days (the venue's today included), minus the comps already issued
to them over those days. One comp may be at most the issuer's limit: a supervisor's, or a
manager's (a comp over the supervisors' limit is authorised by the manager who issues it).
Issuing locks the player's row, so two comps at once cannot both spend the same earned
amount. A barred player receives none (``casino.players.eligibility``). A comp is a
record, not a ledger movement (docs/PLAYERS.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel.amounts import check_amount
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import venue_money
from casino.players.eligibility import Activity, check_player_may
from casino.players.models import Comp, CompPolicy, Player
from casino.reports.ratings import comps_issued, theoretical_win
from casino.staff.policy import approves_own
from casino.staff.roles import MANAGE, SUPERVISE, can
from casino.venues.models import Venue
from casino.venues.services.gaming_days import gaming_date_of

#: The gaming days a player's earned amount looks back over, today included.
EARNED_DAYS = 30
CENT = Decimal("0.01")


def _amount(value: Any, venue: Venue, field: str, *, positive: bool = False) -> Decimal:
    """An amount of ``venue`` as every amount is read (``casino.kernel.amounts.check_amount``:
    ``500.000`` where the venue groups with points), 0 or more (more than 0 if
    ``positive``)."""
    amount = None if value in (None, "") else check_amount(value, venue, field=field)
    if amount is None or (positive and amount == 0):
        raise InvalidInput(
            _("Enter an amount of 0 or more, e.g. 500000.")
            if not positive
            else _("Enter an amount greater than 0, e.g. 500000."),
            field=field,
        )
    return amount


def _rate(value: Any, field: str) -> Decimal:
    """A percentage, 0 or more with at most 2 decimals (``12.5``; ``12,5`` too)."""
    try:
        rate = Decimal(str(value).strip().replace(",", ".")) if value not in (None, "") else None
    except InvalidOperation:
        rate = None
    if rate is None or not rate.is_finite() or rate < 0 or rate != rate.quantize(CENT):
        raise InvalidInput(
            _("The reinvestment rate is a percentage of theoretical win: 0 to 100."), field=field
        )
    return rate


def _policy_dict(policy: CompPolicy) -> dict[str, Any]:
    return {
        "number": policy.number,
        "reinvestment_pct": str(policy.reinvestment_pct),
        "supervisor_limit": str(policy.supervisor_limit),
        "manager_limit": str(policy.manager_limit),
        "status": policy.status,
    }


@transaction.atomic
def comp_policy_propose(
    *,
    venue: Venue,
    user: Any,
    reinvestment_pct: Any,
    supervisor_limit: Any,
    manager_limit: Any,
) -> CompPolicy:
    """A manager proposes the venue's next comp policy; it is in force once approved."""
    if not can(user, MANAGE, venue.pk):
        raise Forbidden(_("only a manager proposes a comp policy"))
    rate = _rate(reinvestment_pct, "reinvestment_pct")
    if rate > 100:
        raise InvalidInput(
            _("The reinvestment rate is a percentage of theoretical win: 0 to 100."),
            field="reinvestment_pct",
        )
    supervisor = _amount(supervisor_limit, venue, "supervisor_limit")
    manager = _amount(manager_limit, venue, "manager_limit")
    if manager < supervisor:
        raise InvalidInput(
            _("A manager's limit is at least a supervisor's (%(limit)s).")
            % {"limit": venue_money(supervisor, venue)},
            field="manager_limit",
        )
    Venue.objects.select_for_update().get(pk=venue.pk)  # numbers one after the other
    last = CompPolicy.objects.filter(venue=venue).order_by("-number").first()
    policy = CompPolicy.objects.create(
        venue=venue,
        number=(last.number + 1) if last else 1,
        reinvestment_pct=rate,
        supervisor_limit=supervisor,
        manager_limit=manager,
        proposed_by=user,
        proposed_at=timezone.now(),
    )
    audit_record(
        user=user,
        action=AuditAction.COMP_POLICY_PROPOSE,
        obj=policy,
        venue=venue,
        summary=f"proposed comp policy {policy.number}",
        after=_policy_dict(policy),
    )
    return policy


@transaction.atomic
def comp_policy_approve(*, policy: CompPolicy, user: Any) -> CompPolicy:
    """A second manager approves a proposed policy: from then on it is the one in force."""
    policy = CompPolicy.objects.select_for_update().select_related("venue").get(pk=policy.pk)
    if not can(user, MANAGE, policy.venue_id):
        raise Forbidden(_("only a manager approves a comp policy"))
    if policy.status != CompPolicy.Status.PROPOSED:
        raise Conflict(_("This comp policy is approved already."))
    if approves_own(user=user, made_by=[policy.proposed_by_id]):
        raise Forbidden(
            _(
                "You proposed this comp policy, so another manager must approve it "
                "(two-person rule)."
            )
        )
    before = _policy_dict(policy)
    policy.status = CompPolicy.Status.APPROVED
    policy.approved_by = user
    policy.approved_at = timezone.now()
    policy.save(update_fields=["status", "approved_by", "approved_at"])
    audit_record(
        user=user,
        action=AuditAction.COMP_POLICY_APPROVE,
        obj=policy,
        venue=policy.venue,
        summary=f"approved comp policy {policy.number}",
        before=before,
        after=_policy_dict(policy),
    )
    return policy


def comp_policy_in_force(venue: Venue | int) -> CompPolicy | None:
    """The venue's newest approved comp policy, or None (no comps are issued without one)."""
    venue_id = venue if isinstance(venue, int) else venue.pk
    return (
        CompPolicy.objects.filter(venue_id=venue_id, status=CompPolicy.Status.APPROVED)
        .order_by("-approved_at", "-number")
        .first()
    )


@dataclass(frozen=True)
class Earned:
    policy: CompPolicy | None
    date_from: date
    date_to: date
    theoretical_win: Decimal
    issued: Decimal
    #: rate x theoretical win - issued, never below 0 (0 without a policy).
    earned: Decimal


def comp_earned(player: Player) -> Earned:
    """What the player may be given now: see the module's description."""
    venue = Venue.objects.get(pk=player.venue_id)
    # The gaming day now (a comp given at 01:00 belongs to the day that began the evening
    # before), as the tables and their tallies count it.
    date_to = gaming_date_of(venue, timezone.now())
    date_from = date_to - timedelta(days=EARNED_DAYS - 1)
    policy = comp_policy_in_force(venue)
    theoretical = theoretical_win(player=player, date_from=date_from, date_to=date_to)
    issued = comps_issued(player=player, date_from=date_from, date_to=date_to)
    rate = policy.reinvestment_pct if policy else Decimal(0)
    earned = (theoretical * rate / 100).quantize(CENT) - issued
    return Earned(policy, date_from, date_to, theoretical, issued, max(earned, Decimal("0.00")))


@transaction.atomic
def comp_issue(*, player: Player, user: Any, amount: Any, kind: str, notes: str = "") -> Comp:
    """Give a player a comp: by a supervisor or a manager, within their limit and the
    player's earned amount, to a player the eligibility question allows; audited."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    venue = Venue.objects.get(pk=player.venue_id)
    if not can(user, SUPERVISE, venue.pk):
        raise Forbidden(_("only a supervisor or a manager issues comps"))
    check_player_may(player=player, venue=venue, activity=Activity.COMP)
    amount = _amount(amount, venue, "amount", positive=True)
    if kind not in Comp.Kind.values:
        raise InvalidInput(
            _("Choose what the comp is: %(kinds)s.")
            % {"kinds": ", ".join(str(label) for label in Comp.Kind.labels)},
            field="kind",
        )
    earned = comp_earned(player)
    policy = earned.policy
    if policy is None:
        raise Conflict(
            _(
                "The venue has no approved comp policy: a manager proposes one and a second "
                "manager approves it before comps are issued."
            )
        )
    manager = can(user, MANAGE, venue.pk)
    limit = policy.manager_limit if manager else policy.supervisor_limit
    if amount > limit:
        if manager:
            message = _("%(amount)s is over the largest comp a manager issues, %(limit)s.")
        else:
            message = _(
                "%(amount)s is over a supervisor's limit of %(limit)s a comp; a manager issues it."
            )
        raise InvalidInput(
            message % {"amount": venue_money(amount, venue), "limit": venue_money(limit, venue)},
            field="amount",
        )
    if amount > earned.earned:
        raise InvalidInput(
            _(
                "%(amount)s is over what the player has earned, %(earned)s (%(rate)s%% of a "
                "theoretical win of %(theoretical)s over %(from)s to %(to)s, less %(issued)s "
                "already given)."
            )
            % {
                "amount": venue_money(amount, venue),
                "earned": venue_money(earned.earned, venue),
                "rate": policy.reinvestment_pct,
                "theoretical": venue_money(earned.theoretical_win, venue, computed=True),
                "from": earned.date_from.isoformat(),
                "to": earned.date_to.isoformat(),
                "issued": venue_money(earned.issued, venue),
            },
            field="amount",
        )
    comp = Comp.objects.create(
        venue=venue,
        player=player,
        policy=policy,
        amount=amount,
        kind=kind,
        issued_by=user,
        authorised_by=user if amount > policy.supervisor_limit else None,
        issued_at=timezone.now(),
        gaming_date=earned.date_to,
        earned=earned.earned,
        notes=(notes or "").strip()[:255],
    )
    audit_record(
        user=user,
        action=AuditAction.COMP_ISSUE,
        obj=comp,
        venue=venue,
        summary=f"comp of {amount} ({kind}) to player {player.membership_number}",
        after={
            "player": player.pk,
            "amount": str(amount),
            "kind": kind,
            "earned": str(earned.earned),
            "policy": policy.number,
            "authorised_by": comp.authorised_by_id,
        },
    )
    return comp
