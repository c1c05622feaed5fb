"""Rulesets and the versioning every game's ruleset versions share."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.kernel.money import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS, Rounding
from casino.venues.models import Venue, game_choices


class Ruleset(models.Model):
    """A venue's named ruleset for one game; its rules live in numbered versions.

    A ruleset without a venue is a shipped preset, the template venues copy from.
    """

    venue = models.ForeignKey(
        Venue,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rulesets",
        verbose_name=_("venue"),
    )
    game = models.CharField(max_length=16, choices=game_choices, verbose_name=_("game"))
    code = models.SlugField(max_length=40, verbose_name=_("code"))
    name = models.CharField(max_length=120, verbose_name=_("name"))

    class Meta:
        db_table = "casino_ruleset"  # its name before the rulesets had their own app
        verbose_name = _("ruleset")
        verbose_name_plural = _("rulesets")
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


class RoundingMode(models.TextChoices):
    """How a version rounds a commission or fee to its unit (``casino.kernel.money.Rounding``)."""

    UP = Rounding.UP.value, _("Up to the unit (in the house's favour)")
    HALF_UP = Rounding.HALF_UP.value, _("To the nearest unit, a half up")
    DOWN = Rounding.DOWN.value, _("Down to the unit (in the player's favour)")
    NONE = Rounding.NONE.value, _("Not to a unit: to the cent")


#: The money rules every game's version carries besides its own (copied by a clone, shown in
#: the audit trail, part of what is approved).
ROUNDING_FIELDS = ("rounding_unit", "rounding_mode")


class RulesetVersion(models.Model):
    """The versioning and approval shared by every game's ruleset versions.

    draft -> approved -> active -> retired. Only a draft can be edited; the approver must be
    none of the people who made or edited the draft, and approves the rules they were shown
    (their fingerprint is recorded). A game's concrete version model adds
    its rules (paytable rows, switches); the game's adapter (``casino.games``) tells
    ``casino.rulesets.services`` how to clone, describe and validate them.
    """

    ruleset = models.ForeignKey(
        Ruleset,
        on_delete=models.PROTECT,
        related_name="%(app_label)s_versions",
        verbose_name=_("ruleset"),
    )
    number = models.PositiveIntegerField(editable=False, verbose_name=_("number"))
    status = models.CharField(
        max_length=16,
        choices=VersionStatus.choices,
        default=VersionStatus.DRAFT,
        editable=False,
        verbose_name=_("status"),
    )
    notes = models.TextField(blank=True, verbose_name=_("notes"))
    # The rounding is a rule of the version like any paytable cell, not a venue setting: a
    # round settles, and is shown, as its version says, whatever the venue changes later.
    rounding_unit = models.DecimalField(
        _("rounding unit"),
        max_digits=MONEY_MAX_DIGITS,
        decimal_places=MONEY_DECIMAL_PLACES,
        validators=[
            MinValueValidator(
                Decimal("0.01"),
                _(
                    "The rounding unit is an amount above 0 with at most 2 decimals, e.g. 1000 "
                    "or 0.10."
                ),
            )
        ],
        help_text=_(
            "Commissions and fees are rounded to a multiple of this amount, and every stake "
            "must be one. A new draft starts from the venue's chip unit."
        ),
    )
    rounding_mode = models.CharField(
        _("rounding mode"),
        max_length=8,
        choices=RoundingMode.choices,
        default=RoundingMode.UP,
        help_text=_("How a commission or fee is rounded to the unit; the rule sheets round up."),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
        verbose_name=_("created by"),
    )
    last_edited_at = models.DateTimeField(
        null=True, editable=False, verbose_name=_("last edited at")
    )
    last_edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
        verbose_name=_("last edited by"),
    )
    approved_at = models.DateTimeField(null=True, editable=False, verbose_name=_("approved at"))
    approved_content_hash = models.CharField(
        max_length=64,
        blank=True,
        editable=False,
        help_text=_(
            "The fingerprint (SHA-256) of the rules the approver was shown; the approval "
            "is refused when the draft changed since."
        ),
        verbose_name=_("approved content fingerprint"),
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
        verbose_name=_("approved by"),
    )
    activated_at = models.DateTimeField(null=True, editable=False, verbose_name=_("activated at"))
    activated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
        verbose_name=_("activated by"),
    )
    effective_from = models.DateTimeField(
        null=True, editable=False, verbose_name=_("effective from")
    )
    retired_at = models.DateTimeField(null=True, editable=False, verbose_name=_("retired at"))
    figures = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text=_(
            "The game's figures for this version's rules (house edge per bet type, ...), "
            "stored when it is approved; reports take the theoretical win from them."
        ),
        verbose_name=_("figures"),
    )
    cloned_from = models.ForeignKey(
        "self",
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
        verbose_name=_("cloned from"),
    )

    class Meta:
        abstract = True
        ordering = ["ruleset", "-number"]

    def __str__(self) -> str:
        return f"{self.ruleset} v{self.number} ({self.get_status_display()})"

    @property
    def is_editable(self) -> bool:
        return self.status == VersionStatus.DRAFT

    def house_edge(self, bet_type: str) -> Decimal | None:
        """The house edge of one bet type per unit staked, from the stored figures."""
        edges = (self.figures or {}).get("house_edge", {})
        value = edges.get(bet_type)
        return Decimal(value) if value is not None else None
