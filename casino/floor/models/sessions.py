"""Table sessions: a table open under a dealer, from its opening count to its close."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.kernel.fields import money_field
from casino.venues.models import Shift, Table


class TableSession(models.Model):
    """A table open for part of a shift, opener to closer count, under one dealer at a time
    (its ``spells``).

    Win by count = closing - opening + credits - fills + drop; win by ledger = what the
    settled rounds moved to the house. The two should agree; the variance is stored.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")
        RECONCILED = "reconciled", _("Reconciled")

    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="sessions", verbose_name=_("table")
    )
    shift = models.ForeignKey(
        Shift, on_delete=models.PROTECT, related_name="sessions", verbose_name=_("shift")
    )
    #: The dealer on duty (the open ``DealerSpell``'s; the last one once closed).
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("dealer"),
    )
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.OPEN, verbose_name=_("status")
    )
    #: Who counted the opener (the dealer); ``opening_confirmed_by`` is the supervisor who
    #: confirmed the count with their own credentials.
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("opened by"),
    )
    opening_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("opening confirmed by"),
    )
    opened_at = models.DateTimeField(verbose_name=_("opened at"))
    opening_chips = models.JSONField(
        help_text=_("Chip count per denomination at opening."), verbose_name=_("opening chips")
    )
    opening_total = money_field(verbose_name=_("opening total"))
    opening_expected_chips = models.JSONField(
        null=True,
        blank=True,
        help_text=_(
            "The table's inventory the opener was compared with: what its last session "
            "counted at close, per denomination; empty when the table had never been closed."
        ),
        verbose_name=_("opening expected chips"),
    )
    opening_discrepancy = models.JSONField(
        null=True,
        blank=True,
        help_text=_("Counted minus expected chips per denomination, where they differ."),
        verbose_name=_("opening discrepancy"),
    )
    opening_discrepancy_total = money_field(
        null=True, blank=True, verbose_name=_("opening discrepancy total")
    )
    opening_discrepancy_reason = models.TextField(
        blank=True, default="", verbose_name=_("opening discrepancy reason")
    )
    #: Who counted the closer (the dealer); ``closed_by`` is the supervisor who confirmed it.
    closing_counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("closing counted by"),
    )
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("closed by"),
    )
    closed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("closed at"))
    closing_chips = models.JSONField(null=True, blank=True, verbose_name=_("closing chips"))
    closing_total = money_field(null=True, blank=True, verbose_name=_("closing total"))
    fills_total = money_field(null=True, blank=True, verbose_name=_("fills total"))
    credits_total = money_field(null=True, blank=True, verbose_name=_("credits total"))
    drop_total = money_field(null=True, blank=True, verbose_name=_("drop total"))
    win_by_count = money_field(null=True, blank=True, verbose_name=_("win by the count"))
    win_by_ledger = money_field(null=True, blank=True, verbose_name=_("win by the ledger"))
    variance = money_field(null=True, blank=True, verbose_name=_("variance"))
    next_round_number = models.PositiveIntegerField(
        default=1, editable=False, verbose_name=_("next round number")
    )

    class Meta:
        db_table = "casino_tablesession"  # its name before the floor had its own app
        verbose_name = _("table session")
        verbose_name_plural = _("table sessions")
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(status="open"),
                name="one_open_session_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} session {self.pk} ({self.get_status_display()})"
