"""Suspicious-activity cases in the admin, read only (the screens' services write them):
shown to the compliance staff of their venue alone (the role's model permissions,
``casino.staff.roles``, and ``Capability.COMPLIANCE`` at the case's venue: a superuser who is
not compliance staff there does not read them either, nor an officer who dealt to the
case's player or supervised their table, ``case_read_refusal``), each case's page read
recorded as its screen's is."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from casino.admin.base import ReadOnlyAdmin
from casino.compliance.conflicts import case_read_refusal, cases_hidden_from
from casino.compliance.models import CaseStep, SuspicionCase
from casino.compliance.services import case_viewed
from casino.staff.policy import Capability, venues_allowing


class CaseStepInline(admin.TabularInline):
    model = CaseStep
    fields = ["step", "by", "at", "note"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SuspicionCase)
class SuspicionCaseAdmin(ReadOnlyAdmin):
    list_display = ["id", "venue", "status", "decision", "opened_at", "deadline", "filed_at"]
    list_filter = ["status", "decision", ("venue", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["venue"]
    inlines = [CaseStepInline]

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        venues = venues_allowing(request.user, Capability.COMPLIANCE)
        if obj is None:
            return bool(venues)
        return obj.venue_id in venues and case_read_refusal(user=request.user, case=obj) is None

    def get_queryset(self, request: HttpRequest) -> Any:
        found = super().get_queryset(request)
        hidden: set[int] = set()
        for venue_id in venues_allowing(request.user, Capability.COMPLIANCE):
            hidden |= cases_hidden_from(request.user, venue_id, found.filter(venue_id=venue_id))
        return found.exclude(pk__in=hidden)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        response = super().change_view(request, object_id, form_url, extra_context)
        if request.method == "GET" and response.status_code == 200:
            case = self.get_object(request, object_id)
            if case is not None:
                case_viewed(case=case, user=request.user, where="admin")
        return response
