"""Who works where, and in which role: a superuser's job, audited with before and after.

A member of staff holds roles per venue (``StaffRole``, ``casino.staff.roles``) and works at the
venues whose ``staff`` they are in; a role at a venue puts them on its staff, and leaving a
venue's staff takes their roles there away. Their Django groups follow the roles they hold
(``casino.staff.roles.sync_groups``): they carry the admin's model permissions, never set by hand.
Together with the account's flags and own permissions that is what the member may do, so
every change of it is recorded.

Locking: a change locks the row it changes (the member's account, or the venue).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel.errors import Forbidden, InvalidInput
from casino.staff.models import StaffRole
from casino.staff.roles import ROLES, forget, sync_groups

if TYPE_CHECKING:
    from casino.venues.models import Venue

#: What ``staff_access_update`` may change.
ACCESS_FIELDS = ("is_active", "is_staff", "is_superuser", "roles", "user_permissions", "venues")
FLAGS = ("is_active", "is_staff", "is_superuser")


def _venue_model() -> type[Venue]:
    """The venue model, as a role names it: the staff refer to venues only through their
    relations (``StaffRole.venue``), so that the venues' code may build on the staff's."""
    return StaffRole._meta.get_field("venue").related_model


def _superuser_only(user: Any) -> None:
    if not getattr(user, "is_superuser", False):
        raise Forbidden(gettext("only a superuser gives staff their roles and venues"))


def _access(member: Any) -> dict[str, Any]:
    permissions = member.user_permissions.select_related("content_type")
    return {
        **{flag: getattr(member, flag) for flag in FLAGS},
        "roles": sorted(
            f"{code}:{role}"
            for code, role in StaffRole.objects.filter(user=member).values_list(
                "venue__code", "role"
            )
        ),
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


def _roles(values: Any) -> set[tuple[Venue, str]]:
    """``[(venue, "dealer"), ...]`` checked: each a venue and one of the roles."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise InvalidInput(gettext("give a list of (venue, role) pairs"), field="roles")
    pairs = set()
    for item in values:
        venue, role = item if isinstance(item, tuple | list) and len(item) == 2 else (None, None)
        if not isinstance(venue, _venue_model()) or role not in ROLES:
            raise InvalidInput(
                gettext("each role is a venue and one of: %(roles)s") % {"roles": ", ".join(ROLES)},
                field="roles",
            )
        pairs.add((venue, role))
    return pairs


def _roles_set(member: Any, pairs: set[tuple[Venue, str]]) -> None:
    """Make ``pairs`` the member's roles; each venue of one takes them on its staff."""
    wanted = {(venue.pk, role) for venue, role in pairs}
    held = set(StaffRole.objects.filter(user=member).values_list("venue_id", "role"))
    for venue_id, role in held - wanted:
        StaffRole.objects.filter(user=member, venue_id=venue_id, role=role).delete()
    StaffRole.objects.bulk_create(
        [StaffRole(user=member, venue_id=venue_id, role=role) for venue_id, role in wanted - held]
    )
    for venue in {venue for venue, _role in pairs}:
        venue.staff.add(member)


def _left(member: Any, venue_ids: set[int]) -> None:
    """``member`` no longer works at ``venue_ids``: their roles there go too."""
    StaffRole.objects.filter(user=member, venue_id__in=venue_ids).delete()


@transaction.atomic
def staff_access_update(*, member: Any, user: Any, **changes: Any) -> Any:
    """Change a member's flags (active, staff, superuser), roles (``[(venue, role), ...]``),
    own permissions and venues. ``roles``, ``user_permissions`` and ``venues`` replace them;
    a role's venue is added to their venues, and a venue left takes its roles along."""
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
    if "user_permissions" in changes:
        member.user_permissions.set(
            _many(changes["user_permissions"], Permission, "user_permissions")
        )
    if "venues" in changes:
        venues = _many(changes["venues"], _venue_model(), "venues")
        _left(member, set(member.venues.values_list("pk", flat=True)) - {v.pk for v in venues})
        member.venues.set(venues)
    if "roles" in changes:
        _roles_set(member, _roles(changes["roles"]))
    sync_groups(member)
    forget(member)
    after = _access(member)
    if after != before:
        audit_record(
            user=user,
            action=AuditAction.STAFF_UPDATE,
            obj=member,
            summary=f"changed {member.username}'s roles and access",
            before=before,
            after=after,
        )
    return member


def _venue_access(venue: Venue) -> dict[str, list[str]]:
    roles = StaffRole.objects.filter(venue=venue).values_list("user__username", "role")
    return {
        "staff": sorted(venue.staff.values_list("username", flat=True)),
        "roles": sorted(f"{username}:{role}" for username, role in roles),
    }


@transaction.atomic
def venue_staff_set(*, venue: Venue, user: Any, staff: Iterable[Any]) -> Venue:
    """Set who works at ``venue`` (its staff see its tables, players and records); those
    who leave it lose their roles there."""
    _superuser_only(user)
    venue = _venue_model().objects.select_for_update().get(pk=venue.pk)
    members = _many(staff, get_user_model(), "staff")
    before = _venue_access(venue)
    leaving = set(venue.staff.values_list("pk", flat=True)) - {member.pk for member in members}
    venue.staff.set(members)
    for member in get_user_model().objects.filter(pk__in=leaving):
        _left(member, {venue.pk})
        sync_groups(member)
    after = _venue_access(venue)
    if after != before:
        audit_record(
            user=user,
            action=AuditAction.VENUE_STAFF,
            obj=venue,
            venue=venue,
            summary=f"changed who works at {venue.code}",
            before=before,
            after=after,
        )
    return venue
