"""The floor's records, written by the services only: the admin shows them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from casino.admin.base import ReadOnlyAdmin
from casino.models import AuditEvent, Box, LedgerEntry, Round, Shift, Slip, TableSession


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "user", "venue", "action", "object_type", "object_id", "summary"]
    list_filter = ["action", ("venue", admin.RelatedOnlyFieldListFilter), "object_type"]
    search_fields = ["summary", "object_id", "user__username"]
    date_hierarchy = "at"


@admin.register(Shift)
class ShiftAdmin(ReadOnlyAdmin):
    list_display = ["venue", "gaming_date", "name", "starts_at", "ends_at"]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter)]


@admin.register(TableSession)
class TableSessionAdmin(ReadOnlyAdmin):
    venue_path = "table__venue"
    list_display = [
        "__str__",
        "dealer",
        "opened_at",
        "closed_at",
        "win_by_count",
        "win_by_ledger",
        "variance",
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
        "house_net",
        "settled_at",
    ]
    list_filter = ["status", "game"]
    inlines = [BoxInline]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "created_at",
        "account",
        "kind",
        "amount",
        "round",
        "slip",
        "drop",
        "reverses",
    ]
    list_filter = ["account", "kind", ("venue", admin.RelatedOnlyFieldListFilter)]


@admin.register(Slip)
class SlipAdmin(ReadOnlyAdmin):
    list_display = [
        "__str__",
        "venue",
        "amount",
        "status",
        "requested_by",
        "issued_by",
        "verified_by",
    ]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter), "kind", "status"]


# Login records and API tokens (casino/throttling.py, casino/services/logins.py)
