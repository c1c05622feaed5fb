"""The manual series and their papers as the API shows them, and the bodies of their
writes (``casino.cage.manual_api``)."""

from __future__ import annotations

from rest_framework import serializers

from casino.api.base import id_field
from casino.api.serializers.fields import (
    MAX_CARDS_TEXT,
    MoneyField,
    TableRefSerializer,
    VenueRefSerializer,
    chip_count,
    person,
)
from casino.cage.manual import ManualKind, PaperStatus
from casino.floor.api.round_serializers import RoundBoxInputSerializer


class SeriesIssueInputSerializer(serializers.Serializer):
    table = id_field(help_text="A table of one of your venues.")
    kind = serializers.ChoiceField(choices=ManualKind.values, help_text="fill, credit or round")
    prefix = serializers.CharField(
        max_length=16, help_text="Printed before each number, unique at the venue: F-NN1-."
    )
    first = serializers.IntegerField(min_value=1, max_value=99_999_999)
    last = serializers.IntegerField(min_value=1, max_value=99_999_999)


class PaperSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    label = serializers.CharField(help_text="As printed on the paper: F-NN1-0007.")
    status = serializers.ChoiceField(
        choices=PaperStatus.values, help_text="entered (late) or spoiled"
    )
    late_entry = serializers.SerializerMethodField(help_text="True: entered after the fact.")
    written_at = serializers.DateTimeField(allow_null=True, help_text="As written on the paper.")
    entered_by = person("recorded_by")
    entered_at = serializers.DateTimeField(source="recorded_at")
    reason = serializers.CharField(allow_blank=True, help_text="Why it is spoiled.")
    slip = serializers.IntegerField(source="slip_id", allow_null=True)
    round = serializers.IntegerField(source="round_id", allow_null=True)
    session = serializers.SerializerMethodField()

    def get_late_entry(self, paper) -> bool:
        return paper.status == PaperStatus.ENTERED

    def get_session(self, paper) -> int | None:
        entered = paper.round if paper.round_id else paper.slip
        return entered.session_id if entered is not None else None


class SeriesSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="series.pk")
    venue = VenueRefSerializer(source="series.venue")
    table = TableRefSerializer(source="series.table")
    kind = serializers.CharField(source="series.kind")
    prefix = serializers.CharField(source="series.prefix")
    first = serializers.IntegerField(source="series.first")
    last = serializers.IntegerField(source="series.last")
    issued_by = person("series.issued_by")
    issued_at = serializers.DateTimeField(source="series.issued_at")
    entered = serializers.IntegerField()
    spoiled = serializers.IntegerField()
    highest = serializers.IntegerField(allow_null=True, help_text="The highest number used.")
    gaps = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Numbers below the highest used, neither entered nor spoiled: the gaming "
        "day's count does not close while a series of its tables has one.",
    )


class SeriesDetailSerializer(SeriesSerializer):
    papers = PaperSerializer(many=True, source="series.papers.all")


class _PaperInputSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, help_text="The number printed on the paper.")
    session = id_field(help_text="The open session of the series' table it was played in.")
    written_at = serializers.DateTimeField(
        help_text="The date and time written on the paper (ISO 8601, with its offset)."
    )


class PaperSlipInputSerializer(_PaperInputSerializer):
    chips = chip_count()
    cashier = serializers.CharField(
        max_length=150, help_text="The cashier who signed, by username."
    )
    dealer = serializers.CharField(max_length=150, help_text="The dealer who signed, by username.")
    supervisor = serializers.CharField(
        max_length=150, help_text="The supervisor who signed, by username."
    )


class PaperRoundInputSerializer(_PaperInputSerializer):
    dealer_cards = serializers.CharField(max_length=MAX_CARDS_TEXT, allow_blank=True)
    boxes = RoundBoxInputSerializer(many=True, allow_empty=False, max_length=9)


class PaperSpoilInputSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(max_length=255, help_text="Why the paper is spoiled.")


class PaperLineSerializer(serializers.Serializer):
    session = serializers.IntegerField(source="session.pk")
    table = TableRefSerializer(source="session.table")
    late_rounds = serializers.IntegerField()
    late_house = MoneyField(help_text="The house's result of the rounds entered late.")
    late_fills = MoneyField()
    late_credits = MoneyField()
    win_by_ledger = MoneyField(help_text="With the late rounds.")
    counted = serializers.BooleanField(source="counted.counted", default=False)
    drop = MoneyField(source="counted.drop", allow_null=True, default=None)
    win_by_count = MoneyField(source="counted.win_by_count", allow_null=True, default=None)
    variance = MoneyField(source="counted.variance", allow_null=True, default=None)
    agrees = serializers.BooleanField(help_text="The box counted and no variance left.")


class ManualDaySerializer(serializers.Serializer):
    gaming_date = serializers.DateField()
    late_entries = PaperSerializer(many=True)
    gaps = SeriesSerializer(many=True, help_text="The day's tables' series with a gap.")
    reconciliation = PaperLineSerializer(many=True)
