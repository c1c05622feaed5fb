"""The operating group's records in the admin, shown and never written there: the group,
its venues and roles are set up by a superuser through ``casino.group.services``, and its
rates are proposed and approved on the group's page (``casino.group.views``)."""

from __future__ import annotations

from django.contrib import admin

from casino.admin.base import ShowsOnly
from casino.group.models import ExchangeRate, GroupRole, GroupVenue, OperatingGroup


@admin.register(OperatingGroup)
class OperatingGroupAdmin(ShowsOnly, admin.ModelAdmin):
    list_display = ("code", "name", "reporting_currency", "timezone")


@admin.register(GroupVenue)
class GroupVenueAdmin(ShowsOnly, admin.ModelAdmin):
    list_display = ("group", "venue", "country")


@admin.register(GroupRole)
class GroupRoleAdmin(ShowsOnly, admin.ModelAdmin):
    list_display = ("group", "user", "role")
    list_filter = ("role",)


@admin.register(ExchangeRate)
class ExchangeRateAdmin(ShowsOnly, admin.ModelAdmin):
    list_display = (
        "day",
        "from_currency",
        "to_currency",
        "rate",
        "source",
        "version",
        "status",
        "proposed_by",
        "approved_by",
    )
    list_filter = ("status", "from_currency")
    date_hierarchy = "day"
