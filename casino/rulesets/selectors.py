"""Reads of rulesets and their versions, scoped to the venues a user works at (the API's).

A ``*_get`` returns ``None`` for a ruleset at another venue exactly as for one that does not
exist: callers answer both with "not found".
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from django.db.models import QuerySet, prefetch_related_objects
from django.utils import timezone

from casino.compiled import SAMPLE_KEY, SAMPLE_TIME, Compiled
from casino.kernel import registry
from casino.rulesets.models import Ruleset, RulesetVersion, VersionStatus
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
        return registry.get(ruleset.game).version_model
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
    prefetch_related_objects([version], *registry.get(ruleset.game).rule_relations)
    return version


V = TypeVar("V", bound=RulesetVersion)


def version_in_force(*, model: type[V], ruleset: Ruleset, at: datetime | None = None) -> V | None:
    """The version of ``ruleset`` that governs a round dealt at ``at`` (now by default)."""
    read = _IN_FORCE.get(model)
    if read is None:
        read = _IN_FORCE[model] = Compiled(
            lambda ruleset_id, at: (
                model.objects.filter(
                    ruleset_id=ruleset_id,
                    status__in=[VersionStatus.ACTIVE, VersionStatus.RETIRED],
                    effective_from__lte=at,
                )
                .exclude(retired_at__lte=at)
                .order_by("-effective_from")[:1]
            ),
            samples=(SAMPLE_KEY, SAMPLE_TIME),
        )
    return read.first(ruleset.pk, at or timezone.now())


#: Each game's read of the version in force, its SQL built once (``casino.compiled``);
#: one per game's version model, so bounded by the games installed.
_IN_FORCE: dict[type, Compiled] = {}
