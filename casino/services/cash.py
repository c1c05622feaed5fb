"""Buy-ins and cash-outs at the tables, and the cash transaction records kept of them.

- ``cash_record``: the dealer (or a supervisor) of an open session records a player's
  buy-in or cash-out at the table: its kind, instrument (cash, chips, marker, other) and
  amount (more than 0, in the venue's currency units: no more decimals than the currency
  has). The player is a member of the venue (by membership number) or nobody known: a
  buy-in of an unknown player still counts for the table, but no threshold can follow
  it; a barred player cannot buy in (a cash-out is still recorded). It counts in the
  gaming day of the venue it is recorded in (``GamingDay``, or the venue's start time
  when no day is made yet), not the calendar day.
- No ledger entry: chips given for cash leave the tray and the cash goes into the drop
  box, which the count measures (the drop); the table's result is the change of its tray
  with the fills, credits and drop. A transaction is the record of who brought in or took
  out how much, which the thresholds read.
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

Every write is audited.
"""

from __future__ import annotations

import logging
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext

from casino.errors import Conflict, Forbidden, InvalidInput
from casino.models import (
    CashAlert,
    CashInstrument,
    CashKind,
    CashThresholds,
    CashTransaction,
    GamingDay,
    Player,
    TableSession,
    Venue,
)
from casino.money import currency_places, venue_money
from casino.players import membership_key
from casino.policy import approves_own
from casino.roles import MANAGE, PLAY, SUPERVISE, can
from casino.services.audit import audit_record
from casino.services.gaming_days import gaming_date_of

logger = logging.getLogger("casino.security")
MAX_REASON = 1000


def gaming_date_at(venue: Venue, at: datetime) -> Any:
    """The venue's gaming date of ``at``: the day made that covers it, else by its start."""
    day = (
        GamingDay.objects.filter(venue=venue, starts_at__lte=at, ends_at__gt=at)
        .values_list("gaming_date", flat=True)
        .first()
    )
    return day or gaming_date_of(venue, at)


def check_amount(amount: Any, venue: Venue, *, field: str = "amount") -> Decimal:
    """An amount more than 0 in the venue's currency units (``InvalidInput`` otherwise)."""
    if not isinstance(amount, Decimal) or not amount.is_finite():
        raise InvalidInput(gettext("Give the amount, e.g. 1000000."), field=field)
    if amount <= 0:
        raise InvalidInput(gettext("The amount must be more than 0."), field=field)
    places = currency_places(venue.currency)
    if amount != amount.quantize(Decimal(1).scaleb(-places)) or amount >= Decimal(10) ** 15:
        raise InvalidInput(
            gettext(
                "%(amount)s is not an amount of %(currency)s: give at most %(places)d decimals "
                "and at most 15 digits."
            )
            % {"amount": amount, "currency": venue.currency, "places": places},
            field=field,
        )
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
) -> CashTransaction:
    """Record a buy-in or cash-out at an open session (``at``: now unless given, for the
    demo's past days). The same ``key`` twice records one transaction (it returns it)."""
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
    amount = check_amount(amount, venue)
    if player is not None and player.venue_id != venue.pk:
        raise InvalidInput(
            gettext("No player with membership number %(number)s at this venue.")
            % {"number": player.membership_number},
            field="player",
        )
    if player is not None:
        # Serialises one player's transactions, so two tables do not raise one alert twice.
        player = Player.objects.select_for_update().get(pk=player.pk)
        if kind == CashKind.BUY_IN and player.status == Player.Status.BARRED:
            raise Conflict(
                gettext("%(name)s is barred and cannot buy in; a cash-out is still recorded.")
                % {"name": player.name},
                field="player",
            )
    at = at or timezone.now()
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
    )
    try:
        with transaction.atomic():
            tx.save()
    except IntegrityError:
        return CashTransaction.objects.get(venue=venue, key=key)
    audit_record(
        user=user,
        action=f"cash.{kind}",
        obj=tx,
        venue=venue,
        summary=(
            f"{tx.get_kind_display()} of {venue_money(amount, venue)} ({instrument}) at "
            f"{table.code} by {player.membership_number if player else 'an unknown player'}"
        ),
        after=_as_dict(tx),
    )
    if player is not None and instrument == CashInstrument.CASH:
        _alert_if_reached(tx, at)
    return tx


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
        action="cash.alert",
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
        action="cash.void",
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
        action="cash.thresholds_propose",
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
        action="cash.thresholds_approve",
        obj=version,
        venue=version.venue,
        summary=(
            f"approved cash thresholds: log at "
            f"{venue_money(version.logging_threshold, version.venue)}, report at "
            f"{venue_money(version.reporting_threshold, version.venue)}"
        ),
    )
    return version
