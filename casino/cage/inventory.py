"""The cage's inventory: what the cage holds by denomination, its shifts and counts, and the
cage book every movement of its notes and chips is posted to. Written by
``casino.cage.services.inventory`` only; models of the cage app (``casino.cage.models``
imports them).

- ``CageShift``: a cashier's shift at the cage, opened by a signed opening count and closed
  by a signed closing count.
- ``CageCount``: the notes (of the venue's currency) and chips (of the venue's chip set)
  counted in the cage, by denomination, signed by the counter and by a second person; it
  keeps what the book expected and the difference, with its reason.
- ``CageMovement`` and ``CageLine``: the cage book. A movement (a fill, a chip purchase, a
  transfer to the vault...) is a set of lines, each an account, an instrument (notes of a
  currency, chips of a chip set, or a value with no pieces: a marker, front money held), a
  denomination and a signed number of pieces, and its value; the lines of a movement sum to
  zero per currency. Nothing is changed or deleted: on PostgreSQL triggers refuse UPDATE and
  DELETE of both, and an INSERT of lines that leaves a movement unbalanced (migration 0007).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.kernel.fields import money_field
from casino.venues.models import Venue

#: The chip set every table of a venue plays (a venue has one set today; the lines carry
#: the set so that a second one, a reserve set, is a new code and not a new column).
HOUSE_CHIPS = "house"


class CageAccount(models.TextChoices):
    CAGE = "cage", _("Cage")
    VAULT = "vault", _("Vault")
    TABLES = "tables", _("Tables")
    PATRONS = "patrons", _("Patrons")
    FRONT_MONEY = "front_money", _("Front money held")
    MARKERS = "markers", _("Markers receivable")
    OVER_SHORT = "over_short", _("Over/short")
    OPENING = "opening", _("Opening balance")


class Instrument(models.TextChoices):
    NOTES = "notes", _("Bank notes")
    CHIPS = "chips", _("Chips")
    #: A value with no pieces to count: what a marker or front money held is worth.
    VALUE = "value", _("Value")


class MovementKind(models.TextChoices):
    OPENING_BALANCE = "opening_balance", _("Opening balance")
    COUNT_ADJUSTMENT = "count_adjustment", _("Count adjustment")
    FILL = "fill", _("Fill")
    CREDIT = "credit", _("Credit")
    CHIP_PURCHASE = "chip_purchase", _("Chip purchase")
    CHIP_REDEMPTION = "chip_redemption", _("Chip redemption")
    TO_VAULT = "to_vault", _("Transfer to the vault")
    FROM_VAULT = "from_vault", _("Transfer from the vault")
    FRONT_MONEY_DEPOSIT = "front_money_deposit", _("Front money deposit")
    FRONT_MONEY_RETURN = "front_money_return", _("Front money return")
    MARKER_ISSUE = "marker_issue", _("Marker issued")
    MARKER_PAYMENT = "marker_payment", _("Marker payment")


class CageShift(models.Model):
    """A shift at the cage: open from its signed opening count to its signed closing count.
    A venue has at most one open shift."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="cage_shifts", verbose_name=_("venue")
    )
    gaming_date = models.DateField(_("gaming date"))
    status = models.CharField(_("status"), max_length=8, choices=Status.choices)
    opened_at = models.DateTimeField(_("opened at"))
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("cage shift")
        verbose_name_plural = _("cage shifts")
        ordering = ["-opened_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["venue"],
                condition=models.Q(status="open"),
                name="cage_shift_one_open_per_venue",
            ),
            models.CheckConstraint(
                condition=models.Q(status="open", closed_at__isnull=True)
                | models.Q(status="closed", closed_at__isnull=False),
                name="cage_shift_closed_when_closed",
            ),
        ]

    def __str__(self) -> str:
        return f"cage shift {self.pk} of {self.gaming_date}"


class CageCount(models.Model):
    """A count of the cage, opening or closing a shift: the notes and chips counted (by
    denomination, as text -> number), what the book expected, the difference (counted -
    expected, signed) and its value, and the reason a difference needs. Signed by the
    counter and then by a second person (``signed_by``), both of the cage or managers; a
    count waiting for its second signature that is counted again is superseded."""

    class Kind(models.TextChoices):
        OPENING = "opening", _("Cage opening count")
        CLOSING = "closing", _("Cage closing count")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the second signature")
        SIGNED = "signed", _("Signed")
        SUPERSEDED = "superseded", _("Counted again")

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="cage_counts", verbose_name=_("venue")
    )
    shift = models.ForeignKey(
        CageShift,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="counts",
        verbose_name=_("shift"),
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices)
    currency = models.CharField(_("currency"), max_length=3)
    chip_set = models.CharField(_("chip set"), max_length=16, default=HOUSE_CHIPS)
    notes = models.JSONField(_("notes counted"), default=dict, blank=True)
    chips = models.JSONField(_("chips counted"), default=dict, blank=True)
    expected_notes = models.JSONField(_("notes expected"), default=dict, blank=True)
    expected_chips = models.JSONField(_("chips expected"), default=dict, blank=True)
    difference = models.JSONField(
        _("difference"),
        default=dict,
        blank=True,
        help_text=_('Counted - expected: {"notes": {...}, "chips": {...}}, signed.'),
    )
    difference_value = money_field(_("over (+) or short (-)"), default=0)
    #: The first count of a venue's cage has nothing to be compared with: it is its
    #: opening balance.
    first = models.BooleanField(_("the cage's first count"), default=False)
    reason = models.CharField(_("reason"), max_length=255, blank=True)
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("counted by"),
    )
    counted_at = models.DateTimeField(_("counted at"))
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("second signature"),
    )
    signed_at = models.DateTimeField(_("signed at"), null=True, blank=True)
    movement = models.OneToOneField(
        "CageMovement",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="count",
        verbose_name=_("movement"),
        help_text=_("The opening balance or count adjustment its difference posted."),
    )

    class Meta:
        verbose_name = _("cage count")
        verbose_name_plural = _("cage counts")
        ordering = ["-counted_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["venue"],
                condition=models.Q(status="pending"),
                name="cage_count_one_pending_per_venue",
            ),
            models.UniqueConstraint(
                fields=["shift", "kind"],
                condition=models.Q(status="signed"),
                name="cage_count_one_signed_per_shift_and_kind",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="signed")
                | models.Q(signed_by__isnull=False, signed_at__isnull=False, shift__isnull=False),
                name="cage_count_signed_twice",
            ),
            models.CheckConstraint(
                condition=~models.Q(signed_by=models.F("counted_by")),
                name="cage_count_two_people",
            ),
            models.CheckConstraint(
                condition=models.Q(difference_value=0)
                | models.Q(first=True)
                | ~models.Q(reason=""),
                name="cage_count_difference_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.pk} ({self.get_status_display()})"


class CageMovement(models.Model):
    """One movement of the cage book: its lines sum to zero per currency."""

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="cage_movements", verbose_name=_("venue")
    )
    shift = models.ForeignKey(
        CageShift,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="movements",
        verbose_name=_("shift"),
        help_text=_("The cage shift open when it was made; none between shifts."),
    )
    kind = models.CharField(_("kind"), max_length=24, choices=MovementKind.choices)
    gaming_date = models.DateField(_("gaming date"))
    slip = models.ForeignKey(
        "cage.Slip",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cage_movements",
        verbose_name=_("slip"),
    )
    reference = models.CharField(_("reference"), max_length=64, blank=True)
    note = models.CharField(_("note"), max_length=255, blank=True)
    #: Who bought or cashed in chips at the window (``casino.cage.cash_log`` counts it).
    player = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cage_movements",
        verbose_name=_("player"),
    )
    unknown_patron = models.ForeignKey(
        "cage.UnknownPatron",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cage_movements",
        verbose_name=_("unknown patron"),
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"))
    #: The identity document seen when the cash reached a threshold that asked for one
    #: (``casino.cage.services.thresholds.identification_asked``, as a table's transaction).
    id_document_type = models.CharField(
        _("identity document type"), max_length=32, blank=True, db_default=""
    )
    id_document_number = models.CharField(
        _("identity document number"), max_length=64, blank=True, db_default=""
    )

    class Meta:
        verbose_name = _("cage movement")
        verbose_name_plural = _("cage movements")
        ordering = ["recorded_at", "id"]
        indexes = [models.Index(fields=["venue", "recorded_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(player__isnull=True) | models.Q(unknown_patron__isnull=True),
                name="cage_movement_member_or_unknown_patron",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.pk}"


class CageLine(models.Model):
    """One line of a cage movement: ``count`` pieces (signed: + into the account, - out of
    it) of ``denomination`` of an instrument, worth ``value``; a value line (a marker, front
    money held) has no denomination or count."""

    movement = models.ForeignKey(
        CageMovement, on_delete=models.PROTECT, related_name="lines", verbose_name=_("movement")
    )
    account = models.CharField(_("account"), max_length=16, choices=CageAccount.choices)
    instrument = models.CharField(_("instrument"), max_length=8, choices=Instrument.choices)
    currency = models.CharField(_("currency"), max_length=3)
    chip_set = models.CharField(_("chip set"), max_length=16, blank=True)
    denomination = money_field(_("denomination"), null=True, blank=True)
    count = models.IntegerField(_("count"), null=True, blank=True)
    value = money_field(_("value"), help_text=_("Signed: + into the account, - out of it."))

    class Meta:
        verbose_name = _("cage book line")
        verbose_name_plural = _("cage book lines")
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(value=0), name="cage_line_not_zero"),
            models.CheckConstraint(
                condition=(
                    models.Q(denomination__gt=0, value=models.F("denomination") * models.F("count"))
                    & (
                        models.Q(instrument="notes", chip_set="")
                        | (models.Q(instrument="chips") & ~models.Q(chip_set=""))
                    )
                )
                | models.Q(
                    instrument="value",
                    denomination__isnull=True,
                    count__isnull=True,
                    chip_set="",
                ),
                name="cage_line_pieces_make_its_value",
            ),
            models.CheckConstraint(
                condition=~models.Q(account__in=["cage", "vault"], instrument="value"),
                name="cage_line_cage_and_vault_hold_pieces",
            ),
        ]
        indexes = [models.Index(fields=["account", "instrument", "denomination"])]

    def __str__(self) -> str:
        return f"{self.account} {self.instrument} {self.denomination} x {self.count}"
