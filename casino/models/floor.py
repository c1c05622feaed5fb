"""Tables, shifts and table sessions."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.kernel.money import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS, venue_money
from casino.models.rulesets import Ruleset
from casino.models.venues import Venue, game_choices


def money_field(verbose_name: str | None = None, **kwargs) -> models.DecimalField:
    return models.DecimalField(
        verbose_name, max_digits=MONEY_MAX_DIGITS, decimal_places=MONEY_DECIMAL_PLACES, **kwargs
    )


class Table(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        INACTIVE = "inactive", _("Inactive")

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="tables", verbose_name=_("venue")
    )
    code = models.SlugField(max_length=32, verbose_name=_("code"))
    game = models.CharField(max_length=16, choices=game_choices, verbose_name=_("game"))
    ruleset = models.ForeignKey(
        Ruleset, on_delete=models.PROTECT, related_name="tables", verbose_name=_("ruleset")
    )
    seats = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(9)],
        help_text=_("Player boxes or seats, as the game calls them."),
        verbose_name=_("seats"),
    )
    chip_denominations = models.JSONField(
        default=list,
        help_text=_('Chip values as text, largest first, e.g. ["100000", "5000"].'),
        verbose_name=_("chip denominations"),
    )
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.ACTIVE, verbose_name=_("status")
    )
    pit = models.ForeignKey(
        "casino.Pit",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tables",
        help_text=_("The pit the table stands in (one of its venue's)."),
        verbose_name=_("pit"),
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["venue__code", "code"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "code"], name="table_code_per_venue"),
        ]

    def __str__(self) -> str:
        return f"{self.venue.code}/{self.code}"


class TableLimit(models.Model):
    """The smallest and largest stake a table takes for one bet type."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="limits", verbose_name=_("table")
    )
    bet_type = models.CharField(max_length=16, verbose_name=_("bet type"))
    min_stake = money_field(
        validators=[MinValueValidator(Decimal("0.01"))], verbose_name=_("min stake")
    )
    max_stake = money_field(
        validators=[MinValueValidator(Decimal("0.01"))], verbose_name=_("max stake")
    )

    class Meta:
        verbose_name = _("table limit")
        verbose_name_plural = _("table limits")
        ordering = ["table", "bet_type"]
        constraints = [
            models.UniqueConstraint(fields=["table", "bet_type"], name="table_limit_per_bet_type"),
            models.CheckConstraint(
                condition=models.Q(min_stake__gt=0, max_stake__gte=models.F("min_stake")),
                name="table_limit_min_le_max",
            ),
        ]

    def __str__(self) -> str:
        venue = self.table.venue
        return (
            f"{self.table} {self.bet_type}: "
            f"{venue_money(self.min_stake, venue)}–{venue_money(self.max_stake, venue)}"
        )


class Shift(models.Model):
    """A named part of a gaming date at a venue, e.g. the night shift of 2026-11-29."""

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="shifts", verbose_name=_("venue")
    )
    gaming_date = models.DateField(verbose_name=_("gaming date"))
    name = models.CharField(max_length=32, verbose_name=_("name"))
    starts_at = models.DateTimeField(verbose_name=_("starts at"))
    ends_at = models.DateTimeField(verbose_name=_("ends at"))

    class Meta:
        verbose_name = _("shift")
        verbose_name_plural = _("shifts")
        ordering = ["venue__code", "-starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "gaming_date", "name"], name="shift_unique"),
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")), name="shift_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.venue.code} {self.gaming_date} {self.name}"


class GamingDay(models.Model):
    """A venue's gaming date as it began: its instants and the shift plan it keeps.

    Made with the first shift of the day (``casino.services.gaming_days``); the plan is a
    copy of the venue's when the day began, so a later change of plan applies from the
    next gaming day and the day's later shifts follow the plan its first one did.
    """

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="gaming_days", verbose_name=_("venue")
    )
    gaming_date = models.DateField(verbose_name=_("gaming date"))
    starts_at = models.DateTimeField(verbose_name=_("starts at"))
    ends_at = models.DateTimeField(verbose_name=_("ends at"))
    shift_plan = models.JSONField(
        default=list,
        help_text=_("The shifts of the day: a name and the time it starts."),
        verbose_name=_("shift plan"),
    )

    class Meta:
        verbose_name = _("gaming day")
        verbose_name_plural = _("gaming days")
        ordering = ["venue__code", "-starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "gaming_date"], name="gaming_day_unique"),
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="gaming_day_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.venue.code} {self.gaming_date}"


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
