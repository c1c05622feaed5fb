"""Buy-ins and cash-outs at the tables, and the cash transaction records kept of them.

- ``cash_record``: the dealer (or a supervisor) of an open session records a player's
  buy-in or cash-out at the table: its kind, instrument (cash, chips, other; a marker is
  issued as a marker, ``casino.cage.services.markers``, never recorded here) and
  amount (more than 0, in the venue's currency units: no more decimals than the currency
  has). The player is a member of the venue (by membership number), an unknown patron (by
  their temporary identifier, ``casino.cage.services.patrons``), whose cash adds up like a
  member's, or nobody known: a buy-in of nobody known still counts for the table, but no
  threshold can follow it; described when it reaches one, they are recorded as an unknown
  patron from then on. The player is asked the eligibility question
  (``casino.players.eligibility``): a barred player cannot buy in; their cash-out is
  recorded, audited (``cash.barred_cash_out``) and logged on ``casino.security``. It counts in the
  gaming day of the venue it is recorded in (``GamingDay``, or the venue's start time
  when no day is made yet), not the calendar day.
- No ledger entry: chips given for cash leave the tray and the cash goes into the drop
  box, which the count measures (the drop); the table's result is the change of its tray
  with the fills, credits and drop. A cash-out at the table (other than in chips) buys the
  player's chips back into the tray with the table's cash of buy-ins, so the drop is less
  by as much and the win by count does not change (``casino.floor.figures.tray_expected`` adds
  them back). A transaction is the record of who brought in or took out how much, which
  the thresholds read.
- ``cash_void``: a supervisor voids a mistake with a reason; the correction is a new
  entry. Nothing is deleted.
- The thresholds, their rule (``threshold_crossing``: what a cash transaction reaches and
  the identification it then asks for) and the alert a player's day raises are
  ``casino.cage.services.thresholds``'s; ``cash_record`` asks the rule again under the
  person's lock (``casino.cage.services.patrons.person_locked``) and keeps its answer.

Every write is audited.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.models import CashInstrument, CashKind, CashTransaction, UnknownPatron
from casino.cage.services.patrons import person_locked, unknown_patron_create
from casino.cage.services.thresholds import (
    alert_if_reached,
    check_amount,
    gaming_date_at,
    identification_asked,
    threshold_crossing,
)
from casino.floor.models import TableSession
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import venue_money
from casino.players.eligibility import Activity, Eligibility, check_player_may
from casino.players.membership import membership_key
from casino.players.models import Player
from casino.players.names import masked
from casino.staff.roles import PLAY, SUPERVISE, can
from casino.venues.models import Venue

logger = logging.getLogger("casino.security")
MAX_REASON = 1000
#: The instruments a buy-in or cash-out is recorded in: every one but a marker, which is
#: issued as a marker (earlier markers recorded here stay as they were).
RECORDABLE = tuple(i for i in CashInstrument.values if i != CashInstrument.MARKER)
#: What the eligibility question is asked about, by the kind of transaction.
ACTIVITY = {CashKind.BUY_IN: Activity.BUY_IN, CashKind.CASH_OUT: Activity.CASH_OUT}
#: What the audit records of a transaction, by its kind.
_RECORDED = {CashKind.BUY_IN: AuditAction.CASH_BUY_IN, CashKind.CASH_OUT: AuditAction.CASH_CASH_OUT}


def player_of(venue: Venue, number: str) -> Player | None:
    """The venue's player by membership number ("" is nobody known)."""
    number = (number or "").strip()
    if not number:
        return None
    key = membership_key(number)
    player = Player.objects.filter(venue=venue, membership_number=key).first() if key else None
    if player is None:
        raise InvalidInput(
            gettext("No player with membership number %(number)s at this venue.")
            % {"number": number},
            field="player",
        )
    return player


def _as_dict(tx: CashTransaction) -> dict[str, Any]:
    return {
        "session": tx.session_id,
        "table": tx.table.code,
        "player": tx.player.membership_number if tx.player_id else None,
        "unknown_patron": tx.unknown_patron.code if tx.unknown_patron_id else None,
        "kind": tx.kind,
        "instrument": tx.instrument,
        "amount": str(tx.amount),
        "gaming_date": tx.gaming_date.isoformat(),
        "voided": tx.voided_at is not None,
        "threshold": tx.threshold,
        # Masked, as everyone but a manager reads a document number.
        "id_document": f"{tx.id_document_type} {masked(tx.id_document_number)}".strip(),
        "patron_description": tx.patron_description,
    }


@transaction.atomic
def cash_record(
    *,
    session: TableSession,
    user: Any,
    amount: Any,
    kind: str = CashKind.BUY_IN,
    instrument: str = CashInstrument.CASH,
    player: Player | None = None,
    key: str = "",
    at: datetime | None = None,
    id_document_type: str = "",
    id_document_number: str = "",
    patron_description: str = "",
    unknown_patron: UnknownPatron | None = None,
) -> CashTransaction:
    """Record a buy-in or cash-out at an open session (``at``: now unless given, for the
    demo's past days). The same ``key`` twice records one transaction (it returns it).

    A cash transaction that reaches a threshold (``threshold_crossing``) keeps the level
    it reached and needs the identification the crossing asks for: ``patron_description``
    for a patron nobody knows (recorded as an unknown patron with it: ``unknown_patron``
    names one recorded before), ``id_document_type`` and ``id_document_number`` for a
    member reaching the reporting threshold without a document on record (refused,
    naming the field, without it)."""
    session = (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("table__venue")
        .get(pk=session.pk)
    )
    table = session.table
    venue = table.venue
    if not can(user, PLAY, venue.pk):
        raise Forbidden(gettext("You do not run tables at this venue."))
    if key:
        done = CashTransaction.objects.filter(venue=venue, key=key).first()
        if done is not None:
            return done
    _check_recordable(session, kind=kind, instrument=instrument)
    amount = check_amount(amount, venue, unit=venue.rounding_unit)
    at = at or timezone.now()
    player, unknown_patron, asked = _person(venue, kind, player, unknown_patron, at)
    crossing = threshold_crossing(
        venue=venue,
        kind=kind,
        instrument=instrument,
        amount=amount,
        player=player,
        unknown_patron=unknown_patron,
        at=at,
    )
    identification = identification_asked(
        crossing,
        id_document_type=id_document_type,
        id_document_number=id_document_number,
        patron_description=patron_description,
    )
    if "patron_description" in identification:
        unknown_patron = unknown_patron_create(
            venue=venue, user=user, description=identification["patron_description"], at=at
        )
    tx = CashTransaction(
        venue=venue,
        session=session,
        table=table,
        player=player,
        unknown_patron=unknown_patron,
        kind=kind,
        instrument=instrument,
        amount=amount,
        gaming_date=gaming_date_at(venue, at),
        recorded_by=user,
        recorded_at=at,
        key=key,
        threshold=crossing.level if crossing is not None else "",
        **identification,
    )
    try:
        with transaction.atomic():
            tx.save()
    except IntegrityError:
        return CashTransaction.objects.get(venue=venue, key=key)
    _audit_recorded(tx, user)
    if asked is not None and asked.barred:
        _barred_cash_out(tx, asked)
    if instrument == CashInstrument.CASH:
        alert_if_reached(tx, at)
    return tx


def _person(
    venue: Venue,
    kind: str,
    player: Player | None,
    unknown_patron: UnknownPatron | None,
    at: datetime,
) -> tuple[Player | None, UnknownPatron | None, Eligibility | None]:
    """The person of a transaction, locked (which serialises one person's transactions, so
    two tables do not raise one alert twice), and a member asked the eligibility question."""
    if player is not None and unknown_patron is not None:
        raise InvalidInput(
            gettext("Give a membership number or an unknown patron, not both."), field="player"
        )
    player, unknown_patron = person_locked(player, unknown_patron)
    if player is None:
        return None, unknown_patron, None
    asked = check_player_may(player=player, venue=venue, activity=ACTIVITY[kind], at=at)
    return player, unknown_patron, asked


def _check_recordable(session: TableSession, *, kind: str, instrument: str) -> None:
    """Refuse a transaction at a closed session, or of an unknown kind or instrument."""
    if session.status != TableSession.Status.OPEN:
        raise Conflict(
            gettext("The session of %(table)s is closed: record it at an open session.")
            % {"table": session.table.code},
            field="session",
        )
    if kind not in CashKind.values:
        raise InvalidInput(gettext("Choose a buy-in or a cash-out."), field="kind")
    if instrument == CashInstrument.MARKER:
        # A marker's chips count in the table's figures once, from the marker itself
        # (``casino.cage.marker_selectors.session_markers``): recorded here too, they would
        # count twice.
        raise InvalidInput(
            gettext(
                "A marker is issued on the Markers page, against the member's credit line "
                "and signed by a supervisor; it is not recorded as a buy-in."
            ),
            field="instrument",
        )
    if instrument not in RECORDABLE:
        raise InvalidInput(gettext("Choose cash, chips or other."), field="instrument")


def _audit_recorded(tx: CashTransaction, user: Any) -> None:
    """The audit event of a recorded buy-in or cash-out."""
    venue = tx.venue
    audit_record(
        user=user,
        action=_RECORDED[tx.kind],
        obj=tx,
        venue=venue,
        summary=(
            f"{tx.get_kind_display()} of {venue_money(tx.amount, venue)} ({tx.instrument}) at "
            f"{tx.table.code} by "
            f"{_who(tx)}"
        ),
        after=_as_dict(tx),
    )


def _who(tx: CashTransaction) -> str:
    if tx.player_id:
        return tx.player.membership_number
    return tx.unknown_patron.code if tx.unknown_patron_id else "an unknown player"


def _barred_cash_out(tx: CashTransaction, asked: Eligibility) -> None:
    """A barred player's cash-out is recorded (the house keeps nothing of theirs) and the
    venue alerted: an audit event and a WARNING line on ``casino.security``."""
    audit_record(
        user=None,
        action=AuditAction.CASH_BARRED_CASH_OUT,
        obj=tx,
        venue=tx.venue,
        summary=(
            f"cash-out of {venue_money(tx.amount, tx.venue)} at {tx.table.code} by barred "
            f"player {tx.player.membership_number}"
        ),
        after={"barring": asked.barring.pk if asked.barring else None, **_as_dict(tx)},
    )
    logger.warning(
        "cash-out by a barred player venue=%s player=%s barring=%s amount=%s transaction=%s",
        tx.venue.code,
        tx.player.membership_number,
        asked.barring.pk if asked.barring else "status",
        tx.amount,
        tx.pk,
    )


@transaction.atomic
def cash_void(*, tx: CashTransaction, user: Any, reason: str) -> CashTransaction:
    """A supervisor voids a transaction with a reason (a void twice changes nothing)."""
    tx = (
        CashTransaction.objects.select_for_update(of=("self",))
        .select_related("venue", "table", "player")
        .get(pk=tx.pk)
    )
    if not can(user, SUPERVISE, tx.venue_id):
        raise Forbidden(gettext("Only a supervisor voids a buy-in or cash-out."))
    if tx.voided_at is not None:
        return tx
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(gettext("Say why it is voided."), field="reason")
    if len(reason) > MAX_REASON:
        raise InvalidInput(
            gettext("Keep the reason under %(max)d characters.") % {"max": MAX_REASON},
            field="reason",
        )
    before = _as_dict(tx)
    tx.voided_by, tx.voided_at, tx.void_reason = user, timezone.now(), reason
    tx.save(update_fields=["voided_by", "voided_at", "void_reason"])
    audit_record(
        user=user,
        action=AuditAction.CASH_VOID,
        obj=tx,
        venue=tx.venue,
        summary=f"voided {tx.get_kind_display()} of {venue_money(tx.amount, tx.venue)}: {reason}",
        before=before,
        after=_as_dict(tx),
    )
    return tx
