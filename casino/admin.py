"""Admin for the floor, and the shared admin of versioned rulesets that game apps extend."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

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
    TableSession,
    Venue,
)
from casino.roles import venue_ids
from casino.services.logins import token_revoke
from casino.services.rulesets import (
    version_activate,
    version_approve,
    version_clone,
    version_record_edit,
)


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


@admin.register(Venue)
class VenueAdmin(VenueScopedAdmin):
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


@admin.register(Ruleset)
class RulesetAdmin(VenueScopedAdmin):
    include_presets = True
    list_display = ["name", "code", "game", "venue"]
    list_filter = ["game", ("venue", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["code", "name"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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
        if obj is not None and not obj.is_editable:
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
            context.update(
                version=obj,
                can_approve=request.user.has_perm(self.approve_permission()),
                can_clone=request.user.has_perm("{}.add_{}".format(*info)),
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


class TableLimitInline(admin.TabularInline):
    model = TableLimit
    extra = 0


@admin.register(Table)
class TableAdmin(VenueScopedAdmin):
    list_display = ["__str__", "game", "ruleset", "seats", "status"]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter), "game", "status"]
    inlines = [TableLimitInline]
    list_select_related = ["venue", "ruleset__venue"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(VenueScopedAdmin):
    list_display = ["membership_number", "name", "venue", "status"]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter), "status"]
    search_fields = ["membership_number", "name"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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
