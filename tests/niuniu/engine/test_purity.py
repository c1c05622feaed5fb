"""The engine is pure Python: it imports no Django and only what it is allowed to."""

import ast
import doctest
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ENGINE_FILES = sorted((ROOT / "niuniu" / "engine").glob("*.py"))
PURE_HELPERS = [ROOT / "casino" / "kernel" / "cards.py", ROOT / "casino" / "kernel" / "money.py"]
ALLOWED_PROJECT_MODULES = ("casino.kernel.cards", "casino.kernel.money", "niuniu.engine")


def imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            yield "<dynamic import>"


def test_the_engine_files_are_found():
    names = {path.name for path in ENGINE_FILES}
    assert {"__init__.py", "rules.py", "hands.py", "settle.py", "presets.py"} <= names


@pytest.mark.parametrize("path", ENGINE_FILES + PURE_HELPERS, ids=lambda path: path.name)
def test_no_django_and_only_the_standard_library(path):
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert top != "django", f"{path.name} imports {module}"
        allowed = (
            top in sys.stdlib_module_names
            or module.startswith(ALLOWED_PROJECT_MODULES)
            or top == "numpy"  # docs/ARCHITECTURE.md "Layers": numpy only in odds code
        )
        assert allowed, f"{path.name} imports {module}"


@pytest.mark.parametrize(
    "module",
    [
        "casino.kernel.cards",
        "casino.kernel.money",
        "niuniu.engine",
        "niuniu.engine.rules",
        "niuniu.engine.hands",
        "niuniu.engine.bonus",
        "niuniu.engine.settle",
        "niuniu.engine.order",
        "niuniu.engine.presets",
    ],
)
def test_doctests(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0
    assert result.failed == 0
