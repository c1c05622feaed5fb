"""Buy-ins and cash-outs at the tables, and the cash transaction records kept of them.

- ``cash_record``: the dealer (or a supervisor) of an open session records a player's
  buy-in or cash-out at the table: its kind, instrument (cash, chips, marker, other) and
  amount (more than 0, in the venue's currency units: no more decimals than the currency
  has). The player is a member of the venue (by membership number) or nobody known: a
  buy-in of an unknown player still counts for the table, but no threshold can follow
  it. The player is asked the eligibility question (``casino.players.eligibility``): a
  barred player cannot buy in; their cash-out is recorded, audited
  (``cash.barred_cash_out``) and logged on ``casino.security``. It counts in the
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
- The thresholds (``CashThresholds``): a manager proposes a logging and a reporting
  threshold (``thresholds_propose``), a second manager approves them
  (``thresholds_approve``); the latest approved version is in force from its approval on.
- The rule: only the cash instrument counts. Per player and gaming day, the cash
  buy-ins (cash in) and the cash cash-outs (cash out) are added up apart, across all
  tables, voided transactions left out. A total at or above the logging threshold puts
  all of that day's cash transactions of that direction in the log (each further one
  too); at or above the reporting threshold, an alert is raised once per player, day and
  direction (``CashAlert``, shown on the cage's screen and the reports' dashboard, and a
  line on the ``casino.security`` logger), and the day's total is a report candidate.
- At the table, before recording (``threshold_crossing``, the rule's one place, asked by
  the form and by ``cash_record``): a cash transaction whose day total, with it, reaches a
  threshold is said to reach it, and needs identification: a patron nobody knows (whose
  cash no total can follow, so it counts alone) is described; a member reaching the
  reporting threshold shows an identity document unless their record holds one. The
  transaction keeps the threshold it reached and the identification taken, which the
  dealer's list and the pit's view of the table show.

Every write is audited.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.models import (
    CashAlert,
    CashInstrument,
    CashKind,
    CashLevel,
    CashThresholds,
    CashTransaction,
)
from casino.floor.models import TableSession
from casino.kernel import amounts
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import venue_money
from casino.players.eligibility import Activity, Eligibility, check_player_may
from casino.players.membership import membership_key
from casino.players.models import Player
from casino.players.services import masked
from casino.staff.policy import approves_own
from casino.staff.roles import MANAGE, PLAY, SUPERVISE, can
from casino.venues.models import GamingDay, Venue
from casino.venues.services.gaming_days import gaming_date_of

logger = logging.getLogger("casino.security")
MAX_REASON = 1000
#: What the eligibility question is asked about, by the kind of transaction.
ACTIVITY = {CashKind.BUY_IN: Activity.BUY_IN, CashKind.CASH_OUT: Activity.CASH_OUT}
#: What the audit records of a transaction, by its kind.
_RECORDED = {CashKind.BUY_IN: AuditAction.CASH_BUY_IN, CashKind.CASH_OUT: AuditAction.CASH_CASH_OUT}
#: The longest description of a patron nobody knows (``CashTransaction``).
MAX_DESCRIPTION = 255


def gaming_date_at(venue: Venue, at: datetime) -> Any:
    """The venue's gaming date of ``at``: the day made that covers it, else by its start."""
    day = (
        GamingDay.objects.filter(venue=venue, starts_at__lte=at, ends_at__gt=at)
        .values_list("gaming_date", flat=True)
        .first()
    )
    return day or gaming_date_of(venue, at)


def check_amount(
    amount: Any, venue: Venue, *, field: str = "amount", unit: Decimal | None = None
) -> Decimal:
    """An amount more than 0 of the venue (``casino.kernel.amounts.check_amount``: its currency's
    decimals, a multiple of ``unit`` where given), ``InvalidInput`` otherwise."""
    amount = amounts.check_amount(amount, venue, field=field, unit=unit)
    if amount <= 0:
        raise InvalidInput(gettext("The amount must be more than 0."), field=field)
    return amount


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


def thresholds_in_force(venue: Venue, at: datetime | None = None) -> CashThresholds | None:
    """The venue's latest version approved at ``at`` (now), or None."""
    at = at or timezone.now()
    return (
        CashThresholds.objects.filter(
            venue=venue, status=CashThresholds.Status.APPROVED, approved_at__lte=at
        )
        .order_by("-approved_at", "-id")
        .first()
    )


def day_total(*, player: Player, gaming_date: Any, kind: str) -> Decimal:
    """The player's cash total of one direction on a gaming day, voids left out."""
    total = CashTransaction.objects.filter(
        player=player,
        gaming_date=gaming_date,
        kind=kind,
        instrument=CashInstrument.CASH,
        voided_at__isnull=True,
    ).aggregate(total=Sum("amount"))["total"]
    return total or Decimal(0)


class Identification:
    """What a threshold crossing asks of the table before it records."""

    NONE = ""
    #: A patron nobody knows: how they look (they cannot be followed by a total).
    DESCRIPTION = "description"
    #: A member reaching the reporting threshold without a document on their record.
    DOCUMENT = "document"


@dataclass(frozen=True)
class ThresholdCrossing:
    """A cash transaction that reaches the venue's logging or reporting threshold."""

    level: str  # CashLevel
    threshold: Decimal
    #: The day's cash of that direction before this one (0 for a patron nobody knows).
    earlier: Decimal
    #: With this one.
    total: Decimal
    identification: str  # Identification

    @property
    def reporting(self) -> bool:
        return self.level == CashLevel.REPORTING


def threshold_crossing(
    *,
    venue: Venue,
    kind: str,
    instrument: str,
    amount: Decimal,
    player: Player | None = None,
    at: datetime | None = None,
) -> ThresholdCrossing | None:
    """Whether recording this transaction reaches a threshold in force, and what it then
    asks of the table; None when it reaches none (or no thresholds are approved).

    The rule's one place: the console's form asks it before recording, ``cash_record``
    asks it again (under the player's lock) and keeps its answer. Only cash counts; a
    member's earlier cash of that direction and gaming day is added, as the log and the
    alert add it; a patron nobody knows is judged by this transaction alone."""
    if instrument != CashInstrument.CASH or kind not in CashKind.values:
        return None
    at = at or timezone.now()
    thresholds = thresholds_in_force(venue, at)
    if thresholds is None:
        return None
    earlier = Decimal(0)
    if player is not None:
        earlier = day_total(player=player, gaming_date=gaming_date_at(venue, at), kind=kind)
    total = earlier + amount
    if total >= thresholds.reporting_threshold:
        level, threshold = CashLevel.REPORTING, thresholds.reporting_threshold
    elif total >= thresholds.logging_threshold:
        level, threshold = CashLevel.LOGGING, thresholds.logging_threshold
    else:
        return None
    if player is None:
        needs = Identification.DESCRIPTION
    elif level == CashLevel.REPORTING and not player.id_document_number:
        needs = Identification.DOCUMENT
    else:
        needs = Identification.NONE
    return ThresholdCrossing(
        level=level, threshold=threshold, earlier=earlier, total=total, identification=needs
    )


def _identification(
    crossing: ThresholdCrossing | None,
    *,
    id_document_type: str,
    id_document_number: str,
    patron_description: str,
) -> dict[str, str]:
    """The identification a crossing asks for, checked (``InvalidInput`` naming the field
    when it is missing), as the transaction keeps it; nothing when none is asked."""
    needs = crossing.identification if crossing is not None else Identification.NONE
    if needs == Identification.DESCRIPTION:
        description = (patron_description or "").strip()
        if not description:
            raise InvalidInput(
                gettext(
                    "This cash reaches the %(threshold)s: describe the patron (e.g. a man "
                    "about 40, grey jacket, glasses), or give their membership number."
                )
                % {"threshold": CashLevel(crossing.level).label.lower()},
                field="patron_description",
                reason="identification_required",
            )
        if len(description) > MAX_DESCRIPTION:
            raise InvalidInput(
                gettext("Keep it under %(max)d characters.") % {"max": MAX_DESCRIPTION + 1},
                field="patron_description",
            )
        return {"patron_description": description}
    if needs == Identification.DOCUMENT:
        kind = (id_document_type or "").strip()
        number = (id_document_number or "").strip()
        for field, value, most in (
            ("id_document_type", kind, 32),
            ("id_document_number", number, 64),
        ):
            if not value:
                raise InvalidInput(
                    gettext(
                        "This cash reaches the reporting threshold: ask for an identity "
                        "document and give its type and number."
                    ),
                    field=field,
                    reason="identification_required",
                )
            if len(value) > most:
                raise InvalidInput(
                    gettext("Keep it under %(max)d characters.") % {"max": most + 1},
                    field=field,
                )
        return {"id_document_type": kind, "id_document_number": number}
    return {}


def _as_dict(tx: CashTransaction) -> dict[str, Any]:
    return {
        "session": tx.session_id,
        "table": tx.table.code,
        "player": tx.player.membership_number if tx.player_id else None,
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
) -> CashTransaction:
    """Record a buy-in or cash-out at an open session (``at``: now unless given, for the
    demo's past days). The same ``key`` twice records one transaction (it returns it).

    A cash transaction that reaches a threshold (``threshold_crossing``) keeps the level
    it reached and needs the identification the crossing asks for: ``patron_description``
    for a patron nobody knows, ``id_document_type`` and ``id_document_number`` for a
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
    if session.status != TableSession.Status.OPEN:
        raise Conflict(
            gettext("The session of %(table)s is closed: record it at an open session.")
            % {"table": table.code},
            field="session",
        )
    if kind not in CashKind.values:
        raise InvalidInput(gettext("Choose a buy-in or a cash-out."), field="kind")
    if instrument not in CashInstrument.values:
        raise InvalidInput(gettext("Choose cash, chips, a marker or other."), field="instrument")
    amount = check_amount(amount, venue, unit=venue.rounding_unit)
    at = at or timezone.now()
    asked = None
    if player is not None:
        # Serialises one player's transactions, so two tables do not raise one alert twice.
        player = Player.objects.select_for_update().get(pk=player.pk)
        asked = check_player_may(player=player, venue=venue, activity=ACTIVITY[kind], at=at)
    crossing = threshold_crossing(
        venue=venue, kind=kind, instrument=instrument, amount=amount, player=player, at=at
    )
    identification = _identification(
        crossing,
        id_document_type=id_document_type,
        id_document_number=id_document_number,
        patron_description=patron_description,
    )
    tx = CashTransaction(
        venue=venue,
        session=session,
        table=table,
        player=player,
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
    audit_record(
        user=user,
        action=_RECORDED[kind],
        obj=tx,
        venue=venue,
        summary=(
            f"{tx.get_kind_display()} of {venue_money(amount, venue)} ({instrument}) at "
            f"{table.code} by {player.membership_number if player else 'an unknown player'}"
        ),
        after=_as_dict(tx),
    )
    if asked is not None and asked.barred:
        _barred_cash_out(tx, asked)
    if player is not None and instrument == CashInstrument.CASH:
        _alert_if_reached(tx, at)
    return tx


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


def _alert_if_reached(tx: CashTransaction, at: datetime) -> CashAlert | None:
    thresholds = thresholds_in_force(tx.venue, at)
    if thresholds is None:
        return None
    total = day_total(player=tx.player, gaming_date=tx.gaming_date, kind=tx.kind)
    if total < thresholds.reporting_threshold:
        return None
    if CashAlert.objects.filter(
        venue=tx.venue, player=tx.player, gaming_date=tx.gaming_date, direction=tx.kind
    ).exists():
        return None
    alert = CashAlert.objects.create(
        venue=tx.venue,
        player=tx.player,
        gaming_date=tx.gaming_date,
        direction=tx.kind,
        total=total,
        threshold=thresholds.reporting_threshold,
        transaction=tx,
        raised_at=at,
    )
    audit_record(
        user=None,
        action=AuditAction.CASH_ALERT,
        obj=alert,
        venue=tx.venue,
        summary=(
            f"{tx.player.membership_number}'s {tx.get_kind_display()} total of gaming day "
            f"{tx.gaming_date.isoformat()} reached the reporting threshold: "
            f"{venue_money(total, tx.venue)}"
        ),
    )
    logger.warning(
        "cash reporting threshold reached venue=%s player=%s gaming_date=%s direction=%s "
        "total=%s threshold=%s transaction=%s",
        tx.venue.code,
        tx.player.membership_number,
        tx.gaming_date.isoformat(),
        tx.kind,
        total,
        thresholds.reporting_threshold,
        tx.pk,
    )
    return alert


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


# Thresholds


def _threshold(value: Any, venue: Venue, field: str) -> Decimal:
    return check_amount(value, venue, field=field)


@transaction.atomic
def thresholds_propose(
    *, venue: Venue, user: Any, logging_threshold: Any, reporting_threshold: Any
) -> CashThresholds:
    """A manager proposes a version of the venue's thresholds; a second one approves it."""
    if not can(user, MANAGE, venue.pk):
        raise Forbidden(gettext("Only a manager of the venue proposes its cash thresholds."))
    logging_threshold = _threshold(logging_threshold, venue, "logging_threshold")
    reporting_threshold = _threshold(reporting_threshold, venue, "reporting_threshold")
    if reporting_threshold < logging_threshold:
        raise InvalidInput(
            gettext("The reporting threshold is at least the logging threshold."),
            field="reporting_threshold",
        )
    version = CashThresholds.objects.create(
        venue=venue,
        logging_threshold=logging_threshold,
        reporting_threshold=reporting_threshold,
        proposed_by=user,
        proposed_at=timezone.now(),
    )
    audit_record(
        user=user,
        action=AuditAction.CASH_THRESHOLDS_PROPOSE,
        obj=version,
        venue=venue,
        summary=(
            f"proposed cash thresholds: log at {venue_money(logging_threshold, venue)}, "
            f"report at {venue_money(reporting_threshold, venue)}"
        ),
        after={"logging": str(logging_threshold), "reporting": str(reporting_threshold)},
    )
    return version


@transaction.atomic
def thresholds_approve(*, version: CashThresholds, user: Any) -> CashThresholds:
    """A second manager (not the proposer) approves a proposed version: in force from now."""
    version = (
        CashThresholds.objects.select_for_update(of=("self",))
        .select_related("venue")
        .get(pk=version.pk)
    )
    if not can(user, MANAGE, version.venue_id):
        raise Forbidden(gettext("Only a manager of the venue approves its cash thresholds."))
    if version.status == CashThresholds.Status.APPROVED:
        return version
    if approves_own(user=user, made_by=[version.proposed_by_id]):
        raise Forbidden(
            gettext("A second manager approves the thresholds, not the one who proposed them.")
        )
    version.status = CashThresholds.Status.APPROVED
    version.approved_by, version.approved_at = user, timezone.now()
    version.save(update_fields=["status", "approved_by", "approved_at"])
    audit_record(
        user=user,
        action=AuditAction.CASH_THRESHOLDS_APPROVE,
        obj=version,
        venue=version.venue,
        summary=(
            f"approved cash thresholds: log at "
            f"{venue_money(version.logging_threshold, version.venue)}, report at "
            f"{venue_money(version.reporting_threshold, version.venue)}"
        ),
    )
    return version
