"""Venues and who works at them."""

from __future__ import annotations

import zoneinfo
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.money import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS, Grouping


def game_choices() -> list[tuple[str, str]]:
    """The installed games (``casino.games.game_choices``), read when a form or check asks:
    the registry is filled when the apps are ready, after the models are defined."""
    from casino.games import game_choices as installed

    return installed()


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
        help_text=_(
            "The venue's chip unit: table limits are multiples of it, and a new ruleset version "
            "starts from it. Commissions and fees round to each version's own unit."
        ),
    )
    timezone = models.CharField(max_length=64, validators=[validate_time_zone])
    amount_grouping = models.CharField(
        max_length=8,
        # Each choice is shown as an amount written so, the same in every language.
        choices=[
            (Grouping.COMMA.value, "1,000,000.50"),
            (Grouping.DOT.value, "1.000.000,50"),
            (Grouping.SPACE.value, "1\u00a0000\u00a0000,50"),
        ],
        default=Grouping.COMMA.value,
        help_text=_(
            "How the venue writes amounts: the console shows them so and reads them so, "
            "as well as plain digits."
        ),
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default="en")
    staff = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="venues",
        help_text=_("Staff who work at this venue; their role comes from their group."),
    )

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.currency})"
