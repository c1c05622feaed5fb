"""Every string a person reads is translated in vi, ko and pt.

The messages are extracted as ``manage.py makemessages`` extracts them (Python gettext calls,
templates' ``{% translate %}`` and ``{% blocktranslate %}``), in a temporary copy of the sources,
so the tracked catalogues are never written; each catalogue must hold every one of them with a
translation that is not fuzzy, and the committed ``.mo`` must say what its ``.po`` says.

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


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[tuple[str | None, str], Entry]:
    """The project's messages, extracted from a copy of its sources."""
    missing_tools = [tool for tool in GETTEXT_TOOLS if shutil.which(tool) is None]
    assert not missing_tools, (
        f"{', '.join(missing_tools)} not found: install GNU gettext (Debian: apt-get install "
        "gettext; .ci/run does it)"
    )
    copy = tmp_path_factory.mktemp("sources") / "project"
    shutil.copytree(ROOT, copy, ignore=NOT_EXTRACTED)
    command = [sys.executable, "manage.py", "makemessages", "--locale", "vi", "--keep-pot"]
    done = subprocess.run(command, cwd=copy, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return read_po(copy / "locale" / "django.pot")


def test_the_extraction_finds_python_and_template_strings(extracted):
    # a model's field name, a pgettext with its context, a template's {% translate %}
    assert {(None, "win odds (N:1)"), ("hand", "Niu Niu"), (None, "Settlement preview")} <= set(
        extracted
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(extracted, language):
    catalogue = read_po(ROOT / "locale" / language / "LC_MESSAGES" / "django.po")
    absent = [key for key in extracted if key not in catalogue]
    fuzzy = [key for key in extracted if key in catalogue and catalogue[key].fuzzy]
    empty = [
        key
        for key in extracted
        if key in catalogue and not catalogue[key].fuzzy and not catalogue[key].translated
    ]
    report = [
        f"{title} in locale/{language}/LC_MESSAGES/django.po:\n"
        + "\n".join(f"  {shown(key)}" for key in keys)
        for title, keys in (
            ("not in the catalogue (add it with its translation)", absent),
            ("fuzzy (check the translation, then remove the fuzzy flag)", fuzzy),
            ("untranslated", empty),
        )
        if keys
    ]
    if report:
        pytest.fail("\n".join(report), pytrace=False)


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
    folder = ROOT / "locale" / language / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    stale = [
        shown(entry.key)
        for entry in read_po(folder / "django.po").values()
        if entry.translated and compiled_text(compiled, entry) != entry.msgstrs[0]
    ]
    if stale:
        pytest.fail(
            f"locale/{language}/LC_MESSAGES/django.mo is older than its .po; run "
            f"`DEBUG=1 manage.py compilemessages -l {language}`. It differs on:\n  "
            + "\n  ".join(stale),
            pytrace=False,
        )
