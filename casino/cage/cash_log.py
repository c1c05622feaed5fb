"""The multiple transaction log: every cash movement of a gaming day in one row shape, at the
tables and at the cage, and the day's totals the cash thresholds read
(``casino.cage.services.thresholds.day_total`` adds a person's rows here, nowhere else).

The sources, each read once per call (four queries, whatever the number of rows):

- the buy-ins and cash-outs at the tables (``CashTransaction``, voids left out), of every
  instrument; only cash counts in the totals, and what else the venue's law counts
  (``counted_instruments``, ``CashMovement.counts``);
- the chip purchases and redemptions at the cage window (``CageMovement``): the notes the
  cage took or paid;
- front money deposited and returned at the cage (``FrontMoney``; a draw at a table moves no
  cash), a reversal netting the movement it undoes, on that movement's gaming day;
- markers paid in cash at the cage (``MarkerPayment``), a reversal netting likewise.

A row names its person: a member, or an unknown patron (``UnknownPatron``); an unknown
patron linked to a member is that member's (``player`` is the member, ``unknown_patron``
still says who it was recorded as). ``cash_people`` says whose rows make one person's total:
a member's own, their linked memberships' where the venue's exclusion area adds up cash
(``casino.players.areas.cash_memberships``), and the unknown patrons linked to any of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db.models import Q, Sum
from django.utils.translation import gettext_lazy as _

from casino.cage.models import (
    CageAccount,
    CageMovement,
    CashInstrument,
    CashTransaction,
    FrontMoney,
    FrontMoneyKind,
    Instrument,
    MarkerPayment,
    MovementKind,
    UnknownPatron,
)
from casino.cage.patrons import CashDirection
from casino.players.areas import cash_memberships
from casino.players.membership import membership_key
from casino.players.models import Player
from casino.players.names import masked
from casino.venues.jurisdictions import Instrument as LawInstrument
from casino.venues.jurisdictions import jurisdiction_of
from casino.venues.models import Venue


class LogKind:
    """What a row of the log is (its ``kind``) and its label."""

    BUY_IN = "buy_in"
    CASH_OUT = "cash_out"
    CHIP_PURCHASE = "chip_purchase"
    CHIP_REDEMPTION = "chip_redemption"
    FRONT_MONEY_DEPOSIT = "front_money_deposit"
    FRONT_MONEY_RETURN = "front_money_return"
    MARKER_PAYMENT = "marker_payment"

    LABELS = {
        BUY_IN: _("Buy-in"),
        CASH_OUT: _("Cash-out"),
        CHIP_PURCHASE: _("Chip purchase"),
        CHIP_REDEMPTION: _("Chip redemption"),
        FRONT_MONEY_DEPOSIT: _("Front money deposit"),
        FRONT_MONEY_RETURN: _("Front money return"),
        MARKER_PAYMENT: _("Marker payment"),
    }


class Source:
    """Where a row comes from: the model of ``CashMovement.source_id``."""

    TABLE = "cash_transaction"
    WINDOW = "cage_movement"
    FRONT_MONEY = "front_money"
    MARKER_PAYMENT = "marker_payment"
    #: Not a row: an alert raised when an unknown patron is linked to a member, whose day
    #: their cash then reaches (``source_id``: the unknown patron).
    PATRON_LINK = "unknown_patron_link"


@dataclass(frozen=True)
class CashMovement:
    """One row of the log."""

    at: datetime
    gaming_date: date
    venue_id: int
    #: The table's code, or "" at the cage.
    table: str
    kind: str  # LogKind
    direction: str  # CashDirection
    instrument: str  # CashInstrument
    #: Signed: a reversal nets what it undoes (less than 0).
    amount: Decimal
    #: The member (an unknown patron linked to one: that member), or None.
    player: Player | None
    unknown_patron: UnknownPatron | None
    recorded_by: Any
    source: str  # Source
    source_id: int
    #: Whether it counts in the day's totals: its instrument is one the venue's law counts
    #: (``counted_instruments``; the cage's rows are all cash).
    counts: bool = True
    #: The identity document seen when it was recorded, where a threshold asked for one.
    id_document_type: str = ""
    id_document_number: str = ""

    @property
    def id_document(self) -> str:
        return document_shown(self)

    @property
    def where(self) -> str:
        return self.table or str(_("Cage"))

    @property
    def kind_label(self) -> str:
        return str(LogKind.LABELS[self.kind])

    @property
    def instrument_label(self) -> str:
        return str(CashInstrument(self.instrument).label)

    @property
    def direction_label(self) -> str:
        return str(CashDirection(self.direction).label)

    @property
    def person(self) -> str:
        """The membership number, the unknown patron's identifier, or ""."""
        if self.player is not None:
            return self.player.membership_number
        return self.unknown_patron.code if self.unknown_patron is not None else ""


@dataclass(frozen=True)
class People:
    """Whose rows make one person's total: members' and unknown patrons' ids."""

    player_ids: tuple[int, ...] = ()
    patron_ids: tuple[int, ...] = ()


def counted_as(
    player: Player | None, unknown_patron: UnknownPatron | None
) -> tuple[Player | None, UnknownPatron | None]:
    """The person a movement counts for: an unknown patron linked to a member is the member."""
    if unknown_patron is not None and unknown_patron.member_id is not None:
        return unknown_patron.member, None
    return player, unknown_patron


def cash_people(
    *,
    player: Player | None = None,
    unknown_patron: UnknownPatron | None = None,
    at: datetime | None = None,
) -> People:
    """Whose cash counts with this person's (see the module's docstring); nobody for None."""
    player, unknown_patron = counted_as(player, unknown_patron)
    if player is None:
        return People(patron_ids=(unknown_patron.pk,) if unknown_patron is not None else ())
    players = tuple(cash_memberships(player, at))
    linked = UnknownPatron.objects.filter(member_id__in=players).values_list("pk", flat=True)
    return People(player_ids=players, patron_ids=tuple(linked))


def _whose(people: People | None, player: str, patron: str | None) -> Q:
    if people is None:
        return Q()
    found = Q(**{f"{player}__in": people.player_ids})
    if patron is not None:
        found |= Q(**{f"{patron}__in": people.patron_ids})
    return found


#: The instruments a jurisdiction's law counts (``casino.venues.jurisdictions.Instrument``)
#: as the tables record them; a cheque has no instrument of its own there.
_LAW_INSTRUMENTS = {
    LawInstrument.CASH: CashInstrument.CASH,
    LawInstrument.CHIPS: CashInstrument.CHIPS,
    LawInstrument.CREDIT: CashInstrument.MARKER,
}


def counted_instruments(venue: Venue) -> frozenset[str]:
    """What counts towards the venue's cash thresholds: cash, and what else the law of its
    jurisdiction counts (Macau's chips and credit); cash only where it names none. The one
    place it is said: the thresholds, the log's rows and the patterns read it."""
    preset = jurisdiction_of(venue)
    named = preset.instruments if preset is not None else ()
    return frozenset(
        {
            CashInstrument.CASH.value,
            *(_LAW_INSTRUMENTS[i].value for i in named if i in _LAW_INSTRUMENTS),
        }
    )


def document_shown(record: Any) -> str:
    """The identity document a record kept (a table's transaction, a cage movement, front
    money, a marker's payment, a row of the log): its type and its number masked, as
    everyone but a manager reads it; "" when none was asked for."""
    return f"{record.id_document_type} {masked(record.id_document_number)}".strip()


def _document(record: Any) -> dict[str, str]:
    return {
        "id_document_type": record.id_document_type,
        "id_document_number": record.id_document_number,
    }


def _tables(where: Q, people: People | None) -> Iterable[CashMovement]:
    rows = (
        CashTransaction.objects.filter(where, _whose(people, "player_id", "unknown_patron_id"))
        .filter(voided_at__isnull=True)
        .select_related("table", "venue", "player", "unknown_patron__member", "recorded_by")
    )
    for tx in rows:
        player, patron = tx.player, tx.unknown_patron
        yield CashMovement(
            at=tx.recorded_at,
            gaming_date=tx.gaming_date,
            venue_id=tx.venue_id,
            table=tx.table.code,
            kind=tx.kind,
            direction=tx.kind,
            instrument=tx.instrument,
            amount=tx.amount,
            player=patron.member if patron is not None and patron.member_id else player,
            unknown_patron=patron,
            recorded_by=tx.recorded_by,
            source=Source.TABLE,
            source_id=tx.pk,
            counts=tx.instrument in counted_instruments(tx.venue),
            **_document(tx),
        )


_WINDOW = {
    MovementKind.CHIP_PURCHASE: (LogKind.CHIP_PURCHASE, CashDirection.IN),
    MovementKind.CHIP_REDEMPTION: (LogKind.CHIP_REDEMPTION, CashDirection.OUT),
}


def _window(where: Q, people: People | None) -> Iterable[CashMovement]:
    notes = Q(lines__account=CageAccount.CAGE, lines__instrument=Instrument.NOTES)
    rows = (
        CageMovement.objects.filter(where, _whose(people, "player_id", "unknown_patron_id"))
        .filter(kind__in=list(_WINDOW))
        .select_related("player", "unknown_patron__member", "recorded_by")
        .annotate(notes=Sum("lines__value", filter=notes))
    )
    for movement in rows:
        kind, direction = _WINDOW[movement.kind]
        patron = movement.unknown_patron
        yield CashMovement(
            at=movement.recorded_at,
            gaming_date=movement.gaming_date,
            venue_id=movement.venue_id,
            table="",
            kind=kind,
            direction=direction,
            instrument=CashInstrument.CASH,
            amount=abs(movement.notes or Decimal(0)),
            player=patron.member if patron is not None and patron.member_id else movement.player,
            unknown_patron=patron,
            recorded_by=movement.recorded_by,
            source=Source.WINDOW,
            source_id=movement.pk,
            **_document(movement),
        )


_FRONT_MONEY = {
    FrontMoneyKind.DEPOSIT: (LogKind.FRONT_MONEY_DEPOSIT, CashDirection.IN, 1),
    FrontMoneyKind.RETURN: (LogKind.FRONT_MONEY_RETURN, CashDirection.OUT, -1),
}


def _front_money(on: dict[str, Any], people: People | None) -> Iterable[CashMovement]:
    """Deposits and returns, and the reversals of either on the day of what they undo."""
    kinds = list(_FRONT_MONEY)
    rows = (
        FrontMoney.objects.filter(
            Q(kind__in=kinds, **on)
            | Q(kind=FrontMoneyKind.REVERSAL, reverses__kind__in=kinds, **_of("reverses", on))
        )
        .filter(_whose(people, "player_id", None))
        .select_related("player", "recorded_by", "reverses")
    )
    for movement in rows:
        undone = movement.reverses
        kind, direction, sign = _FRONT_MONEY[undone.kind if undone else movement.kind]
        yield CashMovement(
            at=movement.recorded_at,
            gaming_date=undone.gaming_date if undone else movement.gaming_date,
            venue_id=movement.venue_id,
            table="",
            kind=kind,
            direction=direction,
            instrument=CashInstrument.CASH,
            amount=sign * movement.amount,
            player=movement.player,
            unknown_patron=None,
            recorded_by=movement.recorded_by,
            source=Source.FRONT_MONEY,
            source_id=movement.pk,
            **_document(movement),
        )


def _markers(on: dict[str, Any], people: People | None) -> Iterable[CashMovement]:
    """Markers paid in cash, and the reversals of those payments on the payment's day."""
    rows = (
        MarkerPayment.objects.filter(
            Q(kind=MarkerPayment.Kind.PAYMENT, **on)
            | Q(kind=MarkerPayment.Kind.REVERSAL, **_of("reverses", on)),
            method=MarkerPayment.Method.CASH,
        )
        .filter(_whose(people, "marker__player_id", None))
        .select_related("marker__player", "received_by", "reverses")
    )
    for payment in rows:
        undone = payment.reverses
        yield CashMovement(
            at=payment.received_at,
            gaming_date=undone.gaming_date if undone else payment.gaming_date,
            venue_id=payment.marker.venue_id,
            table="",
            kind=LogKind.MARKER_PAYMENT,
            direction=CashDirection.IN,
            instrument=CashInstrument.CASH,
            amount=payment.amount,
            player=payment.marker.player,
            unknown_patron=None,
            recorded_by=payment.received_by,
            source=Source.MARKER_PAYMENT,
            source_id=payment.pk,
            **_document(payment),
        )


def _of(relation: str, on: dict[str, Any]) -> dict[str, Any]:
    return {f"{relation}__{name}": value for name, value in on.items()}


def cash_log(
    *,
    gaming_date: date,
    venue: Venue | None = None,
    people: People | None = None,
    date_to: date | None = None,
) -> list[CashMovement]:
    """Every cash movement of a gaming day, oldest first: a venue's (``venue``), or one
    person's at any venue (``people``, from ``cash_people``), or both; of the gaming days
    from ``gaming_date`` to ``date_to`` where given (the same four queries)."""
    on: dict[str, Any] = (
        {"gaming_date__gte": gaming_date, "gaming_date__lte": date_to}
        if date_to is not None
        else {"gaming_date": gaming_date}
    )
    marker_on = dict(on)
    if venue is not None:
        on["venue"] = venue
        marker_on["marker__venue"] = venue
    where = Q(**on)
    rows = [
        *_tables(where, people),
        *_window(where, people),
        *_front_money(on, people),
        *_markers(marker_on, people),
    ]
    rows.sort(key=lambda row: (row.gaming_date, row.at, row.source, row.source_id))
    return rows


def log_total(rows: Iterable[CashMovement], direction: str) -> Decimal:
    """The rows' cash of one direction (what counts: ``CashMovement.counts``)."""
    return sum(
        (row.amount for row in rows if row.counts and row.direction == direction), Decimal(0)
    )


def person_name(row: CashMovement) -> str:
    """The member's name, or the unknown patron's description, of a row."""
    if row.player is not None:
        return row.player.name
    return row.unknown_patron.description if row.unknown_patron is not None else ""


def person_named(venue: Venue, text: str) -> People | None:
    """The person a reader names at the venue: an unknown patron's identifier or a
    membership number (with whoever's cash adds up with theirs); None when nobody is."""
    text = (text or "").strip()
    patron = UnknownPatron.objects.filter(venue=venue, code=text.upper()).first()
    if patron is not None:
        return cash_people(unknown_patron=patron)
    key = membership_key(text)
    player = Player.objects.filter(venue=venue, membership_number=key).first() if key else None
    return cash_people(player=player) if player is not None else None


@dataclass(frozen=True)
class PersonTotal:
    """A person's cash of the day in the log: their label and their totals in and out."""

    person: str
    cash_in: Decimal
    cash_out: Decimal


def person_totals(rows: Iterable[CashMovement]) -> list[PersonTotal]:
    """Each person's totals in ``rows`` (``log_total``), by label; nobody known left out."""
    rows = list(rows)
    people = sorted({row.person for row in rows if row.person})
    return [
        PersonTotal(
            person,
            log_total((r for r in rows if r.person == person), CashDirection.IN),
            log_total((r for r in rows if r.person == person), CashDirection.OUT),
        )
        for person in people
    ]
