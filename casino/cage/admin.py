"""The cage's slips in the admin, read-only: written by the slip services only
(``casino.cage.services.slips``)."""

from __future__ import annotations

from django.contrib import admin

from casino.admin.base import ReadOnlyAdmin, money_column
from casino.cage.models import Slip


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
