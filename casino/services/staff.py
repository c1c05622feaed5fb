"""Who works where, and in which role: a superuser's job, audited with before and after.

A member of staff's roles are their Django groups (``casino.roles``) and the venues they
work at are the venues whose ``staff`` they are in; together with the account's flags and
own permissions they are what the member may do, so every change of them is recorded.

Locking: a change locks the row it changes (the member's account, or the venue).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.utils.translation import gettext

from casino.errors import Forbidden, InvalidInput
from casino.models import Venue
from casino.roles import forget
from casino.services.audit import audit_record

#: What ``staff_access_update`` may change.
ACCESS_FIELDS = ("is_active", "is_staff", "is_superuser", "groups", "user_permissions", "venues")
FLAGS = ("is_active", "is_staff", "is_superuser")


def _superuser_only(user: Any) -> None:
    if not getattr(user, "is_superuser", False):
        raise Forbidden(gettext("only a superuser gives staff their roles and venues"))


def _access(member: Any) -> dict[str, Any]:
    permissions = member.user_permissions.select_related("content_type")
    return {
        **{flag: getattr(member, flag) for flag in FLAGS},
        "groups": sorted(member.groups.values_list("name", flat=True)),
        "user_permissions": sorted(f"{p.content_type.app_label}.{p.codename}" for p in permissions),
        "venues": sorted(member.venues.values_list("code", flat=True)),
    }


def _many(values: Any, model: type, field: str) -> list[Any]:
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise InvalidInput(gettext("give a list"), field=field)
    items = list(values)
    if not all(isinstance(item, model) for item in items):
        raise InvalidInput(gettext("give a list"), field=field)
    return items


@transaction.atomic
def staff_access_update(*, member: Any, user: Any, **changes: Any) -> Any:
    """Change a member's flags (active, staff, superuser), groups (their roles), own
    permissions and venues. ``groups``, ``user_permissions`` and ``venues`` replace them."""
    unknown = set(changes) - set(ACCESS_FIELDS)
    if unknown:
        raise InvalidInput(
            f"{', '.join(sorted(unknown))} cannot be changed here; a member's access is "
            f"{', '.join(ACCESS_FIELDS)}",
            field=sorted(unknown)[0],
        )
    _superuser_only(user)
    member = get_user_model().objects.select_for_update().get(pk=member.pk)
    if member.pk == user.pk and (
        changes.get("is_superuser", True) is False or changes.get("is_active", True) is False
    ):
        raise InvalidInput(
            gettext(
                "you cannot take away your own superuser status or deactivate yourself; "
                "ask another superuser"
            ),
            field="is_superuser" if changes.get("is_superuser", True) is False else "is_active",
        )
    before = _access(member)
    flags = [flag for flag in FLAGS if flag in changes]
    for flag in flags:
        setattr(member, flag, bool(changes[flag]))
    if flags:
        member.save(update_fields=flags)
    if "groups" in changes:
        member.groups.set(_many(changes["groups"], Group, "groups"))
    if "user_permissions" in changes:
        member.user_permissions.set(
            _many(changes["user_permissions"], Permission, "user_permissions")
        )
    if "venues" in changes:
        member.venues.set(_many(changes["venues"], Venue, "venues"))
    forget(member)
    after = _access(member)
    if after != before:
        audit_record(
            user=user,
            action="staff.update",
            obj=member,
            summary=f"changed {member.username}'s roles and access",
            before=before,
            after=after,
        )
    return member


@transaction.atomic
def venue_staff_set(*, venue: Venue, user: Any, staff: Iterable[Any]) -> Venue:
    """Set who works at ``venue`` (its staff see its tables, players and records)."""
    _superuser_only(user)
    venue = Venue.objects.select_for_update().get(pk=venue.pk)
    members = _many(staff, get_user_model(), "staff")
    before = sorted(venue.staff.values_list("username", flat=True))
    venue.staff.set(members)
    after = sorted(venue.staff.values_list("username", flat=True))
    if after != before:
        audit_record(
            user=user,
            action="venue.staff",
            obj=venue,
            venue=venue,
            summary=f"changed who works at {venue.code}",
            before={"staff": before},
            after={"staff": after},
        )
    return venue
