"""The ledger's entries and the audit trail in the admin, read-only: written by
``casino.ledger.services.ledger_post`` and ``casino.audit.services.audit_record`` only."""

from __future__ import annotations

from django.contrib import admin

from casino.admin.base import ReadOnlyAdmin, money_column
from casino.audit.models import AuditEvent
from casino.ledger.models import LedgerEntry


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "user", "venue", "action", "object_type", "object_id", "summary"]
    list_filter = ["action", ("venue", admin.RelatedOnlyFieldListFilter), "object_type"]
    search_fields = ["summary", "object_id", "user__username"]
    date_hierarchy = "at"


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "created_at",
        "account",
        "kind",
        money_column(LedgerEntry, "amount", "venue"),
        "round",
        "slip",
        "drop",
        "reverses",
    ]
    list_filter = ["account", "kind", ("venue", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["venue"]
