"""The ledger (append-only), fill and credit slips, and the drop.

Every money movement is a set of ledger entries that sums to zero: a settled round (the
players against the house), a verified slip (the cage against the table's tray), a counted
drop. A correction is a reversing set of entries; nothing is updated or deleted. On
PostgreSQL, triggers refuse UPDATE and DELETE and check each set sums to zero at commit.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.models.floor import TableSession, money_field
from casino.models.rounds import Bet, Box, Round
from casino.models.venues import Venue


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


class SlipStatus(models.TextChoices):
    REQUESTED = "requested", _("Requested")
    ISSUED = "issued", _("Issued")
    VERIFIED = "verified", _("Verified")
    VOID = "void", _("Void")


class Slip(models.Model):
    """A fill (chips from the cage to the table) or a credit (back to the cage).

    Numbered per venue and year; every step signed by a named person and timed
    (``casino/services/slips.py`` says the order): requested at the table, issued by the
    cage's cashier, confirmed at the table by its dealer and a supervisor (two people, neither
    the cashier), for a credit received back at the cage by a cashier. Posted to the ledger
    by its last step (``verified``); a slip voided before then keeps its number and reason.
    """

    class Kind(models.TextChoices):
        FILL = "fill", _("Fill")
        CREDIT = "credit", _("Credit")

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="slips", verbose_name=_("venue")
    )
    session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="slips", verbose_name=_("session")
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, verbose_name=_("kind"))
    year = models.PositiveSmallIntegerField(verbose_name=_("year"))
    number = models.PositiveIntegerField(verbose_name=_("number"))
    amount = money_field(verbose_name=_("amount"))
    chips = models.JSONField(default=dict, blank=True, verbose_name=_("chips"))
    status = models.CharField(
        max_length=16,
        choices=SlipStatus.choices,
        default=SlipStatus.REQUESTED,
        verbose_name=_("status"),
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("requested by"),
    )
    requested_at = models.DateTimeField(verbose_name=_("requested at"))
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("issued by"),
    )
    issued_at = models.DateTimeField(null=True, blank=True, verbose_name=_("issued at"))
    runner = models.CharField(
        max_length=150,
        blank=True,
        help_text=_("Who carries the chips between cage and table."),
        verbose_name=_("runner"),
    )
    # The table's two signatures: the chips of a fill received, those of a credit sent.
    dealer_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("dealer confirmed by"),
    )
    dealer_confirmed_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("dealer confirmed at")
    )
    supervisor_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("supervisor confirmed by"),
    )
    supervisor_confirmed_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("supervisor confirmed at")
    )
    # A credit's chips received at the cage.
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("received by"),
    )
    received_at = models.DateTimeField(null=True, blank=True, verbose_name=_("received at"))
    # Who posted it to the ledger, and when: a fill's second table signature, a credit's
    # receipt at the cage.
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("verified by"),
    )
    verified_at = models.DateTimeField(null=True, blank=True, verbose_name=_("verified at"))
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("voided by"),
    )
    voided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("voided at"))
    void_reason = models.CharField(max_length=255, blank=True, verbose_name=_("void reason"))

    class Meta:
        verbose_name = _("fill or credit slip")
        verbose_name_plural = _("fill and credit slips")
        ordering = ["venue", "-year", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "year", "number"], name="slip_number"),
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="slip_amount_positive"),
            # The cage and the table are different people: the cashier who issued a slip
            # signs neither of the table's lines, nor does the cashier who receives a credit;
            # the table's two lines are two people.
            models.CheckConstraint(
                condition=~models.Q(dealer_confirmed_by=models.F("issued_by"))
                & ~models.Q(supervisor_confirmed_by=models.F("issued_by")),
                name="slip_cashier_is_not_a_table_signer",
            ),
            models.CheckConstraint(
                condition=~models.Q(received_by=models.F("dealer_confirmed_by"))
                & ~models.Q(received_by=models.F("supervisor_confirmed_by")),
                name="slip_receiver_is_not_a_table_signer",
            ),
            models.CheckConstraint(
                condition=~models.Q(dealer_confirmed_by=models.F("supervisor_confirmed_by")),
                name="slip_table_signers_differ",
            ),
            models.CheckConstraint(
                condition=models.Q(kind="credit") | ~models.Q(verified_by=models.F("issued_by")),
                name="slip_verifier_is_not_issuer",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="void")
                | (models.Q(voided_by__isnull=False) & ~models.Q(void_reason="")),
                name="slip_void_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.label} ({self.status})"

    @property
    def label(self) -> str:
        """The slip's number as every screen and message shows it: ``2026-000002``."""
        return slip_label(self.year, self.number)


def slip_label(year: int, number: int) -> str:
    """A slip's number as people read it (year, then the number in the venue's year)."""
    return f"{year}-{number:06d}"


class Drop(models.Model):
    """Cash in the table's drop box, entered when it is counted.

    A drop entered by mistake is not deleted: a supervisor reverses it with a second drop of
    the opposite amount that names it (``reverses``) and says why; the session's drop is the
    sum of both, and the reversal's ledger entries undo the first's.
    """

    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="drops")
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
        Venue, on_delete=models.PROTECT, related_name="+", verbose_name=_("venue")
    )
    session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="ledger", verbose_name=_("session")
    )
    round = models.ForeignKey(
        Round,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger",
        verbose_name=_("round"),
    )
    slip = models.ForeignKey(
        Slip,
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
        Box,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("box"),
    )
    bet = models.ForeignKey(
        Bet,
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
