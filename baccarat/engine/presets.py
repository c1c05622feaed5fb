"""The rulesets a venue starts from (docs/RULES.md, Part C): a commission game and a
no-commission game, both eight decks, Tie 8:1, pairs 11:1, Super 6 12:1 (two cards) and
20:1 (three cards).

>>> from baccarat.engine import presets
>>> presets.codes()
('commission', 'no-commission')
>>> presets.get("no-commission").banker_six_odds
Decimal('0.5')
"""

from __future__ import annotations

from decimal import Decimal

from baccarat.engine.rules import Ruleset, Variant

_PRESETS: dict[str, Ruleset] = {
    "commission": Ruleset(
        code="commission",
        name="Punto Banco, Banker 5% commission",
        decks=8,
        variant=Variant.COMMISSION,
        banker_commission=Decimal("0.05"),
    ),
    "no-commission": Ruleset(
        code="no-commission",
        name="Punto Banco, no commission (Banker win on 6 pays 1:2)",
        decks=8,
        variant=Variant.NO_COMMISSION,
        banker_six_odds=Decimal("0.5"),
    ),
}

#: The presets' codes, in the order a venue is offered them.
CODES: tuple[str, ...] = tuple(_PRESETS)


def codes() -> tuple[str, ...]:
    return CODES


def get(code: str) -> Ruleset:
    try:
        return _PRESETS[code]
    except KeyError:
        raise KeyError(f"no Baccarat preset '{code}'; there are {', '.join(_PRESETS)}") from None


def all_presets() -> tuple[Ruleset, ...]:
    return tuple(_PRESETS.values())
