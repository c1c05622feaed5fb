"""Every venue's daily lines read at once (``venues_daily_lines``, the group's one pass of the
tallies) are each venue's read alone (``daily_lines``), and add up to its period report.

The venues: the group's three of ``test_consolidation`` (tallies in VND, KRW and MOP on two
gaming days), the statistical report's hall (a Niu Niu table counted, an accounting-only
Blackjack table with fills, credits, drops and a day still open), one of its tables in a
pit, and a venue with nothing played.
"""

from __future__ import annotations

from datetime import date

import pytest

from casino.reports.periods import daily_lines, period_figures, period_of, venues_daily_lines
from casino.venues.models import Pit, Table
from tests.casino.group.test_consolidation import world  # noqa: F401 (the fixture)
from tests.casino.reports.test_statistical import build_world
from tests.factories import VenueFactory

pytestmark = pytest.mark.django_db
START, END = date(2025, 11, 1), date(2026, 12, 3)


@pytest.mark.parametrize("dimension", ["venue", "pit", "game"])
def test_read_together_each_venue_reads_as_alone(world, dimension):  # noqa: F811
    _group, venues, _people = world
    hall = build_world()
    pit = Pit.objects.create(venue=hall.venue, code="main", name="Main pit")
    Table.objects.filter(pk=hall.bj1.pk).update(pit=pit)
    empty = VenueFactory(code="empty", name="Nothing played")
    every = [*venues.values(), hall.venue, empty]

    together = venues_daily_lines(venues=every, start=START, end=END, dimension=dimension)

    alone = {
        venue.pk: daily_lines(venue=venue, start=START, end=END, dimension=dimension)
        for venue in every
    }
    assert together == alone
    assert together[empty.pk] == []
    # the hall's count is there: its accounting-only table's drop on its days
    assert sum(line["drop"] for line in together[hall.venue.pk]) > 0
    # each venue's days add up to its own period report over the same dates
    period = period_of("range", START, END)
    for venue in every:
        total = period_figures(venue=venue, period=period).total
        assert sum(line["handle"] for line in together[venue.pk]) == total["handle"]
        assert sum(line["house_win"] for line in together[venue.pk]) == total["house_win"]
