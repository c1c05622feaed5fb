"""When the system is down the floor keeps going on paper (N.J.A.C. 13:69D-1.22(c)): a
table's pre-numbered manual slips and round sheets, entered afterwards by a supervisor.

``ManualSeries``: a run of pre-numbered paper forms of one kind (fill slip, credit slip or
round sheet) for one table, a prefix and a number range (``F-NN1-`` 1 to 50), issued by a
manager or the cage's cashier and printed in advance as a sheet of numbered forms. A
prefix names one series at its venue, so a paper number (``F-NN1-0007``) says which.

``ManualPaper``: one number of a series used, either **entered** (the paper's fill or
credit as a ``Slip``, or its round as a ``Round`` dealt and settled through the floor's own
services; who entered it, when, the time written on the paper) or **spoiled** (recorded
with a reason). A number is used once in its series (a unique constraint); the rows are
never changed nor deleted (on PostgreSQL a trigger refuses it, migration cage 0005). A
number of a series below the highest used that is neither entered nor spoiled is a **gap**
(``casino.cage.manual_selectors.series_gaps``), and the count of a gaming day does not close
while a series of its tables has one (``casino.count.services.count_close``).
A model of the cage app (``casino.cage.models`` imports it).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.venues.models import Table, Venue

#: The most forms one series holds (a printed book, not a year's supply).
MAX_SERIES_LENGTH = 500


class ManualKind(models.TextChoices):
    FILL = "fill", _("Fill slip")
    CREDIT = "credit", _("Credit slip")
    ROUND = "round", _("Round sheet")


class ManualSeries(models.Model):
    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="manual_series", verbose_name=_("venue")
    )
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="manual_series", verbose_name=_("table")
    )
    kind = models.CharField(_("kind"), max_length=8, choices=ManualKind.choices)
    prefix = models.CharField(
        _("prefix"), max_length=16, help_text=_("Printed before each number: F-NN1-.")
    )
    first = models.PositiveIntegerField(_("first number"))
    last = models.PositiveIntegerField(_("last number"))
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("issued by"),
    )
    issued_at = models.DateTimeField(_("issued at"))

    class Meta:
        verbose_name = _("manual series")
        verbose_name_plural = _("manual series")
        ordering = ["venue", "table__code", "kind", "prefix"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "prefix"], name="manual_series_prefix"),
            models.CheckConstraint(
                condition=models.Q(first__gte=1, last__gte=models.F("first")),
                name="manual_series_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.prefix}{self.first:04d}-{self.last:04d}"

    @property
    def label(self) -> str:
        """The series as people name it: ``F-NN1-0001 to 0050``."""
        return f"{self.prefix}{self.first:04d}–{self.last:04d}"

    def number_label(self, number: int) -> str:
        """One paper's number as printed on it: ``F-NN1-0007``."""
        return paper_label(self.prefix, number)


def paper_label(prefix: str, number: int) -> str:
    """A paper's number as printed: the series' prefix and four digits."""
    return f"{prefix}{number:04d}"


class PaperStatus(models.TextChoices):
    ENTERED = "entered", _("Entered late")
    SPOILED = "spoiled", _("Spoiled")


class ManualPaper(models.Model):
    series = models.ForeignKey(
        ManualSeries, on_delete=models.PROTECT, related_name="papers", verbose_name=_("series")
    )
    number = models.PositiveIntegerField(_("paper number"))
    status = models.CharField(_("status"), max_length=8, choices=PaperStatus.choices)
    slip = models.OneToOneField(
        "cage.Slip",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="paper",
        verbose_name=_("slip"),
    )
    round = models.OneToOneField(
        "floor.Round",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="paper",
        verbose_name=_("round"),
    )
    written_at = models.DateTimeField(
        _("time on the paper"), null=True, blank=True, help_text=_("As written on the paper.")
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("entered by"),
    )
    recorded_at = models.DateTimeField(_("entered at"))
    reason = models.CharField(_("reason"), max_length=255, blank=True)

    class Meta:
        verbose_name = _("manual paper")
        verbose_name_plural = _("manual papers")
        ordering = ["series", "number"]
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="manual_paper_once"),
            models.CheckConstraint(
                condition=(
                    models.Q(status="entered", written_at__isnull=False)
                    & (
                        models.Q(slip__isnull=False, round__isnull=True)
                        | models.Q(slip__isnull=True, round__isnull=False)
                    )
                )
                | (
                    models.Q(status="spoiled", slip__isnull=True, round__isnull=True)
                    & ~models.Q(reason="")
                ),
                name="manual_paper_entered_or_spoiled",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label} ({self.status})"

    @property
    def label(self) -> str:
        return self.series.number_label(self.number)
