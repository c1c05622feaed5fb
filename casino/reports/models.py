"""Shift reports: one per shift and kind, rebuilt in place, with their figures and files.
The tables keep the names they had in the ``casino`` app (``Meta.db_table``).

A report's ``figures`` (JSON, decimals as strings) are what its page, CSV, XLSX and PDF
show. They are sums of ``ShiftReportCell`` rows (the shift's bets summed per table session,
hour, player, ruleset version and bet type), which the dashboards also sum across shifts.
The cells are copied from ``BetTally`` (``casino.floor.models.tallies``), which settlements keep
up to date. The generated files live in the database beside the report
(``ShiftReportFile``): a web process can serve what any worker built without a shared disk.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.floor.models.tallies import BetSums
from casino.kernel.fields import money_field
from casino.venues.models import Shift, Venue


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
        db_table = "casino_shiftreport"
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
        db_table = "casino_shiftreportfile"
        ordering = ["report", "name"]
        constraints = [
            models.UniqueConstraint(fields=["report", "name"], name="shift_report_file_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} of report {self.report_id}"


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
        db_table = "casino_shiftreportcell"
        ordering = ["report", "table", "hour"]
        indexes = [models.Index(fields=["venue", "gaming_date"])]

    def __str__(self) -> str:
        return f"cell {self.pk} of report {self.report_id}"
