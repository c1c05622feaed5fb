"""Rulesets and the shared admin of their versions (draft, approve, activate, the house-edge
panel), which each game's admin extends with its fields and inlines; presets are read-only
templates."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from casino.admin.base import VenueScopedAdmin, messages_of
from casino.kernel import registry
from casino.rulesets.admin.house_edge import house_edge_panel
from casino.rulesets.models import ROUNDING_FIELDS, Ruleset, VersionStatus
from casino.rulesets.services import (
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
from casino.venues.models import Venue

if TYPE_CHECKING:
    from casino import games


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
        """A new draft is created here; a changed one is saved in :meth:`save_related`, which
        reads its rules before writing them and so records the edit in one place."""
        if not change:
            self._save_draft(request, obj)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        if not change:
            super().save_related(request, form, formsets, change)
            return
        version = form.instance
        before = self.game.rules_as_dict(type(version).objects.get(pk=version.pk))
        self._save_draft(request, version)
        super().save_related(request, form, formsets, change)
        version_record_edit(version=version, user=request.user, before=before)

    def _save_draft(self, request: HttpRequest, version: Any) -> None:
        try:
            type(self).save_draft(version=version, user=request.user)
        except ValidationError as error:
            raise PermissionDenied(" ".join(messages_of(error))) from error

    # -- the game's version, its fields and its house-edge panel ---------------------------

    @property
    def game(self) -> games.GameAdapter:
        """The game whose versions this admin edits."""
        return registry.of_version(self.model)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        if obj is not None:
            return self.fieldsets
        # A new draft rounds to its venue's chip unit (version_create_draft), to be changed
        # on the draft like its default rows; it has no status yet (the last fieldset).
        return [f for f in self.fieldsets[:-1] if f[1]["fields"] != list(ROUNDING_FIELDS)]

    def formfield_for_foreignkey(self, db_field: Any, request: Any, **kwargs: Any) -> Any:
        if db_field.name == "ruleset":
            rulesets = Ruleset.objects.filter(game=self.game.code).select_related("venue")
            kwargs["queryset"] = rulesets
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_queryset(self, request: HttpRequest) -> Any:
        return (
            super()
            .get_queryset(request)
            .select_related("ruleset__venue", "last_edited_by", "approved_by")
        )

    def figures_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The house-edge panel (the game's figures of the rules), polled until ready."""
        version = get_object_or_404(self.get_queryset(request), pk=pk)
        if not self.has_view_permission(request, version):
            raise PermissionDenied
        return house_edge_panel(request, self.game.admin, version)

    # -- clone, approve, activate ----------------------------------------------------------

    def get_urls(self) -> list[Any]:
        info = self.opts.app_label, self.opts.model_name
        wrap = self.admin_site.admin_view
        figures = [
            path("<int:pk>/figures/", wrap(self.figures_view), name="{}_{}_figures".format(*info))
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
            for message in messages_of(error):
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
            venues = venues.filter(pk__in=self.venues_for(request, "add"))
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
            copy_venues = Venue.objects.filter(pk__in=self.venues_for(request, "add"))
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
            context["figures_url"] = reverse("admin:{}_{}_figures".format(*info), args=[obj.pk])
        return super().render_change_form(request, context, add, change, form_url, obj)
