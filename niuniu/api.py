"""Niu Niu's part of the API: its ruleset version with its rules, and what its round body
and answers hold."""

from __future__ import annotations

from rest_framework import serializers

from casino.api.serializers.fields import RateField
from casino.api.serializers.rulesets import RulesetVersionSerializer


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
    """A Niu Niu version with its rules: rounding, switches, deposit multiples, paytable,
    bonus."""

    offers_double = serializers.BooleanField()
    offers_super = serializers.BooleanField()
    five_small = serializers.BooleanField()
    four_of_a_kind = serializers.BooleanField()
    five_face = serializers.BooleanField()
    double_deposit_multiple = RateField()
    super_deposit_multiple = RateField()
    paytable_rows = PaytableRowSerializer(many=True)
    bonus_lines = BonusLineSerializer(many=True)


class NiuNiuApi:
    """The API's hooks for Niu Niu (the schema's help texts are in English, like the rest)."""

    version_serializer = NiuNiuRulesetVersionSerializer
    cards_help = 'Niu Niu: five cards, e.g. "KS QS 5H 4H TC".'
    dealer_cards_help = "The dealer's five cards (Niu Niu)."
    evaluation_help = "Niu Niu: {category, label, points, three, two, high_card}."


API = NiuNiuApi()
