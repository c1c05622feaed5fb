"""Markers (casino credit): a member's credit line, the markers they sign against it and
what they pay back, written by ``casino.cage.services.markers`` only. Models of the cage app
(``casino.cage.models`` imports them).

- ``CreditLine``: one version of a member's credit limit, proposed by a manager and approved
  by another; the latest approved version is the limit in force, the earlier ones are kept.
- ``MarkerTerms``: a venue's terms for its markers, one row per change (the latest is in
  force): the days a marker is due after its gaming date, and whether a marker issued at a
  table counts in the table's drop (docs/MARKERS.md says what each choice means for drop
  and win). A marker keeps the terms it was issued under.
- ``Marker``: credit given, at a table (chips from the table's tray, its copy into the drop
  box) or at the cage (chips from the cage), signed by the player and a supervisor.
- ``MarkerPayment``: a payment of a marker at the cage, in cash or chips (partial payments
  allowed), or the reversal of one, naming it.

Nothing is changed or deleted (triggers, migration cage 0006): a marker's balance, the
player's outstanding and what is overdue are sums (``casino.cage.marker_selectors``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.floor.models.sessions import TableSession
from casino.kernel.fields import money_field
from casino.venues.models import Venue

#: Days a marker is due after its gaming date while a venue has set no terms (a common
#: house term for markers; a manager sets the venue's own in its ``MarkerTerms``).
DEFAULT_TERM_DAYS = 30
#: Whether a table's markers count in its drop while a venue has set no terms: yes, as
#: Nevada's MICS counts the marker copy in the drop box ("credit drop").
DEFAULT_CREDIT_DROP = True


class CreditLine(models.Model):
    """One version of a member's credit limit: proposed, then approved by a second manager;
    the latest approved one is in force (``casino.cage.marker_selectors.credit_limit``)."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Proposed")
        APPROVED = "approved", _("Approved")

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="credit_lines", verbose_name=_("venue")
    )
    player = models.ForeignKey(
        "players.Player",
        on_delete=models.PROTECT,
        related_name="credit_lines",
        verbose_name=_("player"),
    )
    limit = money_field(_("credit limit"), help_text=_("0 stops further markers."))
    reason = models.CharField(_("reason"), max_length=255, blank=True)
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
        verbose_name = _("credit line")
        verbose_name_plural = _("credit lines")
        ordering = ["-proposed_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(limit__gte=0), name="credit_line_limit"),
            models.CheckConstraint(
                condition=models.Q(status="proposed")
                | (
                    models.Q(approved_by__isnull=False, approved_at__isnull=False)
                    & ~models.Q(approved_by=models.F("proposed_by"))
                ),
                name="credit_line_four_eyes",
            ),
        ]
        indexes = [models.Index(fields=["player", "status", "-approved_at"])]

    def __str__(self) -> str:
        return f"credit line {self.pk} of {self.player_id}: {self.limit} ({self.status})"


class MarkerTerms(models.Model):
    """A venue's marker terms from ``set_at`` on (the latest row is in force)."""

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="marker_terms", verbose_name=_("venue")
    )
    term_days = models.PositiveSmallIntegerField(
        _("days to pay"), help_text=_("A marker is due this many days after its gaming date.")
    )
    credit_drop = models.BooleanField(
        _("table markers count in the drop"),
        help_text=_(
            "Yes: a marker issued at a table is part of the table's drop (its copy is counted "
            "from the drop box). No: the cage takes the marker, and its chips count as "
            "chips returned to the cage from the table."
        ),
    )
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("set by"),
    )
    set_at = models.DateTimeField(_("set at"))

    class Meta:
        verbose_name = _("marker terms")
        verbose_name_plural = _("marker terms")
        ordering = ["venue", "-set_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(term_days__gte=1, term_days__lte=365), name="marker_term_days"
            ),
        ]

    def __str__(self) -> str:
        return f"marker terms of {self.venue_id}: {self.term_days} days"


class Marker(models.Model):
    """Credit given to a member, signed by them and by a supervisor.

    Issued at a table session (chips from its tray; ``in_drop`` says whether its copy counts
    in the table's drop, as the venue's terms said then) or at the cage (chips from the cage;
    no session). Due ``due_on``. Its balance is its amount less its payments
    (``casino.cage.marker_selectors``), never stored.
    """

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="markers", verbose_name=_("venue")
    )
    number = models.PositiveIntegerField(_("number"))
    player = models.ForeignKey(
        "players.Player",
        on_delete=models.PROTECT,
        related_name="markers",
        verbose_name=_("player"),
    )
    amount = money_field(_("amount"))
    session = models.ForeignKey(
        TableSession,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="markers",
        verbose_name=_("session"),
        help_text=_("The table session it was issued at; empty: issued at the cage."),
    )
    in_drop = models.BooleanField(_("counts in the table's drop"), default=False)
    gaming_date = models.DateField(_("gaming date"))
    due_on = models.DateField(_("due on"))
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("issued by"),
    )
    supervisor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("signed by the supervisor"),
    )
    player_signed_at = models.DateTimeField(_("signed by the player at"))
    issued_at = models.DateTimeField(_("issued at"))
    note = models.CharField(_("note"), max_length=255, blank=True)

    class Meta:
        verbose_name = _("marker")
        verbose_name_plural = _("markers")
        ordering = ["-issued_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "number"], name="marker_number"),
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="marker_amount"),
            models.CheckConstraint(
                condition=~models.Q(supervisor=models.F("issued_by")),
                name="marker_two_signers",
            ),
            models.CheckConstraint(
                condition=models.Q(session__isnull=False) | models.Q(in_drop=False),
                name="marker_in_drop_at_a_table",
            ),
            models.CheckConstraint(
                condition=models.Q(due_on__gte=models.F("gaming_date")), name="marker_due"
            ),
        ]
        indexes = [
            models.Index(fields=["player", "-issued_at"]),
            models.Index(fields=["venue", "due_on"]),
        ]

    def __str__(self) -> str:
        return f"marker {self.label} of {self.player_id}: {self.amount}"

    @property
    def label(self) -> str:
        """The marker's number as every screen and message shows it: ``M-000012``."""
        return marker_label(self.number)

    @property
    def at_the_cage(self) -> bool:
        return self.session_id is None


def marker_label(number: int) -> str:
    return f"M-{number:06d}"


class MarkerPayment(models.Model):
    """A payment of a marker at the cage (more than 0), or the reversal of one (its amount
    negated, naming it; a payment is reversed once)."""

    class Kind(models.TextChoices):
        PAYMENT = "payment", _("Payment")
        REVERSAL = "reversal", _("Reversal")

    class Method(models.TextChoices):
        CASH = "cash", _("Cash")
        CHIPS = "chips", _("Chips")

    marker = models.ForeignKey(
        Marker, on_delete=models.PROTECT, related_name="payments", verbose_name=_("marker")
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    method = models.CharField(_("paid in"), max_length=8, choices=Method.choices)
    amount = money_field(_("amount"), help_text=_("Signed: + paid, - a payment reversed."))
    reverses = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversed_by",
        verbose_name=_("reverses"),
    )
    gaming_date = models.DateField(_("gaming date"))
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    received_at = models.DateTimeField(_("recorded at"))
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
        verbose_name = _("marker payment")
        verbose_name_plural = _("marker payments")
        ordering = ["-received_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind="payment", amount__gt=0, reverses__isnull=True)
                | models.Q(kind="reversal", amount__lt=0, reverses__isnull=False),
                name="marker_payment_signed_by_kind",
            ),
        ]
        indexes = [models.Index(fields=["marker", "-received_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount} of marker {self.marker_id}"
