"""The Baccarat engine is pure Python: no Django, only the standard library and the shared
card and money helpers."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ENGINE_FILES = sorted((ROOT / "baccarat" / "engine").glob("*.py"))
ALLOWED_PROJECT_MODULES = ("casino.kernel.cards", "casino.kernel.money", "baccarat.engine")


def imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_the_engine_files_are_found():
    names = {path.name for path in ENGINE_FILES}
    assert {"__init__.py", "rules.py", "tableau.py", "settle.py", "odds.py", "presets.py"} <= names


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda path: path.name)
def test_no_django_and_only_the_standard_library(path):
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert top != "django", f"{path.name} imports {module}"
        assert top in sys.stdlib_module_names or module.startswith(ALLOWED_PROJECT_MODULES), (
            f"{path.name} imports {module}"
        )
