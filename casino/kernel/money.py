"""Money helpers: ``Decimal`` only, built from strings or ints, never from floats.

Rounding happens only where a ruleset version says so (docs/ARCHITECTURE.md, "Rulesets"): a
commission or a fee is rounded to the version's rounding unit in its rounding mode
(``Rounding``); the ``decimal`` rounding constant of each mode is written out where it happens.

>>> round_to_unit(to_decimal("47.5"), to_decimal("1"), Rounding.UP)
Decimal('48')
>>> is_multiple(to_decimal("2500"), to_decimal("1000"))
False
"""

from __future__ import annotations

import re
from decimal import (
    ROUND_CEILING,
    ROUND_FLOOR,
    ROUND_HALF_UP,
    Context,
    Decimal,
    InvalidOperation,
)
from enum import StrEnum
from typing import Any

#: ``DecimalField`` sizes for amounts of money (stakes, wins, commissions, ledger amounts).
MONEY_MAX_DIGITS = 18
MONEY_DECIMAL_PLACES = 2
#: ``DecimalField`` sizes for rates and multiples (odds, commission rates, loss multiples).
RATE_MAX_DIGITS = 7
RATE_DECIMAL_PLACES = 4
#: The smallest amount a money field holds.
CENT = Decimal(1).scaleb(-MONEY_DECIMAL_PLACES)


class Rounding(StrEnum):
    """How a commission or a fee is rounded to the rounding unit (a ruleset version's rule)."""

    #: ``ROUND_CEILING``: up, towards +infinity, in the house's favour (the rule sheets').
    UP = "up"
    #: ``ROUND_HALF_UP``: to the nearest multiple; a half goes up (away from zero).
    HALF_UP = "half_up"
    #: ``ROUND_FLOOR``: down, towards -infinity, in the player's favour.
    DOWN = "down"
    #: No rounding to a unit: ``ROUND_HALF_UP`` to the cent a money field holds.
    NONE = "none"


#: The ``decimal`` constant each mode rounds with (``NONE`` rounds to ``CENT`` with it).
ROUNDING_CONSTANTS = {
    Rounding.UP: ROUND_CEILING,
    Rounding.HALF_UP: ROUND_HALF_UP,
    Rounding.DOWN: ROUND_FLOOR,
    Rounding.NONE: ROUND_HALF_UP,
}


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


def round_to_unit(amount: Decimal, unit: Decimal, mode: Rounding | str) -> Decimal:
    """``amount`` rounded to a multiple of ``unit`` as ``mode`` says (``Rounding``).

    ``up`` is ``ROUND_CEILING`` (towards +infinity), ``half_up`` is ``ROUND_HALF_UP`` (to
    the nearest multiple, a half away from zero), ``down`` is ``ROUND_FLOOR`` (towards
    -infinity); ``none`` leaves the unit aside and rounds ``ROUND_HALF_UP`` to the cent, as
    much as a money field holds. The division runs with 60 significant digits, far beyond
    any ``DecimalField`` amount, so nothing is rounded except by the mode itself.

    5% of 150,000 at a unit of 1,000 (7,500):

    >>> [round_to_unit(Decimal("7500"), Decimal("1000"), m) for m in ("up", "half_up", "down")]
    [Decimal('8000'), Decimal('8000'), Decimal('7000')]
    >>> round_to_unit(Decimal("7500"), Decimal("1000"), "none")
    Decimal('7500.00')
    >>> round_to_unit(Decimal("7499.99"), Decimal("1000"), "half_up")
    Decimal('7000')
    >>> round_to_unit(Decimal("0.15"), Decimal("0.10"), Rounding.UP)
    Decimal('0.20')
    >>> round_to_unit(Decimal("-0.15"), Decimal("0.10"), Rounding.UP)
    Decimal('-0.10')
    >>> round_to_unit(Decimal("3000"), Decimal("1000"), Rounding.DOWN)
    Decimal('3000')
    >>> round_to_unit(Decimal("12.345"), Decimal("1"), Rounding.NONE)
    Decimal('12.35')
    >>> round_to_unit(Decimal("5"), Decimal("1"), "sideways")
    Traceback (most recent call last):
    ...
    ValueError: 'sideways' is not a rounding mode: one of up, half_up, down, none
    """
    if unit <= 0:
        raise ValueError(f"the rounding unit must be positive, got {unit}")
    rounding = ROUNDING_CONSTANTS.get(mode)  # a Rounding, or its name (a Rounding is a str)
    if rounding is None:
        rounding = ROUNDING_CONSTANTS[rounding_mode(mode)]
    if mode == Rounding.NONE:
        return amount.quantize(CENT, rounding=rounding, context=_WIDE)
    return _WIDE.multiply(
        _WIDE.divide(amount, unit).to_integral_value(rounding=rounding, context=_WIDE), unit
    )


#: The context money is rounded in: 60 significant digits (the default context's other
#: settings), whatever the thread's own context says.
_WIDE = Context(prec=60)


def round_up(amount: Decimal, unit: Decimal) -> Decimal:
    """``amount`` rounded up (``ROUND_CEILING``, towards +infinity) to a multiple of ``unit``.

    >>> round_up(Decimal("500"), Decimal("1000"))
    Decimal('1000')
    """
    return round_to_unit(amount, unit, Rounding.UP)


def rounding_mode(value: Rounding | str) -> Rounding:
    """The ``Rounding`` named by ``value``; ``ValueError`` names the modes there are.

    >>> rounding_mode("half_up")
    <Rounding.HALF_UP: 'half_up'>
    """
    try:
        return Rounding(value)
    except ValueError:
        known = ", ".join(mode.value for mode in Rounding)
        raise ValueError(f"{value!r} is not a rounding mode: one of {known}") from None


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


class Grouping(StrEnum):
    """How a venue writes its amounts: the mark between thousands and the decimal mark."""

    #: ``1,000,000.50``
    COMMA = "comma"
    #: ``1.000.000,50`` (Vietnam, much of Europe and South America)
    DOT = "dot"
    #: ``1 000 000,50`` (a no-break space between thousands)
    SPACE = "space"


#: The thousands mark and the decimal mark of each grouping.
MARKS = {Grouping.COMMA: (",", "."), Grouping.DOT: (".", ","), Grouping.SPACE: ("\u00a0", ",")}


def marks(grouping: Grouping | str) -> tuple[str, str]:
    """The thousands mark and the decimal mark of ``grouping``.

    >>> marks("dot")
    ('.', ',')
    """
    return MARKS[Grouping(grouping)]


def grouped(amount: Decimal, places: int, grouping: Grouping | str = Grouping.COMMA) -> str:
    """``amount`` with ``places`` decimals, in ``grouping``.

    >>> grouped(Decimal("1234567.5"), 2, "dot"), grouped(Decimal("-1234"), 0, "comma")
    ('1.234.567,50', '-1,234')
    >>> grouped(Decimal("1234.5"), 1, Grouping.SPACE)
    '1\\xa0234,5'
    """
    thousands, point = marks(grouping)
    return f"{amount:,.{places}f}".translate({ord(","): thousands, ord("."): point})


#: Digits after the decimal point per ISO 4217 currency (the ones the venues use); others 2.
MINOR_UNITS = {"VND": 0, "KRW": 0, "JPY": 0, "MOP": 2, "HKD": 2, "USD": 2, "EUR": 2}


def currency_places(currency: str) -> int:
    """The decimals ``currency`` is written with: ``0`` for VND and KRW, ``2`` for MOP.

    >>> currency_places("VND"), currency_places("MOP"), currency_places("XYZ")
    (0, 2, 2)
    """
    return MINOR_UNITS.get(currency, 2)


def written(
    amount: Decimal,
    grouping: Grouping | str = Grouping.COMMA,
    *,
    places: int = 0,
    signed: bool = False,
) -> str:
    """``amount`` as a person reads it in ``grouping``: at least ``places`` decimals (a
    currency's), more only when the amount has them, so no digit of money is hidden and
    none is made up; ``+`` before a gain when ``signed``. What the services' messages and
    every screen write an amount with.

    >>> written(Decimal("1500000.00"), "dot"), written(Decimal("95.50")), written(Decimal("1E+3"))
    ('1.500.000', '95.5', '1,000')
    >>> written(Decimal("5000"), "dot", signed=True), written(Decimal("-0.25"), "space", places=2)
    ('+5.000', '-0,25')
    """
    exponent = amount.normalize().as_tuple().exponent
    if isinstance(exponent, int):
        places = max(places, -exponent)
    text = grouped(amount, places, grouping)
    return f"+{text}" if signed and amount > 0 else text


_SPACES = re.compile(r"[\s\u00a0\u202f]")
_DIGITS = re.compile(r"\d{1,15}")
_FRACTION = re.compile(r"\d{1,2}")


def parse_grouped(text: str, grouping: Grouping | str = Grouping.COMMA) -> Decimal | None:
    """An amount written in ``grouping`` or as plain digits: ``None`` for a blank,
    ``ValueError`` for anything else, above all an amount another grouping would read
    otherwise (``100.000`` where ``.`` is the decimal mark, ``12.5`` where it groups
    thousands). Spaces always group thousands; nothing else does (``1_000`` is refused, as
    Python's own spelling, not a person's). Up to 15 digits and 2 decimals. Every amount
    typed or sent is read through ``casino.kernel.amounts.read_amount``, which calls this.

    >>> parse_grouped("100.000", "dot"), parse_grouped("1.000.000,5", "dot")
    (Decimal('100000'), Decimal('1000000.5'))
    >>> parse_grouped("100,000"), parse_grouped("12.50"), parse_grouped("1 000 000", "dot")
    (Decimal('100000'), Decimal('12.50'), Decimal('1000000'))
    >>> parse_grouped("100.000")
    Traceback (most recent call last):
    ...
    ValueError: ambiguous
    >>> parse_grouped("12.5", "dot")
    Traceback (most recent call last):
    ...
    ValueError: ambiguous
    >>> parse_grouped("1e3")
    Traceback (most recent call last):
    ...
    ValueError: not an amount
    >>> parse_grouped("1_000")
    Traceback (most recent call last):
    ...
    ValueError: not an amount
    """
    thousands, point = marks(grouping)
    # The decimal mark of the other groupings: a sign the amount was written in another.
    foreign = "," if point == "." else "."
    cleaned = _SPACES.sub("", text or "")
    if not cleaned:
        return None
    whole, has_point, fraction = cleaned.partition(point)
    if has_point and not _FRACTION.fullmatch(fraction):
        if thousands not in whole and foreign not in whole and re.fullmatch(r"\d{3}", fraction):
            raise ValueError("ambiguous")  # 100,000 where "," is the decimal mark
        raise ValueError("not an amount")
    if thousands.strip() and thousands in whole:
        if not re.fullmatch(rf"\d{{1,3}}({re.escape(thousands)}\d{{3}})+", whole):
            raise ValueError("ambiguous")  # 12.5 where "." groups thousands
        whole = whole.replace(thousands, "")
    if foreign in whole:
        raise ValueError("ambiguous")  # the other grouping's mark: 100.000 where "." is decimal
    if not _DIGITS.fullmatch(whole):
        raise ValueError("not an amount")
    return Decimal(f"{whole}.{fraction}" if has_point else whole)


def format_money(
    amount: Decimal | int | str | None,
    currency: str,
    *,
    signed: bool = False,
    grouping: Grouping | str = Grouping.COMMA,
    computed: bool = False,
) -> str:
    """An amount of ``currency`` as a person reads it, in the venue's ``grouping``: what the
    console, the admin, the services' messages and the reports all write money with.

    A ledger amount (a stake, a win, a fill, a handle: the default) never hides a digit:
    the currency's decimals, more only when the amount has them (``1,000.5`` VND).
    A ``computed`` figure (an average bet, a theoretical win: a quotient or a product of
    amounts) is rounded half up to the currency's minor units, as no ledger holds its
    extra digits (``479,412`` VND, ``12.35`` MOP), and never reads ``-0``.

    >>> format_money(Decimal("1234000"), "VND"), format_money(Decimal("-95.5"), "MOP")
    ('1,234,000', '-95.50')
    >>> format_money(Decimal("95000"), "VND", signed=True), format_money(Decimal("0.25"), "MOP")
    ('+95,000', '0.25')
    >>> format_money(Decimal("1000.5"), "VND"), format_money("500000", "VND", grouping="dot")
    ('1,000.5', '500.000')
    >>> format_money("12", "MOP"), format_money("61082000.00", "VND", grouping="dot")
    ('12.00', '61.082.000')
    >>> format_money("479411.76", "VND", computed=True)
    '479,412'
    >>> format_money("12.345", "MOP", computed=True)
    '12.35'
    >>> format_money("-0.4", "VND", computed=True), format_money("12", "MOP", computed=True)
    ('0', '12.00')
    """
    if amount is None or amount == "":
        return ""
    if not isinstance(amount, Decimal):
        amount = to_decimal(amount)  # a chip denomination is stored as text
    places = currency_places(currency)
    if computed:
        amount = amount.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
        amount = amount if amount else abs(amount)
    return written(amount, grouping, places=places, signed=signed)


def venue_money(
    amount: Decimal | int | str | None, venue: Any, *, signed: bool = False, computed: bool = False
) -> str:
    """An amount as ``venue`` writes it: its currency's decimals, its grouping
    (``format_money``: a ``computed`` figure rounded to the currency's minor units)."""
    return format_money(
        amount,
        venue.currency,
        signed=signed,
        grouping=venue.amount_grouping,
        computed=computed,
    )


def venue_chips(chips: Any, venue: Any, *, signed: bool = False) -> list[str]:
    """A count of chips or notes by denomination (``{"100000": 3}``, as the records keep it)
    as its venue writes it, one line per denomination, the largest first: ``3 × 100.000``;
    ``signed``, a difference (``+1 × 10.000``). Anything else a record holds there (an
    older shape) is left to its caller: ``[]``."""
    if not isinstance(chips, dict):
        return []
    lines = []
    for denomination, count in sorted(
        chips.items(), key=lambda item: to_decimal(str(item[0])), reverse=True
    ):
        sign = "+" if signed and int(count) > 0 else ""
        lines.append(f"{sign}{count} × {venue_money(to_decimal(str(denomination)), venue)}")
    return lines
