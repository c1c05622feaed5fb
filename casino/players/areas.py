"""Reads of the exclusion areas and the persons behind memberships: which area a venue is in
at an instant, and a person's memberships within it. The eligibility question
(``casino.players.eligibility``) reads them for barrings across venues, the cage's cash rule
(``casino.cage.services.thresholds.day_total``) for one person's cash across venues; the
areas are proposed and approved by ``casino.players.services``."""

from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet
from django.utils import timezone

from casino.players.hooks import operator_venue_ids
from casino.players.models import ExclusionArea, Player
from casino.venues.jurisdictions import jurisdiction_of
from casino.venues.models import Venue


def areas_in_force(at: datetime | None = None) -> list[ExclusionArea]:
    """The version in force of each area at ``at`` (now): its newest approved by then."""
    at = at or timezone.now()
    approved = (
        ExclusionArea.objects.filter(status=ExclusionArea.Status.APPROVED, approved_at__lte=at)
        .order_by("code", "-approved_at", "-number")
        .prefetch_related("venues")
    )
    newest: dict[str, ExclusionArea] = {}
    for area in approved:
        newest.setdefault(area.code, area)
    return list(newest.values())


def area_of(venue_id: int, at: datetime | None = None) -> ExclusionArea | None:
    """The area in force at ``at`` (now) that ``venue_id`` is in, or None."""
    for area in areas_in_force(at):
        if any(venue.pk == venue_id for venue in area.venues.all()):
            return area
    return None


def area_venue_ids(area: ExclusionArea | None) -> frozenset[int]:
    return frozenset(venue.pk for venue in area.venues.all()) if area is not None else frozenset()


def linked_memberships(
    player: Player, *, venue_ids: frozenset[int] | None = None
) -> QuerySet[Player]:
    """The other memberships of ``player``'s person (at ``venue_ids`` where given)."""
    if player.person_id is None:
        return Player.objects.none()
    others = Player.objects.filter(person_id=player.person_id).exclude(pk=player.pk)
    if venue_ids is not None:
        others = others.filter(venue_id__in=venue_ids)
    return others.select_related("venue").order_by("venue__code", "membership_number")


def cash_memberships(player: Player, at: datetime | None = None) -> list[int]:
    """The memberships whose cash counts with ``player``'s for the cash thresholds: the
    player's own, and their person's memberships at the venues whose cash adds up with their
    venue's: those of an area in force at ``at`` (now) that adds up cash
    (``ExclusionArea.aggregates_cash``), and, where the venue's jurisdiction adds up the
    operator's other venues (``Jurisdiction.aggregates_operator_venues``), the venues of the
    same jurisdiction its operating group runs. The cash rule's one place to ask it
    (``casino.cage.services.thresholds.day_total``)."""
    if player.person_id is None:
        return [player.pk]
    venue_ids = cash_venue_ids(player.venue, at)
    if not venue_ids:
        return [player.pk]
    others = linked_memberships(player, venue_ids=venue_ids)
    return [player.pk, *others.values_list("pk", flat=True)]


def cash_venue_ids(venue: Venue, at: datetime | None = None) -> frozenset[int]:
    """The venues whose cash adds up with ``venue``'s (see ``cash_memberships``); empty when
    only its own does."""
    area = area_of(venue.pk, at)
    found = area_venue_ids(area) if area is not None and area.aggregates_cash else frozenset()
    law = jurisdiction_of(venue)
    if law is not None and law.aggregates_operator_venues:
        run = operator_venue_ids(venue.pk)
        found |= frozenset(
            Venue.objects.filter(pk__in=run, jurisdiction=law.code).values_list("pk", flat=True)
        )
    return found
