"""The one reader of amounts: every amount a person types or a client sends is read here.

An amount is read in its venue's grouping (``1.000.000`` where the venue groups with
points) or as plain digits, with no more decimals than the venue's currency has (none for
VND and KRW), as a multiple of the unit the amount must be one of where there is one (the
venue's chip unit for a buy-in or a table limit). Exponents (``1E+1``), underscores
(``1_000``), NaN, infinities and anything another grouping would read otherwise are
refused, always with the same words: what was typed and how to write it.

- ``read_amount``: text -> ``Decimal`` (``None`` for a blank), or ``ValueError`` with the
  refusal; what every console screen and report form calls.
- ``check_amount``: what a service calls on what it was given (a ``Decimal``, an ``int``
  or text, read by ``read_amount``): the same rules, refused with ``InvalidInput`` and the
  same words, so a service given ``Decimal("0.5")`` for VND refuses it as the form would.
- ``AmountField``: the Django form field built on the reader (every form and admin form
  with an amount uses it; ``bind_amounts`` gives a form's fields their venue);
  ``AmountListField`` reads several in one input (a table's chip denominations);
  ``casino.api.serializers.fields.MoneyField`` is the API's, built on it too.

Both ``read_amount`` and ``check_amount`` ask ``fits``, the one rule of what an amount of a
venue is. How amounts are written back is ``casino.kernel.money.venue_money``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _

from casino.kernel.errors import InvalidInput
from casino.kernel.money import (
    MONEY_DECIMAL_PLACES,
    MONEY_MAX_DIGITS,
    Grouping,
    currency_places,
    grouped,
    parse_grouped,
    plain,
    to_decimal,
    written,
)

#: The most digits an amount has before its decimal mark (as many as ``parse_grouped`` reads).
MAX_WHOLE_DIGITS = MONEY_MAX_DIGITS - MONEY_DECIMAL_PLACES - 1
#: The signs a negative amount may be typed with (a hyphen or the minus sign).
MINUS = ("-", "\u2212")


@dataclass(frozen=True)
class AmountRules:
    """How one amount is read: the venue's grouping and currency decimals, the unit it
    must be a multiple of (``None``: any amount of the currency), and whether it may be
    below 0 (a player's loss)."""

    grouping: Grouping | str = Grouping.COMMA
    places: int = MONEY_DECIMAL_PLACES
    unit: Decimal | None = None
    signed: bool = False


def amount_rules(
    where: Any = None, *, unit: Decimal | None = None, signed: bool = False
) -> AmountRules:
    """The rules of an amount at ``where``: a venue (its grouping and its currency's
    decimals), a grouping alone (two decimals), or nothing (plain digits, two decimals)."""
    if where is None:
        return AmountRules(unit=unit, signed=signed)
    if isinstance(where, str):
        return AmountRules(grouping=Grouping(where), unit=unit, signed=signed)
    return AmountRules(
        grouping=Grouping(where.amount_grouping),
        places=currency_places(where.currency),
        unit=unit,
        signed=signed,
    )


def fits(amount: Decimal, rules: AmountRules) -> bool:
    """Whether ``amount`` is an amount by ``rules``: finite, no more decimals than the
    currency has, at most ``MAX_WHOLE_DIGITS`` digits, 0 or more unless signed, and a
    multiple of the unit where there is one."""
    if not amount.is_finite() or (amount < 0 and not rules.signed):
        return False
    if amount != amount.quantize(Decimal(1).scaleb(-rules.places)):
        return False
    if amount and amount.adjusted() >= MAX_WHOLE_DIGITS:
        return False
    return rules.unit is None or rules.unit <= 0 or amount % rules.unit == 0


def refusal(text: str, rules: AmountRules) -> str:
    """The one refusal of an amount: what was typed and how to write it."""
    grouping = rules.grouping
    if rules.unit is not None and rules.unit > 0:
        example = rules.unit * 100
        return _(
            "“%(text)s” is not an amount here: write a multiple of %(unit)s, e.g. "
            "%(grouped)s or %(plain)s"
        ) % {
            "text": text,
            "unit": written(rules.unit, grouping),
            "grouped": written(example, grouping),
            "plain": format(example.normalize(), "f"),
        }
    if rules.places == 0:
        return _(
            "“%(text)s” is not an amount: write %(grouped)s or %(plain)s, without decimals"
        ) % {
            "text": text,
            "grouped": grouped(Decimal(100000), 0, grouping),
            "plain": "100000",
        }
    return _(
        "“%(text)s” is not an amount: write %(grouped)s or %(plain)s, decimals as %(decimal)s"
    ) % {
        "text": text,
        "grouped": grouped(Decimal(100000), 0, grouping),
        "plain": "100000",
        "decimal": grouped(Decimal("12.50"), 2, grouping),
    }


def read_amount(
    text: str | None,
    where: Any = None,
    *,
    unit: Decimal | None = None,
    signed: bool = False,
) -> Decimal | None:
    """An amount as a person types it (or a client sends it) at ``where``: a venue, or
    only its grouping (``amount_rules``). ``None`` for a blank; ``ValueError`` with the
    refusal (``refusal``) for anything that is not an amount there.

    >>> read_amount("1,000,000"), read_amount(" "), read_amount("12.50")
    (Decimal('1000000'), None, Decimal('12.50'))
    >>> read_amount("100.000", "dot")
    Decimal('100000')
    >>> read_amount("1_000")
    Traceback (most recent call last):
    ...
    ValueError: “1_000” is not an amount: write 100,000 or 100000, decimals as 12.50
    >>> read_amount("1E+1")
    Traceback (most recent call last):
    ...
    ValueError: “1E+1” is not an amount: write 100,000 or 100000, decimals as 12.50
    >>> read_amount("500", "dot", unit=Decimal(1000))
    Traceback (most recent call last):
    ...
    ValueError: “500” is not an amount here: write a multiple of 1.000, e.g. 100.000 or 100000
    """
    return read_by(text, amount_rules(where, unit=unit, signed=signed))


def read_by(text: str | None, rules: AmountRules) -> Decimal | None:
    """``read_amount`` by ``rules`` made already."""
    typed = (text or "").strip()
    if not typed:
        return None
    negative = rules.signed and typed.startswith(MINUS)
    try:
        amount = parse_grouped(typed[1:] if negative else typed, rules.grouping)
    except ValueError:
        amount = None
    if amount is not None and negative:
        amount = -amount
    if amount is None or not fits(amount, rules):
        raise ValueError(refusal(typed, rules))
    return amount


def check_amount(
    value: Any,
    venue: Any,
    *,
    field: str = "amount",
    unit: Decimal | None = None,
    signed: bool = False,
) -> Decimal:
    """What a service was given as an amount at ``venue``, checked by the reader's rules:
    a ``Decimal`` or an ``int`` as it is, text read by ``read_amount``; a float, a blank or
    anything else refused (``InvalidInput`` on ``field``, the reader's words)."""
    rules = amount_rules(venue, unit=unit, signed=signed)
    if isinstance(value, str):
        try:
            amount = read_by(value, rules)
        except ValueError as error:
            raise InvalidInput(str(error), field=field, reason="not_an_amount") from None
        if amount is None:
            raise InvalidInput(_("Give the amount, e.g. 1000000."), field=field)
        return amount
    if isinstance(value, int) and not isinstance(value, bool):
        value = Decimal(value)
    if not isinstance(value, Decimal):
        if value is None:
            raise InvalidInput(_("Give the amount, e.g. 1000000."), field=field)
        raise InvalidInput(refusal(str(value), rules), field=field, reason="not_an_amount")
    if not fits(value, rules):
        # Quoted as plain digits, as a client sent it or a form read it (``1500``).
        text = plain(value) if value.is_finite() else str(value)
        raise InvalidInput(refusal(text, rules), field=field, reason="not_an_amount")
    return value


# Forms


def is_money_field(field: Any) -> bool:
    """Whether a model field holds money: a ``DecimalField`` of the money sizes
    (``casino.kernel.money.MONEY_MAX_DIGITS``, ``MONEY_DECIMAL_PLACES``)."""
    return (
        isinstance(field, models.DecimalField)
        and field.max_digits == MONEY_MAX_DIGITS
        and field.decimal_places == MONEY_DECIMAL_PLACES
    )


class AmountField(forms.Field):
    """The form field of an amount: read by ``read_amount`` at its venue (``bind``), so
    it takes what the console takes and refuses with the same words. Until it is bound
    it reads plain digits with two decimals, which never misreads another grouping."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})

    def __init__(
        self,
        *,
        venue: Any = None,
        unit: Decimal | None = None,
        signed: bool = False,
        **kwargs: Any,
    ) -> None:
        # What a model field's ``formfield`` passes for a DecimalField and a form field
        # of text does not take.
        for name in ("max_digits", "decimal_places", "max_value", "min_value", "localize"):
            kwargs.pop(name, None)
        super().__init__(**kwargs)
        self.signed = signed
        self.rules = amount_rules(venue, unit=unit, signed=signed)

    def bind(self, venue: Any, *, unit: Decimal | None = None) -> None:
        """Read at ``venue`` (its grouping and currency), in multiples of ``unit``."""
        self.rules = amount_rules(venue, unit=unit, signed=self.signed)

    def to_python(self, value: Any) -> Decimal | None:
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal):
            if not fits(value, self.rules):
                raise ValidationError(refusal(str(value), self.rules), code="invalid")
            return value
        try:
            return read_by(str(value), self.rules)
        except ValueError as error:
            raise ValidationError(str(error), code="invalid") from None

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, Decimal) and value.is_finite():
            return written(value, self.rules.grouping, places=self.rules.places)
        return value


#: What separates the amounts of a list as a person types them: no grouping writes a
#: semicolon or a line break inside an amount (a comma, a point and a space it may).
LIST_SEPARATORS = re.compile(r"[;\n]")


class AmountListField(AmountField):
    """Several amounts in one input, as the venue writes them and separated by semicolons
    (``500.000; 100.000; 5.000``): a table's chip denominations. Each is read by the
    reader at the field's venue; the list is shown back in the venue's grouping. The
    service that takes the list says what else is wrong with it (a value given twice)."""

    # A text area: a long list wraps on a tablet rather than being cut.
    widget = forms.Textarea(attrs={"autocomplete": "off", "rows": 2, "cols": 60})
    #: The list a help text shows as its ``%(example)s``, in the venue's grouping.
    example = (Decimal(500000), Decimal(100000), Decimal(5000))

    def __init__(self, *, help_text: Any = "", **kwargs: Any) -> None:
        self.help_template = help_text
        super().__init__(help_text=help_text, **kwargs)
        self._explain()

    def bind(self, venue: Any, *, unit: Decimal | None = None) -> None:
        super().bind(venue, unit=unit)
        self._explain()

    def _explain(self) -> None:
        """The help text, its example written as the venue writes amounts."""
        if self.help_template:
            example = "; ".join(written(amount, self.rules.grouping) for amount in self.example)
            self.help_text = self.help_template % {"example": example}

    def to_python(self, value: Any) -> list[Decimal]:
        if isinstance(value, list | tuple):  # what the model holds: values as text
            return [to_decimal(item) for item in value]
        amounts = []
        for piece in LIST_SEPARATORS.split(str(value or "")):
            if not piece.strip():
                continue
            try:
                amounts.append(read_by(piece, self.rules))
            except ValueError as error:
                raise ValidationError(str(error), code="invalid") from None
        return amounts

    def validate(self, value: Any) -> None:
        if self.required and not value:
            raise ValidationError(self.error_messages["required"], code="required")

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return "; ".join(
                written(to_decimal(item), self.rules.grouping, places=self.rules.places)
                for item in value
            )
        return value

    def has_changed(self, initial: Any, data: Any) -> bool:
        """Changed when the amounts differ, not their writing (``1.000`` is ``1000``)."""
        try:
            return self.to_python(data) != self.to_python(initial or [])
        except (ValidationError, TypeError, ValueError):
            return True


def amount_formfield(db_field: models.Field, **kwargs: Any) -> forms.Field | None:
    """The ``AmountField`` of a model's money field (``is_money_field``), else ``None``:
    what a model form's ``formfield_callback`` or an admin's ``formfield_for_dbfield``
    returns for money."""
    if not is_money_field(db_field):
        return None
    return db_field.formfield(form_class=AmountField, **kwargs)


def model_formfield(db_field: models.Field, **kwargs: Any) -> forms.Field | None:
    """A model form's field: an ``AmountField`` for money, Django's own otherwise; a
    model form's ``Meta.formfield_callback`` (an admin's forms get theirs from
    ``casino.admin.base.AmountFields``)."""
    return amount_formfield(db_field, **kwargs) or db_field.formfield(**kwargs)


def bind_amounts(
    form: forms.BaseForm, venue: Any, *, units: dict[str, Decimal] | None = None
) -> None:
    """Give each ``AmountField`` of ``form`` its venue (``None``: plain digits), and the
    unit named for it in ``units``."""
    for name, field in form.fields.items():
        if isinstance(field, AmountField):
            field.bind(venue, unit=(units or {}).get(name))


def amounts_at(
    form_class: type[forms.BaseForm], venue: Any, *, units: dict[str, Decimal] | None = None
) -> type[forms.BaseForm]:
    """``form_class``, made to read its amounts at ``venue`` (``bind_amounts``: each form
    binds its own copies of the fields)."""
    if not any(isinstance(field, AmountField) for field in form_class.base_fields.values()):
        return form_class

    def __init__(self: forms.BaseForm, *args: Any, **kwargs: Any) -> None:
        super(bound, self).__init__(*args, **kwargs)
        bind_amounts(self, venue, units=units)

    bound = type(form_class.__name__, (form_class,), {"__init__": __init__})
    return bound
