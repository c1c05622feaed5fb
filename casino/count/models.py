"""Drop boxes and the count: what the count team finds in each box, and the gaming day's
count (``casino.count.services``).

The tables keep the names they had when these models lived in the ``casino`` app
(``Meta.db_table``): the move changed no row.

A table has one drop box per gaming day, or one per session where the venue drops at each
close (``Venue.drop_each_close``). Two counters count each box by denomination; the second
count is the verification count, and the box's drop is posted from it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.floor.models.sessions import TableSession
from casino.kernel.fields import money_field
from casino.venues.models import Table, Venue


class DropBox(models.Model):
    """A table's drop box for a gaming day (or for one session): in use at the table, then
    removed to the count room (its first count), then counted (its second count, posted)."""

    class Status(models.TextChoices):
        IN_USE = "in_use", _("In use")
        REMOVED = "removed", _("Removed")
        COUNTED = "counted", _("Counted")

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="drop_boxes")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="drop_boxes")
    gaming_date = models.DateField()
    #: The box's number among the table's boxes of its gaming day, from 1.
    number = models.PositiveSmallIntegerField()
    per_session = models.BooleanField(
        default=False, help_text=_("A box of one session (the venue drops at each close).")
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_USE)
    created_at = models.DateTimeField()
    counted_at = models.DateTimeField(null=True, blank=True)
    total = money_field(null=True, blank=True, help_text=_("What the count posted."))

    class Meta:
        db_table = "casino_dropbox"
        ordering = ["venue", "gaming_date", "table__code", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "gaming_date", "number"], name="drop_box_number"
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """The box's label as the screens show it: ``NN-1 2026-12-01 #1``."""
        return f"{self.table.code} {self.gaming_date:%Y-%m-%d} #{self.number}"


class DropBoxSession(models.Model):
    """A session whose drop went into the box (each session into one box)."""

    box = models.ForeignKey(DropBox, on_delete=models.PROTECT, related_name="box_sessions")
    session = models.OneToOneField(
        TableSession, on_delete=models.PROTECT, related_name="drop_box_link"
    )

    class Meta:
        db_table = "casino_dropboxsession"

    def __str__(self) -> str:
        return f"session {self.session_id} in box {self.box_id}"


class BoxCount(models.Model):
    """One counter's count of a box: bank notes, chips and other instruments.

    ``notes`` and ``chips`` map a denomination (text) to a number of pieces; ``others`` is
    a list of ``{"what": ..., "amount": ...}``. The second count carries its difference
    from the first (second - first) and, when they differ, the reason.
    """

    box = models.ForeignKey(DropBox, on_delete=models.PROTECT, related_name="counts")
    ordinal = models.PositiveSmallIntegerField(help_text=_("1: the first count, 2: the second."))
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    counted_at = models.DateTimeField()
    notes = models.JSONField(default=dict, blank=True)
    chips = models.JSONField(default=dict, blank=True)
    others = models.JSONField(default=list, blank=True)
    total = money_field()
    difference = money_field(null=True, blank=True)
    reason = models.CharField(max_length=1000, blank=True)

    class Meta:
        db_table = "casino_boxcount"
        ordering = ["box", "ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["box", "ordinal"], name="box_count_once"),
            models.CheckConstraint(
                condition=models.Q(ordinal__in=[1, 2]), name="box_count_first_or_second"
            ),
            models.CheckConstraint(condition=models.Q(total__gte=0), name="box_count_not_negative"),
        ]

    def __str__(self) -> str:
        return f"count {self.ordinal} of box {self.box_id}: {self.total}"


class CountDay(models.Model):
    """A venue's count of a gaming day: open while boxes are counted, closed once all are."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="count_days")
    gaming_date = models.DateField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "casino_countday"
        ordering = ["venue", "-gaming_date"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "gaming_date"], name="count_day_once"),
        ]

    def __str__(self) -> str:
        return f"count of {self.venue.code} {self.gaming_date:%Y-%m-%d} ({self.status})"
