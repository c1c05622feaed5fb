"""Converting a venue's amount into the group's reporting currency: the one rule of it."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal

from casino.kernel.money import currency_places

#: Enough digits that only the rounding below rounds (an amount of 15 digits times a rate
#: of 24).
_WIDE = Context(prec=60)


def converted(amount: Decimal, rate: Decimal, currency: str) -> Decimal:
    """``amount`` times ``rate`` (one unit of the amount's currency in ``currency``),
    rounded half up to ``currency``'s minor unit, as the money module rounds every figure
    computed from amounts (``casino.kernel.money.format_money``'s ``computed``). Each
    venue's gaming day is converted so, then the converted days are added up: a line's
    amount is the sum of its days', a total the sum of its lines'.

    >>> converted(Decimal("1234567"), Decimal("0.0000393"), "USD")
    Decimal('48.52')
    >>> converted(Decimal("-250000"), Decimal("0.00073"), "USD")
    Decimal('-182.50')
    >>> converted(Decimal("0.05"), Decimal("0.1"), "USD")
    Decimal('0.01')
    >>> converted(Decimal("5"), Decimal("1"), "VND")
    Decimal('5')
    """
    unit = Decimal(1).scaleb(-currency_places(currency))
    return _WIDE.multiply(amount, rate).quantize(unit, rounding=ROUND_HALF_UP, context=_WIDE)
