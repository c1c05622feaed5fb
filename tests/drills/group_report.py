"""The group drill's reports, as a process of its own on one database.

``site`` prints the site's own figures of its gaming day now per venue (the period report's
``daily_lines``): ``{"<venue code>": {"handle": "...", "house_win": "..."}}``. ``group``, on
the group's reporting database, makes the operating group of the venues the sites sent (its
two group managers, the rate of today's gaming day of each currency, proposed by one and
approved by the other) and prints the group's consolidated figures of that day, per venue,
in the same shape, each with ``reporting`` (in USD) and the rate's text: the group's
reports read the group's database, nothing else.

    python -m tests.drills.group_report site
    python -m tests.drills.group_report group --rate 0.125
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

import django  # noqa: E402 (after the path)

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.utils import timezone  # noqa: E402

from casino.group.consolidation import consolidated  # noqa: E402
from casino.group.services import (  # noqa: E402
    group_create,
    group_role_grant,
    group_venue_add,
    rate_approve,
    rate_propose,
)
from casino.reports.periods import RANGE, daily_lines, period_of  # noqa: E402
from casino.staff.roles import GROUP_MANAGER  # noqa: E402
from casino.venues.models import Venue  # noqa: E402
from casino.venues.services.gaming_days import gaming_date_of  # noqa: E402


def gaming_today(venue: Venue) -> Any:
    """The venue's gaming date now: its rounds' (from midnight to its gaming day's start,
    the calendar date is already the next one)."""
    return gaming_date_of(venue, timezone.now())


def site() -> dict[str, Any]:
    """Each venue's handle and house win of its gaming day today, as the site reports it."""
    figures = {}
    for venue in Venue.objects.order_by("code"):
        today = gaming_today(venue)
        lines = daily_lines(venue=venue, start=today, end=today)
        figures[venue.code] = {
            name: str(sum((line[name] for line in lines), 0)) for name in ("handle", "house_win")
        }
    return figures


def group(rate: str) -> dict[str, Any]:
    """The group made of every venue here, in USD, today's rates approved by four eyes: its
    consolidated figures of the day per venue."""
    made = group_create(user=None, code="drill", name="Drill group", reporting_currency="USD")
    venues = list(Venue.objects.order_by("code"))
    for venue in venues:
        group_venue_add(user=None, group=made, venue=venue, country=venue.code[:2].upper())
    proposer, approver = (User.objects.create_user(name) for name in ("g-prop", "g-appr"))
    for user in (proposer, approver):
        group_role_grant(user=None, group=made, member=user, role=GROUP_MANAGER)
    # Each venue's own gaming date (two zones may be on two dates): the rates of each.
    days = sorted({gaming_today(venue) for venue in venues})
    for day in days:
        for currency in sorted({venue.currency for venue in venues} - {"USD"}):
            proposed = rate_propose(
                group=made,
                user=proposer,
                day=day,
                from_currency=currency,
                rate=rate,
                source="drill",
            )
            rate_approve(rate=proposed, user=approver)
    report = consolidated(group=made, period=period_of(RANGE, days[0], days[-1]))
    return {
        line.venue.code: {
            "handle": str(line.local["handle"]),
            "house_win": str(line.local["house_win"]),
            "reporting": str(line.reporting["handle"]) if line.reporting else None,
            "rates": line.rates_text(),
        }
        for line in report.lines
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("site", help="the site's own figures of today")
    grouping = commands.add_parser("group", help="the group made, its figures of today")
    grouping.add_argument("--rate", required=True, help="one unit of each currency in USD")
    options = parser.parse_args()
    answer = site() if options.command == "site" else group(options.rate)
    print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
