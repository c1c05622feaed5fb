from __future__ import annotations

from decimal import Decimal

from django import template

register = template.Library()


@register.filter
def percent(value: Decimal | None, arg: str = "3") -> str:
    """A fraction as a percentage: ``0.025`` -> ``2.500%``; ``signed`` adds a + to gains.

    >>> percent(Decimal("0.025")), percent(Decimal("-0.0012"), "signed")
    ('2.500%', '-0.120%')
    """
    if value is None:
        return "–"
    places = 3 if arg == "signed" else int(arg)
    text = f"{Decimal(value) * 100:.{places}f}%"
    return f"+{text}" if arg == "signed" and value > 0 else text
