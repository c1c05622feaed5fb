"""A report's files from its figures: CSV, XLSX (a sheet per section), PDF, chart SVGs.

Each writer reads the stored figures only, so the files always say what the page says.
``present`` turns the figures into display text (amounts with the currency's decimals in
the venue's grouping, percentages, "n/a" with its reason) for the HTML page and the PDF;
the CSV and XLSX keep plain numbers.

Names and reasons are typed by people (a player, a venue, a void's reason), so a
spreadsheet must never run them: a text cell starting with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return would be a formula (OWASP "CSV injection"). The CSV writes such
text after a ``'``; the XLSX stores it as a string with Excel's own quote prefix (what
Excel records when one types ``'`` before it), so the text reads as typed. Numbers are
written as numbers, a negative amount included. The CSV starts with a UTF-8 byte order
mark, so Excel reads "Hà Nội" as such.
"""

from __future__ import annotations

import base64
import copy
import csv
import io
import logging
from collections.abc import Callable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext_noop

from casino.money import Grouping, currency_places, grouped
from casino.reports.figures import theoretical_note
from casino.reports.kinds import game_label

# WeasyPrint logs every layout step at INFO level.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)

CSV_NAME = "shift-report.csv"
XLSX_NAME = "shift-report.xlsx"
PDF_NAME = "shift-report.pdf"
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
    "svg": "image/svg+xml",
}

#: The performance sections: (figures key, title, what the first column is).
SECTIONS = [
    ("tables", "Tables", "Table"),
    ("dealers", "Dealers", "Dealer"),
    ("games", "Games", "Game"),
    ("bet_types", "Bet types", "Bet type"),
    ("hours", "Hours", "Hour"),
]
#: Columns of a performance section: (key, header).
FIGURE_COLUMNS = [
    ("rounds", "Rounds"),
    ("bets", "Bets"),
    ("handle", "Handle"),
    ("player_result", "Player win/loss"),
    ("commission", "Commission"),
    ("house_win", "House win"),
    ("hold_pct", "Hold %"),
    ("theoretical_win", "Theoretical win"),
    ("theoretical_hold_pct", "Theoretical hold %"),
    ("actual_minus_theoretical", "Actual - theoretical"),
    ("hold_low_pct", "95% range low %"),
    ("hold_high_pct", "95% range high %"),
    ("flagged", "Outside range"),
]
PLAYER_COLUMNS = [
    ("key", "Member"),
    ("label", "Name"),
    ("rounds", "Rounds"),
    ("hands", "Hands"),
    ("minutes", "Minutes at table"),
    ("bets", "Bets"),
    ("handle", "Handle"),
    ("average_bet", "Average bet"),
    ("theoretical_win", "Theoretical win"),
    ("house_win", "Actual win"),
    ("commission", "Commission"),
]
FEE_COLUMNS = [
    ("label", "Table"),
    ("rounds", "Rounds"),
    ("seats", "Seats played"),
    ("volume", "Volume between players"),
    ("fees", "Fees"),
    ("fee_pct", "Fee % of volume"),
]
PAYOUT_COLUMNS = [
    ("table", "Table"),
    ("round", "Round"),
    ("box", "Box"),
    ("player", "Member"),
    ("player_name", "Name"),
    ("bet_type", "Bet type"),
    ("stake", "Stake"),
    ("odds", "Odds"),
    ("net", "Paid (net)"),
    ("settled_at", "Settled at"),
    ("settled_by", "Settled by"),
]
VOID_COLUMNS = [
    ("table", "Table"),
    ("round", "Round"),
    ("handle", "Handle"),
    ("house_net", "House net reversed"),
    ("reason", "Reason"),
    ("requested_by", "Requested by"),
    ("requested_at", "Requested at"),
    ("approved_by", "Approved by"),
    ("approved_at", "Approved at"),
]
REQUEST_COLUMNS = [
    ("table", "Table"),
    ("round", "Round"),
    ("status", "Status"),
    ("reason", "Reason"),
    ("requested_by", "Requested by"),
    ("requested_at", "Requested at"),
]
VOIDED_SLIP_COLUMNS = [
    ("table", "Table"),
    ("slip", "Slip"),
    ("kind", "Kind"),
    ("amount", "Amount"),
    ("reason", "Reason"),
    ("requested_by", "Requested by"),
    ("voided_by", "Voided by"),
    ("voided_at", "Voided at"),
]
SESSION_COLUMNS = [
    ("table", "Table"),
    ("session", "Session"),
    ("status", "Status"),
    ("dealer", "Dealer"),
    ("opening", "Opening"),
    ("closing", "Closing"),
    ("fills", "Fills"),
    ("credits", "Credits"),
    ("drop", "Drop"),
    ("win_by_count", "Win by count"),
    ("win_by_ledger", "Win by ledger"),
    ("variance", "Variance"),
    ("flagged", "Flagged"),
    ("opened_by", "Opener counted by"),
    ("opening_confirmed_by", "Opener confirmed by"),
    ("opening_difference", "Opening difference"),
    ("opening_reason", "Opening difference reason"),
    ("closing_counted_by", "Closer counted by"),
    ("closed_by", "Closed by"),
]
SLIP_COLUMNS = [
    ("table", "Table"),
    ("slip", "Slip"),
    ("kind", "Kind"),
    ("amount", "Amount"),
    ("requested_by", "Requested by"),
    ("issued_by", "Issued by"),
    ("verified_by", "Verified by"),
    ("verified_at", "Verified at"),
]

MONEY = {
    "handle",
    "player_result",
    "commission",
    "house_win",
    "theoretical_win",
    "actual_minus_theoretical",
    "unrated_handle",
    "volume",
    "fees",
    "stake",
    "net",
    "amount",
    "opening",
    "opening_difference",
    "denomination",
    "closing",
    "fills",
    "credits",
    "drop",
    "win_by_count",
    "win_by_ledger",
    "variance",
    "average_bet",
    "house_net",
    "house_net_reversed",
}
PERCENT = {"hold_pct", "theoretical_hold_pct", "hold_low_pct", "hold_high_pct", "fee_pct"}
COUNTS = {"rounds", "bets", "hands", "minutes", "seats", "count", "flagged_sessions", "unlisted"}

Progress = Callable[[int, str], None]
#: Voided rounds listed in the PDF (the XLSX and the page list up to listings.LIST_LIMIT).
PDF_VOIDS = 50


#: What makes a spreadsheet read a text cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def is_formula_like(text: str) -> bool:
    """Whether a spreadsheet would take ``text`` for a formula.

    >>> is_formula_like("=1+1"), is_formula_like("-2"), is_formula_like("Hà Nội")
    (True, True, False)
    """
    return text.startswith(FORMULA_STARTS)


def csv_text(text: str) -> str:
    """Text for a CSV cell that no spreadsheet runs: a ``'`` before a formula's first sign.

    >>> csv_text("=1+1"), csv_text("@SUM(A1)"), csv_text("Macau")
    ("'=1+1", "'@SUM(A1)", 'Macau')
    """
    return f"'{text}" if is_formula_like(text) else text


def _decimal(value: Any) -> Any:
    """A stored figure as a number for a spreadsheet (strings of digits become Decimal)."""
    if isinstance(value, str):
        try:
            number = Decimal(value)
        except ArithmeticError:
            return value
        return number if number.is_finite() else value
    return value


# Display


def money_text(value: Any, currency: str, grouping: Grouping | str = Grouping.COMMA) -> str:
    """A figure as people read it: the currency's decimals (``1.234.568`` for VND, a
    computed figure such as an average bet or a theoretical win rounded half up to them),
    in the venue's ``grouping``.

    >>> money_text("1234567.50", "VND", "dot"), money_text("95", "MOP"), money_text("-0.4", "VND")
    ('1.234.568', '95.00', '0')
    """
    places = currency_places(currency)
    amount = Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return grouped(amount if amount else abs(amount), places, grouping)


def present(
    figures: dict[str, Any],
    *,
    note: str | None = None,
    currency: str | None = None,
    grouping: Grouping | str | None = None,
) -> dict[str, Any]:
    """A copy of the figures as display text, amounts in ``currency`` and the venue's
    ``grouping`` (by default a shift report's own: those of its venue when it was built;
    a report built before venues had a grouping writes commas); an unavailable
    theoretical figure reads "n/a (house edge not computed for ruleset ...)"."""
    note = note or theoretical_note(figures)
    shift = figures.get("shift", {})
    gaming_date = shift.get("gaming_date")
    currency = currency or shift.get("currency", "")
    grouping = grouping or shift.get("grouping", Grouping.COMMA)

    def walk(value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        if value is None:
            if key in {"theoretical_win", "theoretical_hold_pct", "actual_minus_theoretical"}:
                return note
            return "—"
        if key in MONEY:
            return money_text(value, currency, grouping)
        if key in PERCENT:
            return f"{grouped(Decimal(value), 2, grouping)}%"
        if key in COUNTS and isinstance(value, int):
            return grouped(Decimal(value), 0, grouping)
        if key == "odds":
            return f"{Decimal(value).normalize():f}:1"
        if key == "flagged":
            return "FLAG" if value else ""
        if isinstance(value, str) and len(value) > 18 and value[10:11] == "T":
            return value[11:16] if value[:10] == gaming_date else value[:16].replace("T", " ")
        return value

    shown = walk(copy.deepcopy(figures))
    if isinstance(shown.get("fee_games"), dict):
        shown["fee_games"]["title"] = fee_games_title(figures)
    return shown


def fee_games_title(figures: dict[str, Any]) -> str:
    """The title of the fee games' section: the names of the games in it."""
    codes = dict.fromkeys(row["game"] for row in figures.get("fee_games", {}).get("tables", []))
    return " / ".join(game_label(code) for code in codes) or "Fee games"


# CSV


def render_csv(figures: dict[str, Any]) -> bytes:
    """The figures as CSV blocks: a title row, a header row and the rows, per section."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")

    def text_row(*cells: Any) -> None:
        writer.writerow([csv_text(_cell_text(None, cell)) for cell in cells])

    shift = figures["shift"]
    text_row("Shift report", shift["venue_name"], shift["gaming_date"], shift["name"])
    text_row("Currency", shift["currency"], "Time zone", shift["timezone"])
    for note in figures["notes"]:
        text_row("Note", note)
    for key, title, first, columns, rows in _tables(figures):
        writer.writerow([])
        writer.writerow([f"[{title}]"])
        writer.writerow([h for _k, h in ([(key, first)] if first else []) + columns])
        for row in rows:
            writer.writerow(
                [_cell_text(k, row.get(k)) for k, _h in ([(key, first)] if first else []) + columns]
            )
    # The byte order mark tells Excel the file is UTF-8 (without it, "Hà Nội" is garbled).
    return buffer.getvalue().encode("utf-8-sig")


def _number(key: str | None, value: Any) -> bool:
    """Whether a stored figure is a number: a number, or digits in a figure's column."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | Decimal | float):
        return True
    if key in MONEY or key in PERCENT or key in COUNTS or key == "odds":
        return not isinstance(_decimal(value), str)
    return False


def _cell_text(key: str | None, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if _number(key, value):
        return str(value)
    return csv_text(str(value))


def _tables(
    figures: dict[str, Any],
) -> list[tuple[str, str, str | None, list[tuple[str, str]], list[dict[str, Any]]]]:
    """Every tabular section: (key column, title, its header, columns, rows)."""
    total = dict(figures["total"], label="Shift total")
    tables: list[Any] = [("label", "Summary", "Section", FIGURE_COLUMNS, [total])]
    for key, title, first in SECTIONS:
        tables.append(("label", title, first, FIGURE_COLUMNS, figures[key]))
    tables += [
        ("label", "Player ratings", None, PLAYER_COLUMNS, figures["players"]),
        ("label", fee_games_title(figures), None, FEE_COLUMNS, figures["fee_games"]["tables"]),
        ("label", "Largest payouts", None, PAYOUT_COLUMNS, figures["payouts"]),
        ("label", "Voided rounds", None, VOID_COLUMNS, figures["voids"]["listed"]),
        (
            "label",
            "Void requests not approved",
            None,
            REQUEST_COLUMNS,
            figures["voids"]["requests_not_approved"],
        ),
        ("label", "Voided slips", None, VOIDED_SLIP_COLUMNS, figures["voids"]["voided_slips"]),
        ("label", "Count against ledger", None, SESSION_COLUMNS, figures["count"]["sessions"]),
        ("label", "Fills and credits", None, SLIP_COLUMNS, figures["count"]["slips"]),
    ]
    return tables


# XLSX


def render_xlsx(figures: dict[str, Any]) -> bytes:
    """One sheet per section; amounts as numbers, so sums can be checked in the sheet."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    workbook = Workbook()
    workbook.remove(workbook.active)
    bold = Font(bold=True)
    summary = workbook.create_sheet("Summary")
    shift = figures["shift"]
    for row in [
        ["Venue", shift["venue_name"]],
        ["Gaming date", shift["gaming_date"]],
        ["Shift", shift["name"]],
        ["From", shift["starts_at"]],
        ["To", shift["ends_at"]],
        ["Currency", shift["currency"]],
        ["Time zone", shift["timezone"]],
        [],
    ]:
        _append(summary, row)
    for key, header in [("label", ""), *FIGURE_COLUMNS]:
        value = "Shift total" if key == "label" else _decimal(figures["total"][key])
        _append(summary, [header or "Figure", value])
    _append(summary, [])
    voids = figures["voids"]
    _append(summary, ["Voided rounds", voids["count"]])
    _append(summary, ["Voided handle", _decimal(voids["handle"])])
    _append(
        summary,
        ["Sessions flagged (count against ledger)", figures["count"]["flagged_sessions"]],
    )
    for note in figures["notes"]:
        _append(summary, ["Note", note])
    summary.column_dimensions["A"].width = 40
    summary.column_dimensions["B"].width = 24
    for _key, title, first, columns, rows in _tables(figures)[1:]:
        sheet = workbook.create_sheet(title[:31])
        headers = ([("label", first)] if first else []) + columns
        sheet.append([h for _k, h in headers])
        for cell in sheet[1]:
            cell.font = bold
        for row in rows:
            _append(sheet, [_xlsx_value(k, row.get(k)) for k, _h in headers])
        for index, (_k, header) in enumerate(headers, start=1):
            letter = sheet.cell(row=1, column=index).column_letter
            sheet.column_dimensions[letter].width = max(10, min(28, len(header) + 4))
        sheet.freeze_panes = "B2"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _xlsx_value(key: str, value: Any) -> Any:
    if value is None:
        return None
    if key in MONEY or key in PERCENT or key == "odds":
        return _decimal(value)
    if isinstance(value, bool):
        return "yes" if value else ""
    return value


def _append(sheet: Any, values: list[Any]) -> None:
    """Append a row whose text cells stay text.

    openpyxl stores a string starting with ``=`` as a formula; any text a formula could
    start with is stored as a string with Excel's quote prefix instead, exactly as typed.
    """
    sheet.append(values)
    for column, value in enumerate(values, start=1):
        if isinstance(value, str) and is_formula_like(value):
            cell = sheet.cell(row=sheet.max_row, column=column)
            cell.data_type = "s"
            cell.quotePrefix = True


# PDF


def render_pdf(figures: dict[str, Any], svgs: dict[str, str]) -> bytes:
    """The report as a PDF (WeasyPrint), with the charts; one section per page, amounts
    in the grouping the venue wrote them in when the report was built."""
    from weasyprint import HTML

    images = {
        name.removesuffix(".svg").replace("-", "_"): "data:image/svg+xml;base64,"
        + base64.b64encode(svg.encode("utf-8")).decode("ascii")
        for name, svg in svgs.items()
    }
    html = render_to_string(
        "reports/shift_report_pdf.html",
        {
            "f": present(figures),
            "charts": images,
            "voids_shown": f":{PDF_VOIDS}",
            "voids_shown_count": PDF_VOIDS,
        },
    )
    return HTML(string=html).write_pdf()


def render_all(
    figures: dict[str, Any], *, progress: Progress | None = None
) -> dict[str, tuple[str, bytes]]:
    """Every file of a report: name -> (content type, bytes)."""
    from casino.reports import charts  # matplotlib: loaded by the processes that draw

    step = progress or (lambda _percent, _step: None)
    svgs = charts.shift_charts(figures)
    files = {name: (CONTENT_TYPES["svg"], svg.encode("utf-8")) for name, svg in svgs.items()}
    step(75, gettext_noop("CSV and XLSX"))
    files[CSV_NAME] = (CONTENT_TYPES["csv"], render_csv(figures))
    files[XLSX_NAME] = (CONTENT_TYPES["xlsx"], render_xlsx(figures))
    step(85, gettext_noop("PDF"))
    files[PDF_NAME] = (CONTENT_TYPES["pdf"], render_pdf(figures, svgs))
    return files


def columns_of(section: str) -> Sequence[tuple[str, str]]:
    return {"players": PLAYER_COLUMNS, "fee_games": FEE_COLUMNS}.get(section, FIGURE_COLUMNS)
