"""The API's input and output serializers, one pair per operation.

Input serializers only check shapes and bounds (types, lengths, sizes that fit the
database); the services check the rules and name the field they refuse. Output
serializers render money as Decimal strings with two places (``"95000.00"``) and rates as
their shortest exact text (``"0.05"``).

Split by what they serve: ``fields`` (the fields and references all use), ``venues``
(venues, tables, ruleset changes, players), ``sessions`` (sessions, drops, the ledger,
slips) and ``rounds``; every name is here too, as ``serializers.<Name>``. The domain apps
hold their own (``casino.rulesets.api``, ``casino.ledger.api`` and the others).
"""

from casino.api.serializers.fields import (
    MAX_CARDS_TEXT,
    MAX_CHIP_COUNT,
    MoneyField,
    PlayerRefSerializer,
    RateField,
    RulesetRefSerializer,
    TableRefSerializer,
    VenueRefSerializer,
    chip_count,
    games_help,
    person,
    reason_field,
)
from casino.floor.api.round_serializers import (
    BetSerializer,
    BoxSerializer,
    DealerHandSerializer,
    RoundBoxInputSerializer,
    RoundCreateInputSerializer,
    RoundListParams,
    RoundRulesetSerializer,
    RoundSerializer,
    RoundSummarySerializer,
    RoundTotalsSerializer,
    RoundVoidInputSerializer,
    evaluation_field,
)
from casino.floor.api.session_serializers import (
    DropInputSerializer,
    DropReverseInputSerializer,
    DropSerializer,
    LedgerEntrySerializer,
    LedgerSerializer,
    ReconciliationSerializer,
    SessionCloseInputSerializer,
    SessionListParams,
    SessionOpenInputSerializer,
    SessionSerializer,
    ShiftSerializer,
    SlipIssueInputSerializer,
    SlipListParams,
    SlipRequestInputSerializer,
    SlipSerializer,
    SlipVoidInputSerializer,
)

__all__ = [
    "MAX_CARDS_TEXT",
    "MAX_CHIP_COUNT",
    "BetSerializer",
    "BoxSerializer",
    "DealerHandSerializer",
    "DropInputSerializer",
    "DropReverseInputSerializer",
    "DropSerializer",
    "LedgerEntrySerializer",
    "LedgerSerializer",
    "MoneyField",
    "PlayerRefSerializer",
    "RateField",
    "ReconciliationSerializer",
    "RoundBoxInputSerializer",
    "RoundCreateInputSerializer",
    "RoundListParams",
    "RoundRulesetSerializer",
    "RoundSerializer",
    "RoundSummarySerializer",
    "RoundTotalsSerializer",
    "RoundVoidInputSerializer",
    "RulesetRefSerializer",
    "SessionCloseInputSerializer",
    "SessionListParams",
    "SessionOpenInputSerializer",
    "SessionSerializer",
    "ShiftSerializer",
    "SlipIssueInputSerializer",
    "SlipListParams",
    "SlipRequestInputSerializer",
    "SlipSerializer",
    "SlipVoidInputSerializer",
    "TableRefSerializer",
    "VenueRefSerializer",
    "chip_count",
    "evaluation_field",
    "games_help",
    "person",
    "reason_field",
]
