"""Admin for the floor, and the shared admin of versioned rulesets that game apps extend."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from casino.admin_writes import InlineRefusalShown, ParseOnlyModelForm, ServiceWrites
from casino.errors import ServiceError
from casino.models import (
    ApiToken,
    AuditEvent,
    Box,
    LedgerEntry,
    LoginAttempt,
    Player,
    Round,
    Ruleset,
    Shift,
    Slip,
    Table,
    TableLimit,
    TableRulesetChange,
    TableSession,
    Venue,
    VersionStatus,
)
from casino.roles import venue_ids
from casino.services.logins import token_revoke
from casino.services.players import player_create, player_update
from casino.services.rulesets import (
    check_writer,
    ruleset_create,
    ruleset_rename,
    version_activate,
    version_approve,
    version_clone,
    version_content_hash,
    version_copy_to_venue,
    version_editors,
    version_reach,
    version_record_edit,
)
from casino.services.staff import ACCESS_FIELDS, staff_access_update, venue_staff_set
from casino.services.table_rulesets import (
    ruleset_change_approve,
    ruleset_change_refuse,
    ruleset_change_request,
)
from casino.services.tables import table_create, table_update
from casino.services.venues import EDITABLE as VENUE_FIELDS
from casino.services.venues import venue_create, venue_update


class VenueScopedAdmin(admin.ModelAdmin):
    """Staff see only the rows of the venues they work at (superusers see all).

    ``venue_path`` is the lookup from the model to its venue; ``include_presets`` also
    shows rows without a venue (the shipped presets, read-only templates).
    """

    venue_path = "venue"
    include_presets = False

    def get_queryset(self, request: HttpRequest) -> Any:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        mine = Q(**{f"{self.venue_path}__in": venue_ids(request.user)})
        if self.include_presets:
            mine |= Q(**{f"{self.venue_path}__isnull": True})
        return queryset.filter(mine)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if request.user.is_superuser or field is None:
            return field
        if db_field.related_model is Venue:
            field.queryset = field.queryset.filter(pk__in=venue_ids(request.user))
        elif db_field.related_model is Ruleset:
            field.queryset = field.queryset.filter(venue__in=venue_ids(request.user))
        return field


class VenueForm(ParseOnlyModelForm):
    class Meta:
        model = Venue
        fields = "__all__"


@admin.register(Venue)
class VenueAdmin(ServiceWrites, VenueScopedAdmin):
    """Set up by a superuser (``venue_create``), changed by its managers (``venue_update``:
    its currency, time zone and rounding unit only while all of its tables are closed);
    who works there is set by a superuser (``venue_staff_set``)."""

    form = VenueForm
    venue_path = "pk"
    list_display = ["code", "name", "currency", "rounding_unit", "timezone", "language"]
    search_fields = ["code", "name"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Who works at a venue is given by a superuser: the choices would list every
        # account of every venue, and a manager could take on anyone's.
        fields = super().get_readonly_fields(request, obj)
        if request.user.is_superuser:
            return fields
        return [*fields, "staff"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a venue keeps its tables, players and history

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Venue:
        data = form.cleaned_data
        if not change:
            venue = venue_create(user=request.user, **{name: data[name] for name in VENUE_FIELDS})
        else:
            changes = {name: data[name] for name in VENUE_FIELDS if name in form.changed_data}
            venue = form.instance
            if changes:
                venue = venue_update(venue=venue, user=request.user, **changes)
        if "staff" in form.fields and (not change or "staff" in form.changed_data):
            venue_staff_set(venue=venue, user=request.user, staff=data["staff"])
        return venue


def _may_write(request: HttpRequest, ruleset: Ruleset) -> bool:
    try:
        check_writer(ruleset=ruleset, user=request.user)
    except ValidationError:
        return False
    return True


@admin.register(Ruleset)
class RulesetAdmin(VenueScopedAdmin):
    """Rulesets are made and renamed through the services; a preset (no venue) is a
    read-only template that only a superuser changes."""

    include_presets = True
    list_display = ["name", "code", "game", "venue"]
    list_filter = ["game", ("venue", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["code", "name"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Tables and rounds name a ruleset by its venue, game and code: only its name changes.
        return ["venue", "game", "code"] if obj is not None else []

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs):
        base = super().get_form(request, obj, change=change, **kwargs)
        user = request.user

        class RulesetForm(base):  # type: ignore[misc, valid-type]
            def clean(self) -> dict[str, Any]:
                cleaned = super().clean()
                ruleset = obj or Ruleset(venue=cleaned.get("venue"), game=cleaned.get("game"))
                try:
                    check_writer(ruleset=ruleset, user=user)
                except ValidationError as error:
                    raise forms.ValidationError(error.messages) from None
                return cleaned

        if obj is None and not user.is_superuser and "venue" in RulesetForm.base_fields:
            RulesetForm.base_fields["venue"].required = True  # a manager's write names a venue
        return RulesetForm

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and not _may_write(request, obj):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change:
            ruleset_rename(ruleset=obj, name=obj.name, user=request.user)
        else:
            created = ruleset_create(
                venue=obj.venue, game=obj.game, code=obj.code, name=obj.name, user=request.user
            )
            obj.pk = created.pk


@admin.register(AuditEvent)
class AuditEventAdmin(VenueScopedAdmin):
    list_display = ["at", "user", "venue", "action", "object_type", "object_id", "summary"]
    list_filter = ["action", ("venue", admin.RelatedOnlyFieldListFilter), "object_type"]
    search_fields = ["summary", "object_id", "user__username"]
    date_hierarchy = "at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _messages_of(error: ValidationError) -> list[str]:
    if hasattr(error, "error_dict"):
        return [m for errors in error.message_dict.values() for m in errors]
    return list(error.messages)


class RulesetVersionAdmin(VenueScopedAdmin):
    """Drafts are edited here; approved, active and retired versions are read-only.

    Object tools on the change page clone, approve and activate through the shared
    services, which enforce the two-person rule and record who did what.
    """

    change_form_template = "admin/ruleset_version_change_form.html"
    venue_path = "ruleset__venue"
    include_presets = True
    list_display = [
        "__str__",
        "status",
        "effective_from",
        "last_edited_by",
        "approved_by",
        "approved_at",
    ]
    list_filter = [
        "status",
        ("ruleset__venue", admin.RelatedOnlyFieldListFilter),
        ("ruleset", admin.RelatedOnlyFieldListFilter),
    ]
    readonly_status_fields = [
        "number",
        "status",
        "created_by",
        "created_at",
        "last_edited_by",
        "last_edited_at",
        "approved_by",
        "approved_at",
        "activated_by",
        "activated_at",
        "effective_from",
        "retired_at",
        "cloned_from",
    ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is None:
            return []
        if not obj.is_editable:
            return [f.name for f in obj._meta.fields if f.name != "id"]
        return ["ruleset", *self.readonly_status_fields]

    def get_inlines(self, request: HttpRequest, obj: Any) -> list[Any]:
        # A new draft is filled with default rows when it is saved; edit them afterwards.
        return self.inlines if obj is not None else []

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and (not obj.is_editable or not _may_write(request, obj.ruleset)):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def approve_permission(self) -> str:
        return f"{self.opts.app_label}.approve_{self.opts.model_name}"

    #: The game's service that saves a draft's own fields: ``(version=, user=) -> version``.
    save_draft: Callable[..., Any]

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        request._ruleset_before = (  # type: ignore[attr-defined]
            type(obj).objects.get(pk=obj.pk).rules_as_dict() if change else None
        )
        try:
            type(self).save_draft(version=obj, user=request.user)
        except ValidationError as error:
            raise PermissionDenied(" ".join(_messages_of(error))) from error

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        if change:
            version_record_edit(
                version=form.instance,
                user=request.user,
                before=getattr(request, "_ruleset_before", None),
            )

    # -- clone, approve, activate; the game's figures panel --------------------------------
    #: The game's panel of the rules' figures (house edge, house take), polled with HTMX:
    #: ``figures_view(request, pk)`` in the game's admin, at ``<pk>/figures/``.
    figures_view: Any = None

    def get_urls(self) -> list[Any]:
        info = self.opts.app_label, self.opts.model_name
        wrap = self.admin_site.admin_view
        figures = []
        if self.figures_view is not None:
            figures = [
                path(
                    "<int:pk>/figures/",
                    wrap(self.figures_view),
                    name="{}_{}_figures".format(*info),
                )
            ]
        return [
            path("<int:pk>/clone/", wrap(self.clone_view), name="{}_{}_clone".format(*info)),
            path("<int:pk>/copy/", wrap(self.copy_view), name="{}_{}_copy".format(*info)),
            path("<int:pk>/approve/", wrap(self.approve_view), name="{}_{}_approve".format(*info)),
            path(
                "<int:pk>/activate/", wrap(self.activate_view), name="{}_{}_activate".format(*info)
            ),
            *figures,
            *super().get_urls(),
        ]

    def _change_url(self, obj: Any) -> str:
        return reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[obj.pk])

    def _run(self, request: HttpRequest, pk: int, action: Any, done: str) -> HttpResponseRedirect:
        version = get_object_or_404(self.get_queryset(request), pk=pk)
        try:
            result = action(version)
        except ValidationError as error:
            for message in _messages_of(error):
                self.message_user(request, message, messages.ERROR)
            return HttpResponseRedirect(self._change_url(version))
        self.message_user(request, done % {"version": result}, messages.SUCCESS)
        return HttpResponseRedirect(self._change_url(result))

    @staticmethod
    def _venue_time(version: Any, text: str) -> datetime | None:
        if not text:
            return None
        venue = version.ruleset.venue
        tz = zoneinfo.ZoneInfo(venue.timezone) if venue else timezone.get_current_timezone()
        try:
            naive = datetime.fromisoformat(text)
        except ValueError as error:
            raise ValidationError(
                f"'{text}' is not a date and time; use YYYY-MM-DD HH:MM or leave it empty for now."
            ) from error
        return timezone.make_aware(naive, tz) if timezone.is_naive(naive) else naive

    @staticmethod
    def _require(request: HttpRequest, permission: str) -> None:
        if not request.user.has_perm(permission):
            raise PermissionDenied

    def clone_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        return require_POST(self._clone)(request, pk)

    def _clone(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        self._require(request, f"{self.opts.app_label}.add_{self.opts.model_name}")
        return self._run(
            request,
            pk,
            lambda v: version_clone(version=v, user=request.user),
            _("Created %(version)s. Edit it, then ask a second person to approve it."),
        )

    def copy_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        return require_POST(self._copy)(request, pk)

    def _copy(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        self._require(request, f"{self.opts.app_label}.add_{self.opts.model_name}")
        venues = Venue.objects.all()
        if not request.user.is_superuser:
            venues = venues.filter(pk__in=venue_ids(request.user))
        venue = venues.filter(pk=request.POST.get("venue") or None).first()
        if venue is None:
            version = get_object_or_404(self.get_queryset(request), pk=pk)
            self.message_user(request, _("Choose one of your venues to copy to."), messages.ERROR)
            return HttpResponseRedirect(self._change_url(version))
        return self._run(
            request,
            pk,
            lambda v: version_copy_to_venue(version=v, venue=venue, user=request.user),
            _("Created %(version)s. Edit it, then ask a second person to approve it."),
        )

    def approve_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        return require_POST(self._approve)(request, pk)

    def _approve(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        self._require(request, self.approve_permission())
        return self._run(
            request,
            pk,
            lambda v: version_approve(
                version=v,
                user=request.user,
                content_hash=request.POST.get("content_hash", ""),
                override_reason=request.POST.get("override_reason", ""),
            ),
            _("Approved %(version)s."),
        )

    def activate_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        return require_POST(self._activate)(request, pk)

    def _activate(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        self._require(request, self.approve_permission())
        text = request.POST.get("effective_from", "").strip()
        return self._run(
            request,
            pk,
            lambda v: version_activate(
                version=v, user=request.user, effective_from=self._venue_time(v, text)
            ),
            _("Activated %(version)s."),
        )

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict,
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Any = None,
    ) -> Any:
        if obj is not None:
            info = self.opts.app_label, self.opts.model_name
            may_write = _may_write(request, obj.ruleset)
            may_add = request.user.has_perm("{}.add_{}".format(*info))
            editors = version_editors(obj) if obj.is_editable else set()
            approved = obj.status == VersionStatus.APPROVED
            copy_venues = Venue.objects.filter(pk__in=venue_ids(request.user))
            if obj.ruleset.venue_id is not None:
                copy_venues = copy_venues.none()  # a venue's ruleset is cloned in place
            context.update(
                version=obj,
                content_hash=version_content_hash(obj),
                editors=get_user_model().objects.filter(pk__in=editors).order_by("username"),
                is_editor=request.user.pk in editors,
                reach=version_reach(ruleset=obj.ruleset) if approved else [],
                can_approve=may_write and request.user.has_perm(self.approve_permission()),
                can_clone=may_write and may_add,
                copy_venues=copy_venues if may_add else [],
                copy_url=reverse("admin:{}_{}_copy".format(*info), args=[obj.pk]),
                clone_url=reverse("admin:{}_{}_clone".format(*info), args=[obj.pk]),
                approve_url=reverse("admin:{}_{}_approve".format(*info), args=[obj.pk]),
                activate_url=reverse("admin:{}_{}_activate".format(*info), args=[obj.pk]),
            )
            if self.figures_view is not None:
                context["figures_url"] = reverse("admin:{}_{}_figures".format(*info), args=[obj.pk])
        return super().render_change_form(request, context, add, change, form_url, obj)


class ReadOnlyAdmin(VenueScopedAdmin):
    """The floor's records are written by the services only; the admin shows them."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TableLimitInline(InlineRefusalShown, admin.TabularInline):
    """The table's limits, saved with the table as one change (``limits`` of the service)."""

    model = TableLimit
    form = ParseOnlyModelForm
    extra = 0
    service_input = "limits"
    row_key_field = "bet_type"


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

    class Meta:
        model = Table
        fields = "__all__"


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
        url = reverse("admin:casino_tablerulesetchange_change", args=[change.pk])
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

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Table:
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
            self.note(
                request,
                gettext(
                    "Requested the change of ruleset to %(ruleset)s (request %(id)s); the table "
                    "keeps %(current)s until another manager of the venue approves it."
                )
                % {
                    "ruleset": requested.to_ruleset.code,
                    "id": requested.pk,
                    "current": requested.from_ruleset.code,
                },
            )
        return table


class PlayerForm(ParseOnlyModelForm):
    class Meta:
        model = Player
        fields = "__all__"


@admin.register(Player)
class PlayerAdmin(ServiceWrites, VenueScopedAdmin):
    """Players are registered and edited by ``player_create`` / ``player_update``."""

    form = PlayerForm
    list_display = ["membership_number", "name", "venue", "status"]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter), "status"]
    search_fields = ["membership_number", "name"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [] if obj is None else ["venue"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Player:
        data = form.cleaned_data
        if not change:
            return player_create(
                venue=data["venue"],
                user=request.user,
                membership_number=data["membership_number"],
                name=data["name"],
                status=data["status"],
            )
        changes = {
            name: data[name]
            for name in ("membership_number", "name", "status")
            if name in form.changed_data
        }
        if not changes:
            return form.instance
        return player_update(player=form.instance, user=request.user, **changes)


# -- Table ruleset changes and staff: four eyes on a paytable, audited roles -----------------


@admin.register(TableRulesetChange)
class TableRulesetChangeAdmin(VenueScopedAdmin):
    """Requests to change a table's ruleset (made on the table's page). A manager of the
    venue other than the requester approves one (it applies at once if the table is
    closed) or refuses it; the requester may withdraw it. Nothing else is edited here."""

    venue_path = "table__venue"
    change_form_template = "admin/casino/tablerulesetchange/change_form.html"
    decide_permission = "casino.decide_tablerulesetchange"
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

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

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
        first, *rest = self.list_display
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


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class StaffUserAdmin(ServiceWrites, UserAdmin):
    """Django's user admin, with a member's access (flags, groups = roles, own permissions)
    changed by ``staff_access_update``, which audits it with before and after. A new
    account is a username and a password, with no access yet."""

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Any:
        if not change:
            return form.save()
        member = form.instance
        own_fields = {field.name for field in member._meta.concrete_fields}
        personal = [
            name for name in form.changed_data if name in own_fields and name not in ACCESS_FIELDS
        ]
        if personal:
            member.save(update_fields=personal)
        access = {
            name: form.cleaned_data[name] for name in ACCESS_FIELDS if name in form.changed_data
        }
        if access:
            member = staff_access_update(member=member, user=request.user, **access)
        return member


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


@admin.register(LoginAttempt)
class LoginAttemptAdmin(admin.ModelAdmin):
    """Failed logins, lockouts and logins, for auditors (``view_loginattempt``) and
    superusers; written by the login lockout only, never changed here.

    A superuser sees every attempt. Anyone else with the permission sees the attempts on
    accounts that work at their venues, and those naming no account at all (an unknown
    username belongs to no venue, and hiding it from everyone would hide a password
    sprayer); attempts on an account that works elsewhere, or at no venue (a superuser's),
    are not theirs to see.
    """

    list_display = ["at", "outcome", "username", "user", "address", "entry_point", "user_agent"]
    list_filter = ["outcome", "entry_point"]
    search_fields = ["username", "address", "user_agent"]
    date_hierarchy = "at"
    list_select_related = ["user"]
    show_full_result_count = False  # the trail grows without end: no COUNT(*) per page

    def get_queryset(self, request: HttpRequest) -> Any:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        mine = LoginAttempt.objects.filter(user__venues__in=venue_ids(request.user))
        return queryset.filter(Q(user__isnull=True) | Q(pk__in=mine.values("pk")))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """The devices' API tokens, for superusers (no role has its permissions): who holds
    one on which device, until when. Revoking one (a lost tablet) is the delete action,
    through ``token_revoke``; a token is issued only by logging in (its key is shown once,
    to the device)."""

    list_display = ["id", "user", "device", "created", "expiry", "last_used"]
    list_filter = ["device"]
    search_fields = ["user__username", "device"]
    list_select_related = ["user"]
    fields = ["user", "device", "created", "expiry", "last_used"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        token_revoke(token=obj, user=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for token in queryset.select_related("user"):
            token_revoke(token=token, user=request.user)
