"""The large-cash-transaction report file of a venue's gaming days, in the neutral layout
docs/compliance/LCTR-layout.md describes: CSV (written by ``casino.exports``, like every
file of rows) and XML. A line is a report candidate: a cash alert raised at the reporting
threshold (``casino.compliance.selectors.lctr_lines``), with the largest single movement of
its total (``selectors.largest_movements``), so that where the law counts each transaction on
its own (Macau's period, as read) the officer sees which lines the law itself asks for. The
names of the columns and elements are the layout's, fixed in every language; times are the
venue's, with its zone.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any
from xml.etree import ElementTree as ET

from casino.cage.models import CashAlert
from casino.exports import Column, Export, Kind, Sheet
from casino.kernel.money import currency_places
from casino.kernel.timezones import venue_zone
from casino.venues.jurisdictions import Period, jurisdiction_of
from casino.venues.models import Venue

LAYOUT_VERSION = "2"
NAMESPACE = "urn:casino:compliance:lctr:2"
LAYOUTS = ("csv", "xml")

#: The layout's fields, in order: (name, kind). Documented in docs/compliance/LCTR-layout.md.
FIELDS: tuple[tuple[str, Kind], ...] = (
    ("line_id", Kind.TEXT),
    ("venue_code", Kind.TEXT),
    ("gaming_date", Kind.TEXT),
    ("direction", Kind.TEXT),
    ("amount", Kind.MONEY),
    ("currency", Kind.TEXT),
    ("threshold", Kind.MONEY),
    ("raised_at", Kind.TEXT),
    ("membership_number", Kind.TEXT),
    ("player_name", Kind.TEXT),
    ("date_of_birth", Kind.TEXT),
    ("nationality", Kind.TEXT),
    ("id_document_type", Kind.TEXT),
    ("id_document_number", Kind.TEXT),
    ("id_document_country", Kind.TEXT),
    ("transaction_id", Kind.TEXT),
    ("table_code", Kind.TEXT),
    ("period", Kind.TEXT),
    ("largest_transaction", Kind.MONEY),
)
#: The layout's direction codes (``CashAlert.direction``'s values, named for the authority).
DIRECTIONS = {"buy_in": "cash_in", "cash_out": "cash_out"}


def line_id(alert: CashAlert) -> str:
    return f"{alert.venue.code}-{alert.gaming_date:%Y%m%d}-{alert.pk}"


def _local(value: datetime, venue: Venue) -> str:
    return value.astimezone(venue_zone(venue)).isoformat(timespec="seconds")


def _person(alert: CashAlert) -> list[Any]:
    """The member's fields; an unknown patron's identifier and description, the rest empty."""
    player = alert.player
    if player is None:
        patron = alert.unknown_patron
        return [patron.code, patron.description, "", "", "", "", ""]
    return [
        player.membership_number,
        player.name,
        player.date_of_birth.isoformat() if player.date_of_birth else "",
        player.nationality,
        player.id_document_type,
        player.id_document_number,
        player.id_document_country,
    ]


def _row(alert: CashAlert, venue: Venue, largest: dict[int, Decimal]) -> list[Any]:
    # An alert raised at the cage (a chip purchase, front money, a marker paid) has no
    # table transaction: both fields empty.
    tx = alert.transaction
    return [
        line_id(alert),
        venue.code,
        alert.gaming_date.isoformat(),
        DIRECTIONS.get(alert.direction, alert.direction),
        alert.total,
        venue.currency,
        alert.threshold,
        _local(alert.raised_at, venue),
        *_person(alert),
        str(tx.pk) if tx is not None else "",
        tx.table.code if tx is not None else "",
        _period(venue),
        largest.get(alert.pk, alert.total),
    ]


def _period(venue: Venue) -> str:
    """The period the venue's law measures its threshold over (a day where it names none)."""
    law = jurisdiction_of(venue)
    return law.reporting_period if law is not None else Period.GAMING_DAY


def lctr_export(venue: Venue, lines: list[CashAlert], largest: dict[int, Decimal]) -> Export:
    """The CSV's rows: one header of the layout's names, then a line per candidate
    (``largest``: each alert's largest single movement, by its id)."""
    columns = [Column(name, kind) for name, kind in FIELDS]
    rows = [_row(alert, venue, largest) for alert in lines]
    return Export(currency=venue.currency, sheets=[Sheet("LCTR", columns, rows)])


def _amount(value: Decimal, currency: str) -> str:
    places = currency_places(currency)
    return f"{value.quantize(Decimal(1).scaleb(-places)):f}"


def lctr_xml(
    venue: Venue,
    lines: list[CashAlert],
    largest: dict[int, Decimal],
    *,
    date_from: date,
    date_to: date,
    built_at: datetime,
) -> bytes:
    """The XML file: ``<lctr>`` with the venue, the days and when it was built, then a
    ``<line>`` per candidate whose child elements are the layout's fields."""
    root = ET.Element(
        "lctr",
        {
            "xmlns": NAMESPACE,
            "version": LAYOUT_VERSION,
            "venue_code": venue.code,
            "currency": venue.currency,
            "date_from": date_from.isoformat(),
            "date_to": date_to.isoformat(),
            "built_at": _local(built_at, venue),
            "lines": str(len(lines)),
        },
    )
    for alert in lines:
        element = ET.SubElement(root, "line")
        for (name, kind), value in zip(FIELDS, _row(alert, venue, largest), strict=True):
            text = _amount(value, venue.currency) if kind is Kind.MONEY else str(value)
            ET.SubElement(element, name).text = text
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
