"""The cage: buy-ins and cash-outs at the tables with the cash transaction records kept of
them, and the fill and credit slips.

``CashTransaction``: one buy-in or cash-out of a player (or of a player nobody knows) at a
table session, recorded from the table's console. It is a record, not a ledger entry: the
chips the table gives for cash come out of its tray and the cash goes into the drop box,
which the count measures (the drop); a buy-in for chips of another table, a marker or a
cash-out paid at the table moves nothing the ledger keeps either. A mistake is voided
(who, when, why) and entered again; nothing is deleted.

``CashThresholds``: a venue's logging and reporting thresholds, versioned: a manager
proposes a version, a second manager approves it; the latest approved version is in force.

``UnknownPatron`` and ``CashAlert``: a patron nobody knows, described and followed by a
temporary identifier until linked to a member, and the alert raised once per person (member
or unknown patron), gaming day and direction when the day's cash reaches the reporting
threshold; their own module (``casino.cage.patrons``), imported here.

``Slip``: a fill (chips from the cage to a table) or a credit (back to the cage), signed by
the cage and the table; verified, it moves the ledger (``casino.cage.services.slips``).

``FrontMoney``: a member's safekeeping deposit at the cage, a draw of it for chips at a table
session, its return at the cage, or the reversal of one of them; signed, the balance is their
sum (``casino.cage.services.front_money``). Its own module (``casino.cage.front_money``),
imported here so that it is the app's model.

``ManualSeries`` and ``ManualPaper``: a table's pre-numbered paper forms for when the system
is down, and each number used (entered late or spoiled); their own module
(``casino.cage.manual``), imported here.
``CreditLine``, ``MarkerTerms``, ``Marker``, ``MarkerPayment``: markers (casino credit), a
member's credit line with the markers signed against it and their payments
(``casino.cage.services.markers``); their own module (``casino.cage.markers``).
``CageShift``, ``CageCount``, ``CageMovement``, ``CageLine``: the cage's inventory by
denomination, its shifts and two-signature counts, and the cage book of every movement of its
notes and chips (``casino.cage.inventory``, written by ``casino.cage.services.inventory``).

The tables keep the names they had in the ``casino`` app (``Meta.db_table``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.cage.front_money import FrontMoney, FrontMoneyKind  # noqa: F401  (the app's model)
from casino.cage.inventory import (  # noqa: F401  (the app's models)
    HOUSE_CHIPS,
    CageAccount,
    CageCount,
    CageLine,
    CageMovement,
    CageShift,
    Instrument,
    MovementKind,
)
from casino.cage.manual import (  # noqa: F401  (the app's models)
    ManualKind,
    ManualPaper,
    ManualSeries,
    PaperStatus,
)
from casino.cage.markers import (  # noqa: F401  (the app's models)
    CreditLine,
    Marker,
    MarkerPayment,
    MarkerTerms,
    marker_label,
)
from casino.cage.patrons import (  # noqa: F401  (the app's models)
    CashAlert,
    CashDirection,
    UnknownPatron,
)
from casino.floor.models.sessions import TableSession
from casino.kernel.fields import money_field
from casino.venues.models import Table, Venue


class CashKind(models.TextChoices):
    BUY_IN = "buy_in", _("Buy-in")
    CASH_OUT = "cash_out", _("Cash-out")


class CashInstrument(models.TextChoices):
    CASH = "cash", _("Cash")
    CHIPS = "chips", _("Chips")
    MARKER = "marker", _("Marker")
    OTHER = "other", _("Other")


class CashLevel(models.TextChoices):
    """The threshold a transaction's recording reached (``casino.cage.services.thresholds``)."""

    LOGGING = "logging", _("Logging threshold")
    REPORTING = "reporting", _("Reporting threshold")


class CashTransaction(models.Model):
    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="cash_transactions", verbose_name=_("venue")
    )
    session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        related_name="cash_transactions",
        verbose_name=_("session"),
    )
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="cash_transactions", verbose_name=_("table")
    )
    player = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cash_transactions",
        verbose_name=_("player"),
        help_text=_("Empty: a player nobody knows (counted for the table only)."),
    )
    unknown_patron = models.ForeignKey(
        "cage.UnknownPatron",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cash_transactions",
        verbose_name=_("unknown patron"),
    )
    kind = models.CharField(_("kind"), max_length=16, choices=CashKind.choices)
    instrument = models.CharField(_("instrument"), max_length=16, choices=CashInstrument.choices)
    amount = money_field(_("amount"))
    gaming_date = models.DateField(_("gaming date"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"))
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("voided by"),
    )
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)
    void_reason = models.TextField(_("reason for the void"), blank=True)
    # The form's one-time key: the same form posted twice records one transaction.
    key = models.CharField(max_length=64, blank=True, editable=False)
    # What the table was told when it recorded it, and the identification it took then.
    threshold = models.CharField(
        _("threshold reached"),
        max_length=16,
        choices=CashLevel.choices,
        blank=True,
        db_default="",
        help_text=_("Empty: neither threshold reached when it was recorded."),
    )
    id_document_type = models.CharField(
        _("identity document type"), max_length=32, blank=True, db_default=""
    )
    id_document_number = models.CharField(
        _("identity document number"), max_length=64, blank=True, db_default=""
    )
    patron_description = models.CharField(
        _("description of the patron"),
        max_length=255,
        blank=True,
        db_default="",
        help_text=_("For a patron nobody knows whose cash reached a threshold."),
    )

    class Meta:
        db_table = "casino_cashtransaction"
        verbose_name = _("buy-in or cash-out")
        verbose_name_plural = _("buy-ins and cash-outs")
        ordering = ["-recorded_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="cash_amount_positive"),
            models.CheckConstraint(
                condition=models.Q(voided_at__isnull=True)
                | (models.Q(voided_by__isnull=False) & ~models.Q(void_reason="")),
                name="cash_void_signed",
            ),
            models.UniqueConstraint(
                fields=["venue", "key"], condition=~models.Q(key=""), name="cash_key_once"
            ),
            models.CheckConstraint(
                condition=models.Q(player__isnull=True) | models.Q(unknown_patron__isnull=True),
                name="cash_member_or_unknown_patron",
            ),
        ]
        indexes = [
            models.Index(fields=["venue", "gaming_date", "player"]),
            models.Index(fields=["player", "-recorded_at"]),
            models.Index(fields=["session", "-recorded_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount} at {self.table_id} ({self.gaming_date})"

    @property
    def voided(self) -> bool:
        return self.voided_at is not None


class CashThresholds(models.Model):
    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Proposed")
        APPROVED = "approved", _("Approved")

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="cash_thresholds", verbose_name=_("venue")
    )
    logging_threshold = money_field(
        _("logging threshold"),
        help_text=_("A player's cash in (or out) of a gaming day at or above it is logged."),
    )
    reporting_threshold = money_field(
        _("reporting threshold"),
        help_text=_(
            "A player's cash in (or out) of a gaming day at or above it raises an alert to "
            "the cage and the managers, and is a report candidate."
        ),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PROPOSED
    )
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("proposed by"),
    )
    proposed_at = models.DateTimeField(_("proposed at"))
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("approved by"),
    )
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)

    class Meta:
        db_table = "casino_cashthresholds"
        verbose_name = _("cash thresholds")
        verbose_name_plural = _("cash thresholds")
        ordering = ["venue", "-proposed_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(logging_threshold__gt=0)
                & models.Q(reporting_threshold__gte=models.F("logging_threshold")),
                name="cash_thresholds_ordered",
            ),
            models.CheckConstraint(
                condition=models.Q(status="proposed")
                | models.Q(approved_by__isnull=False, approved_at__isnull=False),
                name="cash_thresholds_approved_signed",
            ),
        ]

    def __str__(self) -> str:
        return f"cash thresholds {self.pk} of {self.venue_id} ({self.status})"


class SlipStatus(models.TextChoices):
    REQUESTED = "requested", _("Requested")
    ISSUED = "issued", _("Issued")
    VERIFIED = "verified", _("Verified")
    VOID = "void", _("Void")


class Slip(models.Model):
    """A fill (chips from the cage to the table) or a credit (back to the cage).

    Numbered per venue and year; every step signed by a named person and timed
    (``casino/cage/services/slips.py`` says the order): requested at the table, issued by the
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
        db_table = "casino_slip"
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
