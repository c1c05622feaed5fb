"""The cage's slips, front money, counts and book in the admin, read-only: written by their
services only (``casino.cage.services.slips``, ``casino.cage.services.front_money``,
``casino.cage.services.inventory``)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from casino.admin.base import ReadOnlyAdmin, money_column
from casino.cage.models import CageCount, CageLine, CageMovement, FrontMoney, Slip


@admin.register(Slip)
class SlipAdmin(ReadOnlyAdmin):
    chip_fields = {"chips": False}
    list_display = [
        "__str__",
        "venue",
        money_column(Slip, "amount", "venue", signed=False),
        "status",
        "requested_by",
        "issued_by",
        "dealer_confirmed_by",
        "supervisor_confirmed_by",
        "received_by",
        "verified_at",
        "voided_by",
        "void_reason",
    ]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter), "kind", "status"]
    list_select_related = [
        "venue",
        "requested_by",
        "issued_by",
        "dealer_confirmed_by",
        "supervisor_confirmed_by",
        "received_by",
        "voided_by",
    ]


@admin.register(FrontMoney)
class FrontMoneyAdmin(ReadOnlyAdmin):
    list_display = [
        "__str__",
        "venue",
        "player",
        "kind",
        money_column(FrontMoney, "amount", "venue"),
        "session",
        "reverses",
        "gaming_date",
        "recorded_by",
        "recorded_at",
        "note",
    ]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter), "kind"]
    list_select_related = ["venue", "player", "session__table", "recorded_by", "reverses"]
    search_fields = ["player__membership_number"]


@admin.register(CageCount)
class CageCountAdmin(ReadOnlyAdmin):
    list_display = [
        "__str__",
        "venue",
        "shift",
        "kind",
        "status",
        money_column(CageCount, "difference_value", "venue"),
        "reason",
        "counted_by",
        "counted_at",
        "signed_by",
        "signed_at",
    ]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter), "kind", "status"]
    list_select_related = ["venue", "shift", "counted_by", "signed_by"]


class CageLineInline(admin.TabularInline):
    model = CageLine
    fields = ["account", "instrument", "currency", "chip_set", "denomination", "count", "value"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(CageMovement)
class CageMovementAdmin(ReadOnlyAdmin):
    inlines = [CageLineInline]
    list_display = [
        "__str__",
        "venue",
        "shift",
        "kind",
        "gaming_date",
        "reference",
        "recorded_by",
        "recorded_at",
        "note",
    ]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter), "kind"]
    list_select_related = ["venue", "shift", "recorded_by"]
    search_fields = ["reference"]
