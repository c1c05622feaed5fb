"""The cage book: the one way a movement of the cage's notes and chips is written
(``cage_move``), and the lines a movement is made of.

A movement (``CageMovement``) is a set of lines (``CageLine``), each an account (the cage,
the vault, the tables, the patrons, front money held, markers receivable, over/short, the
opening balance), an instrument (notes of the venue's currency, chips of its chip set, or a
bare value for a claim with no pieces: a marker, front money held), a denomination and a
signed number of pieces with its value; the lines of a movement sum to zero per currency.
What an account holds is the sum of its lines: the cage's is the cage's expected inventory
(``casino.cage.inventory_selectors.cage_inventory``).

Every transaction at the cage window posts through ``cage_move``, in its own transaction:
the fills and credits (``casino.cage.services.slips``), chip purchases and redemptions,
transfers to and from the vault and the counts' adjustments
(``casino.cage.services.inventory``), front money and markers
(``casino.cage.services.claims_book``). A caller builds its lines with ``Line``
(``pieces`` and ``between`` make them from a count of notes and chips, ``read_holding``
reads one from its user); ``cage_move`` checks
them (known denominations, the cage and the vault hold pieces, a balanced movement) and,
once the cage has been counted, that the cage never gives out pieces it does not hold. It
does not ask who the user is: each caller's service has done so (a fill is posted by the
cashier who issues it). On PostgreSQL the database refuses an unbalanced movement and any
UPDATE or DELETE of the book (migration 0007).

Locking: ``cage_move`` locks the venue's row first, so the book's movements and the counts
(which take the same lock) are served one after another.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.inventory_selectors import (
    Holding,
    cage_inventory,
    denominations,
    empty_holding,
    has_been_counted,
    open_shift,
)
from casino.cage.models import (
    HOUSE_CHIPS,
    CageAccount,
    CageLine,
    CageMovement,
    Instrument,
    MovementKind,
    Slip,
)
from casino.cage.services.thresholds import gaming_date_at
from casino.floor.services.sessions import MAX_CHIPS
from casino.kernel.errors import Conflict, InvalidInput
from casino.kernel.money import plain, to_decimal, venue_money
from casino.venues.models import Venue

MAX_NOTE = 255
#: The instruments with pieces: the only ones the cage and the vault hold.
PIECES = (Instrument.NOTES, Instrument.CHIPS)
_PIECES = PIECES


@dataclass(frozen=True)
class Line:
    """One line of a movement, as a caller of ``cage_move`` gives it: ``count`` pieces of
    ``denomination`` (signed: + into ``account``, - out of it), or, for an instrument with no
    pieces (``Instrument.VALUE``), a signed ``value``. Notes are of the venue's currency and
    chips of its chip set unless said."""

    account: str
    instrument: str
    denomination: str | None = None
    count: int | None = None
    value: Decimal | None = None
    currency: str | None = None
    chip_set: str = HOUSE_CHIPS


def pieces(account: str, holding: Mapping[str, Mapping[str, int]], *, sign: int = 1) -> list[Line]:
    """The lines moving a holding (``{"notes": {...}, "chips": {...}}``) into ``account``
    (``sign`` -1: out of it)."""
    return [
        Line(account=account, instrument=instrument, denomination=d, count=sign * int(n))
        for instrument in _PIECES
        for d, n in (holding.get(instrument) or {}).items()
        if int(n)
    ]


def between(into: str, out_of: str, holding: Mapping[str, Mapping[str, int]]) -> list[Line]:
    """The lines carrying a holding out of one account into another: balanced by itself."""
    return [*pieces(into, holding), *pieces(out_of, holding, sign=-1)]


def clean_note(note: str, field: str = "note") -> str:
    note = (note or "").strip()
    if len(note) > MAX_NOTE:
        raise InvalidInput(
            _("Keep the note under %(max)d characters.") % {"max": MAX_NOTE}, field=field
        )
    return note


def read_holding(venue: Venue, values: Mapping[str, Any] | None, *, field: str) -> Holding:
    """A count or movement of notes and chips (``{"notes": {denomination: number}, "chips":
    {...}}``), checked against the venue's denominations and cleaned (zeros dropped)."""
    if values is None:
        return empty_holding()
    if not isinstance(values, Mapping):
        raise InvalidInput(
            _('Give the notes and chips as {"notes": {...}, "chips": {...}}.'), field=field
        )
    unknown = set(values) - set(_PIECES)
    if unknown:
        raise InvalidInput(
            _("%(what)s is not counted at the cage: count notes and chips.")
            % {"what": ", ".join(sorted(unknown))},
            field=field,
        )
    listed = denominations(venue)
    holding = empty_holding()
    for instrument in _PIECES:
        given = values.get(instrument) or {}
        if not isinstance(given, Mapping):
            raise InvalidInput(
                _("Give the %(what)s as an object of denomination -> number.")
                % {"what": instrument},
                field=f"{field}.{instrument}",
            )
        allowed = {to_decimal(d): d for d in listed[instrument]}
        for denomination, count in given.items():
            try:
                value = to_decimal(str(denomination))
            except (TypeError, ValueError, ArithmeticError):
                value = None
            where = f"{field}.{instrument}.{denomination}"
            if value not in allowed:
                message = (
                    _("%(value)s is not a bank note of this venue; its notes are %(listed)s.")
                    if instrument == Instrument.NOTES
                    else _("%(value)s is not a chip of this venue; its chips are %(listed)s.")
                )
                raise InvalidInput(
                    message
                    % {"value": denomination, "listed": ", ".join(listed[instrument]) or "-"},
                    field=where,
                )
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_CHIPS:
                raise InvalidInput(
                    _("The number of %(value)s pieces is a whole number from 0 to %(most)s.")
                    % {"value": denomination, "most": MAX_CHIPS},
                    field=where,
                )
            if count:
                key = allowed[value]
                holding[instrument][key] = holding[instrument].get(key, 0) + count
    return holding


def _rows(venue: Venue, movement: CageMovement, lines: Sequence[Line]) -> list[CageLine]:
    listed = denominations(venue)
    rows = []
    for index, line in enumerate(lines):
        field = f"lines[{index}]"
        if line.account not in CageAccount.values:
            raise InvalidInput(
                _("%(account)s is not an account of the cage book.") % {"account": line.account},
                field=field,
            )
        currency = line.currency or venue.currency
        if line.instrument == Instrument.VALUE:
            if line.account in (CageAccount.CAGE, CageAccount.VAULT):
                raise InvalidInput(
                    _("The cage and the vault hold notes and chips, counted by denomination."),
                    field=field,
                )
            value = to_decimal(line.value if line.value is not None else 0)
            if not value:
                raise InvalidInput(_("A line moves something: its value is not 0."), field=field)
            rows.append(
                CageLine(
                    movement=movement,
                    account=line.account,
                    instrument=line.instrument,
                    currency=currency,
                    chip_set="",
                    value=value,
                )
            )
            continue
        if line.instrument not in _PIECES:
            raise InvalidInput(
                _("%(what)s is not an instrument of the cage book.") % {"what": line.instrument},
                field=field,
            )
        if currency != venue.currency or (
            line.instrument == Instrument.CHIPS and line.chip_set != HOUSE_CHIPS
        ):
            raise InvalidInput(
                _("The cage holds the notes of %(currency)s and the venue's chips only.")
                % {"currency": venue.currency},
                field=field,
            )
        denomination = to_decimal(str(line.denomination))
        if denomination not in {to_decimal(d) for d in listed[line.instrument]}:
            raise InvalidInput(
                _("%(value)s is not a denomination of this venue's %(what)s.")
                % {"value": line.denomination, "what": line.instrument},
                field=field,
            )
        if not line.count:
            raise InvalidInput(_("A line moves something: its count is not 0."), field=field)
        rows.append(
            CageLine(
                movement=movement,
                account=line.account,
                instrument=line.instrument,
                currency=currency,
                chip_set=line.chip_set if line.instrument == Instrument.CHIPS else "",
                denomination=denomination,
                count=line.count,
                value=denomination * line.count,
            )
        )
    return rows


def _check_balanced(rows: Sequence[CageLine]) -> None:
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for row in rows:
        totals[row.currency] += row.value
    unbalanced = {currency: total for currency, total in totals.items() if total}
    if unbalanced:
        raise InvalidInput(
            _("The movement's lines do not balance: they come to %(sums)s, not 0.")
            % {"sums": ", ".join(f"{plain(t)} {c}" for c, t in sorted(unbalanced.items()))},
            field="lines",
            reason="unbalanced",
        )


def _check_held(venue: Venue, rows: Sequence[CageLine]) -> None:
    """Refuse taking out of the cage more pieces of a denomination than it holds (once its
    inventory is known, from its first signed count)."""
    taken: dict[tuple[str, Decimal], int] = defaultdict(int)
    for row in rows:
        if row.account == CageAccount.CAGE:
            taken[(row.instrument, row.denomination)] += row.count
    if not any(n < 0 for n in taken.values()) or not has_been_counted(venue):
        return
    held = cage_inventory(venue)
    for (instrument, denomination), change in taken.items():
        have = sum(n for d, n in held[instrument].items() if to_decimal(d) == denomination)
        if have + change < 0:
            raise Conflict(
                _(
                    "The cage holds %(have)s of %(value)s %(what)s, not the %(want)s this "
                    "takes: bring them from the vault first, or count the cage again."
                )
                % {
                    "have": have,
                    "value": venue_money(denomination, venue),
                    "what": Instrument(instrument).label.lower(),
                    "want": -change,
                },
                field="lines",
                reason="not_in_cage",
            )


def _lines_audited(rows: Sequence[CageLine]) -> list[dict[str, Any]]:
    return [
        {
            "account": row.account,
            "instrument": row.instrument,
            "currency": row.currency,
            "chip_set": row.chip_set,
            "denomination": None if row.denomination is None else plain(row.denomination),
            "count": row.count,
            "value": str(row.value),
        }
        for row in rows
    ]


def locked_venue(venue: Venue) -> Venue:
    return Venue.objects.select_for_update().get(pk=venue.pk)


@transaction.atomic
def cage_move(
    *,
    venue: Venue,
    user: Any,
    kind: str,
    lines: Sequence[Line],
    note: str = "",
    reference: str = "",
    slip: Slip | None = None,
    at: datetime | None = None,
    player: Any = None,
    unknown_patron: Any = None,
    id_document_type: str = "",
    id_document_number: str = "",
) -> CageMovement:
    """Post one movement of the cage book: ``lines`` (``Line``, see ``pieces`` and
    ``between`` for the pieces of a holding) summing to zero per currency, of ``kind``
    (``MovementKind``), with a ``reference`` to what it posts (a slip, a marker's number) and
    a ``note``, and the ``player`` or ``unknown_patron`` it is of (the window's exchanges,
    with the identity document the thresholds asked for: ``identification_asked``). It
    belongs to the cage shift open at the venue, if any.

    Refused (nothing written): an unknown account, instrument or denomination, a value line
    in the cage or the vault, unbalanced lines, and, once the cage has been counted, taking
    out of it pieces it does not hold. The caller has checked who ``user`` may be; the
    movement is audited as ``cage.move``. Locks the venue's row."""
    venue = locked_venue(venue)
    if kind not in MovementKind.values:
        raise InvalidInput(
            _("%(kind)s is not a kind of cage movement.") % {"kind": kind}, field="kind"
        )
    if not lines:
        raise InvalidInput(_("A movement has at least one line."), field="lines")
    note = clean_note(note)
    at = at or timezone.now()
    movement = CageMovement(
        venue=venue,
        shift=open_shift(venue),
        kind=kind,
        gaming_date=gaming_date_at(venue, at),
        slip=slip,
        reference=(reference or "")[:64],
        note=note,
        recorded_by=user,
        recorded_at=at,
        player=player,
        unknown_patron=unknown_patron,
        id_document_type=id_document_type,
        id_document_number=id_document_number,
    )
    rows = _rows(venue, movement, lines)
    _check_balanced(rows)
    _check_held(venue, rows)
    movement.save()
    CageLine.objects.bulk_create(rows)  # one statement: the balance trigger sees them all
    audit_record(
        user=user,
        action=AuditAction.CAGE_MOVE,
        obj=movement,
        venue=venue,
        summary=f"cage book: {kind} {movement.reference}".strip(),
        after={"kind": kind, "reference": movement.reference, "lines": _lines_audited(rows)},
    )
    return movement
