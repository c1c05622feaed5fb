"""What every admin of the floor shares: rows of the user's venues only, read-only records."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import HttpRequest

from casino.models import Ruleset, Venue
from casino.roles import venue_ids, venues_permitted


class VenueScopedAdmin(admin.ModelAdmin):
    """Staff see only the rows of the venues where a role they hold has the permission
    (superusers see all): a manager at one venue and a dealer at another changes the first
    venue's tables and does not see the second's.

    ``venue_path`` is the lookup from the model to its venue; ``include_presets`` also
    shows rows without a venue (the shipped presets, read-only templates).
    """

    venue_path = "venue"
    include_presets = False

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
        elif db_field.related_model is Ruleset:
            field.queryset = field.queryset.filter(venue__in=venues)
        return field


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
