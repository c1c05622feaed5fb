"""An audit event's action is a member of an enumeration: the floor's ``AuditAction`` or a
game's own (its adapter's ``audit_actions``), never a string written at the call."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from casino import games
from casino.audit.models import AuditAction, AuditEvent, audit_action_choices

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ("casino", "niuniu", "maubinh", "baccarat", "tablegames")
#: The calls that write (or look up) an audit event's action.
AUDIT_CALLS = {"audit_record", "_audit", "AuditEvent"}


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _written(node: ast.expr) -> bool:
    """Whether the expression is (or may be) a string written at the call."""
    if isinstance(node, ast.IfExp):
        return _written(node.body) or _written(node.orelse)
    return isinstance(node, ast.JoinedStr | ast.BinOp) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def _audit_calls() -> list[tuple[str, int, ast.expr]]:
    found = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue  # applied history, kept as it ran
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and _name(node) in AUDIT_CALLS:
                    found += [
                        (f"{path.relative_to(ROOT)}:{node.lineno}", node.lineno, kw.value)
                        for kw in node.keywords
                        if kw.arg == "action"
                    ]
    return found


def test_every_audit_call_names_its_action_by_an_enumeration_member():
    calls = _audit_calls()
    assert len(calls) > 70  # the walk finds the services' calls
    written = [where for where, _line, value in calls if _written(value)]
    assert not written, f"audit actions written as strings (use AuditAction): {written}"


def test_the_walk_finds_a_string_written_at_the_call():
    tree = ast.parse('audit_record(user=u, action=f"cash.{kind}", obj=o)')
    (call,) = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    assert _written(call.keywords[1].value)
    tree = ast.parse('audit_record(action="a.b" if x else AuditAction.ROUND_VOID)')
    (call,) = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    assert _written(call.keywords[0].value)


def test_no_action_is_registered_twice_and_each_game_names_its_own():
    values = [value for value, _label in audit_action_choices()]
    assert len(values) == len(set(values))
    assert set(AuditAction.values) <= set(values)
    for game in games.all_games():
        for enum in game.audit_actions:
            assert set(enum.values) <= set(values), game.code
            assert not set(enum.values) & set(AuditAction.values), game.code


def test_the_field_takes_only_registered_actions():
    field = AuditEvent._meta.get_field("action")
    field.clean(AuditAction.ROUND_SETTLE, None)
    field.clean("rating.enter", None)  # a game's (tablegames)
    with pytest.raises(ValidationError, match="not a valid choice"):
        field.clean("round.settled", None)


def test_the_renumbering_migrations_action_is_a_member():
    migration = importlib.import_module("casino.migrations.0008_membership_key")
    assert migration.ACTION == AuditAction.PLAYER_RENUMBER
