"""Shift reports: one per shift and kind, rebuilt in place, with their figures and files.

A report's ``figures`` (JSON, decimals as strings) are what its page, CSV, XLSX and PDF
show. They are sums of ``ShiftReportCell`` rows (the shift's bets summed per table session,
hour, player, ruleset version and bet type), which the dashboards also sum across shifts.
The cells are copied from ``BetTally``, which settlements keep up to date.
The generated files live in the database beside the report (``ShiftReportFile``): a web
process can serve what any worker built without a shared disk.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Case, Count, DecimalField, F, Sum, Value, When
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from casino.kernel.timezones import LocalHour
from casino.models.floor import Shift, Table, TableSession, money_field
from casino.models.venues import Venue


class ShiftReport(models.Model):
    class Kind(models.TextChoices):
        SHIFT = "shift", _("Shift report")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for a worker")
        RUNNING = "running", _("Being built")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="reports")
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="shift_reports")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.SHIFT)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0, help_text=_("Percent done."))
    step = models.CharField(max_length=120, blank=True, help_text=_("What the build is doing."))
    figures = models.JSONField(null=True, blank=True, editable=False)
    error = models.TextField(blank=True)
    # A request after the current build started means that build is already out of date:
    # it finishes as pending and is sent again (see casino.reports.services).
    requested_at = models.DateTimeField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    build_seconds = models.FloatField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    emailed_to = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["venue__code", "-shift__starts_at", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["shift", "kind"], name="shift_report_per_kind"),
            models.CheckConstraint(
                condition=models.Q(progress__lte=100), name="shift_report_progress_percent"
            ),
        ]
        indexes = [models.Index(fields=["status", "requested_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.shift} ({self.get_status_display()})"


class ShiftReportFile(models.Model):
    """A file generated for a report (CSV, XLSX, PDF, chart SVG), replaced on each build."""

    report = models.ForeignKey(ShiftReport, on_delete=models.CASCADE, related_name="files")
    name = models.CharField(max_length=64)
    content_type = models.CharField(max_length=100)
    content = models.BinaryField()
    size = models.PositiveIntegerField()

    class Meta:
        ordering = ["report", "name"]
        constraints = [
            models.UniqueConstraint(fields=["report", "name"], name="shift_report_file_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} of report {self.report_id}"


class BetSums(models.Model):
    """Settled bets summed per table session, local hour (the venue's clocks), player,
    ruleset version and bet type: the columns a tally and a report's cell share."""

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="+")
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    hour = models.DateTimeField(
        help_text=_("The start of the hour on the venue's clocks the rounds settled in.")
    )
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    game = models.CharField(max_length=16)
    ruleset_version_id = models.PositiveBigIntegerField()
    bet_type = models.CharField(max_length=16)
    handle = money_field()
    # Sum of stakes squared: with the bet's SD it gives the variance of the house win.
    # Stakes squared outgrow money fields, hence the size.
    stake_squared = models.DecimalField(max_digits=40, decimal_places=2)
    player_result = money_field(help_text=_("Sum of the bets' net, the players' view."))
    commission = money_field()
    volume = money_field(
        help_text=_("Sum of the winning bets' gross (a fee game's volume between players).")
    )

    class Meta:
        abstract = True


class ShiftReportCell(BetSums):
    """The bets of one report summed per table session, hour, player, ruleset version and
    bet type: the report's sections and the dashboards are sums of these cells.

    Copied from the shift's ``BetTally`` rows when the report is built (a snapshot: a
    later void changes the tallies, and the report once rebuilt).
    """

    report = models.ForeignKey(ShiftReport, on_delete=models.CASCADE, related_name="cells")
    gaming_date = models.DateField()
    bets = models.PositiveIntegerField()
    max_net = money_field(help_text=_("The largest single bet's net in the cell."))
    theoretical_win = money_field(
        null=True, blank=True, help_text=_("Empty when the version has no house edge.")
    )
    win_variance = models.DecimalField(max_digits=40, decimal_places=4, null=True, blank=True)

    class Meta:
        ordering = ["report", "table", "hour"]
        indexes = [models.Index(fields=["venue", "gaming_date"])]

    def __str__(self) -> str:
        return f"cell {self.pk} of report {self.report_id}"


class BetTally(BetSums):
    """The settled bets of a table session summed per local hour, player, ruleset version and
    bet type, kept up to date as rounds settle and are voided (casino.services.tallies).

    A shift report copies its shift's tallies into its cells instead of summing millions of
    bets; ``manage.py audit_ledger --tallies`` checks them against the bets.
    """

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="+")
    bets = models.IntegerField(help_text=_("0 once every bet of the tally was voided."))
    max_net = money_field(
        null=True,
        blank=True,
        help_text=_("The largest single bet's net (read from the bets again after a void)."),
    )

    class Meta:
        ordering = ["session", "hour"]
        constraints = [
            # The key the settlement's upsert names (a member-less box is player 0).
            models.UniqueConstraint(
                models.F("session"),
                models.F("dealer"),
                models.F("hour"),
                Coalesce(models.F("player"), models.Value(0)),
                models.F("game"),
                models.F("ruleset_version_id"),
                models.F("bet_type"),
                name="bet_tally_key",
            ),
        ]
        indexes = [models.Index(fields=["shift"])]

    def __str__(self) -> str:
        return f"bets of session {self.session_id} at {self.hour:%Y-%m-%d %H:%M}Z"


class SeatTally(models.Model):
    """A member's play at a table session: rounds, hands (boxes), first deal and last
    settlement, kept up to date as rounds settle and are voided (player ratings).

    A void takes the round and its hands off; the times stay (the member was seated).
    """

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="+")
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    rounds = models.IntegerField()
    hands = models.IntegerField()
    first_dealt_at = models.DateTimeField()
    last_settled_at = models.DateTimeField()

    class Meta:
        ordering = ["session", "player"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="seat_tally_key"),
        ]
        indexes = [models.Index(fields=["shift"])]

    def __str__(self) -> str:
        return f"player {self.player_id} at session {self.session_id}"


ZERO = Decimal("0.00")
TALLY_MONEY = DecimalField(max_digits=40, decimal_places=2)

#: BetTally column -> the expression on ``Bet`` it is grouped by.
BET_KEYS: dict[str, Any] = {
    "shift_id": F("box__round__session__shift_id"),
    "venue_id": F("box__round__session__table__venue_id"),
    "session_id": F("box__round__session_id"),
    "table_id": F("box__round__session__table_id"),
    "dealer_id": F("box__round__dealer_id"),
    # The start of the hour on the venue's clocks (an instant): a venue half an hour off
    # UTC has hours from :30 UTC. The venue's zone comes by the join the round's table
    # already makes, not by a query per round.
    "hour": LocalHour("box__round__settled_at", "box__round__session__table__venue__timezone"),
    "player_id": F("box__player_id"),
    "game": F("box__round__game"),
    "ruleset_version_id": F("box__round__ruleset_version_id"),
    "bet_type": F("bet_type"),
}
#: BetTally column -> its sum over the tally's bets (each signed by the caller).
BET_SUMS: dict[str, Any] = {
    "bets": Count("pk"),
    "handle": Sum("stake"),
    "stake_squared": Sum(F("stake") * F("stake"), output_field=TALLY_MONEY),
    "player_result": Sum("net"),
    "commission": Coalesce(Sum("commission"), Value(ZERO), output_field=TALLY_MONEY),
    "volume": Sum(
        Case(When(gross__gt=0, then=F("gross")), default=Value(ZERO), output_field=TALLY_MONEY)
    ),
}
