"""Reads of Niu Niu rulesets; the one place a version becomes an engine snapshot."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from functools import lru_cache

from django.db.models import Prefetch

from casino.rulesets.models import Ruleset
from casino.rulesets.selectors import version_in_force
from niuniu import engine
from niuniu.engine.rules import BetType, BonusPredicate
from niuniu.models import BonusLine, NiuNiuRulesetVersion, PaytableRow


def version_with_rules(pk: int) -> NiuNiuRulesetVersion:
    """A version with its venue, paytable rows and bonus lines loaded in three queries."""
    return (
        NiuNiuRulesetVersion.objects.select_related("ruleset__venue")
        .prefetch_related(
            Prefetch("paytable_rows", queryset=PaytableRow.objects.all()),
            Prefetch("bonus_lines", queryset=BonusLine.objects.order_by("position")),
        )
        .get(pk=pk)
    )


def ruleset_snapshot(version: NiuNiuRulesetVersion) -> engine.Ruleset:
    """The frozen engine ruleset for ``version``: everything from the version alone (its
    rounding unit and mode too), nothing from the venue's current settings.

    Only the rows of the bet types and hands the version enables are carried over.
    """
    bet_types = version.enabled_bet_types()
    categories = version.enabled_categories()
    rows = {(r.bet_type, r.category): r for r in version.paytable_rows.all()}
    paytable = {
        bet_type: {
            category: engine.PaytableRow(
                win_odds=row.win_odds,
                commission_rate=row.commission_rate,
                loss_multiple=row.loss_multiple,
            )
            for category in categories
            if (row := rows.get((bet_type.value, category.name))) is not None
        }
        for bet_type in bet_types
    }
    bonus_lines = tuple(
        engine.BonusLine(name=line.name, predicate=BonusPredicate(line.predicate), odds=line.odds)
        for line in sorted(version.bonus_lines.all(), key=lambda line: line.position)
    )
    deposit_multiples = {b: version.deposit_multiple(b) for b in bet_types}
    if bonus_lines:
        deposit_multiples[BetType.BONUS] = Decimal("1")
    return engine.Ruleset(
        code=f"{version.ruleset.code}-v{version.number}",
        name=f"{version.ruleset.name} v{version.number}",
        paytable=paytable,
        deposit_multiples=deposit_multiples,
        special_hands=frozenset(c for c in categories if c.is_special),
        bonus_lines=bonus_lines,
        rounding_unit=version.rounding_unit,
        rounding_mode=version.rounding_mode,
        level_with_niu_niu=version.level_with_niu_niu(),
        deposit_bases=version.deposit_bases(),
        max_boxes=version.max_boxes,
    )


def version_in_force_for(ruleset: Ruleset) -> NiuNiuRulesetVersion | None:
    """The version of a Niu Niu ruleset in force now, with its rules loaded."""
    version = version_in_force(model=NiuNiuRulesetVersion, ruleset=ruleset)
    return version_with_rules(version.pk) if version else None


def cached_snapshot(version: NiuNiuRulesetVersion) -> engine.Ruleset:
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
