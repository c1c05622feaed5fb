"""Reads of rulesets and their versions, scoped to the venues a user works at (the API's).

A ``*_get`` returns ``None`` for a ruleset at another venue exactly as for one that does not
exist: callers answer both with "not found".
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet, prefetch_related_objects

from casino import games
from casino.rulesets.models import Ruleset, RulesetVersion
from casino.staff.roles import venue_ids


def ruleset_list(
    *, user: Any, venue_id: int | None = None, game: str | None = None
) -> QuerySet[Ruleset]:
    """The rulesets of the user's venues (the shipped presets are templates, not listed)."""
    rulesets = (
        Ruleset.objects.filter(venue_id__in=venue_ids(user))
        .select_related("venue")
        .order_by("venue__code", "game", "code")
    )
    if venue_id is not None:
        rulesets = rulesets.filter(venue_id=venue_id)
    if game:
        rulesets = rulesets.filter(game=game)
    return rulesets


def ruleset_get(*, user: Any, pk: int) -> Ruleset | None:
    return ruleset_list(user=user).filter(pk=pk).first()


def _version_model(ruleset: Ruleset) -> type[RulesetVersion] | None:
    try:
        return games.get(ruleset.game).version_model
    except LookupError:
        return None


def ruleset_versions(*, ruleset: Ruleset) -> list[RulesetVersion]:
    """Every version of a ruleset, newest first, with the people who made them."""
    model = _version_model(ruleset)
    if model is None:
        return []
    return list(
        model.objects.filter(ruleset=ruleset)
        .select_related("created_by", "approved_by", "activated_by")
        .order_by("-number")
    )


def ruleset_version_get(*, ruleset: Ruleset, number: int) -> RulesetVersion | None:
    """One version of a ruleset with its rules (a game's rows and lines) loaded."""
    model = _version_model(ruleset)
    if model is None:
        return None
    version = (
        model.objects.filter(ruleset=ruleset, number=number)
        .select_related("created_by", "approved_by", "activated_by")
        .first()
    )
    if version is None:
        return None
    version.ruleset = ruleset
    # The game's child rows of its rules (its adapter's ``rule_relations``), one query each.
    prefetch_related_objects([version], *games.get(ruleset.game).rule_relations)
    return version
