"""A venue's gaming days and their shifts, and dealer rotation: who dealt at a table
session, and when. A session opens with one dealer's spell; a supervisor records a relief
at the open table (``casino.floor.services.rotation``): the spell on duty ends and the incoming
dealer's begins at the same instant. The dealer on duty is the session's open spell, and
``TableSession.dealer`` keeps the same person (the last one once the table is closed), so a
round takes its dealer from the session row it locks without another query."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.venues.models.venues import Venue


class Shift(models.Model):
    """A named part of a gaming date at a venue, e.g. the night shift of 2026-11-29."""

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="shifts", verbose_name=_("venue")
    )
    gaming_date = models.DateField(verbose_name=_("gaming date"))
    name = models.CharField(max_length=32, verbose_name=_("name"))
    starts_at = models.DateTimeField(verbose_name=_("starts at"))
    ends_at = models.DateTimeField(verbose_name=_("ends at"))

    class Meta:
        db_table = "casino_shift"
        verbose_name = _("shift")
        verbose_name_plural = _("shifts")
        ordering = ["venue__code", "-starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "gaming_date", "name"], name="shift_unique"),
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")), name="shift_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.venue.code} {self.gaming_date} {self.name}"


class GamingDay(models.Model):
    """A venue's gaming date as it began: its instants and the shift plan it keeps.

    Made with the first shift of the day (``casino.venues.services.gaming_days``); the plan is a
    copy of the venue's when the day began, so a later change of plan applies from the
    next gaming day and the day's later shifts follow the plan its first one did.
    """

    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="gaming_days", verbose_name=_("venue")
    )
    gaming_date = models.DateField(verbose_name=_("gaming date"))
    starts_at = models.DateTimeField(verbose_name=_("starts at"))
    ends_at = models.DateTimeField(verbose_name=_("ends at"))
    shift_plan = models.JSONField(
        default=list,
        help_text=_("The shifts of the day: a name and the time it starts."),
        verbose_name=_("shift plan"),
    )

    class Meta:
        db_table = "casino_gamingday"
        verbose_name = _("gaming day")
        verbose_name_plural = _("gaming days")
        ordering = ["venue__code", "-starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "gaming_date"], name="gaming_day_unique"),
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="gaming_day_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.venue.code} {self.gaming_date}"


class DealerSpell(models.Model):
    """One dealer on duty at a table session, from ``started_at`` until ``ended_at``
    (empty while on duty), and why the spell ended."""

    class End(models.TextChoices):
        BREAK = "break", _("Break")
        RELIEF = "relief", _("Relieved to another table")
        END = "end", _("Table closed")

    session = models.ForeignKey(
        "floor.TableSession", on_delete=models.PROTECT, related_name="spells"
    )
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_reason = models.CharField(max_length=16, choices=End.choices, blank=True)
    #: Who recorded the start of the spell: the opener at opening, the supervisor at a relief.
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    #: The supervisor who recorded the spell's end (empty while on duty and at a close).
    relieved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        db_table = "casino_dealerspell"
        ordering = ["session", "started_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["session"],
                condition=models.Q(ended_at__isnull=True),
                name="one_dealer_on_duty_per_session",
            ),
            models.CheckConstraint(
                condition=models.Q(ended_at__isnull=True)
                | models.Q(ended_at__gte=models.F("started_at")),
                name="dealer_spell_ends_after_start",
            ),
        ]
        indexes = [models.Index(fields=["dealer", "ended_at"])]

    def __str__(self) -> str:
        return f"{self.dealer} at session {self.session_id} from {self.started_at:%H:%M}"
