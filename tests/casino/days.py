"""A gaming day brought to its end in a test: the count closes only after its day ended."""

from __future__ import annotations

from datetime import date, timedelta

from django.utils import timezone

from casino.venues.models import GamingDay, Shift, Venue


def end_gaming_day(venue: Venue, gaming_date: date) -> None:
    """End ``gaming_date`` at ``venue`` a second ago, as if its hours had passed: the day
    and its shifts made so far end now, and the next table opens in the next gaming day."""
    ended = timezone.now() - timedelta(seconds=1)
    GamingDay.objects.filter(venue=venue, gaming_date=gaming_date).update(ends_at=ended)
    Shift.objects.filter(venue=venue, gaming_date=gaming_date, ends_at__gt=ended).update(
        ends_at=ended
    )
