"""The import contracts of ``pyproject.toml`` hold (``lint-imports``), and the engines'
contract names every module of each game's app but its engine."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from casino import games

ROOT = Path(__file__).resolve().parent.parent


def _contracts() -> list[dict]:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["tool"]["importlinter"]["contracts"]


def test_the_import_contracts_hold():
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "broken" not in done.stdout.split("Contracts:")[-1].replace("0 broken", "")


#: Contracts that hold for direct imports only (none: every contract holds for the chains of
#: imports too; one made direct-only is named here with its reason).
DIRECT_ONLY: set[str] = set()

#: The layers contract's exceptions, each a decision whose reason is written beside it in
#: ``pyproject.toml``: a new one is made here, not only there.
LAYER_EXCEPTIONS = {
    "casino.staff.admin -> casino.admin.base",
}


def test_only_the_layers_list_exceptions_and_each_is_known():
    for contract in _contracts():
        indirect = contract.get("allow_indirect_imports", False)
        assert indirect is (contract["name"] in DIRECT_ONLY), contract["name"]
        if contract["type"] == "layers":
            assert set(contract.get("ignore_imports", [])) == LAYER_EXCEPTIONS
        else:
            assert "ignore_imports" not in contract, contract["name"]


def _app_of(module: str, apps: set[str]) -> str | None:
    parts = module.split(".")
    app = ".".join(parts[:2])
    return app if app in apps and ".migrations" not in module else None


def test_no_import_circle_spans_two_apps():
    import grimp

    apps = {
        f"casino.{path.name}" for path in (ROOT / "casino").iterdir() if (path / "apps.py").exists()
    }
    graph = grimp.build_graph("casino", exclude_type_checking_imports=True)
    edges = set()
    for module in graph.modules:
        source = _app_of(module, apps)
        if source is None:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            target = _app_of(imported, apps)
            if target is not None and target != source:
                edges.add((source, target))
    circles = {tuple(sorted(pair)) for pair in edges if pair[::-1] in edges}
    assert not circles, f"apps that import each other: {sorted(circles)}"


def test_the_kernel_is_forbidden_every_other_part_of_the_project():
    contracts = {contract["name"]: contract for contract in _contracts()}
    kernel = contracts["The kernel imports nothing else of the project"]
    parts = {
        f"casino.{path.stem if path.suffix == '.py' else path.name}"
        for path in (ROOT / "casino").iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists())
    } - {"casino.kernel"}
    missing = parts | {game.code for game in games.all_games()}
    missing -= set(kernel["forbidden_modules"])
    assert not missing, f"the kernel's contract does not forbid {sorted(missing)}"


@pytest.mark.parametrize("game", [game.code for game in games.all_games()])
def test_every_game_is_under_every_contract(game):
    contracts = {contract["name"]: contract for contract in _contracts()}
    floor = contracts["The floor imports no game: it reaches games only through casino.games"]
    assert game in floor["forbidden_modules"]
    assert (
        game in contracts["Games import neither each other nor anything of the other's"]["modules"]
    )
    engines = contracts["Engines import no Django and nothing of their app"]
    assert f"{game}.engine" in engines["source_modules"]
    app = ROOT / game
    children = {
        path.stem if path.suffix == ".py" else path.name
        for path in app.iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists())
    }
    missing = {f"{game}.{child}" for child in children - {"engine"}} - set(
        engines["forbidden_modules"]
    )
    assert not missing, f"the engines' contract does not forbid {sorted(missing)}"
    assert (
        f"{game}.selectors"
        in contracts["Selectors read; they import no services"]["source_modules"]
    )
