"""The table's cash as the API shows it: the bodies of its writes (a buy-in or cash-out
recorded, one voided), and the buy-ins and cash-outs, cash alerts and cash report read;
the slips of fills and credits and the bodies of their steps."""

from __future__ import annotations

from typing import Any

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
from casino.cage.models import CashInstrument, CashKind, Slip, SlipStatus


class CashInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=CashKind.values, default=CashKind.BUY_IN, help_text="buy_in or cash_out"
    )
    instrument = serializers.ChoiceField(
        choices=CashInstrument.values,
        default=CashInstrument.CASH,
        help_text="cash, chips or other (a marker is issued as a marker: "
        "/api/v1/sessions/{id}/markers/); only cash counts toward the thresholds.",
    )
    amount = MoneyField(min_value=0, help_text="Above 0, in the venue's rounding unit.")
    player = id_field(
        required=False, allow_null=True, help_text="A player of the venue; null: unknown."
    )
    unknown_patron = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="Instead of a player: an unknown patron's identifier (U-…), whose cash adds "
        "up like a member's.",
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


class IdDocumentInputSerializer(serializers.Serializer):
    """The identity document seen at the cage (checked by the service, as the table's)."""

    id_document_type = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=1000,
        help_text="The identity document seen (e.g. passport): needed when a member whose "
        "record holds none reaches the reporting threshold.",
    )
    id_document_number = serializers.CharField(
        required=False, allow_blank=True, max_length=1000, help_text="Its number."
    )


class CashVoidInputSerializer(serializers.Serializer):
    reason = serializers.CharField(
        allow_blank=True, max_length=1000, help_text="Why it is voided (required)."
    )


class CashTransactionParams(ListParams):
    gaming_date = serializers.DateField(required=False, help_text="One gaming date, YYYY-MM-DD.")
    table = id_field(required=False, help_text="A table's id.")
    session = id_field(required=False, help_text="A table session's id.")
    player = id_field(required=False, help_text="A player's id.")


class CashTransactionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    gaming_date = serializers.DateField()
    table = TableRefSerializer()
    session = serializers.IntegerField(source="session_id")
    player = serializers.IntegerField(
        source="player_id", allow_null=True, help_text="Null: a patron nobody knows."
    )
    kind = serializers.CharField(help_text="buy_in or cash_out")
    instrument = serializers.CharField(help_text="cash, chips, marker or other")
    amount = MoneyField()
    threshold_reached = serializers.CharField(
        source="threshold",
        help_text="The threshold it reached when recorded: logging, reporting or empty.",
    )
    recorded_by = serializers.CharField(source="recorded_by.username")
    recorded_at = serializers.DateTimeField()
    voided = serializers.SerializerMethodField()
    voided_by = serializers.CharField(source="voided_by.username", allow_null=True, default=None)
    void_reason = serializers.CharField(allow_blank=True)

    def get_voided(self, transaction: Any) -> bool:
        return transaction.voided_at is not None


class CashAlertParams(ListParams):
    date_from = serializers.DateField(required=False, help_text="First gaming date.")
    date_to = serializers.DateField(required=False, help_text="Last gaming date.")
    player = id_field(required=False, help_text="A player's id.")


class CashAlertSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id", allow_null=True)
    membership_number = serializers.CharField(source="player.membership_number", allow_null=True)
    unknown_patron = serializers.CharField(
        source="unknown_patron.code", allow_null=True, help_text="An unknown patron's identifier."
    )
    gaming_date = serializers.DateField()
    direction = serializers.CharField(help_text="buy_in (cash in) or cash_out (cash out)")
    total = MoneyField(help_text="The player's cash of the day and direction when raised.")
    threshold = MoneyField(help_text="The reporting threshold it reached.")
    transaction = serializers.IntegerField(source="transaction_id", allow_null=True)
    source = serializers.CharField(help_text="The cash log's row that reached it: its source.")
    source_id = serializers.IntegerField(allow_null=True)
    raised_at = serializers.DateTimeField()


class CashReportParams(serializers.Serializer):
    date_from = serializers.DateField(
        required=False, help_text="First gaming date (the gaming day under way)."
    )
    date_to = serializers.DateField(
        required=False, help_text="Last gaming date (the gaming day under way)."
    )


class CashLogSerializer(serializers.Serializer):
    """A row of the multiple transaction log (``casino.cage.cash_log.CashMovement``) in a
    person's day of one direction at the logging threshold."""

    gaming_date = serializers.DateField(source="row.gaming_date")
    recorded_at = serializers.DateTimeField(source="row.at")
    source = serializers.CharField(
        source="row.source",
        help_text="Where the row comes from: cash_transaction (a table), cage_movement (the "
        "cage window), front_money or marker_payment.",
    )
    source_id = serializers.IntegerField(source="row.source_id", help_text="Its record's id.")
    table = serializers.CharField(
        source="row.table", help_text="The table's code; empty: the cage."
    )
    kind = serializers.CharField(
        source="row.kind",
        help_text="buy_in, cash_out, chip_purchase, chip_redemption, front_money_deposit, "
        "front_money_return or marker_payment",
    )
    direction = serializers.CharField(
        source="row.direction", help_text="buy_in (cash in) or cash_out (cash out)"
    )
    instrument = serializers.CharField(source="row.instrument", help_text="cash, chips or marker")
    amount = MoneyField(source="row.amount", signed=True, help_text="Less than 0: a reversal.")
    person = serializers.CharField(
        source="row.person", help_text="A membership number or an unknown patron's identifier."
    )
    player = serializers.IntegerField(
        source="row.player.pk", allow_null=True, default=None, help_text="The member's id."
    )
    unknown_patron = serializers.CharField(
        source="row.unknown_patron.code",
        allow_null=True,
        default=None,
        help_text="The unknown patron it was recorded as (linked to the member, if any).",
    )
    id_document = serializers.CharField(
        source="row.id_document",
        help_text="The identity document seen (type and masked number), where asked for.",
    )
    recorded_by = serializers.CharField(source="row.recorded_by.username")
    day_total = MoneyField(help_text="The person's cash of the day and direction with it.")


class CashCandidateSerializer(serializers.Serializer):
    person = serializers.CharField(
        help_text="A membership number or an unknown patron's identifier."
    )
    player = serializers.IntegerField(source="player.pk", allow_null=True, default=None)
    membership_number = serializers.CharField(
        source="player.membership_number", allow_null=True, default=None
    )
    unknown_patron = serializers.CharField(
        source="unknown_patron.code", allow_null=True, default=None
    )
    name = serializers.CharField(help_text="The member's name or the patron's description.")
    gaming_date = serializers.DateField()
    kind = serializers.CharField(help_text="buy_in (cash in) or cash_out (cash out)")
    total = MoneyField()
    movements = serializers.SerializerMethodField(help_text="The log's rows of the total.")
    reporting_threshold = MoneyField(source="thresholds.reporting_threshold")
    alert_raised_at = serializers.DateTimeField(source="alert.raised_at", default=None)

    def get_movements(self, candidate: Any) -> int:
        return len(candidate.rows)


class CashReportSerializer(serializers.Serializer):
    venue = serializers.IntegerField(source="venue.pk")
    date_from = serializers.DateField()
    date_to = serializers.DateField()
    log = CashLogSerializer(
        many=True, help_text="Each row of the cash log in a person's day at the logging threshold."
    )
    candidates = CashCandidateSerializer(
        many=True, help_text="The people's days at the reporting threshold."
    )
    unjudged = serializers.ListField(
        child=serializers.DateField(), help_text="Gaming dates with no thresholds approved yet."
    )


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
