"""The floor's records, written by the services only: the admin shows them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from casino.admin.base import ReadOnlyAdmin
from casino.kernel.money import venue_money
from casino.models import Box, Round, TableSession
from casino.venues.models import GamingDay, Shift


def money_column(
    model: type[Model], field: str, venue_path: str, *, signed: bool = True
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


@admin.register(Shift)
class ShiftAdmin(ReadOnlyAdmin):
    list_display = ["venue", "gaming_date", "name", "starts_at", "ends_at"]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter)]


@admin.register(GamingDay)
class GamingDayAdmin(ReadOnlyAdmin):
    """The gaming days made, each with the shift plan it began with (never changed)."""

    list_display = ["venue", "gaming_date", "starts_at", "ends_at"]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter)]


@admin.register(TableSession)
class TableSessionAdmin(ReadOnlyAdmin):
    venue_path = "table__venue"
    chip_fields = {
        "opening_chips": False,
        "opening_expected_chips": False,
        "opening_discrepancy": True,
        "closing_chips": False,
    }
    list_display = [
        "__str__",
        "dealer",
        "opened_at",
        "closed_at",
        money_column(TableSession, "win_by_count", "table__venue"),
        money_column(TableSession, "win_by_ledger", "table__venue"),
        money_column(TableSession, "variance", "table__venue"),
    ]
    list_filter = ["status", ("table__venue", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["table__venue", "dealer"]


class BoxInline(admin.TabularInline):
    model = Box
    fields = ["position", "player", "cards", "evaluation"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    venue_path = "session__table__venue"
    list_display = [
        "__str__",
        "game",
        "status",
        "ruleset_version_number",
        money_column(Round, "house_net", "session__table__venue"),
        "settled_at",
    ]
    list_filter = ["status", "game"]
    list_select_related = ["session__table__venue"]
    inlines = [BoxInline]


# Login records and API tokens (casino/staff/throttling.py, casino/staff/logins.py)
