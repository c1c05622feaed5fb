"""Writes to Mau Binh rulesets (drafts, edits, preset installs).

Statuses, numbering, approval and activation are the shared services in
``casino.rulesets.services``; this module adds what is particular to Mau Binh rules.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from casino.rulesets import services as rulesets
from casino.venues.models import Venue
from maubinh import engine
from maubinh.engine import presets
from maubinh.engine.rules import InstantWin
from maubinh.models import RULE_FIELDS, InstantWinAmount, MauBinhRulesetVersion, RowBonus

#: The rules a new draft made from scratch starts from (docs/RULES.md B3's current rules).
DEFAULT_PRESET = "bigkool-2016"


def _row_bonuses(version: MauBinhRulesetVersion, rules: engine.Ruleset) -> list[RowBonus]:
    return RowBonus.objects.bulk_create(
        RowBonus(version=version, row=row.value, category=category.name, chi=chi)
        for (row, category), chi in rules.row_bonuses.items()
    )


def _instant_wins(
    version: MauBinhRulesetVersion,
    rules: engine.Ruleset,
    *,
    besides: frozenset[str] | set[str] = frozenset(),
) -> list[InstantWinAmount]:
    """An amount for every instant win not in ``besides`` (0: the rules do not pay it)."""
    return InstantWinAmount.objects.bulk_create(
        InstantWinAmount(version=version, kind=kind.value, chi=rules.instant_win_amount(kind))
        for kind in InstantWin
        if kind.value not in besides
    )


def _fill_rules(version: MauBinhRulesetVersion, rules: engine.Ruleset) -> None:
    """Write an engine snapshot's rules onto the saved, still empty ``version``."""
    version.scoop_multiplier = rules.scoop_multiplier
    version.fee_rate = rules.fee_rate
    version.quit_penalty = rules.quit_penalty
    version.wheel_is_lowest = rules.wheel_is_lowest
    version.foul_counts_as_scoop = rules.foul_counts_as_scoop
    version.dragon_flush_counts_as_dragon = rules.dragon_flush_counts_as_dragon
    version.tied_instant_wins = rules.tied_instant_wins.value
    version.fee_basis = rules.fee_basis.value
    version.declaring = rules.declaring.value
    version.instant_win_when_fouled = rules.instant_win_when_fouled
    version.foul_pays_row_bonuses = rules.foul_pays_row_bonuses
    version.full_clean(exclude=["ruleset"])
    version.save()
    _row_bonuses(version, rules)
    _instant_wins(version, rules)


@transaction.atomic
def version_fill_default_rows(*, version: MauBinhRulesetVersion) -> int:
    """Give a draft without rows the standard row bonuses and an amount for every instant
    win (those of ``DEFAULT_PRESET``); returns how many rows were added."""
    if not version.is_editable:
        raise ValidationError("Only a draft's rows can be filled in.")
    rules = presets.get(DEFAULT_PRESET)
    added = 0 if version.row_bonuses.exists() else len(_row_bonuses(version, rules))
    have = set(version.instant_wins.values_list("kind", flat=True))
    return added + len(_instant_wins(version, rules, besides=have))


def version_save_draft(*, version: MauBinhRulesetVersion, user: Any) -> MauBinhRulesetVersion:
    """Save a draft's own fields (the admin form). A new draft gets the next number and the
    standard rows, to be edited."""
    return rulesets.version_save_draft(
        model=MauBinhRulesetVersion,
        version=version,
        user=user,
        rule_fields=RULE_FIELDS,
        fill_default_rows=lambda draft: version_fill_default_rows(version=draft),
    )


def preset_install(*, code: str) -> MauBinhRulesetVersion:
    """Install a shipped preset as a venue-less ruleset whose version 1 is active.

    Presets are the engine's own data, so they skip the two-person rule; installing one
    twice changes nothing. The house take is simulated on the first install.
    """
    return rulesets.preset_install(
        model=MauBinhRulesetVersion,
        game="maubinh",
        code=code,
        rules=presets.get(code),
        fill=_fill_rules,
    )


def venue_ruleset_from_preset(
    *, venue: Venue, preset_code: str, editor: Any, **options: Any
) -> MauBinhRulesetVersion:
    """Give ``venue`` its own Mau Binh ruleset copied from a preset, as a draft by ``editor``.

    With an ``approver`` (another person) the draft is approved and activated at once
    (approval simulates the house take unless the same rules were simulated before).

    ``options``: ``approver``, ``code``, ``name``, ``override_reason``
    (``casino.rulesets.services.preset_copy_to_venue``).
    """
    return rulesets.preset_copy_to_venue(
        model=MauBinhRulesetVersion,
        game="maubinh",
        venue=venue,
        preset_code=preset_code,
        rules=presets.get(preset_code),
        fill=_fill_rules,
        editor=editor,
        **options,
    )
