"""Print the "Who may do what" table of ``casino.staff.policy``, or write it into
``docs/OPERATIONS.md`` between its markers (``tests/casino/test_policy.py`` fails when the
doc's table is not what this renders).

    manage.py policy_table           # prints it
    manage.py policy_table --write   # brings docs/OPERATIONS.md up to date
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from casino.staff.policy import who_may_do_what

DOC = Path(settings.BASE_DIR) / "docs" / "OPERATIONS.md"
BEGIN = "<!-- who-may-do-what: begin (manage.py policy_table --write) -->"
END = "<!-- who-may-do-what: end -->"


def table_in(text: str) -> str:
    """The table between the markers of ``text`` (empty when they are missing)."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        return ""
    return text[start + len(BEGIN) : end].strip("\n") + "\n"


class Command(BaseCommand):
    help = "Print the policy's who-may-do-what table, or write it into docs/OPERATIONS.md."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--write", action="store_true", help="update docs/OPERATIONS.md")

    def handle(self, *args, write: bool = False, **options) -> None:
        table = who_may_do_what()
        if not write:
            self.stdout.write(table, ending="")
            return
        text = DOC.read_text(encoding="utf-8")
        start, end = text.find(BEGIN), text.find(END)
        if start < 0 or end < start:
            raise CommandError(f"{DOC} has no markers {BEGIN!r} ... {END!r}: add them first")
        DOC.write_text(f"{text[: start + len(BEGIN)]}\n{table}{text[end:]}", encoding="utf-8")
        self.stdout.write(f"wrote the table into {DOC}")
