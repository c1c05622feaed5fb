"""The house edge panel: exact odds of a version's rules, cached by their content hash.

``figures_compute`` (run by a Celery task) counts the odds with ``niuniu.engine.odds``
and stores them in a ``RulesFigures`` row keyed by ``rules_hash``; every version with the
same rules reads that row. ``figures_summary`` turns them into what the admin shows and
what approval stores on the version; ``figures_warnings`` says what needs an override.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from niuniu.engine import odds as exact
from niuniu.engine.rules import Category
from niuniu.models import BET_TYPE_LABELS, CATEGORY_LABELS, NiuNiuRulesetVersion, RulesFigures
from niuniu.selectors import ruleset_snapshot, version_with_rules

#: A bet whose house edge is above this is flagged as unusually high (overridable in
#: settings as ``RULESET_HIGH_HOUSE_EDGE``); a negative edge always is.
DEFAULT_HIGH_HOUSE_EDGE = Decimal("0.25")


def high_house_edge() -> Decimal:
    return Decimal(str(getattr(settings, "RULESET_HIGH_HOUSE_EDGE", DEFAULT_HIGH_HOUSE_EDGE)))


def version_rules_hash(version: NiuNiuRulesetVersion) -> str:
    return exact.rules_hash(ruleset_snapshot(version_with_rules(version.pk)))


def figures_row(version: NiuNiuRulesetVersion) -> RulesFigures:
    """The figures row for the version's rules, created (pending) when there is none."""
    rules_hash = version_rules_hash(version)
    try:
        with transaction.atomic():
            row, _created = RulesFigures.objects.get_or_create(rules_hash=rules_hash)
    except IntegrityError:
        row = RulesFigures.objects.get(rules_hash=rules_hash)
    return row


def figures_compute(*, version_id: int) -> RulesFigures:
    """Compute and store the exact odds of a version's rules unless they are stored already.

    Locking: the ``RulesFigures`` row is locked while it is computed, so two workers never
    compute the same rules at once; the second finds it done.
    """
    version = version_with_rules(version_id)
    rules = ruleset_snapshot(version)
    rules_hash = exact.rules_hash(rules)
    with transaction.atomic():
        row, _created = RulesFigures.objects.select_for_update().get_or_create(
            rules_hash=rules_hash
        )
        if row.status == RulesFigures.Status.DONE:
            return row
        result = exact.ruleset_odds(rules)
        row.odds = result.to_dict()
        row.status = RulesFigures.Status.DONE
        row.progress = 100
        row.error = ""
        row.computed_at = timezone.now()
        row.save(update_fields=["odds", "status", "progress", "error", "computed_at"])
    return row


def figures_failed(*, version_id: int, error: str) -> None:
    """Record that computing a version's figures failed for good (shown on the panel)."""
    row = figures_row(NiuNiuRulesetVersion.objects.get(pk=version_id))
    if row.status != RulesFigures.Status.DONE:
        row.status = RulesFigures.Status.FAILED
        row.error = error[:2000]
        row.save(update_fields=["status", "error"])


def figures_summary(row: RulesFigures) -> dict[str, Any]:
    """What is shown and stored: per bet the edge, SD, hit rate and exposure; per hand its
    frequency. Decimal strings, so the figures travel as JSON without floats."""
    result = exact.RulesetOdds.from_dict(row.odds)
    return {
        "rules_hash": row.rules_hash,
        "house_edge": {
            b.value: str(exact.as_decimal(o.house_edge)) for b, o in result.bets.items()
        },
        "sd": {b.value: str(o.standard_deviation) for b, o in result.bets.items()},
        "win_probability": {
            b.value: str(exact.as_decimal(o.win_probability)) for b, o in result.bets.items()
        },
        "max_win_odds": {
            b.value: str(exact.as_decimal(o.max_win_odds)) for b, o in result.bets.items()
        },
        "exposure": {b.value: str(exact.as_decimal(o.exposure)) for b, o in result.bets.items()},
        "categories": {
            c.name: str(exact.as_decimal(result.category_probability(c))) for c in result.categories
        },
    }


def figures_warnings(summary: dict[str, Any]) -> list[str]:
    """Why approving these rules needs an explicit override, one sentence per bet."""
    limit = high_house_edge()
    warnings = []
    for bet_type, value in summary["house_edge"].items():
        edge = Decimal(value)
        label = BET_TYPE_LABELS.get(bet_type, bet_type)
        if edge < 0:
            warnings.append(
                f"{label}: the player is favoured (house edge {edge:.3%}); the venue loses "
                "money on this bet in the long run."
            )
        elif edge > limit:
            warnings.append(
                f"{label}: the house edge {edge:.3%} is unusually high (above {limit:.0%})."
            )
    return warnings


def figures_rows_for_display(
    summary: dict[str, Any], compared: dict[str, Any] | None
) -> dict[str, list[dict[str, Any]]]:
    """The panel's tables: per bet and per hand, with the change from ``compared``."""

    def delta(section: str, key: str) -> Decimal | None:
        if not compared or key not in compared.get(section, {}) or key not in summary[section]:
            return None
        return Decimal(summary[section][key]) - Decimal(compared[section][key])

    limit = high_house_edge()
    bets = []
    for bet_type, edge in summary["house_edge"].items():
        value = Decimal(edge)
        bets.append(
            {
                "label": BET_TYPE_LABELS.get(bet_type, bet_type),
                "house_edge": value,
                "house_edge_change": delta("house_edge", bet_type),
                "sd": Decimal(summary["sd"][bet_type]),
                "win_probability": Decimal(summary["win_probability"][bet_type]),
                "max_win_odds": Decimal(summary["max_win_odds"][bet_type]),
                "exposure": Decimal(summary["exposure"][bet_type]),
                "flag": "favours the player"
                if value < 0
                else "unusually high"
                if value > limit
                else "",
            }
        )
    hands = [
        {
            "label": CATEGORY_LABELS[Category[name]],
            "probability": Decimal(probability),
            "change": delta("categories", name),
        }
        for name, probability in summary["categories"].items()
    ]
    return {"bets": bets, "hands": hands}


def _flag(edge: Decimal, limit: Decimal) -> str:
    if edge < 0:
        return "favours the player"
    return "unusually high" if edge > limit else ""
