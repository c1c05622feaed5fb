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


#: Contracts between the domain apps that hold for direct imports only, while the floor
#: (``casino.floor``, ``casino.floor.console``) and the API's shell (``casino.api``) still import
#: the apps above them and so links every app to every other indirectly
#: (docs/ARCHITECTURE.md, "Apps"). Each comes off this list when the core is split.
DIRECT_ONLY = {
    "Integrity sits above the floor's domains and the games: they import nothing of it",
    "The count sits above the cage and players: they import nothing of it",
    "The cage and the count do not know each other's services or screens",
    "Rulesets sit below the cage, the count, the players, the reports and integrity",
    "Venues sit below the cage, the count, the players, the reports and integrity",
}


def test_no_contract_lists_an_exception():
    for contract in _contracts():
        assert "ignore_imports" not in contract, contract["name"]
        indirect = contract.get("allow_indirect_imports", False)
        assert indirect is (contract["name"] in DIRECT_ONLY), contract["name"]


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
