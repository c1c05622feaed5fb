"""Reads of the venues' players: the lists a user's venues hold, and the barrings in force
on a day, which the eligibility question (``casino.players.eligibility``) and every read
of players that says whether they are barred share."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from casino.players.membership import membership_key
from casino.players.models import Player, PlayerBarring
from casino.staff.roles import venue_ids


def player_list(
    *,
    user: Any,
    venue_id: int | None = None,
    search: str | None = None,
    membership_number: str | None = None,
    status: str | None = None,
) -> QuerySet[Player]:
    """Players at the user's venues; ``search`` matches the start of a membership number
    or any part of a name, ``membership_number`` matches exactly. Numbers are compared in
    their stored form (``casino.players.membership``): one that cannot be in it finds nobody."""
    players = (
        Player.objects.filter(venue_id__in=venue_ids(user))
        .select_related("venue")
        .order_by("venue__code", "membership_number")
    )
    if venue_id is not None:
        players = players.filter(venue_id=venue_id)
    if membership_number:
        number = membership_key(membership_number)
        players = players.filter(membership_number=number) if number else players.none()
    if search:
        term = search.strip()
        match = Q(name__icontains=term)
        prefix = membership_key(term)
        if prefix:
            match |= Q(membership_number__startswith=prefix)
        players = players.filter(match)
    if status:
        players = players.filter(status=status)
    return players


def player_get(*, user: Any, pk: int) -> Player | None:
    return player_list(user=user).filter(pk=pk).first()


def barrings_on(on: date) -> QuerySet[PlayerBarring]:
    """The barrings in force on ``on`` (the venue's date): not lifted, started, not ended."""
    return PlayerBarring.objects.filter(lifted_at__isnull=True, starts_on__lte=on).filter(
        Q(ends_on__isnull=True) | Q(ends_on__gte=on)
    )


def barred_on(on: date) -> Exists:
    """Whether the player (``OuterRef("pk")``) is barred on ``on``: an annotation, so the
    query that reads the players says it too."""
    return Exists(barrings_on(on).filter(player_id=OuterRef("pk")))
