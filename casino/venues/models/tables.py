"""A venue's tables with their limits, its pits with their scheduled limit changes, and a
table's change of ruleset: one manager asks, another approves, then it applies. A ruleset
is the table's paytable, so assigning another one is approved by a second person like a
paytable is; it applies when it is approved, and only while no session is open at the
table. Requests are never deleted: they end applied, refused or withdrawn."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino.kernel.fields import money_field
from casino.kernel.money import venue_money
from casino.venues.models.venues import Venue, game_choices


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
        "rulesets.Ruleset",
        on_delete=models.PROTECT,
        related_name="tables",
        verbose_name=_("ruleset"),
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
        "venues.Pit",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tables",
        help_text=_("The pit the table stands in (one of its venue's)."),
        verbose_name=_("pit"),
    )

    class Meta:
        db_table = "casino_table"
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
        db_table = "casino_tablelimit"
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
        db_table = "casino_pit"
        verbose_name = _("pit")
        verbose_name_plural = _("pits")
        ordering = ["venue__code", "code"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "code"], name="pit_code_per_venue"),
        ]

    def __str__(self) -> str:
        return f"{self.venue.code}/{self.code}"


class TableLimitChange(models.Model):
    """A table's limits for one bet type from ``effective_at`` on (``casino.venues.limits``).

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
        db_table = "casino_tablelimitchange"
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


class TableRulesetChange(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("ruleset change", "Pending")
        APPLIED = "applied", pgettext_lazy("ruleset change", "Approved and applied")
        REFUSED = "refused", pgettext_lazy("ruleset change", "Refused")
        WITHDRAWN = "withdrawn", pgettext_lazy("ruleset change", "Withdrawn")

    table = models.ForeignKey(
        Table,
        on_delete=models.PROTECT,
        related_name="ruleset_changes",
        verbose_name=pgettext_lazy("ruleset change", "table"),
    )
    from_ruleset = models.ForeignKey(
        "rulesets.Ruleset",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=pgettext_lazy("ruleset change", "from ruleset"),
    )
    to_ruleset = models.ForeignKey(
        "rulesets.Ruleset",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=pgettext_lazy("ruleset change", "to ruleset"),
    )
    # The games are kept as they were asked: a change of ruleset may change the game.
    from_game = models.CharField(
        pgettext_lazy("ruleset change", "from game"), max_length=16, choices=game_choices
    )
    to_game = models.CharField(
        pgettext_lazy("ruleset change", "to game"), max_length=16, choices=game_choices
    )
    reason = models.TextField(pgettext_lazy("ruleset change", "reason"))
    status = models.CharField(
        pgettext_lazy("ruleset change", "status"),
        max_length=16,
        choices=Status.choices,
        default=Status.PENDING,
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=pgettext_lazy("ruleset change", "requested by"),
    )
    requested_at = models.DateTimeField(pgettext_lazy("ruleset change", "requested at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=pgettext_lazy("ruleset change", "decided by"),
    )
    decided_at = models.DateTimeField(
        pgettext_lazy("ruleset change", "decided at"), null=True, blank=True
    )
    decision_note = models.TextField(pgettext_lazy("ruleset change", "decision note"), blank=True)

    class Meta:
        db_table = "casino_tablerulesetchange"
        ordering = ["-requested_at", "-id"]
        verbose_name = _("table ruleset change")
        verbose_name_plural = _("table ruleset changes")
        permissions = [
            ("decide_tablerulesetchange", "Can approve or refuse a table's change of ruleset"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(status="pending"),
                name="one_pending_ruleset_change_per_table",
            ),
            models.CheckConstraint(
                condition=~models.Q(to_ruleset=models.F("from_ruleset")),
                name="ruleset_change_changes_the_ruleset",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(status="pending", decided_by__isnull=True, decided_at__isnull=True)
                    | (
                        ~models.Q(status="pending")
                        & models.Q(decided_by__isnull=False, decided_at__isnull=False)
                    )
                ),
                name="ruleset_change_decided_unless_pending",
            ),
        ]

    def __str__(self) -> str:
        return _("%(table)s: %(from)s to %(to)s (%(status)s)") % {
            "table": self.table,
            "from": self.from_ruleset.code,
            "to": self.to_ruleset.code,
            "status": self.get_status_display(),
        }
