"""The house edge panel: exact odds of a version's rules, cached by their content hash.

``figures_compute`` (run by a Celery task) counts every ordered deal of the shoe with
``baccarat.engine.ruleset_odds`` and stores the figures per bet type in a ``RulesFigures`` row
keyed by ``rules_hash``; every version with the same rules reads that row. The hash holds
what the odds depend on (the decks, the variant and the payouts), not the bets offered, the
rounding or how the commission is collected: the figures are per unit staked, commission at
its exact rate, for all six bets whether offered or not. ``figures_summary`` turns them into
what the admin shows and what approval stores on the version (``house_edge`` per bet type,
which the reports rate bets by); ``figures_warnings`` says what needs an override.
"""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from baccarat import engine
from baccarat.models import BET_TYPE_LABELS, BET_TYPES, BaccaratRulesetVersion, RulesFigures
from baccarat.selectors import ruleset_snapshot, version_with_rules

#: A bet whose house edge is above this is flagged as unusually high (overridable in
#: settings as ``RULESET_HIGH_HOUSE_EDGE``); a negative edge always is.
DEFAULT_HIGH_HOUSE_EDGE = Decimal("0.25")
#: Decimal places of a stored probability or edge (the counts are exact; this is their text).
PLACES = 12
#: The rules the odds depend on.
HASHED_FIELDS = (
    "decks",
    "variant",
    "banker_commission",
    "banker_six_odds",
    "tie_odds",
    "pair_odds",
    "super6_two_card_odds",
    "super6_three_card_odds",
)
WINNERS = ("player", "banker", "tie")


def high_house_edge() -> Decimal:
    return Decimal(str(getattr(settings, "RULESET_HIGH_HOUSE_EDGE", DEFAULT_HIGH_HOUSE_EDGE)))


def as_decimal(value: Fraction | int) -> Decimal:
    """An exact fraction as a decimal of ``PLACES`` places."""
    fraction = Fraction(value)
    with localcontext() as context:
        context.prec = 40
        return (Decimal(fraction.numerator) / Decimal(fraction.denominator)).quantize(
            Decimal(1).scaleb(-PLACES)
        )


def rules_hash(rules: engine.Ruleset) -> str:
    data = {name: str(getattr(rules, name)) for name in HASHED_FIELDS}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def version_rules_hash(version: BaccaratRulesetVersion) -> str:
    return rules_hash(ruleset_snapshot(version_with_rules(version.pk)))


def standard_deviation(line: Any) -> Decimal:
    """The SD of one unit staked (the reports' fluctuation test reads it)."""
    with localcontext() as context:
        context.prec = 40
        return as_decimal(line.variance).sqrt().quantize(Decimal(1).scaleb(-PLACES))


def odds_as_dict(odds: engine.RulesetOdds) -> dict[str, Any]:
    """What a ``RulesFigures`` row stores of ``ruleset_odds``: decimal strings, no floats."""
    bets = {}
    for bet in BET_TYPES:
        line = odds.bets[engine.BetType(bet)]
        bets[bet] = {
            "house_edge": str(as_decimal(line.house_edge)),
            "win_probability": str(as_decimal(line.win_probability)),
            "push_probability": str(as_decimal(line.push_probability)),
            "sd": str(standard_deviation(line)),
        }
    return {
        "deals": str(odds.total),
        "winners": {
            winner: str(as_decimal(odds.probability(engine.Winner(winner)))) for winner in WINNERS
        },
        "bets": bets,
    }


#: The figures of the rules this process counted, by rules hash: the same rules give the same
#: odds, so a second venue (or a rolled-back transaction) copying them costs nothing.
_COUNTED: dict[str, dict[str, Any]] = {}
COUNTED_KEPT = 64


def counted_odds(key: str, rules: engine.Ruleset) -> dict[str, Any]:
    """``odds_as_dict(engine.ruleset_odds(rules))``, counted once per process per hash."""
    odds = _COUNTED.get(key)
    if odds is None:
        if len(_COUNTED) >= COUNTED_KEPT:
            _COUNTED.clear()
        odds = _COUNTED[key] = odds_as_dict(engine.ruleset_odds(rules))
    return odds


def figures_row(version: BaccaratRulesetVersion) -> RulesFigures:
    """The figures row for the version's rules, created (pending) when there is none."""
    key = version_rules_hash(version)
    try:
        with transaction.atomic():
            row, _created = RulesFigures.objects.get_or_create(rules_hash=key)
    except IntegrityError:
        row = RulesFigures.objects.get(rules_hash=key)
    return row


def figures_compute(*, version_id: int) -> RulesFigures:
    """Compute and store the exact odds of a version's rules unless they are stored already.

    Locking: the ``RulesFigures`` row is locked while it is computed, so two workers never
    compute the same rules at once; the second finds it done.
    """
    rules = ruleset_snapshot(version_with_rules(version_id))
    key = rules_hash(rules)
    with transaction.atomic():
        row, _created = RulesFigures.objects.select_for_update().get_or_create(rules_hash=key)
        if row.status == RulesFigures.Status.DONE:
            return row
        row.odds = counted_odds(key, rules)
        row.status = RulesFigures.Status.DONE
        row.progress = 100
        row.error = ""
        row.computed_at = timezone.now()
        row.save(update_fields=["odds", "status", "progress", "error", "computed_at"])
    return row


def figures_failed(*, version_id: int, error: str) -> None:
    """Record that computing a version's figures failed for good (shown on the panel)."""
    row = figures_row(BaccaratRulesetVersion.objects.get(pk=version_id))
    if row.status != RulesFigures.Status.DONE:
        row.status = RulesFigures.Status.FAILED
        row.error = error[:2000]
        row.save(update_fields=["status", "error"])


def figures_summary(
    row: RulesFigures, version: BaccaratRulesetVersion | None = None
) -> dict[str, Any]:
    """What is shown and stored: per bet type its house edge and its chances to win and to
    push; the chance of each winner. With ``version``, only the bets it offers have a
    house edge (the reports rate those)."""
    bets = row.odds["bets"]
    offered = version.offered_bet_types() if version is not None else list(BET_TYPES)
    return {
        "rules_hash": row.rules_hash,
        "deals": row.odds["deals"],
        "house_edge": {bet: bets[bet]["house_edge"] for bet in offered},
        "win_probability": {bet: bets[bet]["win_probability"] for bet in offered},
        "push_probability": {bet: bets[bet]["push_probability"] for bet in offered},
        "sd": {bet: bets[bet]["sd"] for bet in offered},
        "winners": dict(row.odds["winners"]),
    }


def figures_warnings(summary: dict[str, Any]) -> list[str]:
    """Why approving these rules needs an explicit override, one sentence per bet."""
    limit = high_house_edge()
    warnings = []
    for bet, value in summary["house_edge"].items():
        edge = Decimal(value)
        label = BET_TYPE_LABELS.get(bet, bet)
        if edge < 0:
            warnings.append(
                gettext(
                    "%(bet)s: the player is favoured (house edge %(edge)s); the venue loses "
                    "money on this bet in the long run. Lower its payout."
                )
                % {"bet": label, "edge": percent(edge)}
            )
        elif edge > limit:
            warnings.append(
                gettext(
                    "%(bet)s: the house edge %(edge)s is unusually high (above %(limit)s); "
                    "check its payout."
                )
                % {"bet": label, "edge": percent(edge), "limit": percent(limit, 0)}
            )
    return warnings


def percent(value: Decimal, places: int = 3, *, signed: bool = False) -> str:
    """``Decimal("0.0124")`` as ``"1.240%"``."""
    text = f"{value * 100:{'+' if signed else ''}.{places}f}%"
    return text


def figures_rows_for_display(
    summary: dict[str, Any], compared: dict[str, Any] | None
) -> dict[str, Any]:
    """The panel's tables: per bet type and per winner, with the change from ``compared``."""
    limit = high_house_edge()

    def change(section: str, key: str) -> str:
        if not compared or key not in compared.get(section, {}):
            return ""
        delta = Decimal(summary[section][key]) - Decimal(compared[section][key])
        return percent(delta, signed=True) if delta else ""

    bets = []
    for bet, value in summary["house_edge"].items():
        edge = Decimal(value)
        bets.append(
            {
                "key": bet,
                "label": BET_TYPE_LABELS.get(bet, bet),
                "house_edge": percent(edge),
                "change": change("house_edge", bet),
                "win_probability": percent(Decimal(summary["win_probability"][bet])),
                "push_probability": percent(Decimal(summary["push_probability"][bet])),
                "flag": gettext("favours the player")
                if edge < 0
                else gettext("unusually high")
                if edge > limit
                else "",
            }
        )
    labels = {
        "player": BET_TYPE_LABELS["player"],
        "banker": BET_TYPE_LABELS["banker"],
        "tie": BET_TYPE_LABELS["tie"],
    }
    winners = [
        {
            "label": labels[winner],
            "probability": percent(Decimal(probability), 4),
            "change": change("winners", winner),
        }
        for winner, probability in summary["winners"].items()
    ]
    return {"bets": bets, "winners": winners, "deals": summary.get("deals", "")}
