"""The floor's records (sessions and rounds), written by the services only: the admin shows them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from casino.admin.base import ReadOnlyAdmin, money_column
from casino.floor.models import Box, Round, TableSession


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
