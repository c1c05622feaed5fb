"""Reads of rated table games: a version as the engine's rules, and the ratings in force."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import QuerySet

from tablegames import engine
from tablegames.models import Rating, TableGameRulesetVersion

#: The one bet type a rated table's limits name: the average bet a rating may record.
BET_TYPE = "bet"


def snapshot(version: TableGameRulesetVersion) -> engine.Ruleset:
    """The version's rules as the engine's frozen ``Ruleset``."""
    return engine.Ruleset(
        code=version.ruleset.code,
        name=version.ruleset.name,
        game_name=version.game_name,
        house_edge=version.house_edge_rate,
        decisions_per_hour=version.decisions_per_hour,
        rounding_unit=version.rounding_unit,
        rounding_mode=version.rounding_mode,
    )


def ratings_in_force() -> QuerySet[Rating]:
    """Ratings no correction replaced, with their player, session and table."""
    return Rating.objects.filter(replaced_by__isnull=True).select_related(
        "player", "session__table", "version", "entered_by"
    )


def session_ratings(session: Any) -> list[Rating]:
    """The session's ratings in force, in order of time in."""
    return list(ratings_in_force().filter(session=session).order_by("started_at", "pk"))


def ratings_between(
    *, player_ids: list[int] | None, date_from: date, date_to: date, venue_id: int | None = None
) -> QuerySet[Rating]:
    """Ratings in force at sessions of shifts whose gaming date is in the range (at the
    venue's tables only, when ``venue_id`` names one)."""
    found = ratings_in_force().filter(
        session__shift__gaming_date__gte=date_from, session__shift__gaming_date__lte=date_to
    )
    if player_ids is not None:
        found = found.filter(player_id__in=list(player_ids))
    if venue_id is not None:
        found = found.filter(session__table__venue_id=venue_id)
    return found.order_by("started_at", "pk")


def shift_ratings(shift: Any) -> list[Rating]:
    """The shift's ratings in force (its sessions'), by table then time in."""
    return list(
        ratings_in_force()
        .filter(session__shift=shift)
        .order_by("session__table__code", "started_at", "pk")
    )
