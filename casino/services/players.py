"""Registering and editing players (a manager's job).

Locking: an edit locks the player row; a membership number is unique per venue (the
database's constraint settles two registrations of one number at the same time).
A number is put in its one stored form (``casino.players.membership_number``) before it is
checked or saved, so ``hanoi-0001`` is ``HANOI-0001`` and ``MB-ß1`` is refused.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from casino.errors import Forbidden, InvalidInput
from casino.models import Player, Venue
from casino.players import NotAMembershipNumber, membership_number
from casino.roles import MANAGE, can
from casino.services.audit import audit_record

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
        action="player.create",
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
        action="player.update",
        obj=player,
        venue=Venue.objects.get(pk=player.venue_id),
        summary=f"edited player {player.membership_number}",
        before=before,
        after=after,
    )
    return player
