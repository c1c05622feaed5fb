"""The floor names no game: no import of a game's app and no game's code or name in any
``casino/`` file or the floor's templates (the games plug in through ``casino.games``), but
``INSTALLED_APPS`` (how Django plugs an app in) and migrations already applied."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from casino import games

ROOT = Path(__file__).resolve().parent.parent
FLOOR_TEMPLATES = ("console", "reports", "registration", "admin/casino")


def _floor_files() -> list[Path]:
    files = [
        path
        for path in (ROOT / "casino").rglob("*")
        if path.is_file()
        and path.suffix in {".py", ".html", ".txt", ".md"}
        and "migrations" not in path.parts
    ]
    for folder in FLOOR_TEMPLATES:
        files += [path for path in (ROOT / "templates" / folder).rglob("*.html")]
    files += list((ROOT / "templates").glob("*.html"))
    return files


def _names(game: games.GameAdapter) -> list[str]:
    from django.utils import translation

    with translation.override("en"):
        return [game.code, str(game.name)]


@pytest.mark.parametrize("code", [game.code for game in games.all_games()])
def test_no_floor_file_names_the_game(code):
    game = games.get(code)
    pattern = re.compile("|".join(re.escape(name) for name in _names(game)), re.IGNORECASE)
    found = []
    for path in _floor_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    settings = ROOT / "casino" / "settings.py"
    allowed = {f"{settings.relative_to(ROOT)}:{n}" for n in _installed_apps_lines(settings)}
    found = [line for line in found if line.split(": ", 1)[0] not in allowed]
    assert not found, "\n".join(found)


def _installed_apps_lines(settings: Path) -> set[int]:
    """The line numbers of the ``INSTALLED_APPS`` list in the settings."""
    lines = settings.read_text(encoding="utf-8").splitlines()
    start = next(n for n, line in enumerate(lines, 1) if line.startswith("INSTALLED_APPS"))
    end = next(n for n, line in enumerate(lines, 1) if n > start and line.startswith("]"))
    return set(range(start, end + 1))
