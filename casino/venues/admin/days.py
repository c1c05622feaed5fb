"""Shifts and gaming days, written by the services only: the admin shows them."""

from __future__ import annotations

from django.contrib import admin

from casino.admin.base import ReadOnlyAdmin
from casino.venues.models import GamingDay, Shift


@admin.register(Shift)
class ShiftAdmin(ReadOnlyAdmin):
    list_display = ["venue", "gaming_date", "name", "starts_at", "ends_at"]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter)]


@admin.register(GamingDay)
class GamingDayAdmin(ReadOnlyAdmin):
    """The gaming days made, each with the shift plan it began with (never changed)."""

    list_display = ["venue", "gaming_date", "starts_at", "ends_at"]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter)]
