"""The game-agnostic floor: venues, rulesets and their versions, the audit trail."""

from __future__ import annotations

import zoneinfo
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.money import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS

GAME_CHOICES = [("niuniu", _("Niu Niu")), ("maubinh", _("Mau Binh"))]


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("'%(value)s' is not a time zone; use an IANA name such as Asia/Ho_Chi_Minh."),
            params={"value": value},
        )


class Venue(models.Model):
    code = models.SlugField(max_length=32, unique=True)
    name = models.CharField(max_length=120)
    currency = models.CharField(
        max_length=3,
        validators=[RegexValidator(r"^[A-Z]{3}$", _("Use the three-letter ISO code, e.g. VND."))],
        help_text=_("ISO 4217 code, e.g. VND, KRW, MOP."),
    )
    rounding_unit = models.DecimalField(
        max_digits=MONEY_MAX_DIGITS,
        decimal_places=MONEY_DECIMAL_PLACES,
        validators=[MinValueValidator(Decimal("0.01"))],
        help_text=_("Commission is rounded up to this unit; stakes must be multiples of it."),
    )
    timezone = models.CharField(max_length=64, validators=[validate_time_zone])
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default="en")

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.currency})"


class Ruleset(models.Model):
    """A venue's named ruleset for one game; its rules live in numbered versions.

    A ruleset without a venue is a shipped preset, the template venues copy from.
    """

    venue = models.ForeignKey(
        Venue, null=True, blank=True, on_delete=models.PROTECT, related_name="rulesets"
    )
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    code = models.SlugField(max_length=40)
    name = models.CharField(max_length=120)

    class Meta:
        ordering = ["venue__code", "game", "code"]
        constraints = [
            models.UniqueConstraint(
                fields=["venue", "game", "code"], name="ruleset_unique_code_per_venue"
            ),
            models.UniqueConstraint(
                fields=["game", "code"],
                condition=models.Q(venue__isnull=True),
                name="ruleset_unique_preset_code",
            ),
        ]

    def __str__(self) -> str:
        where = self.venue.code if self.venue_id else _("preset")
        return f"{self.name} [{self.code} @ {where}]"


class VersionStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    APPROVED = "approved", _("Approved")
    ACTIVE = "active", _("Active")
    RETIRED = "retired", _("Retired")


class RulesetVersion(models.Model):
    """The versioning and approval shared by every game's ruleset versions.

    draft -> approved -> active -> retired. Only a draft can be edited; the approver must
    be someone other than the draft's last editor. A game's concrete version model adds
    its rules (paytable rows, switches) and tells ``casino.services.rulesets`` how to
    clone and validate them.
    """

    ruleset = models.ForeignKey(
        Ruleset, on_delete=models.PROTECT, related_name="%(app_label)s_versions"
    )
    number = models.PositiveIntegerField(editable=False)
    status = models.CharField(
        max_length=16, choices=VersionStatus.choices, default=VersionStatus.DRAFT, editable=False
    )
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
    )
    last_edited_at = models.DateTimeField(null=True, editable=False)
    last_edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
    )
    approved_at = models.DateTimeField(null=True, editable=False)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
    )
    activated_at = models.DateTimeField(null=True, editable=False)
    activated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
    )
    effective_from = models.DateTimeField(null=True, editable=False)
    retired_at = models.DateTimeField(null=True, editable=False)
    cloned_from = models.ForeignKey(
        "self", null=True, on_delete=models.PROTECT, related_name="+", editable=False
    )

    class Meta:
        abstract = True
        ordering = ["ruleset", "-number"]

    def __str__(self) -> str:
        return f"{self.ruleset} v{self.number} ({self.get_status_display()})"

    @property
    def is_editable(self) -> bool:
        return self.status == VersionStatus.DRAFT


class AuditEvent(models.Model):
    """Who did what to which object, with the state before and after. Never edited."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    venue = models.ForeignKey(
        Venue, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    action = models.CharField(max_length=64, db_index=True)
    object_type = models.CharField(max_length=64)
    object_id = models.CharField(max_length=64)
    summary = models.CharField(max_length=255, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["object_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type}#{self.object_id}"
