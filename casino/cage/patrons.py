"""The people the cash rule follows besides the members, and the alerts a person's day raises
(``casino.cage.services.patrons`` and ``casino.cage.services.thresholds`` write them);
models of the cage app (``casino.cage.models`` imports them).

- ``UnknownPatron``: a patron nobody knows, described (how they look) and given a temporary
  identifier the floor and the cage read (``U-20261205-3``: the gaming date and a number of
  the day). Their cash adds up like a member's. A supervisor or a manager links them once to
  the member they turn out to be; from then on their cash is that member's. On PostgreSQL a
  row is never deleted, and the only change it takes is that link, once (migration 0008).
- ``CashAlert``: raised once per person (a member, or an unknown patron not linked), gaming
  day and direction (cash in, cash out) when the day's cash reaches the reporting threshold
  (``casino.cage.cash_log``: every cash movement of the day, at the tables and the cage);
  kept (the cage and the managers see it). Once per person is a unique constraint of each.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.kernel.fields import money_field
from casino.venues.models import Venue


class CashDirection(models.TextChoices):
    """Which way cash moves, as the thresholds add it up apart (the values are
    ``casino.cage.models.CashKind``'s: a buy-in brings cash in, a cash-out takes it out)."""

    IN = "buy_in", _("Cash in")
    OUT = "cash_out", _("Cash out")


class UnknownPatron(models.Model):
    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="unknown_patrons", verbose_name=_("venue")
    )
    code = models.CharField(_("temporary identifier"), max_length=24)
    gaming_date = models.DateField(_("gaming date"))
    number = models.PositiveIntegerField(_("number of the day"))
    description = models.CharField(_("description"), max_length=255)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    created_at = models.DateTimeField(_("recorded at"))
    member = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="unknown_patrons",
        verbose_name=_("member"),
        help_text=_("The member this patron turned out to be: their cash is the member's."),
    )
    linked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("linked by"),
    )
    linked_at = models.DateTimeField(_("linked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("unknown patron")
        verbose_name_plural = _("unknown patrons")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "code"], name="unknown_patron_code"),
            models.UniqueConstraint(
                fields=["venue", "gaming_date", "number"], name="unknown_patron_number"
            ),
            models.CheckConstraint(
                condition=models.Q(
                    member__isnull=True, linked_by__isnull=True, linked_at__isnull=True
                )
                | models.Q(member__isnull=False, linked_by__isnull=False, linked_at__isnull=False),
                name="unknown_patron_linked_signed",
            ),
            models.CheckConstraint(
                condition=~models.Q(description=""), name="unknown_patron_described"
            ),
        ]

    def __str__(self) -> str:
        return self.code


class CashAlert(models.Model):
    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="cash_alerts", verbose_name=_("venue")
    )
    player = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cash_alerts",
        verbose_name=_("player"),
    )
    unknown_patron = models.ForeignKey(
        UnknownPatron,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cash_alerts",
        verbose_name=_("unknown patron"),
    )
    gaming_date = models.DateField(_("gaming date"))
    direction = models.CharField(_("direction"), max_length=16, choices=CashDirection.choices)
    total = money_field(_("day's total when raised"))
    threshold = money_field(_("reporting threshold"))
    transaction = models.ForeignKey(
        "cage.CashTransaction",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="alerts",
        verbose_name=_("transaction that reached it"),
        help_text=_("At a table; at the cage, the source below."),
    )
    #: The cash log's row that reached it (``casino.cage.cash_log.Source`` and its id).
    source = models.CharField(_("source"), max_length=24, blank=True, db_default="")
    source_id = models.PositiveBigIntegerField(_("source id"), null=True, blank=True)
    raised_at = models.DateTimeField(_("raised at"))

    class Meta:
        db_table = "casino_cashalert"
        verbose_name = _("cash alert")
        verbose_name_plural = _("cash alerts")
        ordering = ["-raised_at", "-id"]
        constraints = [
            # NULLs are distinct: the first is a member's, the second an unknown patron's.
            models.UniqueConstraint(
                fields=["venue", "player", "gaming_date", "direction"], name="cash_alert_once"
            ),
            models.UniqueConstraint(
                fields=["venue", "unknown_patron", "gaming_date", "direction"],
                name="cash_alert_once_per_unknown_patron",
            ),
            models.CheckConstraint(
                condition=models.Q(player__isnull=False, unknown_patron__isnull=True)
                | models.Q(player__isnull=True, unknown_patron__isnull=False),
                name="cash_alert_one_person",
            ),
        ]

    def __str__(self) -> str:
        who = self.player_id or f"unknown patron {self.unknown_patron_id}"
        return f"cash alert {self.pk}: {who} {self.direction} {self.gaming_date}"
