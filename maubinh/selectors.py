"""Reads of Mau Binh rulesets; the one place a version becomes an engine snapshot."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

from casino.rulesets.models import Ruleset
from casino.rulesets.selectors import version_in_force
from maubinh import engine
from maubinh.models import MauBinhRulesetVersion


def version_with_rules(pk: int) -> MauBinhRulesetVersion:
    """A version with its venue, row bonuses and instant-win amounts loaded in three queries."""
    return (
        MauBinhRulesetVersion.objects.select_related("ruleset__venue")
        .prefetch_related("row_bonuses", "instant_wins")
        .get(pk=pk)
    )


def ruleset_snapshot(version: MauBinhRulesetVersion) -> engine.Ruleset:
    """The frozen engine ruleset for ``version``: everything from the version alone (its
    rounding unit and mode too), nothing from the venue's current settings.

    An instant win with 0 chi is not paid, so it is left out (the engine reads a missing
    kind the same way).
    """
    return engine.Ruleset(
        code=f"{version.ruleset.code}-v{version.number}",
        name=f"{version.ruleset.name} v{version.number}",
        row_bonuses={(b.row, b.category): b.chi for b in version.row_bonuses.all()},
        instant_wins={w.kind: w.chi for w in version.instant_wins.all() if w.chi > 0},
        scoop_multiplier=version.scoop_multiplier,
        fee_rate=version.fee_rate,
        quit_penalty=version.quit_penalty,
        wheel_is_lowest=version.wheel_is_lowest,
        foul_counts_as_scoop=version.foul_counts_as_scoop,
        dragon_flush_counts_as_dragon=version.dragon_flush_counts_as_dragon,
        tied_instant_wins=version.tied_instant_wins,
        fee_basis=version.fee_basis,
        declaring=version.declaring,
        instant_win_when_fouled=version.instant_win_when_fouled,
        foul_pays_row_bonuses=version.foul_pays_row_bonuses,
        rounding_unit=version.rounding_unit,
        rounding_mode=version.rounding_mode,
    )


def version_in_force_for(ruleset: Ruleset) -> MauBinhRulesetVersion | None:
    """The version of a Mau Binh ruleset in force now, with its rules loaded."""
    version = version_in_force(model=MauBinhRulesetVersion, ruleset=ruleset)
    return version_with_rules(version.pk) if version else None


def cached_snapshot(version: MauBinhRulesetVersion) -> engine.Ruleset:
    """``ruleset_snapshot`` of an approved version, built once per process.

    Approved, active and retired versions never change (their rounding included), so their
    snapshot is cached by the version's identity and approval time. A draft is never cached.
    """
    if version.is_editable:
        return ruleset_snapshot(version_with_rules(version.pk))
    return _approved_snapshot(version.pk, version.approved_at)


# One per approved version read in this process: the versions in force at the venues' tables
# and the few a report or an integrity test reads back; 256 keeps them all without growing.
@lru_cache(maxsize=256)
def _approved_snapshot(pk: int, approved_at: datetime | None) -> engine.Ruleset:
    return ruleset_snapshot(version_with_rules(pk))
