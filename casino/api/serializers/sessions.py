"""Table sessions, their drops, the ledger and the slips of fills and credits."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino.api.base import ListParams, id_field
from casino.api.serializers.fields import (
    MoneyField,
    TableRefSerializer,
    VenueRefSerializer,
    chip_count,
    person,
    reason_field,
)
from casino.models import Account, EntryKind, Slip, SlipStatus, TableSession

# Sessions


class ShiftSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    gaming_date = serializers.DateField()
    name = serializers.CharField()


class ReconciliationSerializer(serializers.Serializer):
    """Win by count = closing - opening + credits - fills + drop; variance = count - ledger."""

    opening = MoneyField(source="opening_total")
    closing = MoneyField(source="closing_total")
    fills = MoneyField(source="fills_total")
    credits = MoneyField(source="credits_total")
    drop = MoneyField(source="drop_total")
    win_by_count = MoneyField()
    win_by_ledger = MoneyField()
    variance = MoneyField()


class SessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = VenueRefSerializer(source="table.venue")
    table = TableRefSerializer()
    shift = ShiftSerializer()
    dealer = person("dealer")
    status = serializers.CharField(help_text="open, closed or reconciled")
    opened_by = person("opened_by")
    opened_at = serializers.DateTimeField()
    opening_chips = serializers.DictField(child=serializers.IntegerField())
    opening_total = MoneyField()
    closed_by = person("closed_by", allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    closing_chips = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    closing_total = MoneyField(allow_null=True)
    reconciliation = serializers.SerializerMethodField(
        help_text="The figures worked out at closing; null while the table is open."
    )

    @extend_schema_field(ReconciliationSerializer(allow_null=True))
    def get_reconciliation(self, session: TableSession) -> dict[str, Any] | None:
        if session.closing_total is None:
            return None
        return ReconciliationSerializer(session).data


class SessionOpenInputSerializer(serializers.Serializer):
    table = id_field()
    opening_chips = chip_count()
    dealer = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=150,
        help_text="The dealer's username; the caller when not given.",
    )


class SessionCloseInputSerializer(serializers.Serializer):
    closing_chips = chip_count()
    drop = MoneyField(
        required=False,
        allow_null=True,
        min_value=Decimal("0"),
        help_text="Cash counted in the drop box, entered with the closing.",
    )
    variance_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=1000,
        help_text="Why the count is off the ledger: required when the variance is more "
        "than the venue's variance_reason_over.",
    )


class SessionListParams(ListParams):
    table = id_field(required=False)
    venue = id_field(required=False)
    status = serializers.ChoiceField(choices=TableSession.Status.choices, required=False)


class DropInputSerializer(serializers.Serializer):
    amount = MoneyField(min_value=Decimal("0.01"))


class DropSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    session = serializers.IntegerField(source="session_id")
    amount = MoneyField(help_text="Positive; a reversal's is the reversed drop's, negated.")
    counted_by = person("counted_by")
    counted_at = serializers.DateTimeField()
    reverses = serializers.IntegerField(
        source="reverses_id", allow_null=True, help_text="The drop this one reverses, or null."
    )
    reason = serializers.CharField(allow_blank=True, help_text="Why it was reversed.")


class DropReverseInputSerializer(serializers.Serializer):
    reason = serializers.CharField(
        allow_blank=True, max_length=1000, help_text="Why the drop is reversed (required)."
    )


# The ledger


class LedgerEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    account = serializers.CharField(help_text=", ".join(Account.values))
    kind = serializers.CharField(help_text=", ".join(EntryKind.values))
    amount = MoneyField(help_text="Signed: + into the account, - out of it.")
    box = serializers.IntegerField(source="box.position", allow_null=True)
    bet_type = serializers.CharField(source="bet.bet_type", allow_null=True)
    player = serializers.IntegerField(source="player_id", allow_null=True)
    reverses = serializers.IntegerField(source="reverses_id", allow_null=True)
    created_by = person("created_by", allow_null=True)
    created_at = serializers.DateTimeField()


class LedgerSerializer(serializers.Serializer):
    entries = LedgerEntrySerializer(many=True)
    sum = MoneyField(help_text="Always 0: every posting balances.")
    by_account = serializers.DictField(child=MoneyField())


# Slips


class SlipSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = VenueRefSerializer()
    session = serializers.IntegerField(source="session_id")
    table = TableRefSerializer(source="session.table")
    kind = serializers.CharField(help_text="fill or credit")
    year = serializers.IntegerField()
    number = serializers.IntegerField()
    amount = MoneyField()
    chips = serializers.DictField(child=serializers.IntegerField())
    status = serializers.CharField(help_text=", ".join(SlipStatus.values))
    requested_by = person("requested_by")
    requested_at = serializers.DateTimeField()
    issued_by = person("issued_by", allow_null=True)
    issued_at = serializers.DateTimeField(allow_null=True)
    runner = serializers.CharField(allow_blank=True, help_text="Who carried the chips.")
    dealer_confirmed_by = person("dealer_confirmed_by", allow_null=True)
    dealer_confirmed_at = serializers.DateTimeField(allow_null=True)
    supervisor_confirmed_by = person("supervisor_confirmed_by", allow_null=True)
    supervisor_confirmed_at = serializers.DateTimeField(allow_null=True)
    received_by = person("received_by", allow_null=True, help_text="A credit's, at the cage.")
    received_at = serializers.DateTimeField(allow_null=True)
    verified_by = person(
        "verified_by", allow_null=True, help_text="Whose signature posted it to the ledger."
    )
    verified_at = serializers.DateTimeField(allow_null=True)
    voided_by = person("voided_by", allow_null=True)
    voided_at = serializers.DateTimeField(allow_null=True)
    void_reason = serializers.CharField(allow_blank=True)


class SlipRequestInputSerializer(serializers.Serializer):
    session = id_field()
    kind = serializers.ChoiceField(choices=Slip.Kind.choices)
    chips = chip_count()


class SlipIssueInputSerializer(serializers.Serializer):
    runner = serializers.CharField(
        required=False, allow_blank=True, max_length=150, help_text="Who carries the chips."
    )


class SlipVoidInputSerializer(serializers.Serializer):
    reason = reason_field()


class SlipListParams(ListParams):
    session = id_field(required=False)
    kind = serializers.ChoiceField(choices=Slip.Kind.choices, required=False)
    status = serializers.ChoiceField(choices=SlipStatus.choices, required=False)
