"""Reads of dealer rotation: the dealer on duty at a session, for one session or many, its
spells, and the dealers a relief can bring in."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, QuerySet, Subquery

from casino.floor.models import TableSession
from casino.staff.roles import PLAY
from casino.venues.models import DealerSpell


def dealer_on_duty(session: TableSession) -> Any:
    """The dealer of the session's open spell, or ``None`` once the table is closed."""
    spell = (
        DealerSpell.objects.filter(session=session, ended_at__isnull=True)
        .select_related("dealer")
        .first()
    )
    return spell.dealer if spell else None


def session_on_duty(dealer: Any) -> TableSession | None:
    """The open session ``dealer`` is the dealer on duty at, if any (at most one: a relief
    refuses a dealer on duty at another table), with its table and venue."""
    spell = (
        DealerSpell.objects.filter(
            dealer=dealer, ended_at__isnull=True, session__status=TableSession.Status.OPEN
        )
        .select_related("session__table__venue")
        .first()
    )
    return spell.session if spell else None


def with_dealer_on_duty(sessions: QuerySet[TableSession]) -> QuerySet[TableSession]:
    """The sessions, each annotated with its dealer on duty: ``on_duty_id``,
    ``on_duty_username`` and ``on_duty_since`` (empty for a closed session), in the one
    query that reads the sessions."""
    open_spell = DealerSpell.objects.filter(session=OuterRef("pk"), ended_at__isnull=True)
    return sessions.annotate(
        on_duty_id=Subquery(open_spell.values("dealer_id")[:1]),
        on_duty_username=Subquery(open_spell.values("dealer__username")[:1]),
        on_duty_since=Subquery(open_spell.values("started_at")[:1]),
    )


def session_spells(session: TableSession) -> list[DealerSpell]:
    """The session's spells in order, with who dealt, recorded and relieved."""
    return list(
        DealerSpell.objects.filter(session=session)
        .select_related("dealer", "recorded_by", "relieved_by")
        .order_by("started_at", "pk")
    )


def venue_dealers(venue_id: int) -> list[Any]:
    """The members of staff who deal at the venue (a role with ``PLAY`` there), by username."""
    return list(
        get_user_model()
        .objects.filter(venue_roles__venue_id=venue_id, venue_roles__role__in=PLAY, is_active=True)
        .distinct()
        .order_by("username")
    )
