"""The house edge panel: exact odds of a version's rules, cached by their content hash.

``figures_compute`` (run by a Celery task) counts the odds with ``niuniu.engine.odds``
and stores them in a ``RulesFigures`` row keyed by ``rules_hash``; every version with the
same rules reads that row. The hash leaves the rounding out, so the house edge at a few
stakes with each commission rounded (``ROUNDED_STAKES``) is stored in the row per rounding
unit and mode, under ``odds["rounded"]``; a row stored before has none, and the panel
shows it as it did. ``figures_summary`` turns them into what the admin shows and
what approval stores on the version; ``figures_warnings`` says what needs an override.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy

from casino.kernel.money import Rounding, plain, venue_money, written
from niuniu.engine import odds as exact
from niuniu.engine.rules import Category, Ruleset
from niuniu.models import BET_TYPE_LABELS, CATEGORY_LABELS, NiuNiuRulesetVersion, RulesFigures
from niuniu.selectors import ruleset_snapshot, version_with_rules

#: A bet whose house edge is above this is flagged as unusually high (overridable in
#: settings as ``RULESET_HIGH_HOUSE_EDGE``); a negative edge always is.
DEFAULT_HIGH_HOUSE_EDGE = Decimal("0.25")

#: The stakes, in rounding units, at which the panel shows each bet's house edge with every
#: commission rounded as the version rounds it (a small stake is where rounding weighs most).
ROUNDED_STAKES = (1, 10, 100)
#: The key of ``RulesFigures.odds`` holding those edges: ``{rounding: {stake: {bet: edge}}}``.
ROUNDED = "rounded"
#: How the panel's sentence names a rounding mode ("commission rounded up to 1,000").
ROUNDING_WORDS = {
    Rounding.UP: pgettext_lazy("commission rounded", "up"),
    Rounding.HALF_UP: pgettext_lazy("commission rounded", "half up"),
    Rounding.DOWN: pgettext_lazy("commission rounded", "down"),
}


def high_house_edge() -> Decimal:
    return Decimal(str(getattr(settings, "RULESET_HIGH_HOUSE_EDGE", DEFAULT_HIGH_HOUSE_EDGE)))


def version_rules_hash(version: NiuNiuRulesetVersion) -> str:
    return exact.rules_hash(ruleset_snapshot(version_with_rules(version.pk)))


def rounding_key(unit: Decimal, mode: Rounding | str) -> str | None:
    """Which rounding the stored edges are of (``"1000 up"``); ``None`` when the commission
    is not rounded to a unit, so the rounding changes no edge.

    >>> rounding_key(Decimal("1000.00"), "up"), rounding_key(Decimal("1000"), "none")
    ('1000 up', None)
    """
    if Rounding(mode) == Rounding.NONE or not unit > 0:
        return None
    return f"{plain(unit)} {Rounding(mode).value}"


def rounded_edges(rules: Ruleset) -> dict[str, dict[str, str]]:
    """Each bet's exact house edge at every stake of ``ROUNDED_STAKES`` with each commission
    rounded as ``rules`` round it: ``{stake: {bet: edge}}``, in decimal strings."""
    stakes = (rules.rounding_unit * units for units in ROUNDED_STAKES)
    return {
        plain(stake): {
            b.value: str(exact.as_decimal(o.house_edge))
            for b, o in exact.ruleset_odds(rules, stake=stake).bets.items()
        }
        for stake in stakes
    }


#: The exact odds of the rules this process computed, by rules hash: the same rules give the
#: same odds, so a second venue (or a rolled-back transaction) copying them costs nothing.
_EXACT_ODDS: dict[str, exact.RulesetOdds] = {}
EXACT_ODDS_KEPT = 64


def exact_odds(rules_hash: str, rules: Ruleset) -> exact.RulesetOdds:
    """``exact.ruleset_odds(rules)``, computed once per process for each rules hash."""
    odds = _EXACT_ODDS.get(rules_hash)
    if odds is None:
        if len(_EXACT_ODDS) >= EXACT_ODDS_KEPT:
            _EXACT_ODDS.clear()
        odds = _EXACT_ODDS[rules_hash] = exact.ruleset_odds(rules)
    return odds


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

    The edges at a few stakes under the version's rounding are added to a done row that
    lacks them (another version with the same rules rounds otherwise, or the row was stored
    before they were).

    Locking: the ``RulesFigures`` row is locked while it is computed, so two workers never
    compute the same rules at once; the second finds it done.
    """
    version = version_with_rules(version_id)
    rules = ruleset_snapshot(version)
    rules_hash = exact.rules_hash(rules)
    key = rounding_key(rules.rounding_unit, rules.rounding_mode)
    with transaction.atomic():
        row, _created = RulesFigures.objects.select_for_update().get_or_create(
            rules_hash=rules_hash
        )
        done = row.status == RulesFigures.Status.DONE
        if done and (key is None or key in row.odds.get(ROUNDED, {})):
            return row
        if not done:
            row.odds = exact_odds(rules_hash, rules).to_dict()
            row.status = RulesFigures.Status.DONE
            row.progress = 100
            row.error = ""
            row.computed_at = timezone.now()
        if key is not None:
            row.odds[ROUNDED] = {**row.odds.get(ROUNDED, {}), key: rounded_edges(rules)}
        row.save(update_fields=["odds", "status", "progress", "error", "computed_at"])
    return row


def figures_lack_rounding(version: NiuNiuRulesetVersion, row: RulesFigures) -> bool:
    """True when a done row has no edges yet for the version's rounding."""
    key = rounding_key(version.rounding_unit, version.rounding_mode)
    return (
        row.status == RulesFigures.Status.DONE
        and key is not None
        and key not in row.odds.get(ROUNDED, {})
    )


def figures_failed(*, version_id: int, error: str) -> None:
    """Record that computing a version's figures failed for good (shown on the panel)."""
    row = figures_row(NiuNiuRulesetVersion.objects.get(pk=version_id))
    if row.status != RulesFigures.Status.DONE:
        row.status = RulesFigures.Status.FAILED
        row.error = error[:2000]
        row.save(update_fields=["status", "error"])


def figures_summary(
    row: RulesFigures, version: NiuNiuRulesetVersion | None = None
) -> dict[str, Any]:
    """What is shown and stored: per bet the edge, SD, hit rate and exposure; per hand its
    frequency; with ``version``, its rounding and (when the row has them) the edges at a few
    stakes under it. Decimal strings, so the figures travel as JSON without floats."""
    result = exact.RulesetOdds.from_dict(row.odds)
    summary = {
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
    if version is not None:
        key = rounding_key(version.rounding_unit, version.rounding_mode)
        stored = row.odds.get(ROUNDED, {})
        summary[ROUNDED] = {
            "unit": plain(version.rounding_unit),
            "mode": Rounding(version.rounding_mode).value,
            # {} when the rounding changes nothing, None while the task adds them
            "house_edge": {} if key is None else stored.get(key),
        }
    return summary


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
    summary: dict[str, Any], compared: dict[str, Any] | None, venue: Any = None
) -> dict[str, Any]:
    """The panel's tables: per bet and per hand, with the change from ``compared``; per bet
    the edge at a few stakes under the version's rounding when the summary has them
    (amounts as ``venue`` writes them)."""

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
    return {"bets": bets, "hands": hands, "rounded": _rounded_rows(summary, venue)}


def _rounded_rows(summary: dict[str, Any], venue: Any) -> dict[str, Any] | None:
    """The rounded edges' table (a heading per stake, a row per bet), or what the panel
    says when the commission is not rounded or the edges are still being computed; ``None``
    for figures stored without them (approved before the panel showed them)."""
    rounded = summary.get(ROUNDED)
    if rounded is None:
        return None
    if rounded["house_edge"] is None:
        return {
            "note": gettext(
                "The house edge under this version's rounding is being computed; reload the "
                "panel in a moment to see it."
            )
        }
    if not rounded["house_edge"]:
        return {
            "note": gettext(
                "The commission is not rounded to a unit (rounding mode: none), so the "
                "rounding changes nothing: at every stake the house edge is the exact one above."
            )
        }

    def amount(text: str) -> str:
        return venue_money(text, venue) if venue is not None else written(Decimal(text))

    mode = ROUNDING_WORDS[Rounding(rounded["mode"])]
    stakes = list(rounded["house_edge"])
    headings = [
        gettext("House edge at a stake of %(amount)s, commission rounded %(mode)s to %(unit)s")
        % {"amount": amount(stake), "mode": mode, "unit": amount(rounded["unit"])}
        for stake in stakes
    ]
    bets = [
        {
            "label": BET_TYPE_LABELS.get(bet_type, bet_type),
            "edges": [Decimal(rounded["house_edge"][stake][bet_type]) for stake in stakes],
        }
        for bet_type in rounded["house_edge"][stakes[0]]
    ]
    return {"headings": headings, "bets": bets}


def _flag(edge: Decimal, limit: Decimal) -> str:
    if edge < 0:
        return "favours the player"
    return "unusually high" if edge > limit else ""
