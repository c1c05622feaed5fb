"""A venue: its currency and grouping, time zone, language, gaming day and thresholds."""

from __future__ import annotations

import zoneinfo
from datetime import time
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.kernel.money import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS, Grouping
from casino.kernel.timezones import database_knows_zone
from casino.venues.jurisdictions import jurisdiction_choices

#: How long a login lasts, in hours, by venue (``Venue.session_hours``): a shift, not the
#: two weeks of Django's default, on terminals that dealers share.
DEFAULT_SESSION_HOURS = 12
MIN_SESSION_HOURS, MAX_SESSION_HOURS = 1, 24
#: When a venue's gaming day starts, in venue time, unless it sets its own
#: (``Venue.gaming_day_starts``).
DEFAULT_GAMING_DAY_STARTS = time(6, 0)


def game_choices() -> list[tuple[str, str]]:
    """The installed games (``casino.kernel.registry.game_choices``), read when a form or
    check asks: the registry is filled when the apps are ready, after the models are
    defined."""
    from casino.kernel.registry import game_choices as installed

    return installed()


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("'%(value)s' is not a time zone; use an IANA name such as Asia/Ho_Chi_Minh."),
            params={"value": value},
        )
    # Settlements bucket rounds by the venue's local hour in the database: a zone newer
    # than the database's time zone data would make every settlement fail.
    if not database_knows_zone(value):
        raise ValidationError(
            _(
                "The database does not know the time zone '%(value)s' (its time zone data "
                "is older): update the database server's time zone data, or use the zone's "
                "older IANA name."
            ),
            params={"value": value},
        )


class Venue(models.Model):
    class GroupPlayerData(models.TextChoices):
        """What of its members a venue's site sends the group (casino.ops.sites)."""

        PSEUDONYMISED = "pseudonymised", _("Pseudonymised: the group key only")
        IDENTIFIED = "identified", _("Identified: name, date of birth and document too")

    code = models.SlugField(max_length=32, unique=True, verbose_name=_("code"))
    name = models.CharField(max_length=120, verbose_name=_("name"))
    currency = models.CharField(
        max_length=3,
        validators=[RegexValidator(r"^[A-Z]{3}$", _("Use the three-letter ISO code, e.g. VND."))],
        help_text=_("ISO 4217 code, e.g. VND, KRW, MOP."),
        verbose_name=_("currency"),
    )
    rounding_unit = models.DecimalField(
        max_digits=MONEY_MAX_DIGITS,
        decimal_places=MONEY_DECIMAL_PLACES,
        validators=[MinValueValidator(Decimal("0.01"))],
        help_text=_(
            "The venue's chip unit: table limits are multiples of it, and a new ruleset version "
            "starts from it. Commissions and fees round to each version's own unit."
        ),
        verbose_name=_("rounding unit"),
    )
    variance_reason_over = models.DecimalField(
        _("variance accepted without a reason"),
        max_digits=MONEY_MAX_DIGITS,
        decimal_places=MONEY_DECIMAL_PLACES,
        default=Decimal(0),
        validators=[MinValueValidator(Decimal(0))],
        help_text=_(
            "A table closes with a count off the ledger by more than this only with a reason "
            "for the variance; 0: every variance needs one."
        ),
    )
    timezone = models.CharField(
        max_length=64, validators=[validate_time_zone], verbose_name=_("time zone")
    )
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
        verbose_name=_("amount grouping"),
    )
    language = models.CharField(
        max_length=8, choices=settings.LANGUAGES, default="en", verbose_name=_("language")
    )
    session_hours = models.PositiveSmallIntegerField(
        _("login session (hours)"),
        default=DEFAULT_SESSION_HOURS,
        validators=[
            MinValueValidator(MIN_SESSION_HOURS),
            MaxValueValidator(MAX_SESSION_HOURS),
        ],
        help_text=_(
            "How long a login lasts on this venue's screens, from 1 to 24 hours; the "
            "console also locks itself after a few idle minutes."
        ),
    )
    drop_each_close = models.BooleanField(
        _("a drop box per session"),
        default=False,
        help_text=_(
            "On: each table session has its own drop box, taken at its close. Off: one drop "
            "box per table and gaming day."
        ),
    )
    note_denominations = models.JSONField(
        _("bank note denominations"),
        default=list,
        blank=True,
        help_text=_(
            'The bank notes the count counts, as text, largest first, e.g. ["500000", "200000"].'
        ),
    )
    gaming_day_starts = models.TimeField(
        _("gaming day starts"),
        default=DEFAULT_GAMING_DAY_STARTS,
        help_text=_(
            "The time of day, in the venue's time zone, when its gaming day starts; it "
            "changes only while all of its tables are closed."
        ),
    )
    shift_plan = models.JSONField(
        _("shifts"),
        default=list,
        blank=True,
        help_text=_(
            "The gaming day's shifts in order, each a name and the time it starts; the first "
            "starts when the gaming day starts, each ends when the next starts. None: one "
            'shift named "day" for the whole gaming day.'
        ),
    )
    group_player_data = models.CharField(
        _("members' data sent to the group"),
        max_length=16,
        choices=GroupPlayerData.choices,
        default=GroupPlayerData.PSEUDONYMISED,
        db_default=GroupPlayerData.PSEUDONYMISED.value,
        help_text=_(
            "What leaves the site for the group's reporting database about this venue's "
            "members. Pseudonymised: the group key only, no name, date of birth or document. "
            "Identified: the name, date of birth and identity document too, where the "
            "group's jurisdiction allows it. Every venue of a site says the same; a change "
            "applies once the site is published again (manage.py site_setup)."
        ),
    )
    jurisdiction = models.CharField(
        _("jurisdiction"),
        max_length=8,
        choices=jurisdiction_choices,
        blank=True,
        default="",
        db_default="",
        help_text=_(
            "Whose anti-money-laundering law the venue follows: its cash thresholds are "
            "proposed from that law's figures, and a reporting threshold above the law's is "
            "refused (docs/compliance/). Empty: none chosen."
        ),
    )
    staff = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="venues",
        help_text=_(
            "Staff who work at this venue; the roles they hold here are given on their user "
            "page (roles at venues)."
        ),
        verbose_name=_("staff"),
    )

    class Meta:
        db_table = "casino_venue"
        verbose_name = _("venue")
        verbose_name_plural = _("venues")
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(
                    session_hours__gte=MIN_SESSION_HOURS, session_hours__lte=MAX_SESSION_HOURS
                ),
                name="venue_session_hours_bounded",
            ),
            models.CheckConstraint(
                condition=models.Q(variance_reason_over__gte=0),
                name="venue_variance_reason_over_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(group_player_data__in=["pseudonymised", "identified"]),
                name="venue_group_player_data_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.currency})"
