"""What every admin of the floor shares: rows of the user's venues only, read-only records,
and times on the venue's clocks."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.text import capfirst

from casino.kernel.amounts import amount_formfield, amounts_at, is_money_field
from casino.kernel.money import venue_chips, venue_money, written
from casino.kernel.timezones import local_time, zone, zone_name
from casino.staff.roles import venue_ids, venues_permitted
from casino.venues.models import Venue

#: The models besides the venue whose rows a form offers (by foreign key) only at the user's
#: venues, each by its ``venue``. Named by label, as a foreign key names another app's model:
#: the frame serves the venues' pages too, and the rulesets sit above the venues.
VENUE_OWNED = frozenset({"rulesets.Ruleset"})


def _in_zone(tz: zoneinfo.ZoneInfo | None) -> Any:
    """Times shown and read in ``tz`` (left as they are, UTC, for None)."""
    return timezone.override(tz) if tz is not None else nullcontext()


def _rendered(response: Any) -> Any:
    """The response rendered now, in the zone the view runs in (a ``TemplateResponse``
    renders after the view returns, when the zone is no longer set)."""
    if hasattr(response, "render") and not getattr(response, "is_rendered", True):
        response.render()
    return response


def _shared(zones: dict[int, zoneinfo.ZoneInfo]) -> zoneinfo.ZoneInfo | None:
    """The one zone of ``zones``; None if they are in several (or none)."""
    keys = {tz.key for tz in zones.values()}
    return zone(keys.pop()) if len(keys) == 1 else None


class AmountFields:
    """A model admin or an inline whose money fields (``casino.kernel.amounts.is_money_field``)
    are read by the one reader of amounts (``AmountField``), at the venue of the object
    shown (``amounts_venue``; plain digits on an add, before a venue is chosen)."""

    #: Fields whose amount is a multiple of the venue's chip unit (``Venue.rounding_unit``).
    chip_unit_fields: tuple[str, ...] = ()

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if is_money_field(db_field):
            return amount_formfield(db_field, **kwargs)
        return super().formfield_for_dbfield(db_field, request, **kwargs)  # type: ignore[misc]

    def amounts_venue(self, obj: Any) -> Venue | None:
        """The venue ``obj``'s amounts are read at: followed along ``venue_path``, each
        related object kept by Django's own cache of it on ``obj``, so the amounts of one
        object cost one read of its venue."""
        if obj is None or obj.pk is None:
            return None
        *steps, last = self.venue_path.split("__")  # type: ignore[attr-defined]
        for step in steps:
            obj = getattr(obj, step)
            if obj is None:
                return None
        return obj if last == "pk" else getattr(obj, last)

    def amounts_read_at(self, form_class: Any, obj: Any) -> Any:
        venue = self.amounts_venue(obj)
        units = (
            dict.fromkeys(self.chip_unit_fields, venue.rounding_unit) if venue is not None else {}
        )
        return amounts_at(form_class, venue, units=units)


class VenueScopedAdmin(AmountFields, admin.ModelAdmin):
    """Staff see only the rows of the venues where a role they hold has the permission
    (superusers see all): a manager at one venue and a dealer at another changes the first
    venue's tables and does not see the second's.

    ``venue_path`` is the lookup from the model to its venue; ``include_presets`` also
    shows rows without a venue (the shipped presets, read-only templates).

    Times are the venue's: an object's change (and view) page runs in its venue's time
    zone, so its times are shown and a time typed into its form is read on the venue's
    clocks, each time field labelled with the zone. A list runs in the zone the user's
    venues share; if they are in several zones, each row's times are written in its own
    venue's zone with the zone's name.
    """

    venue_path = "venue"
    include_presets = False
    #: Fields holding a count of chips or notes by denomination (``{"100000": 3}``), shown
    #: as the venue writes them, one line each (``casino.kernel.money.venue_chips``); True for a
    #: difference, written with its sign.
    chip_fields: dict[str, bool] = {}

    def venues_for(self, request: HttpRequest, *actions: str) -> frozenset[int]:
        """The venues where the user may take one of ``actions`` (view, add, change,
        delete) on this model: by a role held there, or at every venue they work at by a
        permission of their own account."""
        user = request.user
        venues: frozenset[int] = frozenset()
        own = user.get_user_permissions()
        for action in actions:
            codename = f"{action}_{self.opts.model_name}"
            if f"{self.opts.app_label}.{codename}" in own:
                return venue_ids(user)
            venues |= venues_permitted(user, self.opts.app_label, codename)
        return venues

    def venue_of(self, obj: Any) -> int | None:
        """The id of the venue ``obj`` belongs to (None for a preset)."""
        *steps, last = self.venue_path.split("__")
        for step in steps:
            obj = getattr(obj, step)
            if obj is None:
                return None
        return obj.pk if last == "pk" else getattr(obj, f"{last}_id")

    # -- amounts as the venue writes them ------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        # ``<field>_written``: a read-only money field shown as its venue writes amounts
        # (``render_change_form`` puts these names in place of the fields).
        if name.endswith(WRITTEN) and not name.startswith("_"):
            field = name[: -len(WRITTEN)]
            if field in self.chip_fields:
                return self._chips_written(field)
            if self._is_money(field):
                return self._written(field)
        raise AttributeError(name)

    def _is_money(self, name: str) -> bool:
        try:
            return is_money_field(self.opts.get_field(name))
        except FieldDoesNotExist:
            return False

    def _is_written(self, name: str) -> bool:
        """Whether a read-only field is shown as the venue writes it (``<name>_written``)."""
        return name in self.chip_fields or self._is_money(name)

    def _shown_as(self, name: str, shown: Callable[[Any], str | None]) -> Callable:
        """``shown`` as the read-only column ``<name>_written``, titled as the field is."""
        shown.__name__ = f"{name}{WRITTEN}"
        field = self.opts.get_field(name)
        return admin.display(description=capfirst(field.verbose_name))(shown)

    def _chips_written(self, name: str) -> Callable[[Any], str | None]:
        admin_ = self
        signed = self.chip_fields[name]

        def shown(obj: Any) -> str | None:
            chips = getattr(obj, name)
            if not chips:
                return None  # the admin's empty value
            venue = admin_.amounts_venue(obj)
            lines = venue_chips(chips, venue, signed=signed) if venue is not None else []
            if not lines:
                return str(chips)
            return format_html(
                '<ul class="chip-counts">{}</ul>',
                format_html_join("", "<li>{}</li>", ((line,) for line in lines)),
            )

        return self._shown_as(name, shown)

    def _written(self, name: str) -> Callable[[Any], str | None]:
        admin_ = self

        def shown(obj: Any) -> str | None:
            value = getattr(obj, name)
            if value is None:
                return None
            venue = admin_.amounts_venue(obj)
            return venue_money(value, venue) if venue is not None else written(value)

        return self._shown_as(name, shown)

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Any = None,
    ) -> Any:
        """The page, its read-only amounts written as the venue writes them (``1.000``),
        not as the bare field's ``1000.00``."""
        adminform = context.get("adminform")
        if adminform is not None and obj is not None:
            shown = {
                name: f"{name}{WRITTEN}"
                for name in adminform.readonly_fields
                if isinstance(name, str) and self._is_written(name)
            }
            if shown:
                adminform.readonly_fields = [shown.get(n, n) for n in adminform.readonly_fields]
                adminform.fieldsets = [
                    (title, {**options, "fields": _renamed(options["fields"], shown)})
                    for title, options in adminform.fieldsets
                ]
        return super().render_change_form(request, context, add, change, form_url, obj)

    # -- times on the venue's clocks -------------------------------------------------------

    def venue_zones(self, request: HttpRequest) -> dict[int, zoneinfo.ZoneInfo]:
        """The zone of each venue whose rows the user sees here."""
        venues = Venue.objects.all()
        if not request.user.is_superuser:
            venues = venues.filter(pk__in=self.venues_for(request, "view", "change"))
        return {pk: zone(name) for pk, name in venues.values_list("pk", "timezone")}

    def shared_zone(self, request: HttpRequest) -> zoneinfo.ZoneInfo | None:
        """The zone all the user's venues here share; None if they are in several (or none)."""
        return _shared(self.venue_zones(request))

    def zone_of(self, request: HttpRequest, obj: Any) -> zoneinfo.ZoneInfo | None:
        """The zone an object's times are read in: its venue's (None, so UTC, for a preset
        of no venue); for a new object the zone the user's venues share, if they share one."""
        if obj is None:
            return self.shared_zone(request)
        venue_id = self.venue_of(obj)
        if venue_id is None:
            return None
        name = Venue.objects.filter(pk=venue_id).values_list("timezone", flat=True).first()
        return zone(name) if name else None

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict | None = None,
    ) -> Any:
        obj = self.get_object(request, unquote(object_id)) if object_id else None
        with _in_zone(self.zone_of(request, obj)):
            return _rendered(super().changeform_view(request, object_id, form_url, extra_context))

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> Any:
        with _in_zone(self.shared_zone(request)):
            return _rendered(super().changelist_view(request, extra_context))

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs):
        """The form, each time field labelled with the zone it is shown and read in (the
        current one: ``changeform_view`` set it)."""
        tz = zone_name(timezone.get_current_timezone())
        labels = {
            field.name: f"{capfirst(field.verbose_name)} ({tz})"
            for field in self.opts.fields
            if isinstance(field, models.DateTimeField)
        }
        kwargs["labels"] = {**labels, **kwargs.get("labels", {})}
        # A read-only amount or chip count is shown under another name (``<name>_written``,
        # ``render_change_form``), which the admin finds no help text for: give it the
        # field's own.
        help_texts = {
            f"{field.name}{WRITTEN}": field.help_text
            for field in self.opts.fields
            if field.help_text and self._is_written(field.name)
        }
        kwargs["help_texts"] = {**help_texts, **kwargs.get("help_texts", {})}
        form_class = super().get_form(request, obj, change=change, **kwargs)
        return self.amounts_read_at(form_class, obj)

    def get_list_display(self, request: HttpRequest) -> Any:
        """The list's columns, a time field's written on its venue's clocks: the zone in
        the column's title when the user's venues share one, else on each row (and on a
        row of another zone, a preset's UTC)."""
        shown = super().get_list_display(request)
        if not any(self._is_time(name) for name in shown):
            return shown
        zones = self.venue_zones(request)
        shared = _shared(zones)
        return [
            self._time_column(name, zones, shared) if self._is_time(name) else name
            for name in shown
        ]

    def _is_time(self, name: Any) -> bool:
        if not isinstance(name, str):
            return False
        try:
            return isinstance(self.opts.get_field(name), models.DateTimeField)
        except FieldDoesNotExist:
            return False

    def _time_column(
        self, name: str, zones: dict[int, zoneinfo.ZoneInfo], shared: zoneinfo.ZoneInfo | None
    ) -> Callable[[Any], str | None]:
        field = self.opts.get_field(name)
        admin_ = self

        def column(obj: Any) -> str | None:
            value = getattr(obj, name)
            if value is None:
                return None  # the admin's empty value
            tz = zones.get(admin_.venue_of(obj)) or zone("UTC")  # a preset's: UTC
            return local_time(value, tz, labelled=tz != shared)

        column.__name__ = name
        title = capfirst(field.verbose_name)
        if shared is not None:
            title = f"{title} ({zone_name(shared)})"
        return admin.display(description=title, ordering=name)(column)

    def get_queryset(self, request: HttpRequest) -> Any:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        venues = self.venues_for(request, "view", "change")
        if not self.has_view_or_change_permission(request):
            # Nothing here is theirs to see: their venues' rows are found, and refused (403)
            # by the permission, as Django answers; another venue's are not found.
            venues = venue_ids(request.user)
        mine = Q(**{f"{self.venue_path}__in": venues})
        if self.include_presets:
            mine |= Q(**{f"{self.venue_path}__isnull": True})
        return queryset.filter(mine)

    def _at_permitted_venue(self, request: HttpRequest, obj: Any, action: str) -> bool:
        if obj is None or request.user.is_superuser:
            return True
        venue = self.venue_of(obj)
        return venue is None or venue in self.venues_for(request, action)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_change_permission(request, obj) and self._at_permitted_venue(
            request, obj, "change"
        )

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_delete_permission(request, obj) and self._at_permitted_venue(
            request, obj, "delete"
        )

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if request.user.is_superuser or field is None:
            return field
        venues = self.venues_for(request, "add", "change")
        if db_field.related_model is Venue:
            field.queryset = field.queryset.filter(pk__in=venues)
        elif db_field.related_model._meta.label in VENUE_OWNED:
            field.queryset = field.queryset.filter(venue__in=venues)
        return field


#: The end of the name a read-only amount is shown under (``VenueScopedAdmin.__getattr__``).
WRITTEN = "_written"


def _renamed(fields: Any, names: dict[str, str]) -> list[Any]:
    """A fieldset's fields (a line may be a tuple of fields) with ``names`` renamed."""
    return [
        tuple(names.get(n, n) for n in field)
        if isinstance(field, list | tuple)
        else names.get(field, field)
        for field in fields
    ]


def messages_of(error: ValidationError) -> list[str]:
    if hasattr(error, "error_dict"):
        return [m for errors in error.message_dict.values() for m in errors]
    return list(error.messages)


class ShowsOnly:
    """An admin that shows its rows and writes none (the services write them)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(ShowsOnly, VenueScopedAdmin):
    """The floor's records are written by the services only; the admin shows them."""


def money_column(
    model: type[models.Model], field: str, venue_path: str, *, signed: bool = True
) -> Callable[[Any], str | None]:
    """A list column of an amount as its venue writes it (its currency's decimals, its
    grouping: ``1.500.000``), not a bare field's ``1500000.00``; a gain or a loss
    (``signed``) with its sign; sorted by the field."""

    def column(obj: Any) -> str | None:
        amount = getattr(obj, field)
        if amount is None:
            return None  # the admin's empty value
        venue = obj  # a venue's own amount: no path
        for step in filter(None, venue_path.split("__")):
            venue = getattr(venue, step)
        return venue_money(amount, venue, signed=signed)

    column.__name__ = f"{field}_shown"
    description = model._meta.get_field(field).verbose_name
    return admin.display(description=description, ordering=field)(column)
