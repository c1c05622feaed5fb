"""The API's input and output serializers, one pair per operation.

Input serializers only check shapes and bounds (types, lengths, sizes that fit the
database); the services check the rules and name the field they refuse. Output
serializers render money as Decimal strings with two places (``"95000.00"``) and rates as
their shortest exact text (``"0.05"``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.functional import lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino import games
from casino.api.base import ListParams, id_field
from casino.models import (
    Account,
    Bet,
    EntryKind,
    Player,
    RoundStatus,
    Slip,
    SlipStatus,
    Table,
    TableRulesetChange,
    TableSession,
)
from casino.models.rulesets import RoundingMode
from casino.money import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS, RATE_DECIMAL_PLACES, plain

#: The most chips of one denomination a count may hold.
MAX_CHIP_COUNT = 1_000_000
#: The longest card text accepted (five cards with separators need ~20 characters).
MAX_CARDS_TEXT = 200


# Fields


def _games_help(attribute: str) -> str:
    return " ".join(str(getattr(game.api, attribute)) for game in games.all_games())


#: A help text made of each installed game's (``GameApi``), read when the schema is built.
games_help = lazy(_games_help, str)


class MoneyField(serializers.DecimalField):
    """An amount of money: a Decimal string in and out (a JSON number is accepted too)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_digits=MONEY_MAX_DIGITS, decimal_places=MONEY_DECIMAL_PLACES, **kwargs)


class RateField(serializers.DecimalField):
    """Odds, rates and multiples, rendered as their shortest exact text."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_digits=None, decimal_places=RATE_DECIMAL_PLACES, **kwargs)

    def to_representation(self, value: Any) -> str | None:
        return None if value is None else plain(Decimal(value))


def person(source: str, **kwargs: Any) -> serializers.CharField:
    """A member of staff, shown by username."""
    return serializers.CharField(source=f"{source}.username", read_only=True, **kwargs)


def chip_count(**kwargs: Any) -> serializers.DictField:
    return serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_CHIP_COUNT),
        help_text='Chip count: denomination -> number of chips, e.g. {"100000": 50}.',
        **kwargs,
    )


def reason_field() -> serializers.CharField:
    return serializers.CharField(
        required=False, allow_blank=True, max_length=1000, help_text="Why (required to void)."
    )


# References to other objects


class VenueRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()


class TableRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()


class RulesetRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    name = serializers.CharField()


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    membership_number = serializers.CharField()
    name = serializers.CharField()


# Venues


class VenueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    name = serializers.CharField()
    currency = serializers.CharField()
    rounding_unit = MoneyField()
    timezone = serializers.CharField()
    language = serializers.CharField()


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

    @extend_schema_field(serializers.DictField(child=TableLimitSerializer()))
    def get_limits(self, table: Table) -> dict[str, Any]:
        return {
            limit.bet_type: TableLimitSerializer(limit).data
            for limit in sorted(table.limits.all(), key=lambda limit: limit.bet_type)
        }


class TableInputSerializer(serializers.Serializer):
    """Set up a table (all fields but limits and status), or change one (PATCH: any of
    them; a table's venue does not change, and its ruleset and game change only by a
    request another manager approves: ``/api/v1/table-ruleset-changes/``)."""

    venue = id_field()
    code = serializers.CharField(max_length=32)
    game = serializers.ChoiceField(choices=games.game_choices())
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
    game = serializers.ChoiceField(choices=games.game_choices(), required=False)
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
        choices=games.game_choices(),
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


# Players


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


# Rulesets


class RulesetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = VenueRefSerializer()
    game = serializers.CharField()
    code = serializers.CharField()
    name = serializers.CharField()


class RulesetVersionSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="draft, approved, active or retired")
    notes = serializers.CharField()
    created_at = serializers.DateTimeField()
    created_by = person("created_by", allow_null=True)
    approved_at = serializers.DateTimeField(allow_null=True)
    approved_by = person("approved_by", allow_null=True)
    activated_at = serializers.DateTimeField(allow_null=True)
    activated_by = person("activated_by", allow_null=True)
    effective_from = serializers.DateTimeField(allow_null=True)
    retired_at = serializers.DateTimeField(allow_null=True)


class RulesetVersionSerializer(RulesetVersionSummarySerializer):
    """A version with the rules every game's versions have; each game's serializer (its
    ``GameApi.version_serializer``) adds its own."""

    ruleset = RulesetRefSerializer()
    rounding_unit = MoneyField(
        help_text="Commissions are rounded to a multiple of this; stakes must be multiples."
    )
    rounding_mode = serializers.ChoiceField(
        choices=RoundingMode.choices,
        help_text="up (towards +infinity), half_up, down (towards -infinity), or none (to the "
        "cent)",
    )


class RulesetDetailSerializer(RulesetSerializer):
    versions = RulesetVersionSummarySerializer(many=True)


class RulesetListParams(ListParams):
    venue = id_field(required=False)
    game = serializers.ChoiceField(choices=games.game_choices(), required=False)


# Sessions


class ShiftSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    gaming_date = serializers.DateField()
    name = serializers.CharField()


class ReconciliationSerializer(serializers.Serializer):
    """Win by count = closing - opening + credits - fills + drop; variance = count - ledger."""

    opening = MoneyField(source="opening_total")
    closing = MoneyField(source="closing_total")
    fills = MoneyField(source="fills_total")
    credits = MoneyField(source="credits_total")
    drop = MoneyField(source="drop_total")
    win_by_count = MoneyField()
    win_by_ledger = MoneyField()
    variance = MoneyField()


class SessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = VenueRefSerializer(source="table.venue")
    table = TableRefSerializer()
    shift = ShiftSerializer()
    dealer = person("dealer")
    status = serializers.CharField(help_text="open, closed or reconciled")
    opened_by = person("opened_by")
    opened_at = serializers.DateTimeField()
    opening_chips = serializers.DictField(child=serializers.IntegerField())
    opening_total = MoneyField()
    closed_by = person("closed_by", allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    closing_chips = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    closing_total = MoneyField(allow_null=True)
    reconciliation = serializers.SerializerMethodField(
        help_text="The figures worked out at closing; null while the table is open."
    )

    @extend_schema_field(ReconciliationSerializer(allow_null=True))
    def get_reconciliation(self, session: TableSession) -> dict[str, Any] | None:
        if session.closing_total is None:
            return None
        return ReconciliationSerializer(session).data


class SessionOpenInputSerializer(serializers.Serializer):
    table = id_field()
    opening_chips = chip_count()
    dealer = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=150,
        help_text="The dealer's username; the caller when not given.",
    )


class SessionCloseInputSerializer(serializers.Serializer):
    closing_chips = chip_count()
    drop = MoneyField(
        required=False,
        allow_null=True,
        min_value=Decimal("0"),
        help_text="Cash counted in the drop box, entered with the closing.",
    )


class SessionListParams(ListParams):
    table = id_field(required=False)
    venue = id_field(required=False)
    status = serializers.ChoiceField(choices=TableSession.Status.choices, required=False)


class DropInputSerializer(serializers.Serializer):
    amount = MoneyField(min_value=Decimal("0.01"))


class DropSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    session = serializers.IntegerField(source="session_id")
    amount = MoneyField(help_text="Positive; a reversal's is the reversed drop's, negated.")
    counted_by = person("counted_by")
    counted_at = serializers.DateTimeField()
    reverses = serializers.IntegerField(
        source="reverses_id", allow_null=True, help_text="The drop this one reverses, or null."
    )
    reason = serializers.CharField(allow_blank=True, help_text="Why it was reversed.")


class DropReverseInputSerializer(serializers.Serializer):
    reason = serializers.CharField(
        allow_blank=True, max_length=1000, help_text="Why the drop is reversed (required)."
    )


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
        max_length=MAX_CARDS_TEXT,
        allow_blank=True,
        help_text=games_help("cards_help"),
    )
    quit = serializers.BooleanField(
        required=False,
        default=False,
        help_text="The player quit the round (in a game with a quit penalty).",
    )


class RoundCreateInputSerializer(serializers.Serializer):
    session = id_field()
    dealer_cards = serializers.CharField(
        max_length=MAX_CARDS_TEXT,
        allow_blank=True,
        help_text=games_help("dealer_cards_help"),
    )
    boxes = RoundBoxInputSerializer(many=True, allow_empty=False, max_length=9)
    create_key = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=64,
        help_text="The same key in the same session answers the round already recorded.",
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
    created_by = person("created_by")
    created_at = serializers.DateTimeField()
    settled_at = serializers.DateTimeField(allow_null=True)
    void_requested_by = person("void_requested_by", allow_null=True)
    voided_by = person("voided_by", allow_null=True)


# The ledger


class LedgerEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    account = serializers.CharField(help_text=", ".join(Account.values))
    kind = serializers.CharField(help_text=", ".join(EntryKind.values))
    amount = MoneyField(help_text="Signed: + into the account, - out of it.")
    box = serializers.IntegerField(source="box.position", allow_null=True)
    bet_type = serializers.CharField(source="bet.bet_type", allow_null=True)
    player = serializers.IntegerField(source="player_id", allow_null=True)
    reverses = serializers.IntegerField(source="reverses_id", allow_null=True)
    created_by = person("created_by", allow_null=True)
    created_at = serializers.DateTimeField()


class LedgerSerializer(serializers.Serializer):
    entries = LedgerEntrySerializer(many=True)
    sum = MoneyField(help_text="Always 0: every posting balances.")
    by_account = serializers.DictField(child=MoneyField())


# Slips


class SlipSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = VenueRefSerializer()
    session = serializers.IntegerField(source="session_id")
    table = TableRefSerializer(source="session.table")
    kind = serializers.CharField(help_text="fill or credit")
    year = serializers.IntegerField()
    number = serializers.IntegerField()
    amount = MoneyField()
    chips = serializers.DictField(child=serializers.IntegerField())
    status = serializers.CharField(help_text=", ".join(SlipStatus.values))
    requested_by = person("requested_by")
    requested_at = serializers.DateTimeField()
    issued_by = person("issued_by", allow_null=True)
    issued_at = serializers.DateTimeField(allow_null=True)
    verified_by = person("verified_by", allow_null=True)
    verified_at = serializers.DateTimeField(allow_null=True)
    voided_by = person("voided_by", allow_null=True)
    voided_at = serializers.DateTimeField(allow_null=True)
    void_reason = serializers.CharField(allow_blank=True)


class SlipRequestInputSerializer(serializers.Serializer):
    session = id_field()
    kind = serializers.ChoiceField(choices=Slip.Kind.choices)
    chips = chip_count()


class SlipVoidInputSerializer(serializers.Serializer):
    reason = reason_field()


class SlipListParams(ListParams):
    session = id_field(required=False)
    kind = serializers.ChoiceField(choices=Slip.Kind.choices, required=False)
    status = serializers.ChoiceField(choices=SlipStatus.choices, required=False)


# The audit trail


class AuditEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    user = person("user", allow_null=True)
    venue = VenueRefSerializer(allow_null=True)
    action = serializers.CharField()
    object_type = serializers.CharField()
    object_id = serializers.CharField()
    summary = serializers.CharField()
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)


class AuditEventListParams(ListParams):
    venue = id_field(required=False)
    action = serializers.CharField(
        required=False, max_length=64, help_text='An action ("round.void"), or a prefix ("round.").'
    )
    object_type = serializers.CharField(
        required=False, max_length=64, help_text='e.g. "casino.round".'
    )
    object_id = serializers.CharField(required=False, max_length=64)
    user = serializers.CharField(required=False, max_length=150, help_text="A username.")
