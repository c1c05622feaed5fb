"""The operating group and its exchange rates.

``OperatingGroup``: the venues one operator runs (``GroupVenue``, each in a country), the
currency its figures are consolidated in and how it writes amounts. ``GroupRole``: a
member's role at the group (``casino.staff.roles``' group roles).

``ExchangeRate``: how much one unit of a venue's currency is in the reporting currency on a
gaming day, with its source. Each (group, day, currency) has versions: a version is
proposed by a group manager and approved by another (four eyes), and from then on never
changed; a correction is a new version superseding it, approved the same way. The version in
force for a day is its latest approved one; a day without one is not converted.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino.kernel.money import Grouping
from casino.staff.roles import GROUP_AUDITOR, GROUP_MANAGER
from casino.venues.models import Venue

CURRENCY = RegexValidator(r"^[A-Z]{3}$", _("Use the three-letter ISO code, e.g. USD."))
#: Digits of a rate: one dong is about 0.00004 dollars.
RATE_MAX_DIGITS, RATE_DECIMAL_PLACES = 24, 12


class OperatingGroup(models.Model):
    code = models.SlugField(_("code"), max_length=32, unique=True)
    name = models.CharField(_("name"), max_length=120)
    reporting_currency = models.CharField(
        _("reporting currency"),
        max_length=3,
        validators=[CURRENCY],
        help_text=_("ISO 4217 code of the currency the group's figures are given in, e.g. USD."),
    )
    amount_grouping = models.CharField(
        _("amount grouping"),
        max_length=8,
        # As a venue's: each choice shown as an amount written so.
        choices=[
            (Grouping.COMMA.value, "1,000,000.50"),
            (Grouping.DOT.value, "1.000.000,50"),
            (Grouping.SPACE.value, "1\u00a0000\u00a0000,50"),
        ],
        default=Grouping.COMMA.value,
    )
    timezone = models.CharField(_("time zone"), max_length=64, default="UTC")
    #: What its files speak unless the reader picks another (``casino.export_views``).
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    venues = models.ManyToManyField(
        Venue, through="GroupVenue", related_name="+", verbose_name=_("venues")
    )

    class Meta:
        verbose_name = _("operating group")
        verbose_name_plural = _("operating groups")
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name


class GroupVenue(models.Model):
    """A venue of the group (a venue belongs to one group), and its country."""

    group = models.ForeignKey(
        OperatingGroup,
        on_delete=models.PROTECT,
        related_name="memberships",
        verbose_name=_("operating group"),
    )
    venue = models.OneToOneField(
        Venue, on_delete=models.PROTECT, related_name="+", verbose_name=_("venue")
    )
    country = models.CharField(
        _("country"),
        max_length=2,
        validators=[RegexValidator(r"^[A-Z]{2}$", _("Use the two-letter ISO code, e.g. VN."))],
    )

    class Meta:
        verbose_name = _("venue of the group")
        verbose_name_plural = _("venues of the group")
        ordering = ["group", "country", "venue__code"]

    def __str__(self) -> str:
        return f"{self.venue_id} in {self.group_id} ({self.country})"


class GroupRole(models.Model):
    class Role(models.TextChoices):
        MANAGER = GROUP_MANAGER, pgettext_lazy("staff role", "Group manager")
        AUDITOR = GROUP_AUDITOR, pgettext_lazy("staff role", "Group auditor")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="group_roles",
        verbose_name=_("user"),
    )
    group = models.ForeignKey(
        OperatingGroup, on_delete=models.PROTECT, related_name="roles", verbose_name=_("group")
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)

    class Meta:
        verbose_name = _("group role")
        verbose_name_plural = _("group roles")
        ordering = ["group", "role", "user"]
        constraints = [
            models.UniqueConstraint(fields=["user", "group", "role"], name="group_role_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} of {self.group_id}"


class ExchangeRate(models.Model):
    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Waiting for a second group manager")
        APPROVED = "approved", _("Approved")

    group = models.ForeignKey(
        OperatingGroup, on_delete=models.PROTECT, related_name="rates", verbose_name=_("group")
    )
    day = models.DateField(_("gaming date"))
    from_currency = models.CharField(_("from currency"), max_length=3, validators=[CURRENCY])
    to_currency = models.CharField(_("to currency"), max_length=3, validators=[CURRENCY])
    rate = models.DecimalField(
        _("rate"),
        max_digits=RATE_MAX_DIGITS,
        decimal_places=RATE_DECIMAL_PLACES,
        validators=[MinValueValidator(Decimal("0.000000000001"))],
        help_text=_("One unit of the from currency in the reporting currency."),
    )
    source = models.CharField(_("source"), max_length=200)
    version = models.PositiveIntegerField(_("version"))
    supersedes = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("supersedes"),
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
        verbose_name = _("exchange rate")
        verbose_name_plural = _("exchange rates")
        ordering = ["group", "-day", "from_currency", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["group", "day", "from_currency", "to_currency", "version"],
                name="exchange_rate_version",
            ),
            models.CheckConstraint(condition=models.Q(rate__gt=0), name="exchange_rate_positive"),
            models.CheckConstraint(
                condition=~models.Q(from_currency=models.F("to_currency")),
                name="exchange_rate_two_currencies",
            ),
            models.CheckConstraint(
                condition=~models.Q(approved_by=models.F("proposed_by")),
                name="exchange_rate_four_eyes",
            ),
            models.CheckConstraint(
                condition=models.Q(status="proposed")
                | models.Q(approved_by__isnull=False, approved_at__isnull=False),
                name="exchange_rate_approved_signed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.from_currency}→{self.to_currency} {self.day} v{self.version}: {self.rate}"

    @property
    def pair(self) -> str:
        return f"{self.from_currency}→{self.to_currency}"
