"""Drop boxes, their counts, the gaming day's count and the win per table."""

from __future__ import annotations

from rest_framework import serializers

from casino.api.serializers.fields import (
    MAX_CHIP_COUNT,
    MoneyField,
    RateField,
    TableRefSerializer,
    chip_count,
    person,
)
from casino.floor.api.session_serializers import CredentialsSerializer


class OtherInstrumentSerializer(serializers.Serializer):
    what = serializers.CharField(max_length=120, help_text="A cheque, a voucher, a coupon...")
    amount = MoneyField()


class BoxCountSerializer(serializers.Serializer):
    ordinal = serializers.IntegerField(help_text="1: the first count, 2: the second.")
    counted_by = person("counted_by")
    counted_at = serializers.DateTimeField()
    notes = serializers.DictField(
        child=serializers.IntegerField(), help_text="Bank notes: denomination -> notes."
    )
    chips = serializers.DictField(
        child=serializers.IntegerField(), help_text="Chips: denomination -> chips."
    )
    others = OtherInstrumentSerializer(many=True)
    total = MoneyField()
    difference = MoneyField(
        allow_null=True, help_text="The second count's total less the first's; null on the first."
    )
    reason = serializers.CharField(allow_blank=True, help_text="Why the second count differs.")


class DropBoxSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    table = TableRefSerializer()
    gaming_date = serializers.DateField()
    number = serializers.IntegerField(help_text="The box's number among the table's that day.")
    per_session = serializers.BooleanField()
    status = serializers.CharField(help_text="in_use, removed or counted")
    sessions = serializers.ListField(child=serializers.IntegerField(), help_text="Session ids.")
    ready = serializers.BooleanField(help_text="Every session of the box is closed.")
    counts = BoxCountSerializer(many=True)
    total = MoneyField(allow_null=True, help_text="The drop the count posted, once counted.")
    counted_at = serializers.DateTimeField(allow_null=True)


class CountDaySerializer(serializers.Serializer):
    venue = serializers.IntegerField()
    gaming_date = serializers.DateField()
    status = serializers.CharField(help_text="open or closed")
    closed_by = serializers.CharField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    boxes = DropBoxSerializer(many=True)


class CountInputSerializer(serializers.Serializer):
    """One counter's count of a box; the second count needs ``reason`` when it differs."""

    notes = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_CHIP_COUNT),
        required=False,
        help_text='Bank notes: denomination -> number of notes, e.g. {"500000": 12}.',
    )
    chips = chip_count(required=False)
    others = OtherInstrumentSerializer(many=True, required=False)
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=1000, help_text="Why it differs."
    )


class CountCloseInputSerializer(serializers.Serializer):
    confirmed_by = CredentialsSerializer(
        help_text="The second member of the count team who confirms the close, by their own "
        "username and password: another person than the caller. A wrong password is refused "
        "(400, field confirmed_by) and counts towards the login lockout."
    )


class CountReopenInputSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=1000, help_text="Why the closed count is reopened (which box it left out)."
    )


class WinLineSerializer(serializers.Serializer):
    opener = MoneyField()
    closer = MoneyField(allow_null=True, help_text="Null while a session is open.")
    fills = MoneyField()
    credits = MoneyField()
    drop = MoneyField(help_text="The count's drops and the pit's.")
    counted_drop = MoneyField(help_text="The count's drops alone.")
    win = MoneyField(allow_null=True, help_text="closer - opener + credits - fills + drop.")
    handle = MoneyField()
    house_win = MoneyField(help_text="What the settled rounds moved to the house.")
    hold_pct = RateField(allow_null=True, help_text="house_win / handle, in percent.")
    win_drop_pct = RateField(allow_null=True, help_text="win / drop, in percent.")


class WinRowSerializer(WinLineSerializer):
    table = TableRefSerializer()
    sessions = serializers.IntegerField()


class WinFiguresSerializer(serializers.Serializer):
    venue = serializers.IntegerField()
    gaming_date = serializers.DateField()
    count_closed = serializers.BooleanField()
    rows = WinRowSerializer(many=True)
    total = WinLineSerializer()
