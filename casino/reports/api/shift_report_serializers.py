"""A shift report as the API shows it: its build's state and, once built, its figures."""

from __future__ import annotations

from rest_framework import serializers

from casino.floor.api.session_serializers import ShiftSerializer


class ShiftReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = serializers.IntegerField(source="venue_id")
    shift = ShiftSerializer()
    kind = serializers.CharField()
    status = serializers.CharField(
        help_text="pending (waiting for a worker), running, done or failed."
    )
    progress = serializers.IntegerField(help_text="Percent done.")
    requested_at = serializers.DateTimeField()
    requested_by = serializers.CharField(
        source="requested_by.username", allow_null=True, default=None
    )
    finished_at = serializers.DateTimeField(allow_null=True)
    error = serializers.CharField(allow_blank=True)
    figures = serializers.JSONField(
        allow_null=True,
        help_text="The figures the report's page and its CSV, XLSX and PDF show, as stored "
        "when it was built (amounts as Decimal strings): total, tables, games, dealers, "
        "hours, players, count (each session's count against the ledger, with the counted "
        "drop once the box is counted)... Null until it is first built; a rebuild replaces "
        "them.",
    )
