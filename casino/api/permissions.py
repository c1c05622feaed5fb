"""Who may call what: a role check before any object is looked up.

Reads need any floor role (dealer, supervisor, manager, auditor); a write needs the view's
``write_capability`` from ``casino.roles``. The venue is checked afterwards: objects at a
venue the user does not work at are not found (404), and the services check the role at
the object's venue again. Anonymous requests are 401 (token auth is tried first, so DRF
answers with ``WWW-Authenticate: Token``).
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from casino.roles import READ, ROLES, has_role, roles_of


def _roles_text(roles: frozenset[str], joiner: str = "or") -> str:
    """``a dealer, a supervisor or a manager``."""
    names = [f"{'an' if role[0] in 'aeiou' else 'a'} {role}" for role in ROLES if role in roles]
    if len(names) < 2:
        return names[0] if names else "nobody"
    return f"{', '.join(names[:-1])} {joiner} {names[-1]}"


class RolePermission(BasePermission):
    """Reads: any floor role. Writes: a role in the view's ``write_capability``."""

    def has_permission(self, request: Any, view: Any) -> bool:
        user = request.user
        if not (user and user.is_authenticated):
            return False
        if not hasattr(view, request.method.lower()):
            return True  # the view answers 405 for a method it does not have
        needed = READ if request.method in SAFE_METHODS else view.write_capability
        if has_role(user, needed):
            return True
        mine = roles_of(user)
        you = f"you are {_roles_text(mine, 'and')}" if mine else "you have no floor role"
        raise PermissionDenied(f"only {_roles_text(needed)} may do this; {you}")
