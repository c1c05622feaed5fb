"""What every admin of the floor shares: rows of the user's venues only, read-only records."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import HttpRequest

from casino.models import Ruleset, Venue
from casino.roles import venue_ids


class VenueScopedAdmin(admin.ModelAdmin):
    """Staff see only the rows of the venues they work at (superusers see all).

    ``venue_path`` is the lookup from the model to its venue; ``include_presets`` also
    shows rows without a venue (the shipped presets, read-only templates).
    """

    venue_path = "venue"
    include_presets = False

    def get_queryset(self, request: HttpRequest) -> Any:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        mine = Q(**{f"{self.venue_path}__in": venue_ids(request.user)})
        if self.include_presets:
            mine |= Q(**{f"{self.venue_path}__isnull": True})
        return queryset.filter(mine)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if request.user.is_superuser or field is None:
            return field
        if db_field.related_model is Venue:
            field.queryset = field.queryset.filter(pk__in=venue_ids(request.user))
        elif db_field.related_model is Ruleset:
            field.queryset = field.queryset.filter(venue__in=venue_ids(request.user))
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
