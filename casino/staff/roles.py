"""Staff roles are held per venue (``StaffRole``); a user works only at the venues they
are staff of, in the roles they hold there.

What each role may do on the floor, cumulatively:
- dealer: count the tray to open and close sessions, deal and settle rounds, request voids,
  fills and credits, sign for a slip's chips at their venues' tables;
- supervisor: + confirm the dealer's count at opening and closing, approve voids, sign for
  a slip's chips as the supervisor, enter a drop, close sessions; watch the pit and the
  floor view of the pits they are named to, schedule a change of a table's limits, read the
  venue's reports, and its tables, players and floor records in the admin;
- manager: + tables, players, rulesets and pits (the floor view of every pit of the venue);
- auditor: read everything at their venues, write nothing;
- cage: the cage's cashier: issues fill and credit slips and signs for chips at the cage;
- count: the count team: counts the drop boxes, independent of the pit;
- compliance: anti-money-laundering: suspicious-activity cases, their review by a second
  compliance officer and their filing, and the large-cash-transaction report files. No
  other role reads a case: the player's dealer and supervisor never do, nor the venue's
  managers; auditors read the audit trail of the cases' steps, not the cases.

What each act needs, and who of those roles is still refused it (segregation of duties), is
said in ``casino.staff.policy``, on top of these roles.

The group's roles are held at an operating group (``casino.group``), above its venues: a
group manager reads every venue's figures of the group and proposes and approves its
exchange rates; a group auditor reads them and changes nothing. They are not venue roles:
they give nothing at a venue's floor, and a venue's role gives nothing of the group but that
venue's own lines (``casino.staff.policy``). The group app answers which it holds
(``group_roles_select``, a hook: the staff sit below every app that knows a group).

Each role's Django group carries the admin's model permissions: a member is in the group of
every role they hold somewhere (``sync_groups``), and the admin keeps each permission to the
venues where a role having it is held (``venues_permitted``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.db.models import Q

from casino.kernel import registry
from casino.kernel.hooks import Hook

DEALER, SUPERVISOR, MANAGER, AUDITOR = "dealer", "supervisor", "manager", "auditor"
CAGE, COUNT = "cage", "count"
COMPLIANCE = "compliance"
#: The roles of the floor, the cage and the count: every role but compliance's.
FLOOR_ROLES = (DEALER, SUPERVISOR, MANAGER, AUDITOR, CAGE, COUNT)
ROLES = (*FLOOR_ROLES, COMPLIANCE)

#: Capabilities and the roles that have them.
PLAY = frozenset({DEALER, SUPERVISOR, MANAGER})
SUPERVISE = frozenset({SUPERVISOR, MANAGER})
MANAGE = frozenset({MANAGER})
#: The cage and the count team are apart from the pit: no pit role has their capability.
CASHIER = frozenset({CAGE})
COUNT_TEAM = frozenset({COUNT})
#: Who reads the count's figures per table (win, win/drop): the count team and those who
#: watch the tables' results.
COUNT_FIGURES = frozenset({SUPERVISOR, MANAGER, AUDITOR, COUNT})
#: Who reads the venue's floor: the floor's roles; compliance works on its own screens.
READ = frozenset(FLOOR_ROLES)
#: Suspicious-activity cases and large-cash-transaction reports: compliance staff only.
COMPLIANCE_WORK = frozenset({COMPLIANCE})

#: The operating group's roles (held per group, never at a venue).
GROUP_MANAGER, GROUP_AUDITOR = "group manager", "group auditor"
GROUP_ROLES = (GROUP_MANAGER, GROUP_AUDITOR)
#: Who reads the group's consolidated figures, and who proposes and approves its rates.
GROUP_READ = frozenset(GROUP_ROLES)
GROUP_RATES = frozenset({GROUP_MANAGER})

#: The user's group roles as a SELECT of one column, ``"<group id>:<role>"``, of the user
#: whose id is the SQL expression given, answered by ``casino.group``: read alone by
#: ``group_roles``, and with the user's row by ``casino.staff.signed_in``.
group_roles_select: Hook[[str], str] = Hook("group_roles_select", answered_by="casino.group")

_RULESET_ADMIN = [
    ("venues", "view_venue"),
    ("venues", "change_venue"),
    ("rulesets", "view_ruleset"),
    ("rulesets", "add_ruleset"),
    ("audit", "view_auditevent"),
]

_FLOOR_RECORDS = [
    ("floor", f"view_{model}")
    for model in (
        "tablesession",
        "round",
        "box",
    )
] + [
    ("venues", "view_gamingday"),
    ("venues", "view_shift"),
    ("ledger", "view_ledgerentry"),
    ("cage", "view_slip"),
    # Read; a supervisor or a manager links one to a member on its page (casino/cage/admin.py).
    ("cage", "view_unknownpatron"),
    ("integrity", "view_fluctuationinvestigation"),
    ("integrity", "view_investigationnote"),
]

#: The floor's admin permissions per role (the floor itself is governed by the capabilities
#: above); each game adds those of its rulesets (``role_permissions``).
ROLE_PERMISSIONS: dict[str, list[tuple[str, str]]] = {
    DEALER: [],
    # The pit boss reads what the floor did; the services and the console decide the rest.
    SUPERVISOR: [
        ("venues", "view_venue"),
        ("venues", "view_table"),
        ("venues", "view_tablelimit"),
        ("players", "view_player"),
        ("venues", "view_pit"),
        ("venues", "view_tablelimitchange"),
        *_FLOOR_RECORDS,
    ],
    MANAGER: [
        *_RULESET_ADMIN,
        *_FLOOR_RECORDS,
        *[
            ("venues", f"{action}_{model}")
            for action in ("view", "add", "change")
            for model in ("table", "tablelimit", "pit")
        ],
        *[("players", f"{action}_player") for action in ("view", "add", "change")],
        ("venues", "view_tablelimitchange"),
        ("venues", "delete_tablelimit"),
        # A change of a table's ruleset is asked on the table; a second manager decides it.
        ("venues", "view_tablerulesetchange"),
        ("venues", "decide_tablerulesetchange"),
    ],
    AUDITOR: [
        ("venues", "view_venue"),
        ("rulesets", "view_ruleset"),
        ("audit", "view_auditevent"),
        ("venues", "view_table"),
        ("venues", "view_tablelimit"),
        ("venues", "view_tablerulesetchange"),
        ("players", "view_player"),
        ("venues", "view_pit"),
        ("venues", "view_tablelimitchange"),
        *_FLOOR_RECORDS,
        # Failed logins and lockouts (casino/staff/admin.py LoginAttemptAdmin).
        ("staff", "view_loginattempt"),
    ],
    # The cage and the count team work on their own screens; the admin shows them nothing.
    CAGE: [],
    COUNT: [],
    # A case is read in the admin by its venue's compliance staff only (never changed there).
    COMPLIANCE: [
        ("compliance", "view_suspicioncase"),
        ("compliance", "view_casestep"),
    ],
}


def role_permissions(role: str) -> list[tuple[str, str]]:
    """The admin permissions (app label, codename) of ``role``: the floor's, then each
    installed game's on its rulesets (a manager edits them, an auditor reads them)."""
    permissions = list(ROLE_PERMISSIONS[role])
    for game in registry.all_games():
        if role == MANAGER:
            permissions += game.admin.manager_permissions
        elif role == AUDITOR:
            permissions += game.admin.viewer_permissions
    return permissions


def role_group(role: str) -> Group:
    """The group for ``role`` with exactly its permissions (created or brought up to date)."""
    group, _created = Group.objects.get_or_create(name=role)
    keys = set(role_permissions(role))
    # One query for all of them (a role has a dozen or more), each named by app and codename.
    matching = Q()
    for app_label, codename in keys:
        matching |= Q(content_type__app_label=app_label, codename=codename)
    wanted = (
        list(Permission.objects.filter(matching).select_related("content_type")) if keys else []
    )
    missing = keys - {(p.content_type.app_label, p.codename) for p in wanted}
    if missing:
        names = ", ".join(f"{app}.{codename}" for app, codename in sorted(missing))
        raise Permission.DoesNotExist(f"no such permission: {names} (run migrate)")
    group.permissions.set(wanted)
    return group


def access_selects(user: str) -> tuple[str, str]:
    """Two SELECTs of one column: the roles of the user whose id is the SQL expression
    ``user``, each as ``"<venue id>:<role>"``, and the venues they are staff of."""
    from django.contrib.auth import get_user_model

    from casino.staff.models import StaffRole

    # ``Venue.staff``'s table, reached from the user's side of the relation.
    venue_staff = get_user_model()._meta.get_field("venues").through._meta.db_table
    return (
        f"SELECT r.venue_id || ':' || r.role AS held FROM {StaffRole._meta.db_table} r "  # noqa: S608
        f"WHERE r.user_id = {user}",
        f"SELECT s.venue_id FROM {venue_staff} s WHERE s.user_id = {user}",  # noqa: S608
    )


def remember_access(user: Any, *, roles: Iterable[str], venue_ids: Iterable[int]) -> None:
    """Keep the user's roles per venue (``"<venue id>:<role>"``, as ``access_selects`` reads
    them) and the venues they work at on the user object for the rest of the request."""
    at: dict[int, set[str]] = {}
    for held in roles:
        venue_id, _colon, role = held.partition(":")
        if role in ROLES:
            at.setdefault(int(venue_id), set()).add(role)
    user._casino_venue_roles = {venue_id: frozenset(held) for venue_id, held in at.items()}
    user._casino_roles = frozenset().union(*user._casino_venue_roles.values())
    user._casino_venue_ids = frozenset(venue_ids)


def _load_access(user: Any) -> None:
    """Read the user's roles and venues in one query (every API request asks for both)."""
    roles, venues = access_selects("%s")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT r.held, NULL FROM ({roles}) r "  # noqa: S608
            f"UNION ALL SELECT NULL, v.venue_id FROM ({venues}) v",
            [user.pk, user.pk],
        )
        rows = cursor.fetchall()
    remember_access(
        user,
        roles=[held for held, _venue in rows if held is not None],
        venue_ids=[venue for held, venue in rows if held is None],
    )


def _access(user: Any, name: str) -> Any:
    if getattr(user, name, None) is None:
        _load_access(user)
    return getattr(user, name)


def roles_of(user: Any) -> frozenset[str]:
    """The roles the user holds at any venue, read once per request and kept on the user
    object. A decision about a venue's object asks ``can`` (the roles held there)."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    return _access(user, "_casino_roles")


def roles_at(user: Any, venue_id: int) -> frozenset[str]:
    """The roles the user holds at the venue."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    return _access(user, "_casino_venue_roles").get(venue_id, frozenset())


def venue_roles(user: Any) -> dict[int, frozenset[str]]:
    """The user's roles by venue (venues where they hold none are left out)."""
    if not getattr(user, "is_authenticated", False):
        return {}
    return _access(user, "_casino_venue_roles")


def has_role(user: Any, roles: frozenset[str]) -> bool:
    """Whether the user holds one of ``roles`` at some venue (a first gate, before the
    object's venue is known; ``can`` decides at the venue)."""
    return bool(roles_of(user) & roles)


def venue_ids(user: Any) -> frozenset[int]:
    """The venues the user works at (kept on the user object like the roles)."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    return _access(user, "_casino_venue_ids")


def can(user: Any, capability: frozenset[str], venue_id: int) -> bool:
    """Whether the user holds a role with ``capability`` at the venue."""
    return bool(roles_at(user, venue_id) & capability) and venue_id in venue_ids(user)


def venues_where(user: Any, capability: frozenset[str]) -> frozenset[int]:
    """The venues at which the user has ``capability``."""
    return frozenset(
        venue_id for venue_id in venue_ids(user) if roles_at(user, venue_id) & capability
    )


@lru_cache(maxsize=1)  # one table: it takes no argument
def _permission_roles() -> dict[tuple[str, str], frozenset[str]]:
    """Each admin permission (app label, codename) and the roles that have it."""
    holders: dict[tuple[str, str], set[str]] = {}
    for role in ROLES:
        for permission in role_permissions(role):
            holders.setdefault(permission, set()).add(role)
    return {permission: frozenset(roles) for permission, roles in holders.items()}


def venues_permitted(user: Any, app_label: str, codename: str) -> frozenset[int]:
    """The venues at which the user holds a role that has the admin permission: a manager
    at one venue and a dealer at another changes tables at the first only."""
    roles = _permission_roles().get((app_label, codename), frozenset())
    return venues_where(user, roles)


def remember_group_roles(user: Any, held: Iterable[str]) -> None:
    """Keep the user's group roles (``"<group id>:<role>"``) on the user for the request."""
    at: dict[int, set[str]] = {}
    for grant in held:
        group_id, _colon, role = grant.partition(":")
        at.setdefault(int(group_id), set()).add(role)
    user._casino_group_roles = {group_id: frozenset(roles) for group_id, roles in at.items()}


def group_roles(user: Any) -> dict[int, frozenset[str]]:
    """The user's roles by operating group (read once per request, kept on the user)."""
    if not getattr(user, "is_authenticated", False):
        return {}
    if getattr(user, "_casino_group_roles", None) is None:
        with connection.cursor() as cursor:
            cursor.execute(group_roles_select("%s"), [user.pk])
            remember_group_roles(user, [held for (held,) in cursor.fetchall()])
    return user._casino_group_roles


def groups_where(user: Any, capability: frozenset[str]) -> frozenset[int]:
    """The operating groups at which the user holds a group role with ``capability``."""
    return frozenset(group for group, held in group_roles(user).items() if held & capability)


def grant(member: Any, venue: Any, role: str) -> None:
    """Give ``member`` ``role`` at ``venue`` (and a place on its staff), and keep their
    groups, which carry the admin's model permissions, in step. The staff service checks
    and audits; this only writes."""
    from casino.staff.models import StaffRole

    if role not in ROLES:
        raise ValueError(f"{role!r} is not a role; the roles are {', '.join(ROLES)}")
    venue.staff.add(member)
    StaffRole.objects.get_or_create(user=member, venue=venue, role=role)
    sync_groups(member)


def sync_groups(member: Any) -> None:
    """Put ``member`` in the group of each role they hold somewhere, and in no other role's
    group: the admin's model permissions follow, and ``VenueScopedAdmin`` keeps each to the
    venues where the role is held."""
    from casino.staff.models import StaffRole

    held = set(StaffRole.objects.filter(user=member).values_list("role", flat=True))
    current = set(member.groups.filter(name__in=ROLES).values_list("name", flat=True))
    if held - current:
        member.groups.add(*[role_group(role) for role in sorted(held - current)])
    if current - held:
        member.groups.remove(*Group.objects.filter(name__in=current - held))
    forget(member)


def forget(user: Any) -> None:
    """Drop the roles and venues kept on ``user`` (after changing them in the same request)."""
    user.__dict__.pop("_casino_roles", None)
    user.__dict__.pop("_casino_venue_roles", None)
    user.__dict__.pop("_casino_venue_ids", None)
    user.__dict__.pop("_casino_group_roles", None)
