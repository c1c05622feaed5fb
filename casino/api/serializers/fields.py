"""The fields every serializer of the API uses (money, rates, people, chips, reasons, help
texts made of each game's) and the references to other objects."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from django.utils.functional import lazy
from rest_framework import serializers

from casino.kernel import registry
from casino.kernel.amounts import amount_rules, fits, read_by, refusal
from casino.kernel.money import (
    MONEY_DECIMAL_PLACES,
    MONEY_MAX_DIGITS,
    RATE_DECIMAL_PLACES,
    Grouping,
    plain,
)

#: The most chips of one denomination a count may hold.
MAX_CHIP_COUNT = 1_000_000
#: The longest card text accepted (five cards with separators need ~20 characters).
MAX_CARDS_TEXT = 200

# Fields


def _games_help(attribute: str) -> str:
    return " ".join(str(getattr(game.api, attribute)) for game in registry.all_games())


#: A help text made of each installed game's (``GameApi``), read when the schema is built.
games_help = lazy(_games_help, str)


class MoneyField(serializers.DecimalField):
    """An amount of money: a Decimal string out; in, read by the one reader of amounts
    (``casino.kernel.amounts.read_amount``): a string written plain (``"100000"``,
    ``"100000.00"`` as the API writes it, ``"100,000"``), or a JSON number written so
    (``100000``; never ``1e5``: ``casino.api.base.SafeJSONParser`` keeps a number's text).
    Plain whatever the venue's grouping: where points group thousands, ``"100.000"`` could
    be either, and the API's own answers write ``"100000.00"``; a ``venue`` in the
    serializer's context holds it to its currency's decimals. The service the view calls
    checks it again at its venue, with the same words."""

    def __init__(self, *, signed: bool = False, **kwargs: Any) -> None:
        super().__init__(max_digits=MONEY_MAX_DIGITS, decimal_places=MONEY_DECIMAL_PLACES, **kwargs)
        self.signed = signed

    def to_internal_value(self, data: Any) -> Decimal:
        rules = replace(
            amount_rules(self.context.get("venue"), signed=self.signed), grouping=Grouping.COMMA
        )
        if isinstance(data, bool) or not isinstance(data, str | int | Decimal):
            raise serializers.ValidationError(refusal(str(data), rules), code="invalid")
        if isinstance(data, Decimal):
            if not fits(data, rules):
                raise serializers.ValidationError(refusal(str(data), rules), code="invalid")
            return self.quantize(self.validate_precision(data))
        try:
            amount = read_by(str(data), rules)
        except ValueError as error:
            raise serializers.ValidationError(str(error), code="invalid") from None
        if amount is None:
            self.fail("required")
        return self.quantize(self.validate_precision(amount))


class RateField(serializers.DecimalField):
    """Odds, rates and multiples, rendered as their shortest exact text."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_digits=None, decimal_places=RATE_DECIMAL_PLACES, **kwargs)

    def to_representation(self, value: Any) -> str | None:
        return None if value is None else plain(Decimal(value))


def person(source: str, **kwargs: Any) -> serializers.CharField:
    """A member of staff, shown by username."""
    return serializers.CharField(source=f"{source}.username", read_only=True, **kwargs)


def chip_count(**kwargs: Any) -> serializers.DictField:
    return serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_CHIP_COUNT),
        help_text='Chip count: denomination -> number of chips, e.g. {"100000": 50}.',
        **kwargs,
    )


def reason_field() -> serializers.CharField:
    return serializers.CharField(
        required=False, allow_blank=True, max_length=1000, help_text="Why (required to void)."
    )


# References to other objects


class VenueRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()


class TableRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()


class RulesetRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    name = serializers.CharField()


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    membership_number = serializers.CharField()
    name = serializers.CharField()
