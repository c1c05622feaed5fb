"""A shared console's lock, unlock and takeover, recorded in the audit trail.

The lock (``console.lock``), the unlock (``console.unlock``) and a takeover
(``console.takeover``: who took the console from whom) are audited; a takeover at a table
records the dealer's relief too (``casino.floor.services.rotation.dealer_takeover``). The
PIN that opens them is the staff's (``casino.staff.pins``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.floor.models import TableSession
from casino.floor.rotation_selectors import session_on_duty
from casino.floor.services.rotation import dealer_takeover
from casino.staff.roles import PLAY, can


@transaction.atomic
def console_lock(*, user: Any, reason: str) -> None:
    """Record that the console ``user`` is signed in on was locked: ``idle`` (the page or
    the server saw no use for the idle minutes) or ``manual`` (locked by hand)."""
    audit_record(
        user=user,
        action=AuditAction.CONSOLE_LOCK,
        obj=user,
        summary=f"console of {user.get_username()} locked ({reason})",
        after={"reason": reason},
    )


@transaction.atomic
def console_unlock(*, user: Any, by_pin: bool) -> None:
    """Record that ``user`` unlocked the console they are signed in on, by PIN or password."""
    how = "PIN" if by_pin else "password"
    audit_record(
        user=user,
        action=AuditAction.CONSOLE_UNLOCK,
        obj=user,
        summary=f"console of {user.get_username()} unlocked with their {how}",
        after={"by": how.lower()},
    )


@transaction.atomic
def console_takeover(*, user: Any, previous: Any, by_pin: bool) -> TableSession | None:
    """Record that ``user`` took over a console ``previous`` was signed in on; when
    ``previous`` is the dealer on duty at an open table and ``user`` deals at its venue,
    ``user`` relieves them there (``dealer_takeover``: the rounds from now on are
    ``user``'s). Raises what the relief refuses (a round dealt and not settled, ``user``
    on duty at another table): then nothing is recorded and the console stays ``previous``'s.
    Returns the session where ``user`` is now the dealer on duty, if any."""
    session = session_on_duty(previous)
    relieved = None
    if session is not None and can(user, PLAY, session.table.venue_id):
        relieved = dealer_takeover(session=session, dealer=user)
    audit_record(
        user=user,
        action=AuditAction.CONSOLE_TAKEOVER,
        obj=user,
        venue=session.table.venue if relieved else None,
        summary=f"{user.get_username()} took over the console from {previous.get_username()}"
        + (f" at {session.table}" if relieved else ""),
        before={"user": previous.get_username()},
        after={
            "user": user.get_username(),
            "by": "pin" if by_pin else "password",
            "session": session.pk if relieved else None,
        },
    )
    return session if relieved else None
