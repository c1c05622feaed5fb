"""No hidden hand-offs: what one step of a request computes reaches the next as a value it
returns, an argument or an object made for it, never as an attribute patched onto the
request (``request._x = ...``, ``request.__dict__[...]``, ``setattr(request, ...)``) for a
later step to find. The request keeps only what Django and DRF put there themselves.

The test reads the project's sources (the floor and every game, migrations aside)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("casino", "niuniu", "maubinh", "baccarat", "tablegames")

#: What the frameworks' own contracts set on a request: ``user`` and ``auser`` (Django's
#: authentication middleware; the console's terminal signs a request out the same way),
#: ``LANGUAGE_CODE`` (Django's locale middleware; an export's language is applied as it
#: does), ``accepted_renderer`` and ``accepted_media_type`` (DRF's content negotiation).
FRAMEWORK_ATTRIBUTES = {
    "user",
    "auser",
    "LANGUAGE_CODE",
    "accepted_renderer",
    "accepted_media_type",
}


def _sources() -> list[Path]:
    return [
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
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


def test_no_project_code_patches_an_attribute_onto_the_request():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in _sources()
        for line, what in handoffs_in(path.read_text(encoding="utf-8"))
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
