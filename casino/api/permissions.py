"""Who may call what: the view's declared capability (``casino.staff.policy``) before any object
is looked up.

A view declares ``read_capability`` for its GET and ``write_capability`` for its writes
(``tests/casino/test_policy.py`` fails on a view that leaves one out; a view that declares
none refuses everyone). The venue is checked afterwards: objects at a venue the user does
not work at are not found (404), and the services check the capability at the object's
venue again. Anonymous requests are 401 (token auth is tried first, so DRF answers with
``WWW-Authenticate: Token``).
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from casino.staff.policy import Capability, holds_anywhere
from casino.staff.roles import ROLES, roles_of


def _roles_text(roles: frozenset[str], joiner: str = "or") -> str:
    """``a dealer, a supervisor or a manager``."""
    names = [f"{'an' if role[0] in 'aeiou' else 'a'} {role}" for role in ROLES if role in roles]
    if len(names) < 2:
        return names[0] if names else "nobody"
    return f"{', '.join(names[:-1])} {joiner} {names[-1]}"


def declared(view: Any, method: str) -> Capability | None:
    """The capability ``view`` declares for ``method`` (reads: GET, HEAD, OPTIONS): a
    viewset's action its own (``@declare`` on it), else the view's."""
    handler = getattr(view, getattr(view, "action", None) or "", None)
    name = "read_capability" if method in SAFE_METHODS else "write_capability"
    return (
        getattr(handler, "capability", None)
        or getattr(view, name, None)
        or getattr(view, "capability", None)
    )


class RolePermission(BasePermission):
    """A role with the view's declared capability for the method, at some venue."""

    def has_permission(self, request: Any, view: Any) -> bool:
        user = request.user
        if not (user and user.is_authenticated):
            return False
        if not hasattr(view, request.method.lower()):
            return True  # the view answers 405 for a method it does not have
        needed = declared(view, request.method)
        if needed is None:
            raise PermissionDenied("this endpoint declares no capability; nobody may call it")
        if holds_anywhere(user, needed):
            return True
        mine = roles_of(user)
        you = f"you are {_roles_text(mine, 'and')}" if mine else "you have no floor role"
        raise PermissionDenied(f"only {_roles_text(needed.roles)} may do this; {you}")
