"""Fluctuation investigations and their notes, read-only: the report pages and the services
(casino.integrity.investigations) write them."""

from __future__ import annotations

from django.contrib import admin

from casino.admin.base import ReadOnlyAdmin, money_column
from casino.integrity.models import FluctuationInvestigation, InvestigationNote


class InvestigationNoteInline(admin.TabularInline):
    model = InvestigationNote
    fields = ["written_at", "author", "text"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(FluctuationInvestigation)
class FluctuationInvestigationAdmin(ReadOnlyAdmin):
    list_display = [
        "pk",
        "venue",
        "shift",
        "table",
        money_column(FluctuationInvestigation, "handle", "venue", signed=False),
        money_column(FluctuationInvestigation, "house_win", "venue"),
        "opened_at",
        "due_at",
        "assigned_to",
        "status",
        "outcome",
    ]
    list_filter = ["status", "outcome", ("venue", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["findings", "table__code", "assigned_to__username"]
    date_hierarchy = "opened_at"
    inlines = [InvestigationNoteInline]


@admin.register(InvestigationNote)
class InvestigationNoteAdmin(ReadOnlyAdmin):
    venue_path = "investigation__venue"
    list_display = ["written_at", "investigation", "author", "text"]
    search_fields = ["text"]
