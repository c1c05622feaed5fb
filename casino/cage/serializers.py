"""The bodies of the writes at the table's cash: a buy-in or cash-out recorded, one voided."""

from __future__ import annotations

from rest_framework import serializers

from casino.api.base import id_field
from casino.api.serializers.fields import MoneyField
from casino.cage.models import CashInstrument, CashKind


class CashInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=CashKind.values, default=CashKind.BUY_IN, help_text="buy_in or cash_out"
    )
    instrument = serializers.ChoiceField(
        choices=CashInstrument.values,
        default=CashInstrument.CASH,
        help_text="cash, chips, marker or other; only cash counts toward the thresholds.",
    )
    amount = MoneyField(min_value=0, help_text="Above 0, in the venue's rounding unit.")
    player = id_field(
        required=False, allow_null=True, help_text="A player of the venue; null: unknown."
    )
    id_document_type = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=1000,
        help_text="Needed when a member without a document on record reaches the "
        "reporting threshold.",
    )
    id_document_number = serializers.CharField(required=False, allow_blank=True, max_length=1000)
    patron_description = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=1000,
        help_text="Needed when a patron nobody knows reaches a threshold.",
    )


class CashVoidInputSerializer(serializers.Serializer):
    reason = serializers.CharField(
        allow_blank=True, max_length=1000, help_text="Why it is voided (required)."
    )
