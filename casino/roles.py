"""Staff roles are Django groups; a user works only at the venues they are staff of.

What each role may do on the floor, cumulatively:
- dealer: open sessions, deal and settle rounds, request voids at their venues' tables;
- supervisor: + approve voids, fills and credits, count drops, close sessions; watch the
  pit, read the venue's reports, and its tables, players and floor records in the admin;
- manager: + tables, players and rulesets;
- auditor: read everything at their venues, write nothing;
- cage: the cage's cashier: issues fill and credit slips and signs for chips at the cage;
- count: the count team: counts the drop boxes, independent of the pit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db import connection

from casino import games

DEALER, SUPERVISOR, MANAGER, AUDITOR = "dealer", "supervisor", "manager", "auditor"
CAGE, COUNT = "cage", "count"
ROLES = (DEALER, SUPERVISOR, MANAGER, AUDITOR, CAGE, COUNT)

#: Capabilities and the roles that have them.
PLAY = frozenset({DEALER, SUPERVISOR, MANAGER})
SUPERVISE = frozenset({SUPERVISOR, MANAGER})
MANAGE = frozenset({MANAGER})
#: The cage and the count team are apart from the pit: no pit role has their capability.
CASHIER = frozenset({CAGE})
COUNT_TEAM = frozenset({COUNT})
READ = frozenset(ROLES)

_RULESET_ADMIN = [
    ("casino", "view_venue"),
    ("casino", "change_venue"),
    ("casino", "view_ruleset"),
    ("casino", "add_ruleset"),
    ("casino", "view_auditevent"),
]

_FLOOR_RECORDS = [
    ("casino", f"view_{model}")
    for model in ("gamingday", "shift", "tablesession", "round", "box", "ledgerentry", "slip")
]

#: The floor's admin permissions per role (the floor itself is governed by the capabilities
#: above); each game adds those of its rulesets (``role_permissions``).
ROLE_PERMISSIONS: dict[str, list[tuple[str, str]]] = {
    DEALER: [],
    # The pit boss reads what the floor did; the services and the console decide the rest.
    SUPERVISOR: [
        ("casino", "view_venue"),
        ("casino", "view_table"),
        ("casino", "view_tablelimit"),
        ("casino", "view_player"),
        *_FLOOR_RECORDS,
    ],
    MANAGER: [
        *_RULESET_ADMIN,
        *_FLOOR_RECORDS,
        *[
            ("casino", f"{action}_{model}")
            for action in ("view", "add", "change")
            for model in ("table", "tablelimit", "player")
        ],
        ("casino", "delete_tablelimit"),
        # A change of a table's ruleset is asked on the table; a second manager decides it.
        ("casino", "view_tablerulesetchange"),
        ("casino", "decide_tablerulesetchange"),
    ],
    AUDITOR: [
        ("casino", "view_venue"),
        ("casino", "view_ruleset"),
        ("casino", "view_auditevent"),
        ("casino", "view_table"),
        ("casino", "view_tablelimit"),
        ("casino", "view_tablerulesetchange"),
        ("casino", "view_player"),
        *_FLOOR_RECORDS,
        # Failed logins and lockouts (casino/admin/access.py LoginAttemptAdmin).
        ("casino", "view_loginattempt"),
    ],
    # The cage and the count team work on their own screens; the admin shows them nothing.
    CAGE: [],
    COUNT: [],
}


def role_permissions(role: str) -> list[tuple[str, str]]:
    """The admin permissions (app label, codename) of ``role``: the floor's, then each
    installed game's on its rulesets (a manager edits them, an auditor reads them)."""
    permissions = list(ROLE_PERMISSIONS[role])
    for game in games.all_games():
        if role == MANAGER:
            permissions += game.admin.manager_permissions
        elif role == AUDITOR:
            permissions += game.admin.viewer_permissions
    return permissions


def role_group(role: str) -> Group:
    """The group for ``role`` with exactly its permissions (created or brought up to date)."""
    group, _created = Group.objects.get_or_create(name=role)
    wanted = [
        Permission.objects.get(content_type__app_label=app_label, codename=codename)
        for app_label, codename in role_permissions(role)
    ]
    group.permissions.set(wanted)
    return group


def access_selects(user: str) -> tuple[str, str]:
    """Two SELECTs of one column: the names of the groups of the user whose id is the SQL
    expression ``user``, and the venues they are staff of."""
    from casino.models import Venue

    groups = Group._meta.db_table
    user_groups = Group.user_set.through._meta.db_table
    venue_staff = Venue.staff.through._meta.db_table
    return (
        f"SELECT g.name FROM {groups} g JOIN {user_groups} ug ON ug.group_id = g.id "  # noqa: S608
        f"WHERE ug.user_id = {user}",
        f"SELECT s.venue_id FROM {venue_staff} s WHERE s.user_id = {user}",  # noqa: S608
    )


def remember_access(user: Any, *, groups: Iterable[str], venue_ids: Iterable[int]) -> None:
    """Keep the user's roles (of their ``groups``) and venues on the user object for the rest
    of the request."""
    user._casino_roles = frozenset(groups).intersection(ROLES)
    user._casino_venue_ids = frozenset(venue_ids)


def _load_access(user: Any) -> None:
    """Read the user's roles and venues in one query (every API request asks for both)."""
    roles, venues = access_selects("%s")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT r.name, NULL FROM ({roles}) r "  # noqa: S608
            f"UNION ALL SELECT NULL, v.venue_id FROM ({venues}) v",
            [user.pk, user.pk],
        )
        rows = cursor.fetchall()
    remember_access(
        user,
        groups=[role for role, _venue in rows if role is not None],
        venue_ids=[venue for role, venue in rows if role is None],
    )


def roles_of(user: Any) -> frozenset[str]:
    """The user's roles, read once per request and kept on the user object."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    if getattr(user, "_casino_roles", None) is None:
        _load_access(user)
    return user._casino_roles


def has_role(user: Any, roles: frozenset[str]) -> bool:
    return bool(roles_of(user) & roles)


def venue_ids(user: Any) -> frozenset[int]:
    """The venues the user works at (kept on the user object like the roles)."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    if getattr(user, "_casino_venue_ids", None) is None:
        _load_access(user)
    return user._casino_venue_ids


def can(user: Any, capability: frozenset[str], venue_id: int) -> bool:
    """Whether the user has ``capability`` at the venue."""
    return venue_id in venue_ids(user) and has_role(user, capability)


def forget(user: Any) -> None:
    """Drop the roles and venues kept on ``user`` (after changing them in the same request)."""
    user.__dict__.pop("_casino_roles", None)
    user.__dict__.pop("_casino_venue_ids", None)
