"""Players as the API shows and takes them: a player, their detail (identity, barring) and
their rated play."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from casino.api.base import ListParams, id_field
from casino.api.serializers.fields import MoneyField, VenueRefSerializer
from casino.players.models import Player


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = VenueRefSerializer()
    membership_number = serializers.CharField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="active or barred")
    created_at = serializers.DateTimeField()


class PlayerInputSerializer(serializers.Serializer):
    """Register a player, or change one (PATCH: any field but the venue)."""

    venue = id_field()
    membership_number = serializers.CharField(
        max_length=32,
        help_text="Letters A-Z, digits 0-9 and - . /, 1 to 32 characters; stored upper-case "
        "(lower case and full-width forms are converted, anything else is refused).",
    )
    name = serializers.CharField(max_length=120)
    status = serializers.ChoiceField(choices=Player.Status.choices, required=False)


class PlayerListParams(ListParams):
    venue = id_field(required=False)
    search = serializers.CharField(
        required=False, max_length=120, help_text="Start of a membership number or part of a name."
    )
    membership_number = serializers.CharField(
        required=False,
        max_length=32,
        help_text="An exact membership number, in any case or full-width; one with other "
        "characters finds nobody.",
    )
    status = serializers.ChoiceField(choices=Player.Status.choices, required=False)


class IdentitySerializer(serializers.Serializer):
    date_of_birth = serializers.CharField(help_text="YYYY-MM-DD; the year only but to managers.")
    nationality = serializers.CharField()
    id_document_type = serializers.CharField()
    id_document_number = serializers.CharField(
        help_text="Its last 4 characters, the others masked, but to the venue's managers."
    )
    id_document_country = serializers.CharField(help_text="The country that issued it.")


class BarringSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    reason = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(allow_null=True)


class PlayerDetailSerializer(PlayerSerializer):
    barred = serializers.BooleanField(help_text="Whether the player may not play today.")
    barring = BarringSerializer(
        allow_null=True,
        help_text="The barring in force, if any; null for one recorded at another venue of "
        "the exclusion area unless the area shares details.",
    )
    barred_at = VenueRefSerializer(
        allow_null=True,
        help_text="The venue of the exclusion area whose barring of the same person applies "
        "here; null when barred here or not at all.",
    )
    person = serializers.IntegerField(
        allow_null=True, help_text="The person whose memberships across the group are linked."
    )
    identity = IdentitySerializer()


class DuplicateParams(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=120)
    date_of_birth = serializers.DateField(required=False)
    id_document_type = serializers.CharField(required=False, max_length=32)
    id_document_number = serializers.CharField(required=False, max_length=64)
    id_document_country = serializers.CharField(required=False, max_length=64)


class CandidateSerializer(serializers.Serializer):
    player = PlayerSerializer()
    matched = serializers.ListField(
        child=serializers.ChoiceField(choices=["name", "date_of_birth", "document"]),
        help_text="What matched: the name (accents, case and word order aside), the date of "
        "birth, the identity document.",
    )


class LinkInputSerializer(serializers.Serializer):
    other = id_field(help_text="The membership to link this one to (another venue's).")
    reason = serializers.CharField(max_length=255)


class UnlinkInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=255)


class HistoryParams(ListParams):
    date_from = serializers.DateField(required=False, help_text="First gaming date (90 days back).")
    date_to = serializers.DateField(
        required=False, help_text="Last gaming date (the venue's today)."
    )


class HistoryLineSerializer(serializers.Serializer):
    source = serializers.ChoiceField(
        choices=["tallies", "rating"], help_text="Rated from the settled bets, or by hand."
    )
    session_id = serializers.IntegerField()
    table_code = serializers.CharField()
    game = serializers.CharField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()
    minutes = serializers.IntegerField()
    rounds = serializers.IntegerField(allow_null=True)
    decisions = serializers.IntegerField(allow_null=True)
    handle = MoneyField(allow_null=True)
    average_bet = MoneyField(allow_null=True)
    theoretical_win = MoneyField(allow_null=True)
    actual_win = MoneyField(allow_null=True, help_text="The house's win from the player.")


class HistoryTotalsSerializer(serializers.Serializer):
    sessions = serializers.IntegerField()
    minutes = serializers.IntegerField()
    rounds = serializers.IntegerField()
    handle = MoneyField()
    average_bet = MoneyField(allow_null=True, help_text="Weighted by the time of each line.")
    theoretical_win = MoneyField()
    unrated_lines = serializers.IntegerField(help_text="Lines without a theoretical win.")
    actual_win = MoneyField()


class CashLineSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.CharField(source="table.code")
    gaming_date = serializers.DateField()
    kind = serializers.CharField(help_text="buy_in or cash_out")
    instrument = serializers.CharField()
    amount = MoneyField()
    recorded_at = serializers.DateTimeField()
    voided = serializers.SerializerMethodField()

    def get_voided(self, transaction: Any) -> bool:
        return transaction.voided_at is not None


class PlayerHistorySerializer(serializers.Serializer):
    player = serializers.IntegerField()
    date_from = serializers.DateField()
    date_to = serializers.DateField()
    lines = HistoryLineSerializer(many=True)
    totals = HistoryTotalsSerializer()
    cash = CashLineSerializer(
        many=True, help_text="The player's buy-ins and cash-outs of the gaming dates, newest first."
    )
