"""The ledger (append-only) and the drop; the audit trail is ``casino.audit``.
The tables keep the names they had in the ``casino`` app (``Meta.db_table``); fill and credit
slips are the cage's (``casino.cage.models``).

Every money movement is a set of ledger entries that sums to zero: a settled round (the
players against the house), a verified slip (the cage against the table's tray), a counted
drop. A correction is a reversing set of entries; nothing is updated or deleted. On
PostgreSQL, triggers refuse UPDATE and DELETE and check each set sums to zero at commit.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.kernel.fields import money_field


class Account(models.TextChoices):
    PLAYER = "player", _("Player")  # a box's player (or an anonymous box)
    HOUSE = "house", _("House")  # the house's result at the table
    TRAY = "tray", _("Table tray")  # chips in the table's tray
    CAGE = "cage", _("Cage")
    DROP = "drop", _("Drop box")


class EntryKind(models.TextChoices):
    STAKE_RESULT = "result", _("Bet result")
    COMMISSION = "commission", _("Commission")
    FEE = "fee", _("Table fee")
    FILL = "fill", _("Fill")
    CREDIT = "credit", _("Credit")
    DROP = "drop", _("Drop")
    VOID = "void", _("Void (reversal)")


class Drop(models.Model):
    """Cash in the table's drop box, entered when it is counted.

    A drop entered by mistake is not deleted: a supervisor reverses it with a second drop of
    the opposite amount that names it (``reverses``) and says why; the session's drop is the
    sum of both, and the reversal's ledger entries undo the first's.
    """

    session = models.ForeignKey(
        "floor.TableSession", on_delete=models.PROTECT, related_name="drops"
    )
    amount = money_field(help_text=_("Positive; a reversal is the reversed drop's, negated."))
    # Who entered the count (for a reversal: who reversed it) and when.
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    counted_at = models.DateTimeField()
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    reason = models.CharField(max_length=255, blank=True, help_text=_("Why it was reversed."))
    # The box whose count posted it; empty for a drop the pit entered at the table.
    drop_box = models.ForeignKey(
        "count.DropBox", null=True, blank=True, on_delete=models.PROTECT, related_name="drops"
    )

    class Meta:
        db_table = "casino_drop"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gt=0, reverses__isnull=True)
                | models.Q(amount__lt=0, reverses__isnull=False),
                name="drop_positive_or_a_reversal",
            ),
        ]

    def __str__(self) -> str:
        if self.reverses_id:
            return f"reversal of drop {self.reverses_id} at {self.session}"
        return f"drop {self.amount} at {self.session}"


class LedgerEntry(models.Model):
    venue = models.ForeignKey(
        "venues.Venue", on_delete=models.PROTECT, related_name="+", verbose_name=_("venue")
    )
    session = models.ForeignKey(
        "floor.TableSession",
        on_delete=models.PROTECT,
        related_name="ledger",
        verbose_name=_("session"),
    )
    round = models.ForeignKey(
        "floor.Round",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger",
        verbose_name=_("round"),
    )
    slip = models.ForeignKey(
        "cage.Slip",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger",
        verbose_name=_("slip"),
    )
    drop = models.ForeignKey(
        Drop,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger",
        verbose_name=_("drop"),
    )
    box = models.ForeignKey(
        "floor.Box",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("box"),
    )
    bet = models.ForeignKey(
        "floor.Bet",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("bet"),
    )
    player = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger",
        verbose_name=_("player"),
    )
    account = models.CharField(max_length=8, choices=Account.choices, verbose_name=_("account"))
    kind = models.CharField(max_length=12, choices=EntryKind.choices, verbose_name=_("kind"))
    amount = money_field(
        help_text=_("Signed: + into the account, - out of it."), verbose_name=_("amount")
    )
    reverses = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversed_by",
        verbose_name=_("reverses entry"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        db_table = "casino_ledgerentry"
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(round__isnull=False, slip__isnull=True, drop__isnull=True)
                    | models.Q(round__isnull=True, slip__isnull=False, drop__isnull=True)
                    | models.Q(round__isnull=True, slip__isnull=True, drop__isnull=False)
                ),
                name="ledger_entry_belongs_to_one_thing",
            ),
            models.CheckConstraint(condition=~models.Q(amount=0), name="ledger_amount_not_zero"),
            models.UniqueConstraint(fields=["reverses"], name="ledger_reversed_once"),
        ]
        indexes = [models.Index(fields=["session", "account"])]

    def __str__(self) -> str:
        return f"{self.account} {self.kind} {self.amount}"
