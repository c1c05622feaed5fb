"""Rounds: the body that deals one, and the round with its boxes, bets and totals."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from casino.api.base import ListParams, id_field
from casino.api.serializers.fields import (
    MAX_CARDS_TEXT,
    MoneyField,
    PlayerRefSerializer,
    RateField,
    TableRefSerializer,
    VenueRefSerializer,
    games_help,
    person,
    reason_field,
)
from casino.floor.models import Bet, RoundStatus

# Rounds


class RoundBoxInputSerializer(serializers.Serializer):
    position = serializers.IntegerField(min_value=1, max_value=32767)
    player = id_field(required=False, allow_null=True, help_text="A player's id, or anonymous.")
    bets = serializers.DictField(
        child=MoneyField(),
        help_text='Stakes per bet type as decimal strings, e.g. {"single": "100000"}.',
    )
    deposits = serializers.DictField(
        child=MoneyField(),
        required=False,
        help_text="The deposit shown per bet type (Double, Super), when the table asks for it.",
    )
    cards = serializers.CharField(
        max_length=MAX_CARDS_TEXT, allow_blank=True, help_text=games_help("cards_help")
    )
    quit = serializers.BooleanField(
        required=False,
        default=False,
        help_text="The player quit the round (in a game with a quit penalty).",
    )
    declared = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Whether the player declares the hand that wins outright, where the game's "
        "rules leave it to the player; leave out otherwise.",
    )


class RoundCreateInputSerializer(serializers.Serializer):
    session = id_field()
    dealer_cards = serializers.CharField(
        max_length=MAX_CARDS_TEXT, allow_blank=True, help_text=games_help("dealer_cards_help")
    )
    boxes = RoundBoxInputSerializer(many=True, allow_empty=False, max_length=9)
    create_key = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=64,
        help_text="The same key in the same session answers the round already recorded.",
    )
    expected_number = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        help_text="The number this round takes as the client last saw the table (the "
        "session's next_round_number): when another round was recorded there since, the "
        "round is refused (409) and nothing is written. Leave out to deal whatever came "
        "before.",
    )


class RoundVoidInputSerializer(serializers.Serializer):
    reason = reason_field()


class RoundListParams(ListParams):
    session = id_field(required=False)
    status = serializers.ChoiceField(choices=RoundStatus.choices, required=False)


def evaluation_field(**kwargs: Any) -> serializers.JSONField:
    """A hand's evaluation as the game gives it (games differ in what they say of a hand;
    each game's ``GameApi.evaluation_help`` says what)."""
    return serializers.JSONField(help_text=games_help("evaluation_help"), **kwargs)


class DealerHandSerializer(serializers.Serializer):
    cards = serializers.CharField(source="dealer_cards")
    evaluation = evaluation_field(source="dealer_evaluation", allow_null=True)


class BetSerializer(serializers.Serializer):
    bet_type = serializers.CharField()
    stake = MoneyField()
    deposit_shown = MoneyField(allow_null=True)
    deposit_required = MoneyField()
    outcome = serializers.ChoiceField(choices=Bet.Outcome.choices)
    odds = RateField()
    gross = MoneyField(help_text="The player's side: + won, - lost, before commission.")
    commission = MoneyField()
    net = MoneyField(help_text="The player's result: gross - commission.")


class BoxSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = PlayerRefSerializer(allow_null=True)
    cards = serializers.CharField()
    quit = serializers.BooleanField()
    evaluation = evaluation_field()
    bets = BetSerializer(many=True)
    net = MoneyField(help_text="The box's result for the player.")


class RoundTotalsSerializer(serializers.Serializer):
    stake = MoneyField(source="total_stake")
    commission = MoneyField(source="total_commission")
    house_net = MoneyField(help_text="What the house wins (+) or loses (-).")


class RoundRulesetSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="ruleset_id")
    code = serializers.CharField(source="ruleset.code")
    version_number = serializers.IntegerField(source="ruleset_version_number")


class RoundSerializer(serializers.Serializer):
    """A round with every hand evaluated and the settlement (a preview while dealt)."""

    id = serializers.IntegerField(source="round.pk")
    number = serializers.IntegerField(source="round.number")
    status = serializers.CharField(source="round.status", help_text="dealt, settled or voided")
    preview = serializers.BooleanField(
        help_text="True while the round is dealt: the outcomes are what settling will post."
    )
    game = serializers.CharField(source="round.game")
    session = serializers.IntegerField(source="round.session_id")
    venue = VenueRefSerializer(source="round.session.table.venue")
    table = TableRefSerializer(source="round.session.table")
    ruleset = RoundRulesetSerializer(source="round")
    dealer = DealerHandSerializer(source="*")
    dealer_on_duty = person(
        "round.dealer", help_text="The dealer on duty at the table when the round was dealt."
    )
    boxes = BoxSerializer(many=True)
    deal_order = serializers.ListField(child=serializers.IntegerField())
    payment_order = serializers.ListField(child=serializers.IntegerField())
    totals = RoundTotalsSerializer(source="*")
    create_key = serializers.CharField(source="round.create_key", allow_null=True)
    created_by = person("round.created_by")
    created_at = serializers.DateTimeField(source="round.created_at")
    settled_by = person("round.settled_by", allow_null=True)
    settled_at = serializers.DateTimeField(source="round.settled_at", allow_null=True)
    void_reason = serializers.CharField(source="round.void_reason", allow_blank=True)
    void_requested_by = person("round.void_requested_by", allow_null=True)
    void_requested_at = serializers.DateTimeField(source="round.void_requested_at", allow_null=True)
    voided_by = person("round.voided_by", allow_null=True)
    voided_at = serializers.DateTimeField(source="round.voided_at", allow_null=True)


class RoundSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="dealt, settled or voided")
    game = serializers.CharField()
    session = serializers.IntegerField(source="session_id")
    table = TableRefSerializer(source="session.table")
    dealer_cards = serializers.CharField()
    house_net = MoneyField(allow_null=True)
    dealer_on_duty = person(
        "dealer", help_text="The dealer on duty at the table when the round was dealt."
    )
    created_by = person("created_by")
    created_at = serializers.DateTimeField()
    settled_at = serializers.DateTimeField(allow_null=True)
    void_requested_by = person("void_requested_by", allow_null=True)
    voided_by = person("voided_by", allow_null=True)
