"""The cage's slips, front money, counts and book in the admin, read-only: written by their
services only (``casino.cage.services.slips``, ``casino.cage.services.front_money``,
``casino.cage.services.inventory``). The unknown patrons too, whose page takes one action:
a supervisor or a manager links the patron to a member, through the link service
(``casino.cage.services.patrons.unknown_patron_link``), as the cage's screen does."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from casino.admin.base import ReadOnlyAdmin, money_column
from casino.cage.models import CageCount, CageLine, CageMovement, FrontMoney, Slip, UnknownPatron
from casino.cage.services.cash import player_of
from casino.cage.services.patrons import unknown_patron_link
from casino.kernel.errors import InvalidInput, ServiceError
from casino.staff.policy import Capability, allows


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


@admin.register(UnknownPatron)
class UnknownPatronAdmin(ReadOnlyAdmin):
    """Read only; a patron not yet linked is linked on its page by a supervisor or a
    manager of its venue (``link_view``), by the member's membership number."""

    change_form_template = "admin/cage/unknownpatron/change_form.html"
    list_display = [
        "code",
        "venue",
        "description",
        "gaming_date",
        "created_by",
        "created_at",
        "member",
        "linked_by",
        "linked_at",
    ]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter), "gaming_date"]
    list_select_related = ["venue", "created_by", "member", "linked_by"]
    search_fields = ["code", "description", "member__membership_number"]

    def _link_url(self, patron: UnknownPatron) -> str:
        return reverse("admin:cage_unknownpatron_link", args=[patron.pk])

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> Any:
        context = dict(extra_context or {})
        patron = self.get_object(request, unquote(object_id))
        if (
            patron is not None
            and patron.member_id is None
            and allows(request.user, Capability.SUPERVISE_TABLES, patron.venue_id)
        ):
            context["link_url"] = self._link_url(patron)
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[Any]:
        link = self.admin_site.admin_view(require_POST(self.link_view))
        return [path("<int:pk>/link/", link, name="cage_unknownpatron_link"), *super().get_urls()]

    def link_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        """Link the patron to the member the form names; back to the patron's page, saying
        what was done or why not."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        patron = get_object_or_404(self.get_queryset(request), pk=pk)
        if not allows(request.user, Capability.SUPERVISE_TABLES, patron.venue_id):
            raise PermissionDenied
        try:
            member = player_of(patron.venue, request.POST.get("member", ""))
            if member is None:
                raise InvalidInput(gettext("Give the member's membership number."), "member")
            patron = unknown_patron_link(patron=patron, member=member, user=request.user)
        except ServiceError as error:
            self.message_user(request, error.message, messages.ERROR)
        else:
            done = gettext(
                "%(code)s is member %(member)s: their cash of the day counts with the member's."
            )
            what = {"code": patron.code, "member": member.membership_number}
            self.message_user(request, done % what, messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:cage_unknownpatron_change", args=[patron.pk]))
