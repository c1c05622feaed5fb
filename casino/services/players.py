"""Registering and editing players (a manager's job).

Locking: an edit locks the player row; a membership number is unique per venue (the
database's constraint settles two registrations of one number at the same time).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from casino.errors import Forbidden, InvalidInput
from casino.models import Player, Venue
from casino.roles import MANAGE, can
from casino.services.audit import audit_record

#: The fields of a player a manager may change.
EDITABLE = ("membership_number", "name", "status")


def _as_dict(player: Player) -> dict[str, str]:
    return {name: getattr(player, name) for name in EDITABLE}


def _check(player: Player) -> None:
    """Field checks (lengths, choices) as ``InvalidInput`` naming the first bad field."""
    try:
        player.full_clean(exclude=["venue"], validate_constraints=False)
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise InvalidInput(f"{field}: {messages[0]}", field=field) from None
    taken = Player.objects.filter(
        venue_id=player.venue_id, membership_number__iexact=player.membership_number
    ).exclude(pk=player.pk)
    if taken.exists():
        raise InvalidInput(
            f"membership number {player.membership_number} is already registered at this venue",
            field="membership_number",
        )


def _save(player: Player, **kwargs: Any) -> None:
    try:
        with transaction.atomic():
            player.save(**kwargs)
    except IntegrityError:
        raise InvalidInput(
            f"membership number {player.membership_number} is already registered at this venue",
            field="membership_number",
        ) from None


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
        membership_number=(membership_number or "").strip(),
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
