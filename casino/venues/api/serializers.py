"""Venues, their tables and the changes of a table's ruleset."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino.api.base import ListParams, id_field
from casino.api.serializers.fields import (
    MoneyField,
    RulesetRefSerializer,
    TableRefSerializer,
    VenueRefSerializer,
    person,
)
from casino.kernel import registry
from casino.venues.models import Table, TableRulesetChange

# Venues


class VenueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    name = serializers.CharField()
    currency = serializers.CharField()
    rounding_unit = MoneyField()
    variance_reason_over = MoneyField(
        help_text="A table closes with a variance larger than this only with a reason."
    )
    timezone = serializers.CharField()
    language = serializers.CharField()
    drop_each_close = serializers.BooleanField(
        help_text="Each table session has its own drop box (else one per table and gaming day)."
    )
    note_denominations = serializers.ListField(
        child=serializers.CharField(), help_text="The bank notes the count counts by."
    )
    group_player_data = serializers.ChoiceField(
        choices=["pseudonymised", "identified"],
        help_text="What of the venue's members its site sends the group: the group key only "
        "(pseudonymised), or their name, date of birth and document too (identified).",
    )


# A venue's gaming day and shifts


class PlannedShiftSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The venue's own name for the shift, shown as is.")
    starts = serializers.CharField(help_text="When it starts, venue time, HH:MM.")
    ends = serializers.CharField(
        help_text="When it ends: the next shift's start, the last one's the next gaming day's."
    )


class GamingDaySerializer(serializers.Serializer):
    """The plan each new gaming day follows; the days begun keep the plan they began with."""

    venue = VenueRefSerializer()
    gaming_day_starts = serializers.CharField(help_text="When the gaming day starts, HH:MM.")
    shifts = PlannedShiftSerializer(
        many=True, help_text='In order; without a plan, one shift named "day".'
    )


class PlannedShiftInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, allow_blank=True, trim_whitespace=False)
    starts = serializers.CharField(max_length=8, allow_blank=True, help_text="HH:MM")


class GamingDayInputSerializer(serializers.Serializer):
    """The day's start and all of its shifts (an empty list: one shift for the day)."""

    gaming_day_starts = serializers.CharField(
        max_length=8, allow_blank=True, help_text="When the gaming day starts, HH:MM, e.g. 06:00."
    )
    shifts = serializers.ListField(
        child=PlannedShiftInputSerializer(),
        allow_empty=True,
        max_length=100,
        help_text="In the order they start; the first starts at gaming_day_starts.",
    )


# Tables


class TableLimitSerializer(serializers.Serializer):
    min_stake = MoneyField(min_value=Decimal("0.01"))
    max_stake = MoneyField(min_value=Decimal("0.01"))


class TableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = VenueRefSerializer()
    code = serializers.CharField()
    game = serializers.CharField()
    ruleset = RulesetRefSerializer()
    seats = serializers.IntegerField()
    chip_denominations = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField(help_text="active or inactive")
    limits = serializers.SerializerMethodField()

    limits_in_force = serializers.SerializerMethodField(
        help_text="The limits stakes are checked against now: ``limits``, or a scheduled "
        "change of them that has taken effect."
    )

    @extend_schema_field(serializers.DictField(child=TableLimitSerializer()))
    def get_limits(self, table: Table) -> dict[str, Any]:
        return {
            limit.bet_type: TableLimitSerializer(limit).data
            for limit in sorted(table.limits.all(), key=lambda limit: limit.bet_type)
        }

    @extend_schema_field(serializers.DictField(child=TableLimitSerializer()))
    def get_limits_in_force(self, table: Table) -> dict[str, Any]:
        return {
            limit.bet_type: TableLimitSerializer(
                {
                    "min_stake": getattr(limit, "in_force_min", limit.min_stake),
                    "max_stake": getattr(limit, "in_force_max", limit.max_stake),
                }
            ).data
            for limit in sorted(table.limits.all(), key=lambda limit: limit.bet_type)
        }


class TableInputSerializer(serializers.Serializer):
    """Set up a table (all fields but limits and status), or change one (PATCH: any of
    them; a table's venue does not change, and its ruleset and game change only by a
    request another manager approves: ``/api/v1/table-ruleset-changes/``)."""

    venue = id_field()
    code = serializers.CharField(max_length=32)
    game = serializers.ChoiceField(choices=registry.game_choices())
    ruleset = id_field(
        help_text="A ruleset of the same venue and game; on a change, only the table's own."
    )
    seats = serializers.IntegerField(min_value=1, max_value=9)
    chip_denominations = serializers.ListField(
        child=MoneyField(), min_length=1, max_length=20, help_text='e.g. ["100000", "5000"]'
    )
    limits = serializers.DictField(
        child=TableLimitSerializer(),
        required=False,
        help_text="Stake limits per bet type; on an edit they replace all the table's limits.",
    )
    status = serializers.ChoiceField(choices=Table.Status.choices, required=False)


class TableListParams(ListParams):
    venue = id_field(required=False)
    game = serializers.ChoiceField(choices=registry.game_choices(), required=False)
    status = serializers.ChoiceField(choices=Table.Status.choices, required=False)


# Changes of a table's ruleset


class TableRulesetChangeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = VenueRefSerializer(source="table.venue")
    table = TableRefSerializer()
    from_ruleset = RulesetRefSerializer()
    to_ruleset = RulesetRefSerializer()
    from_game = serializers.CharField()
    to_game = serializers.CharField(help_text="The table's game once applied.")
    reason = serializers.CharField()
    status = serializers.CharField(help_text="pending, applied, refused or withdrawn")
    requested_by = person("requested_by")
    requested_at = serializers.DateTimeField()
    decided_by = person("decided_by", allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    decision_note = serializers.CharField(allow_blank=True)


class TableRulesetChangeInputSerializer(serializers.Serializer):
    table = id_field()
    ruleset = id_field(help_text="A ruleset of the table's venue, of its game or of ``game``.")
    game = serializers.ChoiceField(
        choices=registry.game_choices(),
        required=False,
        help_text="The table's new game, when the new ruleset is of another game.",
    )
    reason = serializers.CharField(max_length=1000, help_text="Why; the approver reads it.")


class TableRulesetChangeRefuseInputSerializer(serializers.Serializer):
    note = serializers.CharField(
        required=False, allow_blank=True, max_length=1000, help_text="Why it is refused."
    )


class TableRulesetChangeListParams(ListParams):
    table = id_field(required=False)
    venue = id_field(required=False)
    status = serializers.ChoiceField(choices=TableRulesetChange.Status.choices, required=False)
