"""Reads of the venues' players: the lists a user's venues hold, and the barrings in force
on a day, which the eligibility question (``casino.players.eligibility``) and every read
of players that says whether they are barred share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from casino.players.membership import membership_key
from casino.players.models import Player, PlayerBarring
from casino.players.names import document_key, name_key
from casino.staff.policy import Capability, venues_allowing
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


#: Why a candidate matched, as the duplicate search says it.
NAME, DATE_OF_BIRTH, DOCUMENT = "name", "date_of_birth", "document"
#: The most candidates one search returns.
MAX_CANDIDATES = 50


@dataclass(frozen=True)
class Candidate:
    """A membership the duplicate search found, and why: ``matched`` holds ``name``,
    ``date_of_birth`` and ``document``, those that match."""

    player: Player
    matched: tuple[str, ...]


def duplicate_candidates(
    *,
    user: Any,
    name: str = "",
    date_of_birth: date | None = None,
    id_document_type: str = "",
    id_document_number: str = "",
    id_document_country: str = "",
    exclude: int | None = None,
) -> list[Candidate]:
    """The memberships at the venues whose players ``user`` reads (their supervisors,
    managers and auditors) that may be the person described, before enrolling or linking:
    the same name (accents, case and word order aside, ``casino.players.names``), the same
    date of birth, or the same identity document (type and number, and the issuing country
    where given). Most reasons first; at most ``MAX_CANDIDATES``."""
    wanted_name = name_key(name)
    wanted_document = document_key(id_document_type, id_document_number, id_document_country)
    match = Q(pk__in=[])
    if wanted_name:
        match |= Q(name_key=wanted_name)
    if date_of_birth is not None:
        match |= Q(date_of_birth=date_of_birth)
    if wanted_document:
        kind, number, country = wanted_document.split("|")
        if country:
            match |= Q(document_key=wanted_document)
        elif kind:
            match |= Q(document_key__startswith=f"{kind}|{number}|")
        else:
            match |= Q(document_key__contains=f"|{number}|")
    found = (
        Player.objects.filter(venue_id__in=venues_allowing(user, Capability.READ_REPORTS))
        .filter(match)
        .select_related("venue")
        .order_by("venue__code", "membership_number")
    )
    if exclude is not None:
        found = found.exclude(pk=exclude)
    candidates = []
    for player in found[: MAX_CANDIDATES * 4]:
        matched = []
        if wanted_name and player.name_key == wanted_name:
            matched.append(NAME)
        if date_of_birth is not None and player.date_of_birth == date_of_birth:
            matched.append(DATE_OF_BIRTH)
        if wanted_document and _same_document(player.document_key, wanted_document):
            matched.append(DOCUMENT)
        candidates.append(Candidate(player, tuple(matched)))
    candidates.sort(key=lambda c: -len(c.matched))
    return candidates[:MAX_CANDIDATES]


def _same_document(stored: str, wanted: str) -> bool:
    kind, number, country = wanted.split("|")
    have_kind, have_number, have_country = [*stored.split("|"), "", ""][:3]
    return (
        have_number == number
        and (not kind or have_kind == kind)
        and (not country or have_country == country)
    )
