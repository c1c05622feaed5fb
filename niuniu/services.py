"""Writes to Niu Niu rulesets: drafts, edits, preset installs.

Statuses, numbering, approval and activation are the shared services in
``casino.rulesets.services``; this module adds what is particular to Niu Niu rules.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from casino.rulesets import services as rulesets
from casino.venues.models import Venue
from niuniu import engine
from niuniu.engine import presets
from niuniu.engine.rules import BetType, Category
from niuniu.models import (
    RULE_FIELDS,
    SPECIAL_RANK_FIELDS,
    BonusLine,
    NiuNiuRulesetVersion,
    PaytableRow,
    SpecialRank,
)

#: A new draft's rows before the manager edits them: even money, no commission.
DEFAULT_ROW = {
    "win_odds": Decimal("1"),
    "commission_rate": Decimal("0"),
    "loss_multiple": Decimal("1"),
}


def _fill_rules(version: NiuNiuRulesetVersion, rules: engine.Ruleset) -> None:
    """Write an engine snapshot's rules onto the saved, still empty ``version``."""
    version.offers_double = BetType.DOUBLE in rules.paytable
    version.offers_super = BetType.SUPER in rules.paytable
    version.five_small = Category.FIVE_SMALL in rules.special_hands
    version.four_of_a_kind = Category.FOUR_OF_A_KIND in rules.special_hands
    version.five_face = Category.FIVE_FACE in rules.special_hands
    version.double_deposit_multiple = rules.deposit_multiples.get(BetType.DOUBLE, Decimal("3"))
    version.super_deposit_multiple = rules.deposit_multiples.get(BetType.SUPER, Decimal("10"))
    version.double_deposit_basis = rules.deposit_basis(BetType.DOUBLE).value
    version.super_deposit_basis = rules.deposit_basis(BetType.SUPER).value
    for category, field in SPECIAL_RANK_FIELDS.items():
        level = category in rules.level_with_niu_niu
        setattr(
            version, field, SpecialRank.LEVEL_WITH_NIU_NIU if level else SpecialRank.ABOVE_NIU_NIU
        )
    version.max_boxes = rules.max_boxes
    version.full_clean(exclude=["ruleset"])
    version.save()
    PaytableRow.objects.bulk_create(
        PaytableRow(
            version=version,
            bet_type=bet_type.value,
            category=category.name,
            win_odds=row.win_odds,
            commission_rate=row.commission_rate,
            loss_multiple=row.loss_multiple,
        )
        for bet_type, rows in rules.paytable.items()
        for category, row in rows.items()
    )
    BonusLine.objects.bulk_create(
        BonusLine(
            version=version,
            position=n,
            name=line.name,
            predicate=line.predicate.value,
            odds=line.odds,
        )
        for n, line in enumerate(rules.bonus_lines, start=1)
    )


@transaction.atomic
def version_fill_default_rows(*, version: NiuNiuRulesetVersion) -> int:
    """Give a draft a row for every hand and bet type it lacks; returns how many were added."""
    if not version.is_editable:
        raise ValidationError("Only a draft's rows can be filled in.")
    existing = set(version.paytable_rows.values_list("bet_type", "category"))
    new_rows = [
        PaytableRow(version=version, bet_type=b.value, category=c.name, **DEFAULT_ROW)
        for b in version.enabled_bet_types()
        for c in version.enabled_categories()
        if (b.value, c.name) not in existing
    ]
    PaytableRow.objects.bulk_create(new_rows)
    return len(new_rows)


def version_save_draft(*, version: NiuNiuRulesetVersion, user: Any) -> NiuNiuRulesetVersion:
    """Save a draft's own fields (the admin form). A new draft gets the next number."""
    return rulesets.version_save_draft(
        model=NiuNiuRulesetVersion,
        version=version,
        user=user,
        rule_fields=RULE_FIELDS,
        fill_default_rows=lambda draft: version_fill_default_rows(version=draft),
    )


def preset_install(*, code: str) -> NiuNiuRulesetVersion:
    """Install a shipped preset as a venue-less ruleset whose version 1 is active.

    Presets are the engine's own data, so they skip the two-person rule; installing one
    twice changes nothing.
    """
    return rulesets.preset_install(
        model=NiuNiuRulesetVersion,
        game="niuniu",
        code=code,
        rules=presets.get(code),
        fill=_fill_rules,
    )


def venue_ruleset_from_preset(
    *, venue: Venue, preset_code: str, editor: Any, **options: Any
) -> NiuNiuRulesetVersion:
    """Give ``venue`` its own ruleset copied from a preset, as a draft by ``editor``.

    With an ``approver`` (another person) the draft is approved and activated at once;
    ``override_reason`` is needed when the preset's figures warn (macau-001's bonus).

    ``options``: ``approver``, ``code``, ``name``, ``override_reason``
    (``casino.rulesets.services.preset_copy_to_venue``).
    """
    return rulesets.preset_copy_to_venue(
        model=NiuNiuRulesetVersion,
        game="niuniu",
        venue=venue,
        preset_code=preset_code,
        rules=presets.get(preset_code),
        fill=_fill_rules,
        editor=editor,
        **options,
    )
