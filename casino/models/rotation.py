"""Dealer rotation: who dealt at a table session, and when.

A session opens with one dealer's spell; a supervisor records a relief at the open table
(``casino.services.rotation``): the spell on duty ends and the incoming dealer's begins at
the same instant. The dealer on duty is the session's open spell, and
``TableSession.dealer`` keeps the same person (the last one once the table is closed), so
a round takes its dealer from the session row it locks without another query.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.models.floor import TableSession


class DealerSpell(models.Model):
    """One dealer on duty at a table session, from ``started_at`` until ``ended_at``
    (empty while on duty), and why the spell ended."""

    class End(models.TextChoices):
        BREAK = "break", _("Break")
        RELIEF = "relief", _("Relieved to another table")
        END = "end", _("Table closed")

    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="spells")
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
