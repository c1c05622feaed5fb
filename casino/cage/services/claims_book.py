"""The cage book's side of what members hold or owe at the cage: front money held for them
and the markers they owe (docs/MARKERS.md, "At the cage").

Each posts one movement of the cage book (``casino.cage.services.cage_book.cage_move``):

- a front money deposit: its notes into the cage, against front money held (a return: out
  of the cage); a draw at a table moves nothing in the cage.
- a marker issued at the cage: its chips out of the cage to the member, the marker into
  markers receivable against the member; issued at a table: the marker into markers
  receivable against the tables (the chips left the table's tray, counted at its close).
- a marker's payment: the notes (paid in cash) or the member's chips (paid in chips) into
  the cage, out of markers receivable.
- a reversal of any of these: the movement it reverses, undone line by line.

The pieces are those the cashier counted (``notes``/``chips``: denomination -> number,
worth the amount), or, when only the amount is given, the amount in the fewest pieces of the
venue's denominations. A venue whose cage counts no notes keeps these off the book: its
cage book is not kept (``book_kept``).

The callers (``casino.cage.services.front_money``, ``casino.cage.services.markers``) have
asked who the user is and written their own rows; these functions post their movement.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext

from casino.cage.inventory_selectors import (
    chip_denominations,
    fewest_pieces,
    holding_value,
    note_denominations,
)
from casino.cage.models import (
    HOUSE_CHIPS,
    CageAccount,
    CageMovement,
    FrontMoney,
    Instrument,
    Marker,
    MovementKind,
)
from casino.cage.services.cage_book import Line, between, cage_move, pieces, read_holding
from casino.kernel.errors import InvalidInput
from casino.kernel.money import venue_money
from casino.venues.models import Venue


def book_kept(venue: Venue) -> bool:
    """Whether the venue keeps members' claims in the cage book: its cage counts notes."""
    return bool(note_denominations(venue))


def counted_pieces(
    venue: Venue, amount: Decimal, counted: Any, *, instrument: str, field: str
) -> dict[str, int]:
    """The pieces of ``instrument`` a movement at the window brings in or pays out: those
    counted (``counted``: denomination -> number, worth ``amount``), or the amount in the
    fewest of the venue's pieces."""
    if counted is None:
        listed = (
            note_denominations(venue)
            if instrument == Instrument.NOTES
            else chip_denominations(venue)
        )
        made = fewest_pieces(amount, listed)
        if made is None:
            message = (
                gettext(
                    "%(amount)s cannot be made of this venue's notes (%(pieces)s): give the "
                    "notes counted."
                )
                if instrument == Instrument.NOTES
                else gettext(
                    "%(amount)s cannot be made of this venue's chips (%(pieces)s): give the "
                    "chips counted."
                )
            )
            raise InvalidInput(
                message
                % {
                    "amount": venue_money(amount, venue),
                    "pieces": ", ".join(listed),
                },
                field=field,
            )
        return made
    holding = read_holding(venue, {instrument: counted}, field=field)
    if holding_value(holding) != amount:
        message = (
            gettext("The notes come to %(pieces)s, not %(amount)s: count them again.")
            if instrument == Instrument.NOTES
            else gettext("The chips come to %(pieces)s, not %(amount)s: count them again.")
        )
        raise InvalidInput(
            message
            % {
                "pieces": venue_money(holding_value(holding), venue),
                "amount": venue_money(amount, venue),
            },
            field=field,
        )
    return holding[instrument]


def undo_posted(
    *, venue: Venue, reference: str, undone_by: str, user: Any, note: str, at: datetime
) -> None:
    """The cage book's movement posted under ``reference`` (if there is one), undone line by
    line by a movement posted under ``undone_by``."""
    posted = (
        CageMovement.objects.filter(venue=venue, reference=reference)
        .prefetch_related("lines")
        .first()
    )
    if posted is None:
        return
    cage_move(
        venue=venue,
        user=user,
        kind=posted.kind,
        lines=[
            Line(
                account=line.account,
                instrument=line.instrument,
                denomination=None if line.denomination is None else str(line.denomination),
                count=None if line.count is None else -line.count,
                value=-line.value if line.instrument == Instrument.VALUE else None,
                currency=line.currency,
                chip_set=line.chip_set or HOUSE_CHIPS,
            )
            for line in posted.lines.all()
        ],
        reference=undone_by,
        note=note,
        at=at,
    )


# Front money


def front_money_reference(movement: FrontMoney) -> str:
    return f"front money {movement.pk}"


def front_money_to_book(movement: FrontMoney, user: Any, notes: dict[str, int] | None) -> None:
    """A deposit's notes into the cage against the front money it holds (a return's out of
    it)."""
    if notes is None:
        return
    sign = 1 if movement.amount > 0 else -1
    cage_move(
        venue=movement.venue,
        user=user,
        kind=(MovementKind.FRONT_MONEY_DEPOSIT if sign > 0 else MovementKind.FRONT_MONEY_RETURN),
        lines=[
            *pieces(CageAccount.CAGE, {Instrument.NOTES: notes}, sign=sign),
            Line(CageAccount.FRONT_MONEY, Instrument.VALUE, value=-movement.amount),
        ],
        reference=front_money_reference(movement),
        note=movement.note,
        at=movement.recorded_at,
    )


# Markers


def marker_reference(marker: Marker) -> str:
    return f"marker {marker.label}"


def payment_reference(payment_id: int) -> str:
    return f"marker payment {payment_id}"


def marker_to_book(*, marker: Marker, user: Any, counted: Any = None) -> None:
    """A marker issued: at the cage, its chips out of the cage to the member; at a table,
    from the tables; either way the marker into markers receivable."""
    venue = marker.venue
    if not book_kept(venue):
        return
    claim = Line(CageAccount.MARKERS, Instrument.VALUE, value=marker.amount)
    if marker.session_id is None:
        chips = counted_pieces(
            venue, marker.amount, counted, instrument=Instrument.CHIPS, field="chips"
        )
        lines = [
            *between(CageAccount.PATRONS, CageAccount.CAGE, {Instrument.CHIPS: chips}),
            Line(CageAccount.PATRONS, Instrument.VALUE, value=-marker.amount),
            claim,
        ]
    else:
        lines = [Line(CageAccount.TABLES, Instrument.VALUE, value=-marker.amount), claim]
    cage_move(
        venue=venue,
        user=user,
        kind=MovementKind.MARKER_ISSUE,
        lines=lines,
        reference=marker_reference(marker),
        note=marker.note,
        at=marker.issued_at,
    )


def marker_payment_to_book(
    *,
    marker: Marker,
    payment_id: int,
    user: Any,
    method: str,
    amount: Decimal,
    counted: Any,
    note: str,
    at: datetime,
) -> None:
    """A marker's payment: the notes or chips into the cage, out of markers receivable."""
    venue = marker.venue
    if not book_kept(venue):
        return
    if method == "cash":
        notes = counted_pieces(venue, amount, counted, instrument=Instrument.NOTES, field="notes")
        lines = pieces(CageAccount.CAGE, {Instrument.NOTES: notes})
    else:
        chips = counted_pieces(venue, amount, counted, instrument=Instrument.CHIPS, field="chips")
        lines = [
            *between(CageAccount.CAGE, CageAccount.PATRONS, {Instrument.CHIPS: chips}),
            Line(CageAccount.PATRONS, Instrument.VALUE, value=amount),
        ]
    cage_move(
        venue=venue,
        user=user,
        kind=MovementKind.MARKER_PAYMENT,
        lines=[*lines, Line(CageAccount.MARKERS, Instrument.VALUE, value=-amount)],
        reference=payment_reference(payment_id),
        note=note,
        at=at,
    )
