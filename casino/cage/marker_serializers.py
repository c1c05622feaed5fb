"""Markers as the API shows them (``casino.cage.marker_api``): the bodies of the writes (a
credit limit proposed, a marker issued at a table or at the cage, a payment, a payment
reversed) and what is read (a player's credit, a marker, the aging)."""

from __future__ import annotations

from rest_framework import serializers

from casino.api.serializers.fields import MoneyField, person, reason_field
from casino.cage.cash_log import document_shown
from casino.cage.models import CreditLine, Marker, MarkerPayment
from casino.cage.serializers import IdDocumentInputSerializer
from casino.floor.api.session_serializers import CredentialsSerializer


class CreditLineInputSerializer(serializers.Serializer):
    limit = MoneyField(min_value=0, help_text="0 or more, in the venue's rounding unit.")
    reason = serializers.CharField(required=False, allow_blank=True, max_length=1000)


class MarkerInputSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, help_text="A player of the venue.")
    amount = MoneyField(min_value=0, help_text="Above 0, in the venue's rounding unit.")
    player_signed = serializers.BooleanField(
        help_text="True once the player has signed the marker; false is refused."
    )
    supervisor = CredentialsSerializer(
        help_text="The supervisor who signs the marker, by their own username and password: "
        "another person than the caller. A wrong password is refused (400, field "
        "supervisor) and counts towards the login lockout."
    )
    chips = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        required=False,
        help_text='At the cage: the chips counted out, e.g. {"100000": 5}, worth the amount; '
        "without them, the amount in the fewest of the venue's chips. Ignored at a table.",
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)


class PaymentInputSerializer(IdDocumentInputSerializer):
    amount = MoneyField(min_value=0, help_text="Above 0, at most the marker's balance.")
    method = serializers.ChoiceField(choices=MarkerPayment.Method.values)
    counted = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        required=False,
        help_text="The notes (paid in cash) or chips (paid in chips) taken in, e.g. "
        '{"500000": 2}, worth the amount; without them, the amount in the fewest pieces.',
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)


class ReverseInputSerializer(serializers.Serializer):
    reason = reason_field()


class CreditLineSerializer(serializers.ModelSerializer):
    limit = MoneyField()
    proposed_by = person("proposed_by")
    approved_by = person("approved_by")

    class Meta:
        model = CreditLine
        fields = [
            "id",
            "player",
            "limit",
            "reason",
            "status",
            "proposed_by",
            "proposed_at",
            "approved_by",
            "approved_at",
        ]


class PaymentSerializer(serializers.ModelSerializer):
    amount = MoneyField()
    received_by = person("received_by")
    id_document = serializers.SerializerMethodField(
        help_text="The identity document seen (type and masked number) where the cash "
        'thresholds asked for one; "" otherwise.'
    )

    def get_id_document(self, payment: MarkerPayment) -> str:
        return document_shown(payment)

    class Meta:
        model = MarkerPayment
        fields = [
            "id",
            "marker",
            "kind",
            "method",
            "amount",
            "reverses",
            "gaming_date",
            "received_by",
            "received_at",
            "note",
            "id_document",
        ]


class MarkerSerializer(serializers.ModelSerializer):
    label = serializers.CharField()
    amount = MoneyField()
    balance = MoneyField(help_text="Its amount less its payments.")
    issued_by = person("issued_by")
    supervisor = person("supervisor")
    at_the_cage = serializers.BooleanField()

    class Meta:
        model = Marker
        fields = [
            "id",
            "label",
            "player",
            "amount",
            "balance",
            "session",
            "at_the_cage",
            "in_drop",
            "gaming_date",
            "due_on",
            "issued_by",
            "supervisor",
            "player_signed_at",
            "issued_at",
            "note",
        ]


class PlayerCreditSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    limit = MoneyField(help_text="The credit limit in force (0 without one).")
    outstanding = MoneyField(help_text="The player's markers less their payments.")
    available = MoneyField(help_text="The limit less the outstanding, never below 0.")
    credit_lines = CreditLineSerializer(many=True)
    markers = MarkerSerializer(many=True)


class AgingLineSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk")
    membership_number = serializers.CharField(source="player.membership_number")
    current = MoneyField(source="buckets.current")
    days_1_30 = MoneyField(source="buckets.days_1_30")
    days_31_60 = MoneyField(source="buckets.days_31_60")
    days_61_90 = MoneyField(source="buckets.days_61_90")
    over_90 = MoneyField(source="buckets.over_90")
    total = MoneyField()
    overdue = MoneyField()
    markers = serializers.IntegerField()


class AgingSerializer(serializers.Serializer):
    as_of = serializers.DateField()
    lines = AgingLineSerializer(many=True)
    totals = serializers.DictField(child=MoneyField())
    total = MoneyField()


class TermsSerializer(serializers.Serializer):
    term_days = serializers.IntegerField(help_text="Days to pay after the marker's gaming date.")
    credit_drop = serializers.BooleanField(
        help_text="True: a marker issued at a table counts in the table's drop (its copy in "
        "the box); false: it is a credit to the table."
    )
    set_by = serializers.CharField(
        source="version.set_by.get_username", default=None, allow_null=True
    )
    set_at = serializers.DateTimeField(source="version.set_at", default=None, allow_null=True)


class TermsInputSerializer(serializers.Serializer):
    term_days = serializers.IntegerField(min_value=1, max_value=365)
    credit_drop = serializers.BooleanField()
