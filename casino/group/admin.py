"""The operating group's records in the admin. A superuser sets the group up here: the group,
its venues and its managers' and auditors' roles, each added through its service
(``casino.group.services``: the same checks and audit events as ``manage.py demo`` and the
tests); nothing is changed or deleted here (a venue stays in its group, a role is kept).
Its rates are proposed and approved on the group's page (``casino.group.views``)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from casino.admin.base import ShowsOnly
from casino.admin.writes import ParseOnlyModelForm, ServiceWrites
from casino.group.models import ExchangeRate, GroupRole, GroupVenue, OperatingGroup
from casino.group.services import group_create, group_role_grant, group_venue_add


class SetUpBySuperuser(ServiceWrites, ShowsOnly):
    """Added by a superuser, through ``write`` (the service, which says so too), and never
    changed or deleted in the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)


class OperatingGroupForm(ParseOnlyModelForm):
    class Meta:
        model = OperatingGroup
        fields = ["code", "name", "reporting_currency", "timezone"]


@admin.register(OperatingGroup)
class OperatingGroupAdmin(SetUpBySuperuser, admin.ModelAdmin):
    form = OperatingGroupForm
    list_display = ("code", "name", "reporting_currency", "timezone")

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Any:
        data = form.cleaned_data
        return group_create(
            user=request.user,
            code=data["code"],
            name=data["name"],
            reporting_currency=data["reporting_currency"],
            timezone_name=data["timezone"],
        )


class GroupVenueForm(ParseOnlyModelForm):
    class Meta:
        model = GroupVenue
        fields = ["group", "venue", "country"]


@admin.register(GroupVenue)
class GroupVenueAdmin(SetUpBySuperuser, admin.ModelAdmin):
    form = GroupVenueForm
    list_display = ("group", "venue", "country")

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Any:
        data = form.cleaned_data
        return group_venue_add(
            user=request.user, group=data["group"], venue=data["venue"], country=data["country"]
        )


class GroupRoleForm(ParseOnlyModelForm):
    class Meta:
        model = GroupRole
        fields = ["group", "user", "role"]


@admin.register(GroupRole)
class GroupRoleAdmin(SetUpBySuperuser, admin.ModelAdmin):
    form = GroupRoleForm
    list_display = ("group", "user", "role")
    list_filter = ("role",)

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Any:
        data = form.cleaned_data
        return group_role_grant(
            user=request.user, group=data["group"], member=data["user"], role=data["role"]
        )


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
