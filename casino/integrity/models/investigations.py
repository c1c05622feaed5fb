"""Fluctuation investigations: the written inquiry into each flag of a shift report.

A shift report flags a table (or the shift's total) whose house win falls outside the
theoretical win +- 1.96 SD. Each flag opens one investigation (``FluctuationInvestigation``,
one per report and table, the total's with no table), holding the figures of the line as
they were when it opened. It goes open -> findings written -> signed off (by a second
manager) -> closed (with an outcome). Notes (``InvestigationNote``) are appended to it.

An integrity alert (``casino.integrity.runs``) opens one too, with no report or shift: it
links its ``IntegrityResult`` (the observed against expected table) and keeps the test's
figures in ``figures``.

A cage count that differs from the cage's book opens one too (``investigation_open_cage``,
received from ``casino.cage.signals.cage_count_imbalance``): it links the ``CageCount`` and
keeps its difference in ``figures``.

Nothing is deleted: on PostgreSQL triggers refuse DELETE and TRUNCATE of investigations,
and UPDATE, DELETE and TRUNCATE of their notes (migration 0022). casino.integrity.investigations
writes both.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.kernel.fields import money_field
from casino.venues.models import Shift, Table, Venue


def _percent(verbose_name: str | object) -> models.DecimalField:
    return models.DecimalField(verbose_name, max_digits=12, decimal_places=2, null=True, blank=True)


class FluctuationInvestigation(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        FINDINGS = "findings", _("Findings written")
        SIGNED_OFF = "signed_off", _("Signed off")
        CLOSED = "closed", _("Closed")

    class Outcome(models.TextChoices):
        VARIANCE = "variance", _("Statistical variance")
        PROCEDURE = "procedure", _("Procedural error")
        DEALER = "dealer", _("Dealer error")
        COLLUSION = "collusion", _("Suspected collusion, referred to surveillance")
        EQUIPMENT = "equipment", _("Card or equipment fault")
        OTHER = "other", _("Other")

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="investigations", verbose_name=_("venue")
    )
    shift = models.ForeignKey(
        Shift,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="investigations",
        verbose_name=_("shift"),
        help_text=_("Empty: an integrity alert over a period."),
    )
    report = models.ForeignKey(
        "reports.ShiftReport",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="investigations",
        verbose_name=_("report"),
    )
    table = models.ForeignKey(
        Table,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="investigations",
        verbose_name=_("table"),
        help_text=_("Empty: the shift's total."),
    )
    integrity_result = models.OneToOneField(
        "integrity.IntegrityResult",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="investigation",
        verbose_name=_("integrity alert"),
        help_text=_("The integrity test that opened it (empty: a report's flag)."),
    )
    cage_count = models.OneToOneField(
        "cage.CageCount",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="investigation",
        verbose_name=_("cage count"),
        help_text=_("The cage count whose difference opened it."),
    )
    # The flagged line's figures when the investigation opened (a rebuild leaves them).
    handle = money_field(_("handle"))
    house_win = money_field(_("house win"))
    theoretical_win = money_field(_("theoretical win"), null=True, blank=True)
    hold_pct = _percent(_("hold %"))
    range_low_pct = _percent(_("range low %"))
    range_high_pct = _percent(_("range high %"))
    figures = models.JSONField(_("figures"), default=dict, blank=True, editable=False)
    opened_at = models.DateTimeField(_("opened at"))
    due_at = models.DateTimeField(_("due at"))
    assigned_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="investigations_assigned",
        verbose_name=_("assigned to"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN
    )
    findings = models.TextField(_("findings"), blank=True)
    findings_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("findings by"),
    )
    findings_at = models.DateTimeField(_("findings at"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=16, choices=Outcome.choices, blank=True)
    signed_off_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("signed off by"),
    )
    signed_off_at = models.DateTimeField(_("signed off at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("closed by"),
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    # Set when a rebuild of the report no longer flags the line (a note says so).
    flag_cleared_at = models.DateTimeField(_("flag cleared at"), null=True, blank=True)

    class Meta:
        db_table = "casino_fluctuationinvestigation"
        verbose_name = _("fluctuation investigation")
        verbose_name_plural = _("fluctuation investigations")
        ordering = ["-opened_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["report", "table"],
                condition=models.Q(table__isnull=False),
                name="investigation_per_report_table",
            ),
            models.UniqueConstraint(
                fields=["report"],
                condition=models.Q(table__isnull=True),
                name="investigation_per_report_total",
            ),
            models.CheckConstraint(
                condition=models.Q(status="open")
                | models.Q(findings_by__isnull=False, findings_at__isnull=False),
                name="investigation_findings_signed",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["open", "findings"])
                | models.Q(signed_off_by__isnull=False, signed_off_at__isnull=False),
                name="investigation_signed_off",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="closed")
                | (
                    models.Q(closed_by__isnull=False, closed_at__isnull=False)
                    & ~models.Q(outcome="")
                ),
                name="investigation_closed_with_outcome",
            ),
        ]
        indexes = [
            models.Index(fields=["venue", "status", "due_at"]),
            models.Index(fields=["assigned_to", "status"]),
        ]

    def __str__(self) -> str:
        of = self.shift or self.figures.get("period", "")
        return f"investigation {self.pk}: {self.line_label} of {of}"

    @property
    def line_label(self) -> str:
        if self.integrity_result_id:
            return self.figures.get("label") or str(_("Integrity alert"))
        if self.cage_count_id:
            return self.figures.get("label") or str(_("Cage count"))
        return self.table.code if self.table_id else str(_("Shift total"))


class InvestigationNote(models.Model):
    """A note appended to an investigation (by a person, or by the system on a rebuild:
    no author). Never changed or deleted."""

    investigation = models.ForeignKey(
        FluctuationInvestigation,
        on_delete=models.PROTECT,
        related_name="notes",
        verbose_name=_("investigation"),
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("author"),
    )
    written_at = models.DateTimeField(_("written at"))
    text = models.TextField(_("text"))
    # The form's one-time key: the same form posted twice adds one note.
    key = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        db_table = "casino_investigationnote"
        verbose_name = _("investigation note")
        verbose_name_plural = _("investigation notes")
        ordering = ["investigation", "written_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["investigation", "key"],
                condition=~models.Q(key=""),
                name="investigation_note_key",
            ),
        ]

    def __str__(self) -> str:
        return f"note {self.pk} on investigation {self.investigation_id}"
