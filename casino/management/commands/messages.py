"""Extract every message into the catalogue that owns it: each game's in its app, the rest in
the project's.

A msgid belongs to a game's catalogue (``<game>/locale/<lang>/LC_MESSAGES/django.po``) when
only that game's files use it; one the floor uses, or two games use, belongs to the project's
(``LOCALE_PATHS``). Django reads the project's first and an app's after it, so a msgid in two
catalogues would be translated by whichever comes first: each is in exactly one.

It runs ``makemessages`` over the whole project into one template (each msgid with every
file that uses it), gives each msgid to its catalogue by those files, and merges every
catalogue from the translations all of them held before, so a msgid that changes catalogue
(a game's, once the floor uses it too) keeps its translation. ``make messages`` runs it, then
``compilemessages``.
"""

from __future__ import annotations

import ast
import os
import subprocess
import tempfile
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from casino import games

#: Not the product's: its tests, benchmarks, load tests and docs call no gettext.
NOT_EXTRACTED = ("tests", "bench", "loadtest", "docs", "media", "test-artifacts", "node_modules")

Key = tuple[str | None, str]


def languages() -> list[str]:
    return [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def game_locales() -> list[Path]:
    """The ``locale/`` folder of every registered game's app."""
    folders = {
        Path(apps.get_containing_app_config(type(game).__module__).path) / "locale"
        for game in games.all_games()
    }
    return sorted(folders)


def entry_key(block: str) -> Key | None:
    """A .po/.pot block's (context, msgid); None for the header and ``#~`` obsolete ones."""
    fields: dict[str, str] = {}
    keyword = ""
    for line in block.splitlines():
        if line.startswith('"') and keyword:
            fields[keyword] += ast.literal_eval(line)
        elif line and not line.startswith("#"):
            keyword, _, text = line.partition(" ")
            fields[keyword] = ast.literal_eval(text)
    if not fields.get("msgid"):
        return None
    return fields.get("msgctxt"), fields["msgid"]


def read_blocks(path: Path) -> tuple[str, dict[Key, str]]:
    """A .pot file's header block and its entries' blocks by key, as written."""
    header, entries = "", {}
    for block in path.read_text(encoding="utf-8").strip().split("\n\n"):
        key = entry_key(block)
        if key is None:
            header = header or block
        else:
            entries[key] = block
    return header, entries


def referenced(block: str) -> set[str]:
    """The files (relative to the project) a .pot entry says use it."""
    return {
        reference.rpartition(":")[0]
        for line in block.splitlines()
        if line.startswith("#: ")
        for reference in line[3:].split()
    }


def write_blocks(path: Path, header: str, blocks: list[str]) -> None:
    path.write_text("\n\n".join([header, *blocks]) + "\n", encoding="utf-8")


def run(*command: str | Path) -> None:
    # the GNU gettext tools, on this project's own files
    done = subprocess.run(  # noqa: S603
        [str(part) for part in command], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise CommandError(f"{' '.join(map(str, command))} failed:\n{done.stderr}")


class Command(BaseCommand):
    help = (
        "Extract the messages into the project's catalogue and each game's own "
        "(then run compilemessages)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--keep-pot",
            action="store_true",
            help="leave each catalogue's django.pot: the messages it holds",
        )

    def handle(self, *args, **options) -> None:
        root = Path(settings.BASE_DIR)
        project = Path(settings.LOCALE_PATHS[0])
        game_folders = game_locales()
        with tempfile.TemporaryDirectory() as work:
            held = self.translations_held([project, *game_folders], Path(work))
            self.extract(root)
            targets = self.split(root, project, game_folders, Path(work))
            for folder, pot in targets.items():
                for language in languages():
                    self.merge(held[language], pot, folder / language / "LC_MESSAGES")
                if options["keep_pot"]:
                    (folder / "django.pot").write_bytes(pot.read_bytes())
                else:
                    (folder / "django.pot").unlink(missing_ok=True)
            for folder in game_folders:
                if folder not in targets:
                    self.remove(folder)
        self.stdout.write(
            f"{len(targets)} catalogues: "
            + ", ".join(str(folder.relative_to(root)) for folder in targets)
        )

    def translations_held(self, locales: list[Path], work: Path) -> dict[str, Path]:
        """Every catalogue's translations of each language in one file, as they are before."""
        held = {}
        for language in languages():
            files = [
                folder / language / "LC_MESSAGES" / "django.po"
                for folder in locales
                if (folder / language / "LC_MESSAGES" / "django.po").exists()
            ]
            held[language] = work / f"{language}.po"
            if files:
                run("msgcat", "--use-first", "-o", held[language], *files)
        return held

    def extract(self, root: Path) -> None:
        """Every msgid of the project into the project's ``django.pot`` (an app's ``locale/``
        would take its files' msgids: they are ignored here)."""
        here = Path.cwd()
        os.chdir(root)
        try:
            call_command(
                "makemessages",
                locale=languages(),
                keep_pot=True,
                ignore_patterns=[*NOT_EXTRACTED, "*/locale"],
                verbosity=0,
            )
        finally:
            os.chdir(here)

    def split(
        self, root: Path, project: Path, game_locales: list[Path], work: Path
    ) -> dict[Path, Path]:
        """What each catalogue holds, as a .pot in ``work``: a game's the msgids only its
        files use; the project's every other one, in the order extracted."""
        header, entries = read_blocks(project / "django.pot")
        apps_at = {
            folder.parent.relative_to(root).as_posix() + "/": folder
            for folder in game_locales
            if folder.is_relative_to(root)
        }
        blocks_of: dict[Path, list[str]] = {project: []}
        for block in entries.values():
            users = {
                next((folder for at, folder in apps_at.items() if path.startswith(at)), project)
                for path in referenced(block)
            }
            owner = users.pop() if len(users) == 1 else project
            blocks_of.setdefault(owner, []).append(block)
        targets = {}
        for number, (folder, blocks) in enumerate(blocks_of.items()):
            targets[folder] = work / f"catalogue{number}.pot"
            write_blocks(targets[folder], header, blocks)
        return targets

    def remove(self, folder: Path) -> None:
        """A game's catalogue once no msgid is its own."""
        (folder / "django.pot").unlink(missing_ok=True)
        for language in languages():
            for name in ("django.po", "django.mo"):
                (folder / language / "LC_MESSAGES" / name).unlink(missing_ok=True)
        for empty in sorted(folder.glob("**/"), reverse=True):
            if not any(empty.iterdir()):
                empty.rmdir()

    def merge(self, held: Path, pot: Path, folder: Path) -> None:
        """The catalogue of ``pot``'s msgids with the translations ``held``, as makemessages
        merges (a new msgid close to a known one is offered it, marked fuzzy)."""
        folder.mkdir(parents=True, exist_ok=True)
        po = folder / "django.po"
        if held.exists():
            run("msgmerge", "-q", "--previous", "-o", po, held, pot)
        else:
            po.write_bytes(pot.read_bytes())
        run("msgattrib", "--no-obsolete", "-o", po, po)
