"""Table sessions, their drops and the ledger (the slips of fills and credits:
``casino.cage.serializers``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino.api.base import ListParams, id_field
from casino.api.serializers.fields import (
    MoneyField,
    TableRefSerializer,
    VenueRefSerializer,
    chip_count,
    person,
)
from casino.floor.figures import counted_of
from casino.floor.models import TableSession
from casino.ledger.models import Account, EntryKind

# Sessions


class ShiftSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    gaming_date = serializers.DateField()
    name = serializers.CharField()


class CountedSerializer(serializers.Serializer):
    """The figures at close with the count's drop added (``casino.floor.figures.with_count``)."""

    counted = serializers.BooleanField(
        help_text="The session's drop box is counted; false: drop not counted yet."
    )
    counted_drop = MoneyField(
        allow_null=True, help_text="The count's drop posted to the session after its close."
    )
    drop = MoneyField(allow_null=True, help_text="The drop at close with the count's.")
    win_by_count = MoneyField(
        allow_null=True, help_text="Closer - opener + credits - fills + drop."
    )
    variance = MoneyField(allow_null=True, help_text="Win by count - win by ledger.")

    FIGURES = ("counted_drop", "drop", "win_by_count", "variance")


class ReconciliationSerializer(serializers.Serializer):
    """Win by count = closing - opening + credits - fills + drop; variance = count - ledger,
    as stored at the close; ``with_count``: the same once the session's box is counted."""

    opening = MoneyField(source="opening_total")
    closing = MoneyField(source="closing_total")
    fills = MoneyField(source="fills_total")
    credits = MoneyField(source="credits_total")
    drop = MoneyField(source="drop_total")
    win_by_count = MoneyField()
    win_by_ledger = MoneyField()
    variance = MoneyField()
    with_count = serializers.SerializerMethodField(
        help_text="The figures with the count's drop (null while open)."
    )

    @extend_schema_field(CountedSerializer(allow_null=True))
    def get_with_count(self, session: TableSession) -> dict[str, Any] | None:
        counted = counted_of(session)
        if counted is None:
            return None
        if not counted.counted:  # drop not counted yet: no figure, never a 0
            return {"counted": False, **dict.fromkeys(CountedSerializer.FIGURES)}
        return CountedSerializer(counted).data


class OpeningDiscrepancySerializer(serializers.Serializer):
    """How the opener differed from the table's inventory."""

    chips = serializers.DictField(
        source="opening_discrepancy",
        child=serializers.IntegerField(),
        help_text="Counted - expected chips per denomination, only where they differ.",
    )
    total = MoneyField(source="opening_discrepancy_total", help_text="Their value, signed.")
    reason = serializers.CharField(source="opening_discrepancy_reason")


class SessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = VenueRefSerializer(source="table.venue")
    table = TableRefSerializer()
    shift = ShiftSerializer()
    dealer = person("dealer")
    status = serializers.CharField(help_text="open, closed or reconciled")
    next_round_number = serializers.IntegerField(
        help_text="The number the session's next round takes; send it as a round's "
        "expected_number so a round dealt meanwhile at the table refuses yours."
    )
    opened_by = person("opened_by", help_text="Who counted the opener (the dealer).")
    opening_confirmed_by = person(
        "opening_confirmed_by",
        allow_null=True,
        help_text="The supervisor who confirmed the opener.",
    )
    opened_at = serializers.DateTimeField()
    opening_chips = serializers.DictField(child=serializers.IntegerField())
    opening_total = MoneyField()
    opening_expected_chips = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The table's inventory the opener was compared with (what its last session "
        "counted at close); null for a table's first opening, which has nothing to compare "
        "with.",
    )
    opening_discrepancy = serializers.SerializerMethodField(
        help_text="The opener's difference from the inventory; null when it matched or when "
        "there was nothing to compare with."
    )
    closing_counted_by = person(
        "closing_counted_by", allow_null=True, help_text="Who counted the closer (the dealer)."
    )
    closed_by = person(
        "closed_by", allow_null=True, help_text="The supervisor who confirmed the closer."
    )
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

    @extend_schema_field(OpeningDiscrepancySerializer(allow_null=True))
    def get_opening_discrepancy(self, session: TableSession) -> dict[str, Any] | None:
        if not session.opening_discrepancy:
            return None
        return OpeningDiscrepancySerializer(session).data


class CredentialsSerializer(serializers.Serializer):
    """The second person of a count signs with their own username and password, checked
    like a login (a wrong password counts towards the same lockout)."""

    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)


class SessionOpenInputSerializer(serializers.Serializer):
    table = id_field()
    opening_chips = chip_count()
    confirmed_by = CredentialsSerializer(
        help_text="The supervisor of the table's venue who confirms the count, by their own "
        "username and password: another person than the caller, who counted. A wrong "
        "password is refused (400, field confirmed_by) and counts towards the login "
        "lockout (403 locked_out once locked)."
    )
    discrepancy_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=1000,
        help_text="Why the count differs from the table's inventory (what its last session "
        "counted at close): required when it differs (400, field discrepancy_reason, "
        "naming the difference).",
    )
    dealer = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=150,
        help_text="The dealer's username; the caller when not given.",
    )


class SessionCloseInputSerializer(serializers.Serializer):
    closing_chips = chip_count()
    counted_by = CredentialsSerializer(
        help_text="The dealer who counted the tray, by their own username and password: "
        "another person than the caller, the supervisor who confirms. A wrong password is "
        "refused (400, field counted_by) and counts towards the login lockout."
    )
    drop = MoneyField(
        required=False,
        allow_null=True,
        min_value=Decimal("0"),
        help_text="Cash counted in the drop box, entered with the closing.",
    )
    variance_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=1000,
        help_text="Why the count is off the ledger: required when the variance is more "
        "than the venue's variance_reason_over.",
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
