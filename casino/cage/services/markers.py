"""Markers (casino credit): a member's credit line, the markers they sign against it at a
table or at the cage, and what they pay back at the cage (docs/MARKERS.md).

- the credit line and the venue's marker terms: ``casino.cage.services.credit_lines``.
- ``marker_issue_at_table``: at an open session, the dealer (or a supervisor or manager) gives
  the member chips from the tray against a marker the member signs and a supervisor, another
  person, signs too; its copy goes into the drop box and counts in the table's drop where
  the venue's terms say so (``casino.cage.marker_selectors.session_markers``).
- ``marker_issue_at_cage``: the cage's cashier gives the chips, a supervisor signs.
- ``marker_pay``: the cage's cashier takes a payment of a marker, in cash or chips, at most
  its balance (partial payments: several); ``marker_payment_reverse``: a manager reverses a
  payment entered by mistake, with a reason (a new row naming it, once).

A marker is credit play: issuing one asks the eligibility question of a buy-in
(``casino.players.eligibility``: a barred member gets no marker). A payment takes money
from the member and is never refused for it.

Locking, in this order: the session (at a table), the player's row (every marker and payment
of a player waits for it, so two tables issuing at once at the credit limit are served one
after the other and the second sees the first's marker), then the venue's row (the marker's
number). The figures (limit, outstanding, available, balance) are read under the player's
lock from ``casino.cage.marker_selectors``, where each is added up once.

Every write is audited, and posts to the cage book (``casino.cage.services.claims_book``):
a marker into markers receivable (issued at the cage, its chips out of the cage), a payment
out of it (its notes or chips into the cage), a reversal undoing its payment's movement.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.marker_selectors import (
    available_credit,
    marker_balance,
    outstanding,
    terms_in_force,
)
from casino.cage.models import CashDirection, Marker, MarkerPayment
from casino.cage.services.cage_identification import member_cash_identification
from casino.cage.services.claims_book import (
    marker_payment_to_book,
    marker_to_book,
    payment_reference,
    undo_posted,
)
from casino.cage.services.credit_lines import _locked_player, _text
from casino.cage.services.patrons import marker_payment_counted
from casino.cage.services.thresholds import check_amount, gaming_date_at
from casino.floor.models import TableSession
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import venue_money
from casino.players.eligibility import Activity, check_player_may
from casino.players.models import Player
from casino.staff.roles import CASHIER, MANAGE, PLAY, SUPERVISE, can
from casino.venues.models import Venue


def _money(amount: Decimal, venue: Venue) -> str:
    return venue_money(amount, venue)


# Markers


def _check_supervisor(supervisor: Any, user: Any, venue: Venue) -> None:
    """The marker's second signature: a supervisor (or manager) of the venue, not its issuer."""
    if supervisor is None or not can(supervisor, SUPERVISE, venue.pk):
        raise InvalidInput(
            gettext("A supervisor of the venue signs the marker: name one."),
            field="supervisor",
            reason="supervisor_required",
        )
    if supervisor.pk == getattr(user, "pk", None):
        raise InvalidInput(
            gettext("The supervisor who signs the marker is not the one who issues it."),
            field="supervisor",
            reason="same_signer",
        )


def _check_credit(player: Player, venue: Venue, amount: Decimal) -> None:
    """Refuse a marker beyond the player's available credit, saying the figures."""
    limit, owed, available = available_credit(player)
    if amount <= available:
        return
    if limit <= 0:
        message = gettext(
            "%(player)s has no credit line approved: two managers approve a credit limit "
            "before a marker is issued."
        ) % {"player": player.membership_number}
    else:
        message = gettext(
            "%(player)s's credit limit is %(limit)s and %(owed)s is outstanding, so "
            "%(available)s is available, less than this marker's %(amount)s: issue at most "
            "%(available)s, take a payment at the cage first, or ask two managers for a higher "
            "limit."
        ) % {
            "player": player.membership_number,
            "limit": _money(limit, venue),
            "owed": _money(owed, venue),
            "available": _money(available, venue),
            "amount": _money(amount, venue),
        }
    raise Conflict(message, field="amount", reason="credit_limit")


def _issue(
    *,
    venue: Venue,
    player: Player,
    user: Any,
    supervisor: Any,
    amount: Any,
    player_signed: bool,
    note: str,
    at: datetime | None,
    session: TableSession | None = None,
) -> Marker:
    _check_supervisor(supervisor, user, venue)
    if player_signed is not True:
        raise InvalidInput(
            gettext("The player signs the marker before it is issued."),
            field="player_signed",
            reason="player_signature_required",
        )
    amount = check_amount(amount, venue, unit=venue.rounding_unit)
    note = _text(note, "note")
    at = at or timezone.now()
    player = _locked_player(player, venue)
    check_player_may(player=player, venue=venue, activity=Activity.BUY_IN, at=at)
    _check_credit(player, venue, amount)
    terms = terms_in_force(venue)
    gaming_date = gaming_date_at(venue, at)
    Venue.objects.select_for_update().get(pk=venue.pk)  # numbers are taken one at a time
    last = Marker.objects.filter(venue=venue).aggregate(n=Max("number"))["n"] or 0
    marker = Marker.objects.create(
        venue=venue,
        number=last + 1,
        player=player,
        amount=amount,
        session=session,
        in_drop=session is not None and terms.credit_drop,
        gaming_date=gaming_date,
        due_on=gaming_date + timedelta(days=terms.term_days),
        issued_by=user,
        supervisor=supervisor,
        player_signed_at=at,
        issued_at=at,
        note=note,
    )
    where = f"table {session.table.code}" if session is not None else "the cage"
    audit_record(
        user=user,
        action=AuditAction.MARKER_ISSUE,
        obj=marker,
        venue=venue,
        summary=(
            f"marker {marker.label} of {_money(amount, venue)} for {player.membership_number} "
            f"at {where}, signed by {supervisor.username}"
        ),
        after={
            "number": marker.label,
            "player": player.membership_number,
            "amount": str(amount),
            "session": marker.session_id,
            "in_drop": marker.in_drop,
            "gaming_date": gaming_date.isoformat(),
            "due_on": marker.due_on.isoformat(),
            "supervisor": supervisor.username,
            "outstanding": str(outstanding(player)),
        },
    )
    return marker


@transaction.atomic
def marker_issue_at_table(
    *,
    session: TableSession,
    player: Player,
    user: Any,
    supervisor: Any,
    amount: Any,
    player_signed: bool,
    note: str = "",
    at: datetime | None = None,
) -> Marker:
    """At an open session, the member takes ``amount`` of chips from the tray against a
    marker they sign, a supervisor (not ``user``) signing too; its copy goes into the box."""
    session = (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("table__venue")
        .get(pk=session.pk)
    )
    venue = session.table.venue
    if not can(user, PLAY, venue.pk):
        raise Forbidden(gettext("You do not run tables at this venue."))
    if session.status != TableSession.Status.OPEN:
        raise Conflict(
            gettext("The session of %(table)s is closed: issue the marker at an open session.")
            % {"table": session.table.code},
            field="session",
        )
    marker = _issue(
        venue=venue,
        player=player,
        user=user,
        supervisor=supervisor,
        amount=amount,
        player_signed=player_signed,
        note=note,
        at=at,
        session=session,
    )
    marker_to_book(marker=marker, user=user)
    return marker


@transaction.atomic
def marker_issue_at_cage(
    *,
    venue: Venue,
    player: Player,
    user: Any,
    supervisor: Any,
    amount: Any,
    player_signed: bool,
    chips: Any = None,
    note: str = "",
    at: datetime | None = None,
) -> Marker:
    """The cage's cashier gives the member ``amount`` of chips (``chips`` as counted out, or
    the fewest) against a marker they sign, a supervisor signing too."""
    if not can(user, CASHIER, venue.pk):
        raise Forbidden(gettext("Only the cage's cashier issues a marker at the cage."))
    marker = _issue(
        venue=venue,
        player=player,
        user=user,
        supervisor=supervisor,
        amount=amount,
        player_signed=player_signed,
        note=note,
        at=at,
    )
    marker_to_book(marker=marker, user=user, counted=chips)
    return marker


# Payments


def _payment_as_dict(payment: MarkerPayment, balance: Decimal) -> dict[str, Any]:
    return {
        "marker": payment.marker.label,
        "kind": payment.kind,
        "method": payment.method,
        "amount": str(payment.amount),
        "reverses": payment.reverses_id,
        "balance": str(balance),
        "note": payment.note,
    }


@transaction.atomic
def marker_pay(
    *,
    marker: Marker,
    user: Any,
    amount: Any,
    method: str,
    counted: Any = None,
    note: str = "",
    at: datetime | None = None,
    id_document_type: str = "",
    id_document_number: str = "",
) -> MarkerPayment:
    """The cage's cashier takes a payment of ``amount`` of the marker, in cash or chips: at
    most its balance (a part of it is a partial payment). ``counted``: the notes or chips
    taken in, by denomination (else the amount in the fewest). A payment in cash asks what
    a buy-in asks before it is recorded (``member_cash_identification``): the identity
    document seen (``id_document_type``, ``id_document_number``), where the thresholds ask
    for one, is kept on the payment."""
    marker = Marker.objects.select_related("venue", "player").get(pk=marker.pk)
    venue = marker.venue
    if not can(user, CASHIER, venue.pk):
        raise Forbidden(gettext("Only the cage's cashier takes a marker's payment."))
    if method not in MarkerPayment.Method.values:
        raise InvalidInput(gettext("A marker is paid in cash or in chips."), field="method")
    amount = check_amount(amount, venue)
    note = _text(note, "note")
    _locked_player(marker.player, venue)
    balance = marker_balance(marker)
    if amount > balance:
        raise Conflict(
            gettext(
                "Marker %(marker)s has %(balance)s left to pay, less than %(amount)s: take at "
                "most %(balance)s."
            )
            % {
                "marker": marker.label,
                "balance": _money(balance, venue),
                "amount": _money(amount, venue),
            },
            field="amount",
            reason="more_than_balance",
        )
    at = at or timezone.now()
    identification = (
        member_cash_identification(
            venue=venue,
            player=marker.player,
            direction=CashDirection.IN,
            amount=amount,
            at=at,
            id_document_type=id_document_type,
            id_document_number=id_document_number,
        )
        if method == MarkerPayment.Method.CASH
        else {}
    )
    payment = MarkerPayment.objects.create(
        **identification,
        marker=marker,
        kind=MarkerPayment.Kind.PAYMENT,
        method=method,
        amount=amount,
        gaming_date=gaming_date_at(venue, at),
        received_by=user,
        received_at=at,
        note=note,
    )
    marker_payment_to_book(
        marker=marker,
        payment_id=payment.pk,
        user=user,
        method=method,
        amount=amount,
        counted=counted,
        note=note,
        at=at,
    )
    audit_record(
        user=user,
        action=AuditAction.MARKER_PAY,
        obj=payment,
        venue=venue,
        summary=(
            f"payment of {_money(amount, venue)} in {method} of marker {marker.label} "
            f"({marker.player.membership_number})"
        ),
        after=_payment_as_dict(payment, balance - amount),
    )
    marker_payment_counted(payment)
    return payment


@transaction.atomic
def marker_payment_reverse(
    *, payment: MarkerPayment, user: Any, reason: str, at: datetime | None = None
) -> MarkerPayment:
    """A manager reverses a payment entered by mistake: a new row of the opposite amount
    naming it (a payment is reversed once; a reversal is not reversed)."""
    payment = MarkerPayment.objects.select_related("marker__venue", "marker__player").get(
        pk=payment.pk
    )
    marker = payment.marker
    venue = marker.venue
    if not can(user, MANAGE, venue.pk):
        raise Forbidden(gettext("Only a manager reverses a marker's payment."))
    reason = _text(reason, "reason")
    if not reason:
        raise InvalidInput(gettext("Say why it is reversed."), field="reason")
    _locked_player(marker.player, venue)
    if payment.kind == MarkerPayment.Kind.REVERSAL:
        raise Conflict(gettext("A reversal is not reversed: enter the payment again."))
    if MarkerPayment.objects.filter(reverses=payment).exists():
        raise Conflict(gettext("This payment is already reversed."))
    at = at or timezone.now()
    reversal = MarkerPayment.objects.create(
        marker=marker,
        kind=MarkerPayment.Kind.REVERSAL,
        method=payment.method,
        amount=-payment.amount,
        reverses=payment,
        gaming_date=gaming_date_at(venue, at),
        received_by=user,
        received_at=at,
        note=reason,
    )
    undo_posted(
        venue=venue,
        reference=payment_reference(payment.pk),
        undone_by=payment_reference(reversal.pk),
        user=user,
        note=reason,
        at=at,
    )
    audit_record(
        user=user,
        action=AuditAction.MARKER_PAYMENT_REVERSE,
        obj=reversal,
        venue=venue,
        summary=f"reversed a payment of {_money(payment.amount, venue)} of marker {marker.label}",
        after=_payment_as_dict(reversal, marker_balance(marker)),
    )
    return reversal
