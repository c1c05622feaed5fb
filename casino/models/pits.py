"""Pits (a venue's groups of tables, each run by its supervisors) and scheduled changes of
a table's limits."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.models.floor import Table, money_field
from casino.models.venues import Venue


class Pit(models.Model):
    """Tables of a venue watched together: venue -> pits -> tables (``Table.pit``).

    ``supervisors`` are the supervisors who run the pit (one may run several); a manager of
    the venue sees every pit of it.
    """

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="pits", verbose_name=_("venue")
    )
    code = models.SlugField(max_length=32, verbose_name=_("code"))
    name = models.CharField(max_length=120, verbose_name=_("name"))
    supervisors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="pits",
        help_text=_("The supervisors who run this pit; a manager sees every pit."),
        verbose_name=_("supervisors"),
    )

    class Meta:
        verbose_name = _("pit")
        verbose_name_plural = _("pits")
        ordering = ["venue__code", "code"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "code"], name="pit_code_per_venue"),
        ]

    def __str__(self) -> str:
        return f"{self.venue.code}/{self.code}"


class TableLimitChange(models.Model):
    """A table's limits for one bet type from ``effective_at`` on (``casino.limits``).

    The limits in force at an instant are the latest change of the bet type that took
    effect by then, else its ``TableLimit``. Nothing is deleted: a change scheduled in
    error is overtaken by a later one.
    """

    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="limit_changes", verbose_name=_("table")
    )
    bet_type = models.CharField(max_length=16, verbose_name=_("bet type"))
    min_stake = money_field(
        validators=[MinValueValidator(Decimal("0.01"))], verbose_name=_("min stake")
    )
    max_stake = money_field(
        validators=[MinValueValidator(Decimal("0.01"))], verbose_name=_("max stake")
    )
    effective_at = models.DateTimeField(verbose_name=_("effective at"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("requested by"),
    )
    reason = models.CharField(max_length=255, verbose_name=_("reason"))
    created_at = models.DateTimeField(verbose_name=_("created at"))

    class Meta:
        verbose_name = _("table limit change")
        verbose_name_plural = _("table limit changes")
        ordering = ["table", "bet_type", "-effective_at"]
        indexes = [
            models.Index(
                fields=["table", "bet_type", "effective_at"], name="limit_change_in_force"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_stake__gt=0, max_stake__gte=models.F("min_stake")),
                name="limit_change_min_le_max",
            ),
        ]

    def __str__(self) -> str:
        limits = f"{self.min_stake}-{self.max_stake}"
        return f"{self.table} {self.bet_type} from {self.effective_at}: {limits}"
