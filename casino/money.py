"""Money helpers: ``Decimal`` only, built from strings or ints, never from floats.

Rounding happens only where RULES.md says so (commission is rounded up to the venue's
rounding unit, in the house's favour); the rounding mode is written out where it happens.

>>> round_up(to_decimal("47.5"), to_decimal("1"))
Decimal('48')
>>> is_multiple(to_decimal("2500"), to_decimal("1000"))
False
"""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal, InvalidOperation, localcontext

#: ``DecimalField`` sizes for amounts of money (stakes, wins, commissions, ledger amounts).
MONEY_MAX_DIGITS = 18
MONEY_DECIMAL_PLACES = 2
#: ``DecimalField`` sizes for rates and multiples (odds, commission rates, loss multiples).
RATE_MAX_DIGITS = 7
RATE_DECIMAL_PLACES = 4


def to_decimal(value: Decimal | int | str) -> Decimal:
    """A finite ``Decimal`` from a ``Decimal``, an ``int`` or a string; floats are refused.

    >>> to_decimal("100.50"), to_decimal(3), to_decimal(Decimal("0.10"))
    (Decimal('100.50'), Decimal('3'), Decimal('0.10'))
    >>> to_decimal(0.1)
    Traceback (most recent call last):
    ...
    TypeError: amounts must be Decimal, int or str, not float (0.1): a float cannot hold 0.1 exactly
    >>> to_decimal("ten")
    Traceback (most recent call last):
    ...
    ValueError: 'ten' is not an amount
    """
    if isinstance(value, Decimal):
        amount = value
    elif isinstance(value, bool) or not isinstance(value, int | str):
        hint = ": a float cannot hold 0.1 exactly" if isinstance(value, float) else ""
        raise TypeError(
            f"amounts must be Decimal, int or str, not {type(value).__name__} ({value!r}){hint}"
        )
    else:
        try:
            amount = Decimal(value.strip() if isinstance(value, str) else value)
        except InvalidOperation:
            raise ValueError(f"{value!r} is not an amount") from None
    if not amount.is_finite():
        raise ValueError(f"{value!r} is not an amount")
    return amount


def round_up(amount: Decimal, unit: Decimal) -> Decimal:
    """``amount`` rounded up (ROUND_CEILING, towards +infinity) to a multiple of ``unit``.

    The division runs with 60 significant digits, far beyond any ``DecimalField`` amount,
    so nothing is rounded except by the ceiling itself.

    >>> round_up(Decimal("500"), Decimal("1000"))
    Decimal('1000')
    >>> round_up(Decimal("0.15"), Decimal("0.10"))
    Decimal('0.20')
    >>> round_up(Decimal("-0.15"), Decimal("0.10"))
    Decimal('-0.10')
    >>> round_up(Decimal("3000"), Decimal("1000"))
    Decimal('3000')
    """
    if unit <= 0:
        raise ValueError(f"the rounding unit must be positive, got {unit}")
    with localcontext() as context:
        context.prec = 60
        return (amount / unit).to_integral_value(rounding=ROUND_CEILING) * unit


def is_multiple(amount: Decimal, unit: Decimal) -> bool:
    """Whether ``amount`` is a whole multiple of ``unit``.

    >>> is_multiple(Decimal("3.30"), Decimal("0.10")), is_multiple(Decimal("3.35"), Decimal("0.10"))
    (True, False)
    """
    if unit <= 0:
        raise ValueError(f"the rounding unit must be positive, got {unit}")
    return amount % unit == 0


def plain(value: Decimal) -> str:
    """The shortest exact text of a decimal, for messages and JSON: ``3``, not ``3.0000``.

    >>> plain(Decimal("3.0000")), plain(Decimal("0.0500")), plain(Decimal("1E+3"))
    ('3', '0.05', '1000')
    """
    return format(value.normalize(), "f")
