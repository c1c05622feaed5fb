"""Search the cash log for laundering patterns and open a case for each new finding
(``casino.compliance.detection``): a venue's gaming date, or every venue's day just ended."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.compliance.detection import patterns_detect, patterns_detect_ended
from casino.venues.models import Venue


class Command(BaseCommand):
    help = (
        "Search the cash log for structuring and little play; a case is opened once per "
        "finding. Without --venue: every venue's gaming day just ended."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--venue", help="the venue's code")
        parser.add_argument("--date", help="the gaming date, YYYY-MM-DD (with --venue)")

    def handle(self, *args: Any, venue: str | None = None, date: str | None = None, **options):
        if venue is None:
            results = patterns_detect_ended()
        else:
            found = Venue.objects.filter(code=venue).first()
            if found is None:
                raise CommandError(f"no venue {venue!r}: give a venue's code")
            if date is None:
                raise CommandError("give the gaming date with --date YYYY-MM-DD")
            results = [(found, patterns_detect(found, _date(date)))]
        for where, cases in results:
            labels = ", ".join(case.label for case in cases) or "none"
            self.stdout.write(f"{where.code}: {len(cases)} case(s) opened: {labels}")


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as error:
        raise CommandError(f"{text!r} is not a date: give YYYY-MM-DD") from error
