"""Niu Niu's part of the API: its ruleset version with its rules, and what its round body
and answers hold."""

from __future__ import annotations

from django.urls import URLPattern
from rest_framework import serializers

from casino.api.serializers.fields import RateField
from casino.rulesets.api.serializers import RulesetVersionSerializer


class PaytableRowSerializer(serializers.Serializer):
    bet_type = serializers.CharField()
    category = serializers.CharField()
    win_odds = RateField()
    commission_rate = RateField()
    loss_multiple = RateField()


class BonusLineSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField()
    predicate = serializers.CharField()
    odds = RateField()


class NiuNiuRulesetVersionSerializer(RulesetVersionSerializer):
    """A Niu Niu version with its rules: rounding, switches, deposit multiples and bases,
    where special hands rank, the box limit, paytable, bonus."""

    offers_double = serializers.BooleanField()
    offers_super = serializers.BooleanField()
    five_small = serializers.BooleanField()
    four_of_a_kind = serializers.BooleanField()
    five_face = serializers.BooleanField()
    double_deposit_multiple = RateField()
    super_deposit_multiple = RateField()
    double_deposit_basis = serializers.CharField(
        help_text="The bet whose stake the Double deposit multiple applies to."
    )
    super_deposit_basis = serializers.CharField(
        help_text="The bet whose stake the Super deposit multiple applies to."
    )
    five_small_rank = serializers.CharField(help_text='"above" Niu Niu, or "level" with it.')
    four_of_a_kind_rank = serializers.CharField(help_text='"above" Niu Niu, or "level" with it.')
    five_face_rank = serializers.CharField(help_text='"above" Niu Niu, or "level" with it.')
    max_boxes = serializers.IntegerField(help_text="The most player boxes a round deals to.")
    paytable_rows = PaytableRowSerializer(many=True)
    bonus_lines = BonusLineSerializer(many=True)


class NiuNiuApi:
    """The API's hooks for Niu Niu (the schema's help texts are in English, like the rest)."""

    version_serializer = NiuNiuRulesetVersionSerializer
    cards_help = 'Niu Niu: five cards, e.g. "KS QS 5H 4H TC".'
    dealer_cards_help = "The dealer's five cards (Niu Niu)."
    evaluation_help = "Niu Niu: {category, label, points, three, two, high_card}."

    def urls(self) -> list[URLPattern]:
        return []


API = NiuNiuApi()
