"""Anti-money-laundering at a venue: suspicious-activity cases and the steps each went
through (docs/compliance/LCTR-layout.md describes the large-cash-transaction report files,
which are built from the cage's alerts and keep no rows of their own).

A case is opened as a draft (by a compliance officer, or by the system from an alert:
``casino.compliance.services.case_open_from_alert``), submitted for review by its author,
decided by a second compliance officer ("file" or "no filing", with the reasons) and, when
it is to be filed, filed with the reference the authority gave. Each step is a
``CaseStep`` row, append-only; on PostgreSQL a case is never deleted and a step never
changed or deleted (migration 0001's triggers).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino.venues.models import Venue


class CaseStatus(models.TextChoices):
    DRAFT = "draft", pgettext_lazy("case status", "Draft")
    IN_REVIEW = "in_review", pgettext_lazy("case status", "In review")
    DECIDED = "decided", pgettext_lazy("case status", "Decided")
    FILED = "filed", pgettext_lazy("case status", "Filed")


class Decision(models.TextChoices):
    FILE = "file", pgettext_lazy("case decision", "File a report")
    NO_FILING = "no_filing", pgettext_lazy("case decision", "No filing")


class CaseSource(models.TextChoices):
    PERSON = "person", pgettext_lazy("case source", "Opened by a person")
    ALERT = "alert", pgettext_lazy("case source", "Opened from an alert")
    PATTERN = "pattern", pgettext_lazy("case source", "Opened from a pattern in the cash log")


class SuspicionCase(models.Model):
    """A suspicious-activity case of a venue; ``evidence`` is a list of references, each
    ``{"kind": "cash_alert" | "cash_transaction" | "note", "ref": id or "", "note": text}``."""

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="suspicion_cases", verbose_name=_("venue")
    )
    player = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="suspicion_cases",
        verbose_name=_("player"),
    )
    subject_description = models.TextField(
        _("subject description"),
        blank=True,
        help_text=_("Who the case is about when no member is named: a patron nobody knows."),
    )
    grounds = models.TextField(_("grounds for suspicion"))
    evidence = models.JSONField(_("evidence"), default=list, blank=True)
    source = models.CharField(
        _("source"), max_length=16, choices=CaseSource.choices, default=CaseSource.PERSON
    )
    status = models.CharField(
        _("status"), max_length=16, choices=CaseStatus.choices, default=CaseStatus.DRAFT
    )
    finding = models.CharField(
        _("finding"),
        max_length=200,
        blank=True,
        help_text=_(
            "The pattern found in the cash log that opened the case "
            "(casino.compliance.patterns): a case is opened once per finding."
        ),
    )
    detected_at = models.DateTimeField(_("detected at"))
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("opened by"),
        help_text=_("Empty: opened by the system from an alert."),
    )
    opened_at = models.DateTimeField(_("opened at"))
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    decision = models.CharField(_("decision"), max_length=16, choices=Decision.choices, blank=True)
    decision_reasons = models.TextField(_("reasons for the decision"), blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    deadline = models.DateTimeField(_("filing deadline"))
    filing_reference = models.CharField(_("filing reference"), max_length=100, blank=True)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("filed by"),
    )
    filed_at = models.DateTimeField(_("filed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("suspicious-activity case")
        verbose_name_plural = _("suspicious-activity cases")
        ordering = ["-opened_at", "-id"]
        indexes = [models.Index(fields=["venue", "status"])]
        constraints = [
            models.UniqueConstraint(
                fields=["venue", "finding"],
                condition=~models.Q(finding=""),
                name="suspicion_case_once_per_finding",
            )
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return f"SAR-{self.pk}"

    @property
    def settled(self) -> bool:
        """Whether nothing is left to do: filed, or decided not to be filed."""
        return self.status == CaseStatus.FILED or (
            self.status == CaseStatus.DECIDED and self.decision == Decision.NO_FILING
        )

    @property
    def subject(self) -> str:
        if self.player_id:
            return f"{self.player.name} ({self.player.membership_number})"
        return self.subject_description


class CaseStep(models.Model):
    """One step of a case, as it was taken; never changed or deleted."""

    class Step(models.TextChoices):
        OPEN = "open", pgettext_lazy("case step", "Opened")
        SUBMIT = "submit", pgettext_lazy("case step", "Submitted for review")
        DECIDE = "decide", pgettext_lazy("case step", "Decided")
        FILE = "file", pgettext_lazy("case step", "Filed")

    case = models.ForeignKey(
        SuspicionCase, on_delete=models.PROTECT, related_name="steps", verbose_name=_("case")
    )
    step = models.CharField(_("step"), max_length=16, choices=Step.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"))
    note = models.TextField(_("note"), blank=True)

    class Meta:
        verbose_name = _("case step")
        verbose_name_plural = _("case steps")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.case_id} {self.step}"
