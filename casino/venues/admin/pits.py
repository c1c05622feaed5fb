"""Pits (written through ``casino.venues.services.pits``) and the scheduled changes of limits
(read-only here: they are scheduled on the pit's floor view, ``casino.floor.services.limits``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from casino.admin.base import ReadOnlyAdmin, VenueScopedAdmin, money_column
from casino.admin.writes import ParseOnlyModelForm, ServiceWrites
from casino.staff.models import StaffRole
from casino.staff.roles import SUPERVISE
from casino.venues.models import Pit, Table, TableLimitChange
from casino.venues.services.pits import pit_create, pit_update


class PitForm(ParseOnlyModelForm):
    tables = forms.ModelMultipleChoiceField(
        label=_("Tables"),
        queryset=Table.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The venue's tables in this pit; a table stands in one pit at most."),
    )

    class Meta:
        model = Pit
        fields = ["venue", "code", "name", "supervisors"]
        widgets = {"supervisors": forms.CheckboxSelectMultiple}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["tables"] = list(self.instance.tables.values_list("pk", flat=True))


@admin.register(Pit)
class PitAdmin(ServiceWrites, VenueScopedAdmin):
    """A venue's pits, their tables and the supervisors who run each (a manager's)."""

    form = PitForm
    list_display = ["__str__", "name", "venue"]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["venue"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is not None and not self.has_change_permission(request, obj):
            return ["venue", "code", "name", "supervisors", "table_list"]
        return ["venue", "code", "name", "supervisors", "tables"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [] if obj is None else ["venue", "code", "table_list"]

    @admin.display(description=_("Tables"))
    def table_list(self, pit: Pit) -> str:
        return ", ".join(pit.tables.order_by("code").values_list("code", flat=True)) or "-"

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs):
        form_class = super().get_form(request, obj, change=change, **kwargs)
        venues = (
            [obj.venue_id] if obj is not None else list(self.venues_for(request, "add", "change"))
        )
        if request.user.is_superuser and obj is None:
            tables, people = Table.objects.all(), get_user_model().objects.filter(is_active=True)
        else:
            tables = Table.objects.filter(venue_id__in=venues)
            people = get_user_model().objects.filter(
                pk__in=StaffRole.objects.filter(venue_id__in=venues, role__in=SUPERVISE).values(
                    "user_id"
                )
            )
        if "tables" in form_class.base_fields:
            form_class.base_fields["tables"].queryset = tables.select_related("venue")
        if "supervisors" in form_class.base_fields:
            form_class.base_fields["supervisors"].queryset = people.order_by("username")
        return form_class

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Pit:
        data = form.cleaned_data
        if not change:
            return pit_create(
                user=request.user,
                venue=data["venue"],
                code=data["code"],
                name=data["name"],
                supervisors=data.get("supervisors") or [],
                tables=data.get("tables") or [],
            )
        return pit_update(
            user=request.user,
            pit=form.instance,
            name=data["name"] if "name" in form.changed_data else None,
            supervisors=data["supervisors"] if "supervisors" in form.changed_data else None,
            tables=data["tables"] if "tables" in form.changed_data else None,
        )


@admin.register(TableLimitChange)
class TableLimitChangeAdmin(ReadOnlyAdmin):
    """Scheduled changes of a table's limits (scheduled on the pit's floor view)."""

    venue_path = "table__venue"
    list_display = [
        "table",
        "bet_type",
        money_column(TableLimitChange, "min_stake", "table__venue", signed=False),
        money_column(TableLimitChange, "max_stake", "table__venue", signed=False),
        "effective_at",
        "requested_by",
        "reason",
    ]
    list_filter = [("table__venue", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["table__venue", "requested_by"]
