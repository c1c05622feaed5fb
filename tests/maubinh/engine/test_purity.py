"""The engine is pure Python: the standard library and the card and money helpers only, no
Django (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import ast
import doctest
import importlib
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[3] / "maubinh" / "engine"
FILES = sorted(ENGINE.glob("*.py"))
#: casino.kernel.cards and casino.kernel.money are pure helpers (their own purity is tested
#: with Niu Niu's).
ALLOWED = {"casino.kernel.cards", "casino.kernel.money", "maubinh.engine"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_engine_has_modules():
    assert {p.name for p in FILES} >= {"__init__.py", "rules.py", "rows.py", "settle.py"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_django_import(path):
    source = path.read_text(encoding="utf-8")
    assert "django" not in {name.split(".")[0] for name in _imports(path)}, path
    assert "import django" not in source and "from django" not in source


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_only_the_standard_library_and_the_card_and_money_helpers(path):
    for name in _imports(path):
        top = name.split(".")[0]
        assert (
            top in sys.stdlib_module_names
            or top == "__future__"
            or any(name == allowed or name.startswith(allowed + ".") for allowed in ALLOWED)
        ), f"{path.name} imports {name}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_docstring_examples(path):
    module = importlib.import_module(f"maubinh.engine.{path.stem}".removesuffix(".__init__"))
    if path.stem == "__init__":
        module = importlib.import_module("maubinh.engine")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
