"""Front money: a member's safekeeping deposit at the cage, drawn at a table for chips and
returned to them at the cage. Their balance is never below 0.

- ``front_money_deposit``: the cage's cashier takes a member's money into safekeeping.
- ``front_money_draw``: the dealer, supervisor or manager of an open session gives the member
  chips from the table's tray against their front money.
- ``front_money_return``: the cage's cashier pays the member's front money back out.
- ``front_money_reverse``: a manager undoes a movement entered by mistake, with a reason: a
  new movement of the opposite amount that names it (a movement is reversed once).

Each movement is one ``FrontMoney`` row, signed (+ into the balance, - out of it), and
nothing is changed or deleted; the balance is ``casino.cage.selectors.front_money_balance``
(the sum of the rows). Every write takes the player's row lock first (``select_for_update``,
the lock ``cash_record`` takes too) and reads the balance under it, so two draws at two
tables at once are served one after the other: the second sees what the first took.

Who is asked what: a deposit and a draw are money brought to play, so the eligibility
question is a buy-in's (``casino.players.eligibility``: a barred or self-excluded player is
refused); a return is a cash-out's (a barred player is paid back what is theirs).

The cage book (``casino.cage.services.claims_book``): a deposit brings notes into the cage
against the front money it holds, a return pays them out, and a reversal of either undoes
its movement; the book's front money account is then what the cage holds for its members.
The notes are those the cashier counted (``notes``, by denomination), or, when only the
amount is given, the amount in the fewest of the venue's notes. A venue whose cage counts
no notes (none listed) keeps its front money off the book. A draw at a table moves nothing
in the cage: the member's chips leave the tray, recorded at the table like a buy-in.

The cash thresholds count a deposit (cash in) and a return (cash out) as the cash log
reads them (``casino.cage.cash_log``): before recording, a deposit or a return asks what
a table's buy-in asks (``casino.cage.services.cage_identification``: an identity document
where the member's day reaches the reporting threshold and their record holds none, kept
on the movement); after it, ``front_money_counted`` raises the member's alert where their
day reaches the reporting threshold; a draw at a table moves no cash.

Every write is audited.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.models import CashDirection, FrontMoney, FrontMoneyKind, Instrument
from casino.cage.selectors import front_money_balance
from casino.cage.services.cage_identification import member_cash_identification
from casino.cage.services.claims_book import (
    book_kept,
    counted_pieces,
    front_money_reference,
    front_money_to_book,
    undo_posted,
)
from casino.cage.services.patrons import front_money_counted
from casino.cage.services.thresholds import check_amount, gaming_date_at
from casino.floor.models import TableSession
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import venue_money
from casino.players.eligibility import Activity, check_player_may
from casino.players.models import Player
from casino.staff.roles import CASHIER, MANAGE, PLAY, can
from casino.venues.models import Venue

MAX_NOTE = 255

_AUDITED = {
    FrontMoneyKind.DEPOSIT: AuditAction.FRONT_MONEY_DEPOSIT,
    FrontMoneyKind.DRAW: AuditAction.FRONT_MONEY_DRAW,
    FrontMoneyKind.RETURN: AuditAction.FRONT_MONEY_RETURN,
    FrontMoneyKind.REVERSAL: AuditAction.FRONT_MONEY_REVERSE,
}


def _locked(player: Player, venue: Venue) -> Player:
    """The player's row, locked: every movement of their front money waits for it."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.venue_id != venue.pk:
        raise InvalidInput(gettext("This player is not a member of this venue."), field="player")
    return player


def _note(note: str) -> str:
    note = (note or "").strip()
    if len(note) > MAX_NOTE:
        raise InvalidInput(
            gettext("Keep the note under %(max)d characters.") % {"max": MAX_NOTE},
            field="note",
        )
    return note


def _check_covered(player: Player, venue: Venue, amount: Decimal, field: str) -> None:
    """Refuse taking ``amount`` out of a balance that does not hold it."""
    balance = front_money_balance(player)
    if amount > balance:
        raise Conflict(
            gettext(
                "%(player)s has %(balance)s of front money, less than %(amount)s: "
                "take at most %(balance)s, or deposit more at the cage first."
            )
            % {
                "player": player.membership_number,
                "balance": venue_money(balance, venue),
                "amount": venue_money(amount, venue),
            },
            field=field,
        )


def _as_dict(movement: FrontMoney) -> dict[str, Any]:
    return {
        "player": movement.player.membership_number,
        "kind": movement.kind,
        "amount": str(movement.amount),
        "session": movement.session_id,
        "reverses": movement.reverses_id,
        "gaming_date": movement.gaming_date.isoformat(),
        "note": movement.note,
        "balance": str(front_money_balance(movement.player)),
    }


def _write(
    *,
    venue: Venue,
    player: Player,
    user: Any,
    kind: str,
    amount: Decimal,
    at: datetime | None,
    note: str,
    session: TableSession | None = None,
    reverses: FrontMoney | None = None,
    identification: dict[str, str] | None = None,
) -> FrontMoney:
    at = at or timezone.now()
    movement = FrontMoney.objects.create(
        **(identification or {}),
        venue=venue,
        player=player,
        kind=kind,
        amount=amount,
        session=session,
        reverses=reverses,
        gaming_date=gaming_date_at(venue, at),
        recorded_by=user,
        recorded_at=at,
        note=note,
    )
    audit_record(
        user=user,
        action=_AUDITED[kind],
        obj=movement,
        venue=venue,
        summary=(
            f"front money {movement.get_kind_display()} of {venue_money(amount, venue)} "
            f"for {player.membership_number}"
        ),
        after=_as_dict(movement),
    )
    return movement


#: The cage window's two movements: who is asked what, and what the cashier is told.
_WINDOW = {
    FrontMoneyKind.DEPOSIT: (
        Activity.BUY_IN,
        gettext_lazy("Only the cage's cashier takes front money."),
    ),
    FrontMoneyKind.RETURN: (
        Activity.CASH_OUT,
        gettext_lazy("Only the cage's cashier returns front money."),
    ),
}


def _at_the_window(
    *,
    kind: str,
    venue: Venue,
    player: Player,
    user: Any,
    amount: Any,
    notes: Any,
    note: str,
    at: datetime | None,
    id_document_type: str = "",
    id_document_number: str = "",
) -> FrontMoney:
    """A deposit or a return at the cage window: the cashier's, the amount and its notes
    read, the member locked and asked, a return covered, the identification the cash
    thresholds ask for checked and kept (``member_cash_identification``); one row, and the
    notes in the cage book."""
    activity, only_the_cashier = _WINDOW[kind]
    if not can(user, CASHIER, venue.pk):
        raise Forbidden(str(only_the_cashier))
    amount = check_amount(amount, venue, unit=venue.rounding_unit)
    note = _note(note)
    counted = (
        counted_pieces(venue, amount, notes, instrument=Instrument.NOTES, field="notes")
        if book_kept(venue)
        else None
    )
    player = _locked(player, venue)
    at = at or timezone.now()
    check_player_may(player=player, venue=venue, activity=activity, at=at)
    if kind == FrontMoneyKind.RETURN:
        _check_covered(player, venue, amount, "amount")
    identification = member_cash_identification(
        venue=venue,
        player=player,
        direction=CashDirection.IN if kind == FrontMoneyKind.DEPOSIT else CashDirection.OUT,
        amount=amount,
        at=at,
        id_document_type=id_document_type,
        id_document_number=id_document_number,
    )
    movement = _write(
        venue=venue,
        player=player,
        user=user,
        kind=kind,
        amount=amount if kind == FrontMoneyKind.DEPOSIT else -amount,
        at=at,
        note=note,
        identification=identification,
    )
    front_money_to_book(movement, user, counted)
    front_money_counted(movement)
    return movement


@transaction.atomic
def front_money_deposit(
    *,
    venue: Venue,
    player: Player,
    user: Any,
    amount: Any,
    notes: Any = None,
    note: str = "",
    at: datetime | None = None,
    id_document_type: str = "",
    id_document_number: str = "",
) -> FrontMoney:
    """The cage's cashier takes ``amount`` of the member's money into safekeeping (the
    ``notes`` counted, or the amount in the fewest notes); ``id_document_type`` and
    ``id_document_number``: the identity document seen, where the thresholds ask for one."""
    return _at_the_window(
        kind=FrontMoneyKind.DEPOSIT,
        venue=venue,
        player=player,
        user=user,
        amount=amount,
        notes=notes,
        note=note,
        at=at,
        id_document_type=id_document_type,
        id_document_number=id_document_number,
    )


@transaction.atomic
def front_money_draw(
    *,
    session: TableSession,
    player: Player,
    user: Any,
    amount: Any,
    note: str = "",
    at: datetime | None = None,
) -> FrontMoney:
    """The member takes ``amount`` of chips at an open session against their front money."""
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
            gettext("The session of %(table)s is closed: draw at an open session.")
            % {"table": session.table.code},
            field="session",
        )
    amount = check_amount(amount, venue, unit=venue.rounding_unit)
    note = _note(note)
    player = _locked(player, venue)
    check_player_may(player=player, venue=venue, activity=Activity.BUY_IN, at=at)
    _check_covered(player, venue, amount, "amount")
    return _write(
        venue=venue,
        player=player,
        user=user,
        kind=FrontMoneyKind.DRAW,
        amount=-amount,
        at=at,
        note=note,
        session=session,
    )


@transaction.atomic
def front_money_return(
    *,
    venue: Venue,
    player: Player,
    user: Any,
    amount: Any,
    notes: Any = None,
    note: str = "",
    at: datetime | None = None,
    id_document_type: str = "",
    id_document_number: str = "",
) -> FrontMoney:
    """The cage's cashier pays ``amount`` of the member's front money back to them (the
    ``notes`` paid out, or the amount in the fewest notes); the identity document as a
    deposit's."""
    return _at_the_window(
        kind=FrontMoneyKind.RETURN,
        venue=venue,
        player=player,
        user=user,
        amount=amount,
        notes=notes,
        note=note,
        at=at,
        id_document_type=id_document_type,
        id_document_number=id_document_number,
    )


@transaction.atomic
def front_money_reverse(
    *, movement: FrontMoney, user: Any, reason: str, at: datetime | None = None
) -> FrontMoney:
    """A manager reverses a movement entered by mistake: a new movement of the opposite
    amount naming it. A reversal that would take the balance below 0 (a deposit already
    drawn) is refused."""
    movement = FrontMoney.objects.select_related("venue", "player").get(pk=movement.pk)
    venue = movement.venue
    if not can(user, MANAGE, venue.pk):
        raise Forbidden(gettext("Only a manager reverses front money."))
    reason = _note(reason)
    if not reason:
        raise InvalidInput(gettext("Say why it is reversed."), field="reason")
    player = _locked(movement.player, venue)
    if movement.kind == FrontMoneyKind.REVERSAL:
        raise Conflict(gettext("A reversal is not reversed: enter the movement again."))
    if FrontMoney.objects.filter(reverses=movement).exists():
        raise Conflict(gettext("This movement is already reversed."))
    if movement.amount > 0:
        _check_covered(player, venue, movement.amount, "movement")
    reversal = _write(
        venue=venue,
        player=player,
        user=user,
        kind=FrontMoneyKind.REVERSAL,
        amount=-movement.amount,
        at=at,
        note=reason,
        reverses=movement,
    )
    undo_posted(
        venue=venue,
        reference=front_money_reference(movement),
        undone_by=front_money_reference(reversal),
        user=user,
        note=reversal.note,
        at=reversal.recorded_at,
    )
    return reversal
