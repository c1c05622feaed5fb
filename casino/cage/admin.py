"""The cage's slips and front money in the admin, read-only: written by their services only
(``casino.cage.services.slips``, ``casino.cage.services.front_money``)."""

from __future__ import annotations

from django.contrib import admin

from casino.admin.base import ReadOnlyAdmin, money_column
from casino.cage.models import FrontMoney, Slip


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
