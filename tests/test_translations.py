"""Every string a person reads is translated in vi, ko and pt, in the one catalogue that owns it.

The messages are extracted as ``make messages`` extracts them (``manage.py messages``: Python
gettext calls, templates' ``{% translate %}`` and ``{% blocktranslate %}``), in a temporary copy
of the sources, so the tracked catalogues are never written. A game's own msgids go to its
app's catalogue (``<game>/locale``), the rest to the project's (``locale``); each catalogue
must hold every one of its messages with a translation that is not fuzzy, no msgid may be in
two catalogues (the first one Django reads would hide the other), and the committed ``.mo``
must say what its ``.po`` says.

Extraction reads the source, so a msgid made at run time (``_(category.label)``) is not seen:
write each msgid out, or mark the possible values with ``gettext_noop``.
"""

from __future__ import annotations

import ast
import gettext
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("vi", "ko", "pt")
#: What is not the product's: its tests, benchmarks, load tests and docs call no gettext.
NOT_EXTRACTED = shutil.ignore_patterns(
    ".*",
    "__pycache__",
    "tests",
    "bench",
    "loadtest",
    "docs",
    "staticfiles",
    "media",
    "*.sqlite3",
    "test-artifacts",
)
GETTEXT_TOOLS = ("xgettext", "msgmerge", "msgfmt")


@dataclass(frozen=True)
class Entry:
    context: str | None
    msgid: str
    plural: str | None
    msgstrs: tuple[str, ...]
    fuzzy: bool

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid

    @property
    def translated(self) -> bool:
        return bool(self.msgstrs) and all(self.msgstrs) and not self.fuzzy


def read_po(path: Path) -> dict[tuple[str | None, str], Entry]:
    """The live entries of a .po or .pot file (not the header, not the obsolete ``#~`` ones)."""
    entries = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        fuzzy, keyword = False, ""
        for line in block.splitlines():
            if line.startswith("#,"):
                fuzzy = fuzzy or "fuzzy" in line
            elif line.startswith('"'):
                fields[keyword] += ast.literal_eval(line)
            elif line and not line.startswith("#"):
                keyword, _, text = line.partition(" ")
                fields[keyword] = ast.literal_eval(text)
        if fields.get("msgid"):
            msgstrs = tuple(v for k, v in fields.items() if k.startswith("msgstr"))
            entry = Entry(
                fields.get("msgctxt"), fields["msgid"], fields.get("msgid_plural"), msgstrs, fuzzy
            )
            entries[entry.key] = entry
    return entries


def shown(key: tuple[str | None, str]) -> str:
    context, msgid = key
    return f"{msgid!r}" + (f" (context {context!r})" if context else "")


def catalogues(root: Path) -> list[Path]:
    """The ``locale`` folders under ``root``: the project's, then each game app's."""
    return [root / "locale", *sorted(root.glob("*/locale"))]


def po_path(folder: Path, language: str) -> Path:
    return folder / language / "LC_MESSAGES" / "django.po"


def named(folder: Path) -> str:
    return str(folder.relative_to(ROOT))


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str, dict[tuple[str | None, str], Entry]]:
    """Each catalogue's messages (by its folder, ``locale`` or ``<game>/locale``), extracted
    from a copy of the sources."""
    missing_tools = [tool for tool in GETTEXT_TOOLS if shutil.which(tool) is None]
    assert not missing_tools, (
        f"{', '.join(missing_tools)} not found: install GNU gettext (Debian: apt-get install "
        "gettext; .ci/run does it)"
    )
    copy = tmp_path_factory.mktemp("sources") / "project"
    shutil.copytree(ROOT, copy, ignore=NOT_EXTRACTED)
    command = [sys.executable, "manage.py", "messages", "--keep-pot"]
    done = subprocess.run(command, cwd=copy, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return {
        str(folder.relative_to(copy)): read_po(folder / "django.pot")
        for folder in catalogues(copy)
        if (folder / "django.pot").exists()
    }


def test_the_extraction_finds_python_and_template_strings(extracted):
    # a model's field name, a pgettext with its context, a template's {% translate %}
    every = {key for messages in extracted.values() for key in messages}
    assert {(None, "win odds (N:1)"), ("hand", "Niu Niu"), (None, "Settlement preview")} <= every


def test_a_game_s_own_messages_are_in_its_app_and_shared_ones_in_the_project(extracted):
    # Niu Niu's field and hand name are its own; the floor's preview, "Table" (the floor's
    # and two games' screens) and "House edge" (three games' panels, not the floor's) are
    # the project's
    assert {(None, "win odds (N:1)"), ("hand", "Niu Niu")} <= set(extracted["niuniu/locale"])
    project = {(None, "Settlement preview"), (None, "Table"), (None, "House edge")}
    assert project <= set(extracted["locale"])
    assert set(extracted) >= {"locale", "niuniu/locale", "maubinh/locale", "baccarat/locale"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(extracted, language):
    report = []
    for folder, messages in extracted.items():
        path = po_path(ROOT / folder, language)
        catalogue = read_po(path) if path.exists() else {}
        absent = [key for key in messages if key not in catalogue]
        fuzzy = [key for key in messages if key in catalogue and catalogue[key].fuzzy]
        empty = [
            key
            for key in messages
            if key in catalogue and not catalogue[key].fuzzy and not catalogue[key].translated
        ]
        report += [
            f"{title} in {named(path)}:\n" + "\n".join(f"  {shown(key)}" for key in keys)
            for title, keys in (
                ("not in the catalogue (run `make messages`, then translate it)", absent),
                ("fuzzy (check the translation, then remove the fuzzy flag)", fuzzy),
                ("untranslated", empty),
            )
            if keys
        ]
    if report:
        pytest.fail("\n".join(report), pytrace=False)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_message_is_in_two_catalogues(language):
    owner: dict[tuple[str | None, str], Path] = {}
    twice = []
    for folder in catalogues(ROOT):
        if not po_path(folder, language).exists():
            continue
        for key in read_po(po_path(folder, language)):
            if key in owner:
                twice.append(f"  {shown(key)}: {named(owner[key])} and {named(folder)}")
            owner.setdefault(key, folder)
    assert len(owner) > 1000  # the catalogues were read
    if twice:
        pytest.fail(
            f"in two {language} catalogues (run `make messages`: a msgid one game uses is in "
            "its app's, any other in the project's):\n" + "\n".join(twice),
            pytrace=False,
        )


def compiled_text(compiled: gettext.GNUTranslations, entry: Entry) -> str:
    """What the .mo gives for an entry: its singular (the first form, for one of a plural)."""
    if entry.plural is None:
        if entry.context is None:
            return compiled.gettext(entry.msgid)
        return compiled.pgettext(entry.context, entry.msgid)
    if entry.context is None:
        return compiled.ngettext(entry.msgid, entry.plural, 1)
    return compiled.npgettext(entry.context, entry.msgid, entry.plural, 1)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_says_what_the_po_says(language):
    stale = []
    for folder in catalogues(ROOT):
        po = po_path(folder, language)
        if not po.exists():
            continue
        with po.with_suffix(".mo").open("rb") as mo:
            compiled = gettext.GNUTranslations(mo)
        stale += [
            f"{named(po)}: {shown(entry.key)}"
            for entry in read_po(po).values()
            if entry.translated and compiled_text(compiled, entry) != entry.msgstrs[0]
        ]
    if stale:
        pytest.fail(
            "a django.mo is older than its .po; run `make messages`. They differ on:\n  "
            + "\n  ".join(stale),
            pytrace=False,
        )


# The admin's names: a model's, a field's, an app's, a fieldset's and an inline's title are
# read by the admin at run time, so extraction sees them only when they are marked.

#: Fields the admin never shows (a token's secret parts, a form's one-time key).
NEVER_SHOWN = {
    ("casino", "apitoken", "token_key"),
    ("casino", "apitoken", "digest"),
    ("integrity", "investigationnote", "key"),
}


def is_the_projects(app_config) -> bool:
    path = Path(app_config.path).resolve()
    return path.is_relative_to(ROOT.resolve()) and "site-packages" not in path.parts


def admin_names() -> dict[str, object]:
    """Every name the admin shows of the project's apps, by where it is shown."""
    from django.apps import apps
    from django.contrib import admin

    names: dict[str, object] = {}
    for app_config in apps.get_app_configs():
        if is_the_projects(app_config):
            names[f"app {app_config.label}"] = app_config.verbose_name

    def model_names(model, parent=None) -> None:
        opts = model._meta
        names[f"{opts.label} (one)"] = opts.verbose_name
        names[f"{opts.label} (many)"] = opts.verbose_name_plural
        for field in [*opts.fields, *opts.many_to_many]:
            if field.auto_created or (opts.app_label, opts.model_name, field.name) in NEVER_SHOWN:
                continue
            if parent is not None and field.is_relation and field.related_model is parent:
                continue  # an inline's key to the row it is shown in: hidden
            names[f"{opts.label}.{field.name}"] = field.verbose_name

    for model, model_admin in admin.site._registry.items():
        if not is_the_projects(apps.get_app_config(model._meta.app_label)):
            continue
        model_names(model)
        for title, _options in model_admin.fieldsets or ():
            if title is not None:
                names[f"{model._meta.label} fieldset {title}"] = title
        for inline in model_admin.inlines:
            model_names(inline.model, parent=model)
            for attribute in ("verbose_name", "verbose_name_plural"):
                if getattr(inline, attribute, None) is not None:
                    names[f"{inline.__name__}.{attribute}"] = getattr(inline, attribute)
    return names


def test_the_admins_names_are_marked_for_translation():
    from django.utils.functional import Promise

    names = admin_names()
    assert "venues.Table.chip_denominations" in names and "app casino" in names
    unmarked = [
        f"{where}: {name!r}" for where, name in names.items() if not isinstance(name, Promise)
    ]
    if unmarked:
        pytest.fail(
            "Not marked for translation (write gettext_lazy(...), e.g. verbose_name=_(...)):\n  "
            + "\n  ".join(unmarked),
            pytrace=False,
        )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_admins_names_are_translated(language):
    from django.utils import translation

    translated = {
        key[1]
        for folder in catalogues(ROOT)
        for key, entry in read_po(po_path(folder, language)).items()
        if entry.translated
    }
    with translation.override("en"):
        english = {where: str(name) for where, name in admin_names().items()}
    untranslated = [
        f"{where}: {text!r}" for where, text in english.items() if text not in translated
    ]
    if untranslated:
        pytest.fail(
            f"The admin shows these in English in {language} (no catalogue translates them):\n  "
            + "\n  ".join(untranslated),
            pytrace=False,
        )
