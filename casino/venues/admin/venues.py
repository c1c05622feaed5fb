"""Venues: every save is a call of the service the API calls (``casino.admin.writes``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from casino.admin.base import VenueScopedAdmin, money_column
from casino.admin.writes import (
    ParseOnlyModelForm,
    ServiceWrites,
)
from casino.kernel.amounts import model_formfield
from casino.kernel.errors import ServiceError
from casino.staff.services import venue_staff_set
from casino.venues.models import Venue
from casino.venues.services.gaming_days import gaming_day_set
from casino.venues.services.venues import EDITABLE as VENUE_FIELDS
from casino.venues.services.venues import SUPERUSER_FIELDS, venue_create, venue_update


def shifts_written(plan: list[dict[str, str]]) -> str:
    """A venue's shifts as the form shows them: one a line, its start time then its name."""
    return "\n".join(f"{shift['starts']} {shift['name']}" for shift in plan)


def shifts_read(text: str) -> list[dict[str, str]]:
    """The form's lines as the service takes them: ``06:00 Ca sáng`` -> its start and name;
    the service says what is wrong with a line."""
    shifts = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        starts, _space, name = line.partition(" ")
        shifts.append({"starts": starts, "name": name.strip()})
    return shifts


class VenueForm(ParseOnlyModelForm):
    # Named as the model's field (which it edits as lines): ``Venue.shifts`` is its Shift rows.
    shift_plan = forms.CharField(
        label=_("Shifts"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "One shift a line, in order: the time it starts (HH:MM) and its name, e.g. "
            '"06:00 Morning". The first starts when the gaming day starts; each ends when '
            "the next starts, the last when the next gaming day starts. Empty: one shift "
            'named "day". A change applies from the next gaming day.'
        ),
    )

    class Meta:
        model = Venue
        fields = "__all__"
        formfield_callback = model_formfield

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "shift_plan" in self.fields:
            self.initial["shift_plan"] = shifts_written(self.instance.shift_plan or [])


@admin.register(Venue)
class VenueAdmin(ServiceWrites, VenueScopedAdmin):
    """Set up by a superuser (``venue_create``), changed by its managers (``venue_update``:
    its currency, time zone and rounding unit only while all of its tables are closed; its
    gaming day and shifts by ``gaming_day_set``); who works there, and what it sends the
    group of its members, and whose law it follows (``jurisdiction``), are set by a superuser
    (``venue_staff_set``, ``venue_update``); every change is audited by its service."""

    form = VenueForm
    venue_path = "pk"
    list_display = [
        "code",
        "name",
        "currency",
        money_column(Venue, "rounding_unit", "", signed=False),
        "timezone",
        "gaming_day_starts",
        "language",
        "jurisdiction",
    ]
    search_fields = ["code", "name"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_fields(request, obj)
        if self.has_change_permission(request, obj):
            return fields
        return ["shifts_planned" if name == "shift_plan" else name for name in fields]

    @admin.display(description=_("Shifts"))
    def shifts_planned(self, venue: Venue) -> Any:
        return format_html_join(
            mark_safe("<br>"),
            "{} {}",
            ((shift["starts"], shift["name"]) for shift in venue.shift_plan or []),
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Who works at a venue is given by a superuser: the choices would list every
        # account of every venue, and a manager could take on anyone's. What the venue sends
        # the group of its members too: the group's jurisdiction decides, not one venue's
        # manager (``venue_update``); the manager sees it. Whose law the venue follows too:
        # it caps the cash thresholds the managers propose.
        fields = super().get_readonly_fields(request, obj)
        if request.user.is_superuser:
            return fields
        return [*fields, "staff", *SUPERUSER_FIELDS]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a venue keeps its tables, players and history

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Venue:
        data = form.cleaned_data
        if not change:
            venue = venue_create(user=request.user, **{name: data[name] for name in VENUE_FIELDS})
        else:
            changes = {name: data[name] for name in VENUE_FIELDS if name in form.changed_data}
            venue = form.instance
            if changes:
                venue = venue_update(venue=venue, user=request.user, **changes)
        if "gaming_day_starts" in form.changed_data or "shift_plan" in form.changed_data:
            try:
                venue = gaming_day_set(
                    venue=venue,
                    user=request.user,
                    gaming_day_starts=data["gaming_day_starts"],
                    shifts=shifts_read(data.get("shift_plan") or ""),
                )
            except ServiceError as error:
                if error.field and error.field.startswith("shifts"):
                    error.field = "shift_plan" + error.field[len("shifts") :]
                raise
        if "staff" in form.fields and (not change or "staff" in form.changed_data):
            venue_staff_set(venue=venue, user=request.user, staff=data["staff"])
        return venue
