"""Dealer rotation: a dealer relieved at an open table, without closing it.

A session's dealers are its ``DealerSpell`` rows: the first begins at opening
(:func:`spell_first`), a relief ends the spell on duty and begins the incoming dealer's
at the same instant (:func:`dealer_relieve`), and the close ends the last one
(:func:`spell_last_ends`). ``TableSession.dealer`` follows the spell on duty, under the
session's lock, so a round takes its dealer from the session row it locks.

A relief is refused while a round is dealt and not yet settled or voided: the round is
the outgoing dealer's to finish. A supervisor records a relief; so does a member of the
floor taking over the locked console of the dealer on duty with their own PIN or password
(:func:`dealer_takeover`), so the rounds from then on are theirs. A dealer not on duty
does not deal at the table (a supervisor or manager still may, covering it:
``check_may_deal``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.floor.models import Round, RoundStatus, TableSession
from casino.kernel.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.staff.roles import PLAY, SUPERVISE, can, venue_ids
from casino.venues.models import DealerSpell

#: How far ahead of the server's clock a relief's time may be (clocks a little apart).
CLOCK_SLACK = timedelta(minutes=1)


def spell_first(*, session: TableSession, recorded_by: Any) -> DealerSpell:
    """The opening dealer's spell, from the session's opening (in the opening's transaction)."""
    return DealerSpell.objects.create(
        session=session,
        dealer_id=session.dealer_id,
        started_at=session.opened_at,
        recorded_by=recorded_by,
    )


def spell_last_ends(*, session: TableSession) -> None:
    """The spell on duty ends as the table closes (in the close's transaction)."""
    DealerSpell.objects.filter(session=session, ended_at__isnull=True).update(
        ended_at=session.closed_at, ended_reason=DealerSpell.End.END
    )


def check_may_deal(*, user: Any, session: TableSession) -> None:
    """Refuse a dealer who is not on duty at the session's table; a supervisor (or a
    manager) may deal at any table of their venue. Reads nothing when ``user`` is the
    dealer on duty."""
    if user.pk == session.dealer_id or can(user, SUPERVISE, session.table.venue_id):
        return
    raise Forbidden(
        _(
            "%(dealer)s is the dealer on duty at table %(table)s: only they deal here now. "
            "A supervisor records a relief to hand the table over."
        )
        % {"dealer": session.dealer.get_username(), "table": session.table.code},
        reason="not_on_duty",
    )


@transaction.atomic
def dealer_relieve(
    *,
    session: TableSession,
    dealer: Any,
    by: Any,
    at: datetime | None = None,
    reason: str = DealerSpell.End.BREAK,
) -> DealerSpell:
    """``dealer`` takes over the open table from the dealer on duty, at ``at`` (now by
    default); ``by`` (a supervisor of the venue) records it. The outgoing spell ends with
    ``reason`` (a break, or a relief to another table). Refused: a closed session; by one
    who does not supervise the venue; an incoming dealer who does not deal at the venue,
    is already on duty here or at another open table; a round dealt and not yet settled or
    voided; a time before the spell on duty began or the last round was dealt, or in the
    future. Returns the incoming dealer's spell."""
    locked = (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("table__venue", "dealer")
        .filter(pk=session.pk)
        .first()
    )
    if locked is None or locked.table.venue_id not in venue_ids(by):
        raise NotFound(_("there is no session %(pk)s at your venues") % {"pk": session.pk})
    if not can(by, SUPERVISE, locked.table.venue_id):
        raise Forbidden(_("only a supervisor records a dealer's relief"), reason="not_supervisor")
    return _relieve(session=locked, dealer=dealer, by=by, at=at, reason=reason)


@transaction.atomic
def dealer_takeover(*, session: TableSession, dealer: Any) -> DealerSpell:
    """``dealer`` takes the open table over, now, at its console: they unlocked the console
    the dealer on duty was signed in on with their own PIN or password
    (``casino.staff.pins.console_takeover``), which is what records it in place of a
    supervisor. The outgoing spell ends as a break. Refused as :func:`dealer_relieve`
    refuses, but for who records it; audited as ``session.relieve`` with ``"by":
    "console"``. Locks the session's row. Returns the incoming dealer's spell."""
    locked = (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("table__venue", "dealer")
        .filter(pk=session.pk)
        .first()
    )
    if locked is None:
        raise NotFound(_("there is no session %(pk)s at your venues") % {"pk": session.pk})
    return _relieve(
        session=locked,
        dealer=dealer,
        by=dealer,
        at=None,
        reason=DealerSpell.End.BREAK,
        console=True,
    )


def _relieve(
    *,
    session: TableSession,
    dealer: Any,
    by: Any,
    at: datetime | None,
    reason: str,
    console: bool = False,
) -> DealerSpell:
    """The relief itself, on the locked session row."""
    _check_relief(session=session, dealer=dealer, reason=reason)
    on_duty = DealerSpell.objects.filter(session=session, ended_at__isnull=True).first()
    _check_incoming(session=session, dealer=dealer)
    at = _relief_time(session=session, on_duty=on_duty, at=at)
    table, venue = session.table, session.table.venue
    outgoing = session.dealer
    if on_duty is not None:
        on_duty.ended_at = at
        on_duty.ended_reason = reason
        on_duty.relieved_by = by
        on_duty.save(update_fields=["ended_at", "ended_reason", "relieved_by"])
    spell = DealerSpell.objects.create(
        session=session, dealer=dealer, started_at=at, recorded_by=by
    )
    session.dealer = dealer
    session.save(update_fields=["dealer"])
    audit_record(
        user=by,
        action=AuditAction.SESSION_RELIEVE,
        obj=session,
        venue=venue,
        summary=f"{dealer.get_username()} relieved {outgoing.get_username()} at {table} ({reason})"
        + (", taking over its console" if console else ""),
        before={"dealer": outgoing.get_username()},
        after={
            "dealer": dealer.get_username(),
            "at": at.isoformat(),
            "reason": reason,
            **({"by": "console"} if console else {}),
        },
    )
    return spell


def _check_relief(*, session: TableSession, dealer: Any, reason: str) -> None:
    """Refuse a relief at a closed table, for no known reason, or by one who does not deal
    at the venue."""
    table, venue = session.table, session.table.venue
    if session.status != TableSession.Status.OPEN:
        raise Conflict(
            _("table %(table)s is closed: a relief is recorded at an open table")
            % {"table": table.code},
            reason="session_closed",
        )
    if reason not in (DealerSpell.End.BREAK, DealerSpell.End.RELIEF):
        raise InvalidInput(
            _("say whether the dealer goes on a break or to another table"), field="reason"
        )
    if dealer is None or not can(dealer, PLAY, venue.pk):
        raise InvalidInput(
            _("%(user)s is not a dealer at %(venue)s: choose one of the venue's dealers")
            % {"user": dealer.get_username() if dealer else "?", "venue": venue.name},
            field="dealer",
            reason="not_a_dealer",
        )


def _check_incoming(*, session: TableSession, dealer: Any) -> None:
    """Refuse an incoming dealer already on duty here or at another open table, and any
    relief while a round is dealt and not yet settled or voided."""
    table = session.table
    if dealer.pk == session.dealer_id:
        raise Conflict(
            _("%(user)s is already the dealer on duty at table %(table)s")
            % {"user": dealer.get_username(), "table": table.code},
            field="dealer",
            reason="already_on_duty",
        )
    elsewhere = (
        DealerSpell.objects.filter(
            dealer=dealer, ended_at__isnull=True, session__status=TableSession.Status.OPEN
        )
        .select_related("session__table")
        .first()
    )
    if elsewhere is not None:
        raise Conflict(
            _(
                "%(user)s is on duty at table %(table)s: relieve them there first, then "
                "bring them here"
            )
            % {"user": dealer.get_username(), "table": elsewhere.session.table.code},
            field="dealer",
            reason="on_duty_elsewhere",
        )
    dealt = (
        Round.objects.filter(session=session, status=RoundStatus.DEALT).order_by("number").first()
    )
    if dealt is not None:
        raise Conflict(
            _(
                "round %(number)s is dealt and not settled: settle it (or void it) before "
                "the dealer is relieved"
            )
            % {"number": dealt.number},
            reason="round_in_progress",
        )


def _relief_time(
    *, session: TableSession, on_duty: DealerSpell | None, at: datetime | None
) -> datetime:
    """The relief's time (now when not given), refused before the spell on duty began or the
    last round was dealt, or in the future."""
    now = timezone.now()
    at = at or now
    last_dealt = (
        Round.objects.filter(session=session)
        .order_by("-number")
        .values_list("created_at", flat=True)
    ).first()
    since = max(filter(None, [on_duty.started_at if on_duty else session.opened_at, last_dealt]))
    if at < since or at > now + CLOCK_SLACK:
        raise InvalidInput(
            _(
                "a relief is recorded between the last round or the start of the spell on "
                "duty and now: give a time in between, or leave it empty for now"
            ),
            field="at",
            reason="relief_time",
        )
    return at
