"""What happens on every login, whichever the door (the login page, the admin, the console's
lock screen): the login lasts the venue's ``session_hours``, not Django's two weeks.

A member of staff at several venues gets the shortest of their venues' lengths; a
superuser working at none, ``DEFAULT_SESSION_HOURS``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.db.models import Min
from django.dispatch import receiver
from django.http import HttpRequest

from casino.floor.console.terminal import login_starts_afresh
from casino.venues.models import Venue
from casino.venues.models.venues import DEFAULT_SESSION_HOURS


def session_hours_of(user: Any) -> int:
    """How many hours a login of ``user`` lasts (one query)."""
    shortest = Venue.objects.filter(staff=user).aggregate(hours=Min("session_hours"))["hours"]
    return shortest or DEFAULT_SESSION_HOURS


@receiver(user_logged_in, dispatch_uid="casino.session_length")
def limit_session_length(
    sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any
) -> None:
    session = getattr(request, "session", None)
    if session is not None:
        session.set_expiry(session_hours_of(user) * 3600)


@receiver(user_logged_in, dispatch_uid="casino.console_unlocked")
def console_unlocked(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """A login opens the console unlocked and whole (the lock screen marks a PIN's login)."""
    login_starts_afresh(request)
