"""The reads of the unknown patrons' screen (``casino.cage.views.patrons``): a gaming day's
unknown patrons of a venue, each with their cash of the day in and out as the multiple
transaction log counts it (``casino.cage.cash_log``: their rows read once for all of them,
each total added by ``log_total``, the thresholds' own sum).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from casino.cage.cash_log import People, cash_log, log_total
from casino.cage.models import UnknownPatron
from casino.cage.patrons import CashDirection
from casino.venues.models import Venue


@dataclass(frozen=True)
class PatronDay:
    """An unknown patron and the cash recorded as theirs on their gaming day (once linked,
    it counts with the member's too)."""

    patron: UnknownPatron
    cash_in: Decimal
    cash_out: Decimal


def patrons_of_day(*, venue: Venue, gaming_date: date) -> list[PatronDay]:
    """The venue's unknown patrons recorded on ``gaming_date``, first seen first."""
    patrons = list(
        UnknownPatron.objects.filter(venue=venue, gaming_date=gaming_date)
        .select_related("member", "created_by", "linked_by")
        .order_by("number")
    )
    if not patrons:
        return []
    people = People(patron_ids=tuple(patron.pk for patron in patrons))
    rows = cash_log(gaming_date=gaming_date, venue=venue, people=people)
    days = []
    for patron in patrons:
        theirs = [row for row in rows if row.unknown_patron and row.unknown_patron.pk == patron.pk]
        days.append(
            PatronDay(
                patron,
                log_total(theirs, CashDirection.IN),
                log_total(theirs, CashDirection.OUT),
            )
        )
    return days
