"""Front money: one movement of a member's safekeeping deposit (deposit at the cage, draw
at a table session, return at the cage, reversal), written by
``casino.cage.services.front_money`` only. A model of the cage app (``casino.cage.models``
imports it).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.floor.models.sessions import TableSession
from casino.kernel.fields import money_field
from casino.venues.models import Venue


class FrontMoneyKind(models.TextChoices):
    DEPOSIT = "deposit", _("Deposit")
    DRAW = "draw", _("Draw at a table")
    RETURN = "return", _("Return to the player")
    REVERSAL = "reversal", _("Reversal")


class FrontMoney(models.Model):
    """One movement of a member's front money (``casino.cage.services.front_money``).

    Signed: a deposit at the cage is more than 0, a draw for chips at a table session or a
    return to the player at the cage less than 0, a reversal the reversed movement negated
    (it names it, and a movement is reversed once). The player's balance is the sum of their
    movements (``casino.cage.selectors.front_money_balance``), never stored; nothing is
    changed or deleted.
    """

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="front_money", verbose_name=_("venue")
    )
    player = models.ForeignKey(
        "players.Player",
        on_delete=models.PROTECT,
        related_name="front_money",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("kind"), max_length=16, choices=FrontMoneyKind.choices)
    amount = money_field(
        _("amount"), help_text=_("Signed: + into the player's balance, - out of it.")
    )
    session = models.ForeignKey(
        TableSession,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="front_money",
        verbose_name=_("session"),
        help_text=_("The table session a draw was made at."),
    )
    reverses = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversed_by",
        verbose_name=_("reverses"),
    )
    gaming_date = models.DateField(_("gaming date"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"))
    note = models.CharField(_("note"), max_length=255, blank=True)
    #: The identity document seen when the cash reached a threshold that asked for one
    #: (``casino.cage.services.thresholds.identification_asked``, as a table's transaction).
    id_document_type = models.CharField(
        _("identity document type"), max_length=32, blank=True, db_default=""
    )
    id_document_number = models.CharField(
        _("identity document number"), max_length=64, blank=True, db_default=""
    )

    class Meta:
        verbose_name = _("front money movement")
        verbose_name_plural = _("front money movements")
        ordering = ["-recorded_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(
                    kind="deposit", amount__gt=0, reverses__isnull=True, session__isnull=True
                )
                | models.Q(kind="draw", amount__lt=0, reverses__isnull=True, session__isnull=False)
                | models.Q(kind="return", amount__lt=0, reverses__isnull=True, session__isnull=True)
                | (
                    models.Q(kind="reversal", reverses__isnull=False, session__isnull=True)
                    & ~models.Q(amount=0)
                ),
                name="front_money_signed_by_kind",
            ),
        ]
        indexes = [models.Index(fields=["player", "-recorded_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount} ({self.player_id})"
