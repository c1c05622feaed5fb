"""What the day's screens read, as the API shows it: rated play, the day's figures per table,
the report periods and the day's reconciliation (buy-ins, cash-outs and cash alerts are the
cage's: ``casino.cage.serializers``)."""

from __future__ import annotations

from rest_framework import serializers

from casino.api.base import ListParams, id_field
from casino.api.serializers.fields import MoneyField, RateField, TableRefSerializer
from casino.reports import periods


class RatingParams(ListParams):
    date_from = serializers.DateField(
        required=False, help_text="First gaming date (the gaming day under way)."
    )
    date_to = serializers.DateField(
        required=False, help_text="Last gaming date (the gaming day under way)."
    )
    player = id_field(required=False, help_text="A player's id.")
    session = id_field(required=False, help_text="A table session's id.")


class RatingSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    session = serializers.IntegerField(source="session_id")
    table_code = serializers.CharField()
    game = serializers.CharField(help_text="The game played, as its ruleset names it.")
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()
    average_bet = MoneyField()
    decisions = serializers.IntegerField(allow_null=True)
    theoretical_win = MoneyField()
    actual_win = MoneyField(allow_null=True, help_text="The house's win from the player.")


class DayFiguresLineSerializer(serializers.Serializer):
    opener = MoneyField()
    closer = MoneyField(allow_null=True, help_text="Null while a session is open.")
    fills = MoneyField()
    credits = MoneyField()
    drop = MoneyField(help_text="The count's drops and the pit's.")
    counted_drop = MoneyField(help_text="The count's drops alone.")
    win_by_count = MoneyField(
        source="win", allow_null=True, help_text="closer - opener + credits - fills + drop."
    )
    win_by_ledger = MoneyField(
        source="house_win", help_text="What the settled rounds moved to the house."
    )
    handle = MoneyField()
    hold_pct = RateField(allow_null=True, help_text="win_by_ledger / handle, in percent.")
    win_drop_pct = RateField(allow_null=True, help_text="win_by_count / drop, in percent.")


class DayFiguresRowSerializer(DayFiguresLineSerializer):
    table = TableRefSerializer()
    sessions = serializers.IntegerField()


class DayFiguresSerializer(serializers.Serializer):
    venue = serializers.IntegerField()
    gaming_date = serializers.DateField()
    count_closed = serializers.BooleanField(
        help_text="False: boxes may be uncounted yet, and their drop is not in the figures."
    )
    rows = DayFiguresRowSerializer(many=True)
    total = DayFiguresLineSerializer()


class PeriodParams(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=list(periods.KINDS), default=periods.MONTH, help_text="The period's kind."
    )
    day = serializers.DateField(
        required=False,
        help_text="Its last gaming date (a range: its first); the gaming day under way.",
    )
    to = serializers.DateField(required=False, help_text="A range's last gaming date.")
    dimension = serializers.ChoiceField(
        choices=list(periods.DIMENSIONS), default="table", help_text="What each line is per."
    )


class PeriodLineSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    bet_count = serializers.IntegerField(source="bets", help_text="How many bets settled.")
    handle = MoneyField()
    player_result = MoneyField(help_text="The players' win (negative: their loss).")
    commission = MoneyField()
    house_win = MoneyField(help_text="The house's win of the settled bets: -player_result.")
    hold_pct = RateField(allow_null=True, help_text="house_win / handle, in percent.")
    theoretical_win = MoneyField(allow_null=True, help_text="Null where a version is unrated.")
    theoretical_hold_pct = RateField(allow_null=True)
    actual_minus_theoretical = MoneyField(allow_null=True)
    hold_low_pct = RateField(allow_null=True, help_text="The 95% range's low hold.")
    hold_high_pct = RateField(allow_null=True, help_text="The 95% range's high hold.")
    flagged = serializers.BooleanField(allow_null=True, help_text="Hold outside the range.")
    previous_handle = MoneyField()
    previous_house_win = MoneyField()
    previous_hold_pct = RateField(allow_null=True)
    handle_change = MoneyField()
    handle_change_pct = RateField(allow_null=True)
    house_win_change = MoneyField()
    house_win_change_pct = RateField(allow_null=True)
    hold_change_pts = RateField(allow_null=True)


class AccountingLineSerializer(serializers.Serializer):
    """A line of the accounting-only tables (they deal no round: no bets, no handle), by
    the count (``casino.reports.periods.accounting_figures``), beside the previous period."""

    key = serializers.CharField()
    label = serializers.CharField()
    drop = MoneyField(help_text="The counted drop of the period.")
    win_by_count = MoneyField(
        help_text="closer - opener + credits - fills + drop, of the table-days with a closer."
    )
    win_drop_pct = RateField(
        allow_null=True, help_text="win_by_count / the drop of those days, in percent."
    )
    open_days = serializers.IntegerField(
        help_text="Table-days with a session still open (no closer: not in win_by_count)."
    )
    previous_drop = MoneyField()
    previous_win_by_count = MoneyField()
    previous_win_drop_pct = RateField(allow_null=True)
    win_by_count_change = MoneyField()
    win_by_count_change_pct = RateField(allow_null=True)


class PeriodSerializer(serializers.Serializer):
    venue = serializers.IntegerField()
    kind = serializers.CharField()
    start = serializers.DateField()
    end = serializers.DateField()
    previous_start = serializers.DateField()
    previous_end = serializers.DateField()
    dimension = serializers.CharField()
    total = PeriodLineSerializer()
    lines = PeriodLineSerializer(many=True)
    notes = serializers.ListField(child=serializers.CharField())
    accounting_dimension = serializers.CharField(
        help_text="What the accounting-only tables' lines are per: the dimension asked when "
        "it is table, pit or game, the venue otherwise."
    )
    accounting = AccountingLineSerializer(
        many=True,
        help_text="The accounting-only tables, apart from the settled bets' lines: their "
        "win is by count, never added to house_win.",
    )
    accounting_total = AccountingLineSerializer()


class DayReconciliationCountedSerializer(serializers.Serializer):
    counted = serializers.BooleanField(help_text="False: the box is not counted yet.")
    counted_drop = MoneyField(help_text="The count's drop posted to the session since.")
    drop = MoneyField(help_text="The drop at close with the count's.")
    win_by_count = MoneyField(help_text="The win by count at close with the count's drop.")
    variance = MoneyField(help_text="win_by_count - win_by_ledger with the count's drop.")


class DayReconciliationVoidsSerializer(serializers.Serializer):
    rounds = serializers.IntegerField(help_text="Rounds voided: they move neither win.")
    stakes = MoneyField(help_text="The stakes they carried.")


class DayReconciliationLateSerializer(serializers.Serializer):
    entries = serializers.IntegerField(help_text="Ledger entries made after the close.")
    house = MoneyField(help_text="What those entries moved to the house.")
    cash = serializers.IntegerField(help_text="Cash records made after the close.")


class DayReconciliationLineSerializer(serializers.Serializer):
    """What explains a table's difference, session by session."""

    session = serializers.IntegerField(source="session.pk")
    open = serializers.BooleanField(help_text="Still open: no win by count yet.")
    variance = MoneyField(allow_null=True, help_text="The closing variance, as stored at close.")
    reason = serializers.CharField(help_text="The reason the close gave for its variance.")
    counted = DayReconciliationCountedSerializer(allow_null=True, help_text="Null while open.")
    voids = DayReconciliationVoidsSerializer(allow_null=True)
    late = DayReconciliationLateSerializer(
        allow_null=True, help_text="Entries made after the close, other than the count's drop."
    )


class DayReconciliationRowSerializer(serializers.Serializer):
    table = TableRefSerializer()
    settles = serializers.BooleanField(
        help_text="False: an accounting-only table, no settled rounds to compare."
    )
    drop = MoneyField()
    win_by_count = MoneyField(source="win", allow_null=True, help_text="Null while open.")
    win_by_ledger = MoneyField(allow_null=True, help_text="Null at an accounting-only table.")
    difference = MoneyField(allow_null=True, help_text="win_by_count - win_by_ledger.")
    reconciles = serializers.BooleanField(
        help_text="No difference, every session closed and every box counted."
    )
    uncounted = serializers.IntegerField(help_text="Sessions whose box is not counted yet.")
    still_open = serializers.IntegerField()
    lines = DayReconciliationLineSerializer(many=True)


class DayReconciliationTotalSerializer(serializers.Serializer):
    drop = MoneyField()
    win_by_count = MoneyField(
        source="win", allow_null=True, help_text="Null while a table is open."
    )
    win_by_ledger = MoneyField()
    difference = MoneyField(
        allow_null=True, help_text="The tables' differences added up (tables that settle rounds)."
    )
    reconciles = serializers.BooleanField()


class DayReconciliationSerializer(serializers.Serializer):
    venue = serializers.IntegerField(source="venue.pk")
    gaming_date = serializers.DateField(source="day")
    rows = DayReconciliationRowSerializer(many=True)
    total = DayReconciliationTotalSerializer()
