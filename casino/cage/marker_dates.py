"""The date a marker's due date is compared with: the venue's gaming date now (the
selectors take it as an argument, ``casino.cage.marker_selectors``)."""

from __future__ import annotations

from datetime import date

from django.utils import timezone

from casino.cage.services.thresholds import gaming_date_at
from casino.venues.models import Venue


def today_of(venue: Venue) -> date:
    """The venue's gaming date now (its gaming day made that covers now, else by its start)."""
    return gaming_date_at(venue, timezone.now())
