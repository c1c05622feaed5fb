"""Baccarat's part of the API: its ruleset version with its rules, and what its round body
and answers hold."""

from __future__ import annotations

from django.urls import URLPattern
from rest_framework import serializers

from casino.api.serializers.fields import RateField
from casino.rulesets.api.serializers import RulesetVersionSerializer


class BaccaratRulesetVersionSerializer(RulesetVersionSerializer):
    """A Baccarat version with its rules: rounding, the shoe, the variant, the payouts, the
    bets offered and how the commission is collected."""

    decks = serializers.IntegerField(help_text="Decks in the shoe, 1 to 8.")
    variant = serializers.CharField(help_text='"commission" or "no_commission".')
    banker_commission = RateField(help_text="Share of a Banker win taken, 0.05 for 5%.")
    banker_six_odds = RateField(help_text="No commission: a Banker win on 6 pays this (N:1).")
    tie_odds = RateField()
    pair_odds = RateField()
    super6_two_card_odds = RateField()
    super6_three_card_odds = RateField()
    bet_types = serializers.ListField(
        source="offered_bet_types",
        child=serializers.CharField(),
        help_text="The bets offered, in table order.",
    )
    collection = serializers.CharField(
        help_text='"at_win": taken from each win; "box": owed in the commission box.'
    )


class BaccaratApi:
    """The API's hooks for Baccarat (the schema's help texts are in English, like the rest)."""

    version_serializer = BaccaratRulesetVersionSerializer
    cards_help = "Baccarat: the seats hold no cards: leave empty."
    dealer_cards_help = (
        "Baccarat: the whole deal in deal order: P1 B1 P2 B2, then third cards (the Player's, "
        'then the Banker\'s, as the tableau draws them), e.g. "9H 2C 3D KS 5H".'
    )
    evaluation_help = (
        "Baccarat: the round's {player, banker} hands ({cards, total, natural, drew, pair}), "
        "winner and super6; a box's is {} for a seat, {behind, label} for a player betting "
        "behind (positions 8 and up)."
    )

    def urls(self) -> list[URLPattern]:
        return []


API = BaccaratApi()
