"""Tables with their limits and a table's ruleset switch: every save is a call of the
service the API calls (``casino.admin.writes``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from casino.admin.base import AmountFields, ReadOnlyAdmin, VenueScopedAdmin
from casino.admin.writes import (
    InlineRefusalShown,
    Note,
    ParseOnlyModelForm,
    ServiceWrites,
    Written,
)
from casino.kernel.amounts import AmountListField
from casino.kernel.errors import ServiceError
from casino.venues.models import Table, TableLimit, TableRulesetChange, Venue
from casino.venues.services.table_rulesets import (
    ruleset_change_approve,
    ruleset_change_refuse,
    ruleset_change_request,
)
from casino.venues.services.tables import table_create, table_update


class TableLimitInline(InlineRefusalShown, AmountFields, admin.TabularInline):
    """The table's limits, saved with the table as one change (``limits`` of the service);
    each a multiple of the venue's chip unit."""

    model = TableLimit
    form = ParseOnlyModelForm
    extra = 0
    service_input = "limits"
    row_key_field = "bet_type"
    chip_unit_fields = ("min_stake", "max_stake")

    def amounts_venue(self, obj: Any) -> Venue | None:
        return obj.venue if obj is not None and obj.venue_id else None

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset_class = super().get_formset(request, obj, **kwargs)
        formset_class.form = self.amounts_read_at(formset_class.form, obj)
        return formset_class


class TableForm(ParseOnlyModelForm):
    reason = forms.CharField(
        label=_("Why change the ruleset"),
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_(
            "A change of ruleset (or of game, with a ruleset of that game) is a request: "
            "another manager of the venue approves it, and it applies once the table is closed."
        ),
    )

    chip_denominations = AmountListField(
        label=_("Chip denominations"),
        help_text=_(
            "The values of the table's chips as the venue writes amounts, separated by "
            "semicolons, e.g. %(example)s."
        ),
    )

    class Meta:
        model = Table
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ruleset = self.fields.get("ruleset")
        if ruleset is None:
            return
        # A table plays one of its own venue's rulesets (the service takes no other): the
        # menu offers no other venue's, nor a preset.
        if self.instance.pk is not None:
            ruleset.queryset = ruleset.queryset.filter(venue_id=self.instance.venue_id)
        else:
            ruleset.queryset = ruleset.queryset.filter(venue__isnull=False)
        ruleset.error_messages["invalid_choice"] = _(
            "That ruleset is not one of this venue's: choose one from the list."
        )


@admin.register(Table)
class TableAdmin(ServiceWrites, VenueScopedAdmin):
    """Tables and their limits are saved by ``table_create`` / ``table_update``; a change of
    ruleset or game becomes a request that another manager approves."""

    form = TableForm
    list_display = ["__str__", "game", "ruleset", "seats", "status"]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter), "game", "status"]
    inlines = [TableLimitInline]
    inline_inputs = ("limits",)
    list_select_related = ["venue", "ruleset__venue"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is None:
            return ["venue", "code", "game", "ruleset", "seats", "chip_denominations", "status"]
        asking = ["reason"] if self.has_change_permission(request, obj) else []
        return [
            "venue",
            "code",
            "game",
            "ruleset",
            *asking,
            "pending_ruleset_change",
            "seats",
            "chip_denominations",
            "status",
        ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [] if obj is None else ["venue", "pending_ruleset_change"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("Ruleset change waiting for approval"))
    def pending_ruleset_change(self, table: Table) -> Any:
        change = (
            table.ruleset_changes.filter(status=TableRulesetChange.Status.PENDING)
            .select_related("to_ruleset", "requested_by")
            .first()
        )
        if change is None:
            return pgettext("ruleset change", "None")
        text = gettext("to %(ruleset)s, requested by %(user)s: %(reason)s") % {
            "ruleset": change.to_ruleset.code,
            "user": change.requested_by.username,
            "reason": change.reason,
        }
        url = reverse("admin:venues_tablerulesetchange_change", args=[change.pk])
        return format_html('<a href="{}">{}</a>', url, text)

    @staticmethod
    def _limits(formsets: list) -> dict[str, dict[str, Any]] | None:
        """The limits the inline holds, as the service takes them; None when untouched."""
        for formset in formsets:
            if formset.model is not TableLimit:
                continue
            if not formset.has_changed():
                return None
            limits = {}
            for form in formset.forms:
                if formset.can_delete and formset._should_delete_form(form):
                    continue
                data = form.cleaned_data
                if not data or (form.instance.pk is None and not form.has_changed()):
                    continue  # an extra row left empty
                limits[str(data["bet_type"]).strip()] = {
                    "min_stake": data["min_stake"],
                    "max_stake": data["max_stake"],
                }
            return limits
        return None

    def write(
        self, request: HttpRequest, form: Any, formsets: list, change: bool
    ) -> Table | Written:
        data = form.cleaned_data
        limits = self._limits(formsets)
        if not change:
            return table_create(
                venue=data["venue"],
                user=request.user,
                code=data["code"],
                game=data["game"],
                ruleset=data["ruleset"],
                seats=data["seats"],
                chip_denominations=data["chip_denominations"],
                limits=limits or {},
                status=data["status"],
            )
        table = form.instance
        changes = {
            name: data[name]
            for name in ("code", "seats", "chip_denominations", "status")
            if name in form.changed_data
        }
        if limits is not None:
            changes["limits"] = limits
        if changes:
            table = table_update(table=table, user=request.user, **changes)
        if {"ruleset", "game"} & set(form.changed_data):
            requested = ruleset_change_request(
                table=table,
                user=request.user,
                ruleset=data["ruleset"],
                game=data["game"],
                reason=data.get("reason", ""),
            )
            asked = Note(
                gettext(
                    "Requested the change of ruleset to %(ruleset)s (request %(id)s); the table "
                    "keeps %(current)s until another manager of the venue approves it."
                )
                % {
                    "ruleset": requested.to_ruleset.code,
                    "id": requested.pk,
                    "current": requested.from_ruleset.code,
                },
                level=messages.WARNING,
            )
            return Written(table, notes=(asked,), instead=not changes)
        return table


# -- Table ruleset changes and staff: four eyes on a paytable, audited roles -----------------


@admin.register(TableRulesetChange)
class TableRulesetChangeAdmin(ReadOnlyAdmin):
    """Requests to change a table's ruleset (made on the table's page). A manager of the
    venue other than the requester approves one (it applies at once if the table is
    closed) or refuses it; the requester may withdraw it. Nothing else is edited here."""

    venue_path = "table__venue"
    change_form_template = "admin/casino/tablerulesetchange/change_form.html"
    decide_permission = "venues.decide_tablerulesetchange"
    list_display = ["__str__", "reason", "requested_by", "requested_at", "decided_by"]
    #: The Approve / Refuse buttons come right after the request they decide.
    list_filter = ["status", ("table__venue", admin.RelatedOnlyFieldListFilter)]
    list_select_related = [
        "table__venue",
        "from_ruleset__venue",
        "to_ruleset__venue",
        "requested_by",
        "decided_by",
    ]
    search_fields = ["table__code", "to_ruleset__code", "reason"]

    def _may_decide(self, request: HttpRequest, change: TableRulesetChange) -> bool:
        return change.status == TableRulesetChange.Status.PENDING and request.user.has_perm(
            self.decide_permission
        )

    def _urls(self, change: TableRulesetChange) -> dict[str, str]:
        info = self.opts.app_label, self.opts.model_name
        return {
            "approve_url": reverse("admin:{}_{}_approve".format(*info), args=[change.pk]),
            "refuse_url": reverse("admin:{}_{}_refuse".format(*info), args=[change.pk]),
        }

    def get_list_display(self, request: HttpRequest) -> list[Any]:
        admin_ = self
        back = request.get_full_path()

        def decision(change: TableRulesetChange) -> Any:
            if not admin_._may_decide(request, change):
                return ""
            urls = admin_._urls(change)
            what = {"table": change.table.code, "ruleset": change.to_ruleset.code}
            if change.requested_by_id == request.user.pk:
                buttons = [
                    (
                        urls["refuse_url"],
                        pgettext("ruleset change", "Withdraw"),
                        gettext("Withdraw the change of %(table)s to %(ruleset)s") % what,
                    )
                ]
            else:
                buttons = [
                    (
                        urls["approve_url"],
                        gettext("Approve and apply"),
                        gettext("Approve the change of %(table)s to %(ruleset)s") % what,
                    ),
                    (
                        urls["refuse_url"],
                        pgettext("ruleset change", "Refuse"),
                        gettext("Refuse the change of %(table)s to %(ruleset)s") % what,
                    ),
                ]
            # The buttons submit the list's own form (which carries the CSRF token) to
            # their action; ``next`` brings the user back to this list.
            return format_html_join(
                " ",
                '<button type="submit" class="button" formaction="{}" name="next" value="{}" '
                'aria-label="{}" style="white-space: nowrap">{}</button>',
                ((url, back, label, text) for url, text, label in buttons),
            )

        decision.short_description = pgettext_lazy("ruleset change", "Decision")  # type: ignore[attr-defined]
        first, *rest = super().get_list_display(request)  # times in the venue's zone
        return [first, decision, *rest]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict | None = None,
    ) -> Any:
        context = dict(extra_context or {})
        change = self.get_object(request, unquote(object_id))
        if change is not None and self._may_decide(request, change):
            context.update(
                decision=self._urls(change),
                is_requester=change.requested_by_id == request.user.pk,
            )
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[Any]:
        info = self.opts.app_label, self.opts.model_name
        wrap = self.admin_site.admin_view
        return [
            path("<int:pk>/approve/", wrap(self.approve_view), name="{}_{}_approve".format(*info)),
            path("<int:pk>/refuse/", wrap(self.refuse_view), name="{}_{}_refuse".format(*info)),
            *super().get_urls(),
        ]

    def approve_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        return require_POST(self._decide)(request, pk, approve=True)

    def refuse_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        return require_POST(self._decide)(request, pk, approve=False)

    def _decide(self, request: HttpRequest, pk: int, approve: bool) -> HttpResponseRedirect:
        if not request.user.has_perm(self.decide_permission):
            raise PermissionDenied
        change = get_object_or_404(self.get_queryset(request), pk=pk)
        try:
            if approve:
                change = ruleset_change_approve(change=change, user=request.user)
            else:
                change = ruleset_change_refuse(
                    change=change, user=request.user, note=request.POST.get("note", "")
                )
        except ServiceError as error:
            self.message_user(request, error.message, messages.ERROR)
        else:
            done = {
                TableRulesetChange.Status.APPLIED: gettext(
                    "Approved: table %(table)s now plays %(ruleset)s."
                ),
                TableRulesetChange.Status.REFUSED: gettext(
                    "Refused the change of table %(table)s to %(ruleset)s."
                ),
                TableRulesetChange.Status.WITHDRAWN: gettext(
                    "Withdrew the change of table %(table)s to %(ruleset)s."
                ),
            }[change.status]
            what = {"table": change.table.code, "ruleset": change.to_ruleset.code}
            self.message_user(request, done % what, messages.SUCCESS)
        back = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
            back = reverse(
                f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[change.pk]
            )
        return HttpResponseRedirect(back)
