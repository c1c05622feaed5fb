"""Registering and editing players (a manager's job).

Locking: an edit locks the player row; a membership number is unique per venue (the
database's constraint settles two registrations of one number at the same time).
A number is put in its one stored form (``casino.players.membership.membership_number``)
before it is checked or saved, so ``hanoi-0001`` is ``HANOI-0001`` and ``MB-ß1`` is refused.

Long because it is the players app's one door for writes: members, their identity, barrings,
links across venues and exclusion areas, each with its checks and audit event, sharing the
same refusals and locks.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.players.areas import areas_in_force
from casino.players.membership import NotAMembershipNumber, membership_number
from casino.players.models import ExclusionArea, Person, Player, PlayerBarring
from casino.players.names import group_key, masked
from casino.staff.policy import approval_refusal
from casino.staff.roles import MANAGE, can
from casino.venues.models import Venue

#: The fields of a player a manager may change.
EDITABLE = ("membership_number", "name", "status")


def _as_dict(player: Player) -> dict[str, str]:
    return {name: getattr(player, name) for name in EDITABLE}


def _number(typed: Any) -> str:
    """The stored form of a typed membership number, or ``InvalidInput`` saying what to type."""
    try:
        return membership_number(typed if isinstance(typed, str) else None)
    except NotAMembershipNumber as error:
        raise InvalidInput(str(error), field="membership_number") from None


def _taken(player: Player) -> InvalidInput:
    return InvalidInput(
        _(
            "Membership number %(number)s is already registered at this venue; look that "
            "player up instead of registering the number again."
        )
        % {"number": player.membership_number},
        field="membership_number",
    )


def _check(player: Player) -> None:
    """Field checks (lengths, choices) as ``InvalidInput`` naming the first bad field."""
    try:
        player.full_clean(exclude=["venue"], validate_constraints=False)
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise InvalidInput(f"{field}: {messages[0]}", field=field) from None
    # The number is in its stored form already: equality, served by the unique index.
    taken = Player.objects.filter(
        venue_id=player.venue_id, membership_number=player.membership_number
    ).exclude(pk=player.pk)
    if taken.exists():
        raise _taken(player)


def _save(player: Player, **kwargs: Any) -> None:
    try:
        with transaction.atomic():
            player.save(**kwargs)
    except IntegrityError:
        raise _taken(player) from None


@transaction.atomic
def player_create(
    *,
    venue: Venue,
    user: Any,
    membership_number: str,
    name: str,
    status: str = Player.Status.ACTIVE,
) -> Player:
    """Register a player at a venue; the membership number is unique there."""
    if not can(user, MANAGE, venue.pk):
        raise Forbidden("only a manager registers players")
    player = Player(
        venue=venue,
        membership_number=_number(membership_number),
        name=(name or "").strip(),
        status=status,
    )
    _check(player)
    _save(player)
    audit_record(
        user=user,
        action=AuditAction.PLAYER_CREATE,
        obj=player,
        venue=venue,
        summary=f"registered player {player.membership_number}",
        after=_as_dict(player),
    )
    return player


@transaction.atomic
def player_update(*, player: Player, user: Any, **changes: Any) -> Player:
    """Change a player's membership number, name or status (barring stops play at once)."""
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise InvalidInput(
            f"{', '.join(sorted(unknown))} cannot be changed; a player's editable fields are "
            f"{', '.join(EDITABLE)}",
            field=sorted(unknown)[0],
        )
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not can(user, MANAGE, player.venue_id):
        raise Forbidden("only a manager edits players")
    before = _as_dict(player)
    if "membership_number" in changes:
        changes["membership_number"] = _number(changes["membership_number"])
    for name, value in changes.items():
        setattr(player, name, value.strip() if isinstance(value, str) else value)
    _check(player)
    after = _as_dict(player)
    if after == before:
        return player
    _save(player, update_fields=list(changes))
    audit_record(
        user=user,
        action=AuditAction.PLAYER_UPDATE,
        obj=player,
        venue=Venue.objects.get(pk=player.venue_id),
        summary=f"edited player {player.membership_number}",
        before=before,
        after=after,
    )
    return player


# Identity: optional, changed by a manager, audited masked.

#: The identity fields of a player, all optional.
IDENTITY = (
    "date_of_birth",
    "nationality",
    "id_document_type",
    "id_document_number",
    "id_document_country",
)


def identity_of(player: Player, *, full: bool) -> dict[str, str]:
    """The player's identity as text: the document number masked unless ``full``, the
    date of birth as its year only unless ``full``."""
    born = player.date_of_birth
    return {
        "date_of_birth": (born.isoformat() if full else f"{born.year}-••-••") if born else "",
        "nationality": player.nationality,
        "id_document_type": player.id_document_type,
        "id_document_number": player.id_document_number
        if full
        else masked(player.id_document_number),
        "id_document_country": player.id_document_country,
    }


@transaction.atomic
def player_identity_update(*, player: Player, user: Any, **changes: Any) -> Player:
    """Change a player's identity (a manager's job); the audit holds it masked."""
    unknown = set(changes) - set(IDENTITY)
    if unknown:
        raise InvalidInput(
            _("%(fields)s cannot be changed here; the identity fields are %(known)s")
            % {"fields": ", ".join(sorted(unknown)), "known": ", ".join(IDENTITY)},
            field=sorted(unknown)[0],
        )
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not can(user, MANAGE, player.venue_id):
        raise Forbidden(_("only a manager changes a player's identity"))
    before = identity_of(player, full=False)
    for name, value in changes.items():
        if name == "date_of_birth":
            value = _birth_date(value)
        else:
            value = (value or "").strip() if isinstance(value, str) or value is None else value
        setattr(player, name, value)
    _check(player)
    after = identity_of(player, full=False)
    if identity_of(player, full=True) == identity_of(Player.objects.get(pk=player.pk), full=True):
        return player
    _save(player, update_fields=list(changes))
    audit_record(
        user=user,
        action=AuditAction.PLAYER_IDENTITY,
        obj=player,
        venue=Venue.objects.get(pk=player.venue_id),
        summary=f"changed the identity of player {player.membership_number}",
        before=before,
        after=after,
    )
    return player


def _birth_date(value: Any) -> date | None:
    if value in (None, ""):
        return None
    if isinstance(value, date):
        born = value
    else:
        try:
            born = date.fromisoformat(str(value).strip())
        except ValueError:
            raise InvalidInput(
                _("Enter the date of birth as YYYY-MM-DD, e.g. 1980-04-30."),
                field="date_of_birth",
            ) from None
    if born > date.today():
        raise InvalidInput(_("A date of birth cannot be in the future."), field="date_of_birth")
    return born


# Barring: from a day, optionally until a day; by a manager; lifted, never deleted. What a
# barring keeps a player from is the eligibility question's (casino.players.eligibility).


@transaction.atomic
def player_bar(
    *,
    player: Player,
    user: Any,
    reason: str,
    starts_on: date,
    ends_on: date | None = None,
    kind: str = PlayerBarring.Kind.BARRING,
) -> PlayerBarring:
    """Bar a player from ``starts_on`` (until ``ends_on``, or until lifted): a manager's job.
    ``kind`` says whether the venue bars them or they excluded themselves; the barring bars
    their linked memberships at the venue's exclusion area's other venues too
    (``casino.players.eligibility``)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not can(user, MANAGE, player.venue_id):
        raise Forbidden(_("only a manager bars a player"))
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(
            _("Give the reason for the barring; it is shown when seating."), field="reason"
        )
    if kind not in PlayerBarring.Kind.values:
        raise InvalidInput(
            _("Choose the kind of barring: %(kinds)s.")
            % {"kinds": ", ".join(str(label) for label in PlayerBarring.Kind.labels)},
            field="kind",
        )
    if ends_on is not None and ends_on < starts_on:
        raise InvalidInput(
            _("The barring ends before it starts: give an end on or after %(from)s.")
            % {"from": starts_on.isoformat()},
            field="ends_on",
        )
    barring = PlayerBarring.objects.create(
        player=player,
        kind=kind,
        reason=reason[:255],
        starts_on=starts_on,
        ends_on=ends_on,
        barred_by=user,
        barred_at=timezone.now(),
    )
    audit_record(
        user=user,
        action=AuditAction.PLAYER_BAR,
        obj=barring,
        venue=Venue.objects.get(pk=player.venue_id),
        summary=f"barred player {player.membership_number} from {starts_on}",
        after={
            "player": player.pk,
            "kind": kind,
            "reason": barring.reason,
            "starts_on": starts_on.isoformat(),
            "ends_on": ends_on.isoformat() if ends_on else None,
        },
    )
    return barring


@transaction.atomic
def group_keys_written() -> int:
    """Every member's group key as the group's secret now gives it (``Player.save`` writes
    it; this is for the members saved before the secret was set, or after it changed): the
    members whose key changed. A key is derived from the member's document, not a record of
    its own: no audit event."""
    secret = settings.GROUP_PSEUDONYM_KEY
    changed = [
        Player(pk=pk, group_key=wanted)
        for pk, document, key in Player.objects.values_list("pk", "document_key", "group_key")
        if (wanted := group_key(document, secret)) != key
    ]
    Player.objects.bulk_update(changed, ["group_key"], batch_size=1000)
    return len(changed)


def player_unbar(*, barring: PlayerBarring, user: Any, reason: str) -> PlayerBarring:
    """Lift a barring (kept, with who lifted it and why): a manager's job."""
    barring = PlayerBarring.objects.select_for_update().select_related("player").get(pk=barring.pk)
    if not can(user, MANAGE, barring.player.venue_id):
        raise Forbidden(_("only a manager lifts a barring"))
    if barring.lifted_at is not None:
        return barring
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(_("Give the reason for lifting the barring."), field="lift_reason")
    barring.lifted_by = user
    barring.lifted_at = timezone.now()
    barring.lift_reason = reason[:255]
    barring.save(update_fields=["lifted_by", "lifted_at", "lift_reason"])
    audit_record(
        user=user,
        action=AuditAction.PLAYER_UNBAR,
        obj=barring,
        venue=Venue.objects.get(pk=barring.player.venue_id),
        summary=f"lifted the barring of player {barring.player.membership_number}",
        before={"lifted": False},
        after={"lifted": True, "reason": barring.lift_reason},
    )
    return barring


# One person across the group's venues: memberships linked to a ``Person`` by a manager of
# each venue, with a reason; unlinked the same way. Nothing is deleted.


def _link_reason(reason: Any) -> str:
    reason = (reason or "").strip() if isinstance(reason, str) or reason is None else ""
    if not reason:
        raise InvalidInput(
            _("Give the reason, e.g. the passport seen at the cage matches both records."),
            field="reason",
        )
    return reason[:255]


def _where(player: Player) -> str:
    return f"{player.membership_number} ({player.venue.code})"


@transaction.atomic
def player_link(*, player: Player, other: Player, user: Any, reason: str) -> Person:
    """Link two memberships as one person's (a manager of both venues, with a reason); a
    membership already linked brings its person, so a third venue's joins the same one."""
    if player.pk == other.pk:
        raise InvalidInput(_("Choose another membership to link this one to."), field="other")
    locked = {
        p.pk: p
        for p in Player.objects.select_for_update(of=("self",))
        .select_related("venue")
        .filter(pk__in=[player.pk, other.pk])
        .order_by("pk")
    }
    player, other = locked[player.pk], locked[other.pk]
    for membership in (player, other):
        if not can(user, MANAGE, membership.venue_id):
            raise Forbidden(
                _("Only a manager of %(venue)s links its memberships.")
                % {"venue": membership.venue.name}
            )
    reason = _link_reason(reason)
    if player.person_id and other.person_id and player.person_id != other.person_id:
        raise Conflict(
            _(
                "%(first)s and %(second)s are each linked to other memberships already: "
                "unlink one of them first, then link it again."
            )
            % {"first": _where(player), "second": _where(other)},
            field="other",
        )
    if player.person_id and player.person_id == other.person_id:
        return Person.objects.get(pk=player.person_id)
    person_id = player.person_id or other.person_id
    person = (
        Person.objects.get(pk=person_id) if person_id else Person.objects.create(created_by=user)
    )
    for membership, partner in ((player, other), (other, player)):
        if membership.person_id == person.pk:
            continue
        membership.person = person
        membership.save(update_fields=["person"])
        audit_record(
            user=user,
            action=AuditAction.PLAYER_LINK,
            obj=membership,
            venue=membership.venue,
            summary=f"linked player {_where(membership)} to {_where(partner)} as one person",
            before={"person": None},
            after={"person": person.pk, "linked_to": partner.pk, "reason": reason},
        )
    return person


@transaction.atomic
def player_unlink(*, player: Player, user: Any, reason: str) -> Player:
    """Take a membership out of its person (a manager of its venue, with a reason): barrings
    at the area's other venues no longer reach it, nor its cash theirs."""
    player = (
        Player.objects.select_for_update(of=("self",)).select_related("venue").get(pk=player.pk)
    )
    if not can(user, MANAGE, player.venue_id):
        raise Forbidden(
            _("Only a manager of %(venue)s links its memberships.") % {"venue": player.venue.name}
        )
    reason = _link_reason(reason)
    if player.person_id is None:
        raise Conflict(
            _("%(player)s is linked to no other membership.") % {"player": _where(player)}
        )
    person_id = player.person_id
    player.person = None
    player.save(update_fields=["person"])
    audit_record(
        user=user,
        action=AuditAction.PLAYER_UNLINK,
        obj=player,
        venue=player.venue,
        summary=f"unlinked player {_where(player)} from person {person_id}",
        before={"person": person_id},
        after={"person": None, "reason": reason},
    )
    return player


# Exclusion areas: versioned with four eyes, as money and compliance rules are.


def _area_dict(area: ExclusionArea) -> dict[str, Any]:
    return {
        "code": area.code,
        "number": area.number,
        "name": area.name,
        "venues": sorted(v.code for v in area.venues.all()),
        "shares_details": area.shares_details,
        "aggregates_cash": area.aggregates_cash,
        "status": area.status,
    }


def _in_force(code: str) -> ExclusionArea | None:
    return next((a for a in areas_in_force() if a.code == code), None)


def _overlap(code: str, venues: Iterable[Any]) -> None:
    """Refuse a venue that another area in force holds (a venue is in one area at most)."""
    wanted = {v.pk: v for v in venues}
    for area in areas_in_force():
        if area.code == code:
            continue
        for venue in area.venues.all():
            if venue.pk in wanted:
                raise Conflict(
                    _(
                        "%(venue)s is in the exclusion area %(area)s already: a venue is in "
                        "one area at most; take it out of %(area)s first."
                    )
                    % {"venue": venue.name, "area": area.name},
                    field="venues",
                )


def _audit_area(area: ExclusionArea, user: Any, action: AuditAction, summary: str) -> None:
    after = _area_dict(area)
    for venue in area.venues.all():
        audit_record(user=user, action=action, obj=area, venue=venue, summary=summary, after=after)


@transaction.atomic
def exclusion_area_propose(
    *,
    user: Any,
    code: str,
    name: str,
    venues: Iterable[Venue],
    shares_details: bool = False,
    aggregates_cash: bool = False,
) -> ExclusionArea:
    """A manager of each of its venues (and of each venue of the version in force it
    replaces) proposes a version of an exclusion area; a second manager approves it."""
    code = (code or "").strip()
    if not code or slugify(code) != code.lower() or len(code) > 32:
        raise InvalidInput(
            _("Give the area a code of up to 32 letters, digits and -, e.g. vn or group."),
            field="code",
        )
    code = code.lower()
    name = (name or "").strip()[:120]
    if not name:
        raise InvalidInput(_("Give the area a name, e.g. Vietnam."), field="name")
    venues = list({v.pk: v for v in venues}.values())
    if not venues:
        raise InvalidInput(_("Choose the venues of the area."), field="venues")
    current = _in_force(code)
    affected = {v.pk: v for v in [*venues, *(current.venues.all() if current else [])]}
    for venue in affected.values():
        if not can(user, MANAGE, venue.pk):
            raise Forbidden(
                _("Only a manager of %(venue)s proposes an exclusion area that holds it.")
                % {"venue": venue.name}
            )
    if aggregates_cash and len({v.currency for v in venues}) > 1:
        raise InvalidInput(
            _(
                "Cash is added up across venues of one currency only (%(currencies)s here): "
                "leave cash apart, or make an area of one currency's venues."
            )
            % {"currencies": ", ".join(sorted({v.currency for v in venues}))},
            field="aggregates_cash",
        )
    _overlap(code, venues)
    last = ExclusionArea.objects.select_for_update().filter(code=code).order_by("-number").first()
    area = ExclusionArea.objects.create(
        code=code,
        number=(last.number + 1) if last else 1,
        name=name,
        shares_details=bool(shares_details),
        aggregates_cash=bool(aggregates_cash),
        proposed_by=user,
        proposed_at=timezone.now(),
    )
    area.venues.set(venues)
    _audit_area(
        area,
        user,
        AuditAction.EXCLUSION_AREA_PROPOSE,
        f"proposed exclusion area {code} version {area.number}",
    )
    return area


@transaction.atomic
def exclusion_area_approve(*, area: ExclusionArea, user: Any) -> ExclusionArea:
    """A second manager of each of its venues (not the proposer) approves a proposed version:
    it is in force from now, in place of the code's earlier one."""
    area = ExclusionArea.objects.select_for_update().get(pk=area.pk)
    if area.status != ExclusionArea.Status.PROPOSED:
        raise Conflict(_("This version of the exclusion area is approved already."))
    current = _in_force(area.code)
    venues = {v.pk: v for v in [*area.venues.all(), *(current.venues.all() if current else [])]}
    for venue in venues.values():
        refusal = approval_refusal(user=user, venue_id=venue.pk, made_by=[area.proposed_by_id])
        if refusal is not None:
            raise refusal
    _overlap(area.code, area.venues.all())
    area.status = ExclusionArea.Status.APPROVED
    area.approved_by, area.approved_at = user, timezone.now()
    area.save(update_fields=["status", "approved_by", "approved_at"])
    _audit_area(
        area,
        user,
        AuditAction.EXCLUSION_AREA_APPROVE,
        f"approved exclusion area {area.code} version {area.number}",
    )
    return area
