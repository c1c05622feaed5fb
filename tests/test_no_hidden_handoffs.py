"""No hidden hand-offs: what one step of a request computes reaches the next as a value it
returns, an argument or an object made for it, never as an attribute patched onto the
request (``request._x = ...``, ``request.__dict__[...]``, ``setattr(request, ...)``) for a
later step to find. The request keeps only what Django and DRF put there themselves; no
other object (a model instance, above all) is given a private attribute of the project's
or written through its ``__dict__``, but in Django's own ways, named below.

The test reads the project's sources (the floor and every game, migrations aside; the pure
engines build their frozen results through ``__dict__`` for speed and hold no request or
model)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("casino", "niuniu", "maubinh", "baccarat", "tablegames")

#: What the frameworks' own contracts set on a request: ``user`` and ``auser`` (Django's
#: authentication middleware; the console's terminal signs a request out the same way),
#: ``LANGUAGE_CODE`` (Django's locale middleware; an export's language is applied as it
#: does), ``accepted_renderer`` and ``accepted_media_type`` (DRF's content negotiation),
#: ``csp_nonce`` (django-csp's middleware, which ``casino.kernel.csp`` extends: once the
#: header is written, a nonce asked for is an error).
FRAMEWORK_ATTRIBUTES = {
    "user",
    "auser",
    "LANGUAGE_CODE",
    "accepted_renderer",
    "accepted_media_type",
    "csp_nonce",
}


#: Private attributes set on another object in Django's own ways: a model instance's
#: ``_state`` (made the saved row's), the prefetch caches ``casino.floor.outcomes.with_bets``
#: and ``with_boxes`` fill as ``prefetch_related`` does, and a user's roles and venues kept
#: for the request as Django's ``ModelBackend`` keeps its permissions
#: (``casino.staff.roles.remember_access``, and the user's operating-group roles,
#: ``casino.staff.roles.group_roles``).
DJANGO_WAYS = {
    "_state",
    "_result_cache",
    "_prefetch_done",
    "_prefetched_objects_cache",
    "_casino_roles",
    "_casino_venue_roles",
    "_casino_venue_ids",
    "_casino_group_roles",
}


def _sources(*, engines: bool = True) -> list[Path]:
    return [
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and (engines or "engine" not in path.parts)
    ]


def _is_request(node: ast.AST) -> bool:
    """``request``, ``http_request``, ``self.request``: a name that holds the request."""
    if isinstance(node, ast.Name):
        return node.id == "request" or node.id.endswith("_request")
    if isinstance(node, ast.Attribute):
        return node.attr == "request"
    return False


def handoffs_in(source: str) -> list[tuple[int, str]]:
    """Each line of ``source`` that writes an attribute of its own onto a request."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "__dict__" and _is_request(node.value):
            found.append((node.lineno, "the request's __dict__"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"setattr", "delattr"}
            and node.args
            and _is_request(node.args[0])
        ):
            found.append((node.lineno, f"{node.func.id}() on the request"))
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                parts = target.elts if isinstance(target, ast.Tuple | ast.List) else [target]
                for part in parts:
                    # ``request.x = ...``, not ``request.session[...] = ...`` (the session's)
                    if (
                        isinstance(part, ast.Attribute)
                        and _is_request(part.value)
                        and part.attr not in FRAMEWORK_ATTRIBUTES
                    ):
                        found.append((part.lineno, f"request.{part.attr} set"))
    return sorted(found)


def patches_in(source: str) -> list[tuple[int, str]]:
    """Each line of ``source`` that gives another object (not ``self`` or ``cls``) a private
    attribute, or writes through its ``__dict__``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                parts = target.elts if isinstance(target, ast.Tuple | ast.List) else [target]
                for part in parts:
                    if (
                        isinstance(part, ast.Subscript)
                        and isinstance(part.value, ast.Attribute)
                        and part.value.attr == "__dict__"
                    ):
                        found.append((part.lineno, f"{ast.unparse(part)} set"))
                        continue
                    if not isinstance(part, ast.Attribute) or not part.attr.startswith("_"):
                        continue
                    owner = part.value
                    if isinstance(owner, ast.Name) and owner.id in {"self", "cls"}:
                        continue
                    if part.attr in DJANGO_WAYS or part.attr.startswith("__"):
                        continue  # ``_state``, ..., a function's ``__name__``
                    found.append((part.lineno, f"{ast.unparse(part)} set"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"setdefault", "update", "__setitem__"}
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "__dict__"
        ):
            found.append((node.lineno, f"{ast.unparse(node.func)}()"))
    return sorted(found)


def test_no_project_code_patches_an_attribute_onto_the_request():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in _sources()
        for line, what in handoffs_in(path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_no_object_is_given_a_private_attribute_to_carry_a_result():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in _sources(engines=False)
        for line, what in patches_in(path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_the_guard_finds_each_kind_of_hand_off():
    source = """
def step(request, http_request, view):
    request._casino_notes = []
    request.__dict__.setdefault("_shown", []).append("x")
    request.__dict__["_instead"] = True
    setattr(request, "_refusal", object())
    http_request.login_refused = "locked"
    view.request.picked = 1
    request.user = None
    request.LANGUAGE_CODE = "vi"
    request.session["venue"] = 1
    request.GET = request.POST
"""
    assert [line for line, _what in handoffs_in(source)] == [3, 4, 5, 6, 7, 8, 12]


def test_the_guard_finds_a_private_attribute_patched_onto_an_object():
    source = """
def step(self, round_, table, obj):
    round_._dealt = object()
    obj.__dict__["_casino_amounts_venue"] = table
    obj.__dict__.setdefault("_zones", {})
    self._kept = 1
    table._state.adding = False
    column.__name__ = "x"
    round_.status = "settled"
"""
    assert [line for line, _what in patches_in(source)] == [3, 4, 5]
