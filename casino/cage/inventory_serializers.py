"""The cage's inventory as the API shows it: the bodies of its writes (a count, its second
signature, a chip purchase or redemption, a vault transfer) and what they answer (a count,
a movement with its lines, the cage's inventory, the chip liability)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from casino.api.serializers.fields import MAX_CHIP_COUNT, MoneyField, person
from casino.cage.cash_log import document_shown
from casino.cage.models import CageCount, MovementKind
from casino.cage.serializers import IdDocumentInputSerializer


def pieces(help_text: str, **kwargs: object) -> serializers.DictField:
    """Denomination -> number of pieces (notes or chips)."""
    return serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_CHIP_COUNT),
        help_text=help_text,
        **kwargs,
    )


class CageHoldingSerializer(serializers.Serializer):
    notes = pieces("Bank notes: denomination -> number of notes.", required=False)
    chips = pieces("Chips: denomination -> number of chips.", required=False)


class CageCountInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=CageCount.Kind.values, help_text="opening (no shift open) or closing"
    )
    counted = CageHoldingSerializer(help_text="What the cage holds, by denomination.")
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=255,
        help_text="Why the count differs from what the cage should hold (required then).",
    )


class ChipExchangeInputSerializer(IdDocumentInputSerializer):
    chips = pieces("The chips the patron buys or cashes in.")
    notes = pieces("The bank notes paid for them: the same value.")
    note = serializers.CharField(required=False, allow_blank=True, max_length=255)
    player = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="The patron: a membership number or an unknown patron's identifier (U-…).",
    )
    patron_description = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=255,
        help_text="A patron nobody knows, described: needed when the cash reaches a threshold.",
    )


class VaultTransferInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[MovementKind.TO_VAULT.value, MovementKind.FROM_VAULT.value],
        help_text="to_vault or from_vault",
    )
    moved = CageHoldingSerializer(help_text="The notes and chips carried.")
    note = serializers.CharField(required=False, allow_blank=True, max_length=255)
    reference = serializers.CharField(required=False, allow_blank=True, max_length=64)


class CageCountSerializer(serializers.ModelSerializer):
    counted_by = person("counted_by")
    signed_by = person("signed_by", allow_null=True)
    difference_value = MoneyField(signed=True, read_only=True)

    class Meta:
        model = CageCount
        fields = [
            "id",
            "venue",
            "shift",
            "kind",
            "status",
            "currency",
            "chip_set",
            "notes",
            "chips",
            "expected_notes",
            "expected_chips",
            "difference",
            "difference_value",
            "first",
            "reason",
            "counted_by",
            "counted_at",
            "signed_by",
            "signed_at",
            "movement",
        ]
        read_only_fields = fields


class CageLineSerializer(serializers.Serializer):
    account = serializers.CharField()
    instrument = serializers.CharField()
    currency = serializers.CharField()
    chip_set = serializers.CharField()
    denomination = MoneyField(read_only=True, allow_null=True)
    count = serializers.IntegerField(allow_null=True)
    value = MoneyField(signed=True, read_only=True)


class CageMovementSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = serializers.IntegerField(source="venue_id")
    shift = serializers.IntegerField(source="shift_id", allow_null=True)
    kind = serializers.CharField()
    gaming_date = serializers.DateField()
    slip = serializers.IntegerField(source="slip_id", allow_null=True)
    reference = serializers.CharField()
    note = serializers.CharField()
    recorded_by = person("recorded_by")
    recorded_at = serializers.DateTimeField()
    lines = CageLineSerializer(many=True, source="lines.all")
    id_document = serializers.SerializerMethodField(
        help_text="The identity document seen (type and masked number) where the cash "
        'thresholds asked for one; "" otherwise.'
    )

    def get_id_document(self, movement: Any) -> str:
        return document_shown(movement)


class CageInventorySerializer(serializers.Serializer):
    venue = serializers.IntegerField()
    currency = serializers.CharField()
    chip_set = serializers.CharField()
    expected = CageHoldingSerializer(help_text="What the cage should hold, by its book.")
    shift = serializers.IntegerField(allow_null=True, help_text="The open cage shift.")
    pending_count = CageCountSerializer(allow_null=True)


class ChipLiabilityLineSerializer(serializers.Serializer):
    denomination = serializers.CharField()
    at_window = serializers.IntegerField()
    at_tables = serializers.IntegerField()
    outstanding = serializers.IntegerField()
    value = MoneyField(signed=True, read_only=True)


class ChipLiabilitySerializer(serializers.Serializer):
    lines = ChipLiabilityLineSerializer(many=True)
    open_tables = serializers.IntegerField()
    total = MoneyField(signed=True, read_only=True)
