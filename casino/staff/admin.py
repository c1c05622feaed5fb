"""Who may do what: staff accounts (through the staff service), login records, API tokens."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.admin.base import ShowsOnly
from casino.admin.writes import ServiceWrites
from casino.staff.logins import token_revoke
from casino.staff.models import ApiToken, LoginAttempt, StaffRole
from casino.staff.policy import may_reset_second_factor
from casino.staff.roles import venue_ids
from casino.staff.second_factor import second_factor_reset
from casino.staff.services import ACCESS_FIELDS, staff_access_update

User = get_user_model()
admin.site.unregister(User)
# A second factor is reset on its member, audited (``reset_second_factor`` below), never
# edited or deleted as django-otp's own admin pages would.
for device_model in (TOTPDevice, StaticDevice):
    if admin.site.is_registered(device_model):
        admin.site.unregister(device_model)


class StaffRoleInline(admin.TabularInline):
    """The member's roles, one row per venue and role; saved by ``staff_access_update``."""

    model = StaffRole
    fields = ["venue", "role"]
    extra = 1
    verbose_name = _("role at a venue")
    verbose_name_plural = _("roles at venues")


def _roles_of(formsets: list) -> list[tuple[Any, str]] | None:
    """The roles the inline's rows hold once saved, or None when it was not changed."""
    for formset in formsets:
        if formset.model is StaffRole and formset.has_changed():
            return [
                (row.cleaned_data["venue"], row.cleaned_data["role"])
                for row in formset.forms
                if row.cleaned_data
                and row.cleaned_data.get("venue")
                and not formset._should_delete_form(row)
            ]
    return None


@admin.register(User)
class StaffUserAdmin(ServiceWrites, UserAdmin):
    """Django's user admin, with a member's access (flags, roles per venue, own permissions)
    changed by ``staff_access_update``, which audits it with before and after. The groups
    follow the roles (they carry the admin's permissions) and are not edited here. A new
    account is a username and a password, with no access yet."""

    inlines = [StaffRoleInline]
    fieldsets = [
        (fields_name, {**options, "fields": [f for f in options["fields"] if f != "groups"]})
        for fields_name, options in UserAdmin.fieldsets
    ]
    list_filter = ["is_staff", "is_superuser", "is_active", "venue_roles__role"]
    actions = ["reset_second_factor"]

    @admin.action(
        description=_("Reset the second factor (they enrol again at their next login)"),
        permissions=["reset_second_factor"],
    )
    def reset_second_factor(self, request: HttpRequest, queryset: Any) -> None:
        members = list(queryset)
        for member in members:
            second_factor_reset(member=member, user=request.user)
        self.message_user(
            request,
            ngettext(
                "Reset the second factor of %(count)d member.",
                "Reset the second factor of %(count)d members.",
                len(members),
            )
            % {"count": len(members)},
            messages.SUCCESS,
        )

    def has_reset_second_factor_permission(self, request: HttpRequest) -> bool:
        return may_reset_second_factor(request.user)

    def get_inlines(self, request: HttpRequest, obj: Any) -> list:
        return self.inlines if obj is not None else []

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
        roles = _roles_of(formsets)
        if roles is not None:
            access["roles"] = roles
        if access:
            member = staff_access_update(member=member, user=request.user, **access)
        return member


@admin.register(LoginAttempt)
class LoginAttemptAdmin(ShowsOnly, admin.ModelAdmin):
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
