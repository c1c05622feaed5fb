"""Staff roles are Django groups; this module says what each may do in the admin."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

ROLE_PERMISSIONS: dict[str, list[tuple[str, str]]] = {
    "manager": [
        ("casino", "view_venue"),
        ("casino", "change_venue"),
        ("casino", "view_ruleset"),
        ("casino", "add_ruleset"),
        ("casino", "view_auditevent"),
        ("niuniu", "view_niuniurulesetversion"),
        ("niuniu", "add_niuniurulesetversion"),
        ("niuniu", "change_niuniurulesetversion"),
        ("niuniu", "approve_niuniurulesetversion"),
        ("niuniu", "view_paytablerow"),
        ("niuniu", "add_paytablerow"),
        ("niuniu", "change_paytablerow"),
        ("niuniu", "delete_paytablerow"),
        ("niuniu", "view_bonusline"),
        ("niuniu", "add_bonusline"),
        ("niuniu", "change_bonusline"),
        ("niuniu", "delete_bonusline"),
    ],
}


def role_group(role: str) -> Group:
    """The group for ``role`` with exactly its permissions (created or brought up to date)."""
    group, _created = Group.objects.get_or_create(name=role)
    wanted = [
        Permission.objects.get(content_type__app_label=app_label, codename=codename)
        for app_label, codename in ROLE_PERMISSIONS[role]
    ]
    group.permissions.set(wanted)
    return group
