"""A report's files from its figures: CSV, XLSX (a sheet per section), PDF, chart SVGs.

Each writer reads the stored figures only, so the files always say what the page says.
``present`` turns the figures into display text in the active language (amounts by
``casino.kernel.money.format_money`` with the currency's decimals in the venue's grouping, a
computed figure rounded to the currency's minor units; percentages; "n/a" with its reason;
statuses and notes worded) for the HTML page and the PDF. The CSV and the XLSX are one
``casino.exports.Export`` (``export_of``), written as every export is: typed numbers in one
format a column, no text a spreadsheet runs, a UTF-8 byte order mark, titles and headers in
the active language (the venue's, for the files a worker builds: ``render_all``). The
tables' columns and how each figure is written are ``casino.reports.columns``'.
"""

from __future__ import annotations

import base64
import copy
import logging
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from casino.cage.models import Slip, SlipStatus
from casino.exports import CONTENT_TYPES as FILE_TYPES
from casino.exports import Cell, Column, Export, Kind, Sheet, csv_bytes, pdf_bytes, xlsx_bytes
from casino.floor.kinds import bet_type_label, game_label
from casino.floor.models import RoundStatus, TableSession
from casino.kernel.money import Grouping, format_money, grouped
from casino.kernel.timezones import zone
from casino.reports.columns import (
    COMPUTED,
    COUNTS,
    FEE_COLUMNS,
    FIGURE_COLUMNS,
    MONEY,
    PAYOUT_COLUMNS,
    PERCENT,
    PLAYER_COLUMNS,
    REQUEST_COLUMNS,
    SECTIONS,
    SESSION_COLUMNS,
    SLIP_COLUMNS,
    VOID_COLUMNS,
    VOIDED_SLIP_COLUMNS,
    kind_of,
)
from casino.reports.figures import note_text, theoretical_note

# WeasyPrint logs every layout step at INFO level.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)

CSV_NAME = "shift-report.csv"
XLSX_NAME = "shift-report.xlsx"
PDF_NAME = "shift-report.pdf"
CONTENT_TYPES = {
    **FILE_TYPES,
    "pdf": "application/pdf",
    "svg": "image/svg+xml",
}

Progress = Callable[[int, str], None]
#: Voided rounds listed in the PDF (the XLSX and the page list up to listings.LIST_LIMIT).
PDF_VOIDS = 50


# Display


def figure_money(key: str | None, value: Any, currency: str, grouping: Grouping | str) -> str:
    """A stored amount as display text: a computed figure rounded to the currency's minor
    units, a ledger amount with every digit it has.

    >>> figure_money("average_bet", "479411.76", "VND", "dot")
    '479.412'
    >>> figure_money("handle", "12", "MOP", "comma")
    '12.00'
    >>> figure_money("drop", "61082000.00", "VND", "dot")
    '61.082.000'
    """
    return format_money(value, currency, grouping=grouping, computed=key in COMPUTED)


def status_label(value: str) -> str:
    """A session's, a round's or a slip's status (or a slip's kind) in the active language."""
    labels = {
        **dict(RoundStatus.choices),
        **dict(SlipStatus.choices),
        **dict(TableSession.Status.choices),
        **dict(Slip.Kind.choices),
    }
    return str(labels.get(value, value))


def count_state(counted: bool | None) -> str:
    """A session line's count: its box counted, or "drop not counted yet" (never a 0);
    empty while the table is open."""
    if counted is None:
        return ""
    return str(_("counted") if counted else _("drop not counted yet"))


def yes_no(value: bool) -> str:
    return str(_("yes") if value else _("no"))


def present(
    figures: dict[str, Any],
    *,
    note: str | None = None,
    currency: str | None = None,
    grouping: Grouping | str | None = None,
) -> dict[str, Any]:
    """A copy of the figures as display text in the active language, amounts in
    ``currency`` and the venue's ``grouping`` (by default a shift report's own: those of
    its venue when it was built; a report built before venues had a grouping writes
    commas); an unavailable theoretical figure reads "n/a (house edge not computed for
    ruleset ...)", the notes are worded (``note_text``), a flag reads "FLAG"."""
    note = note or theoretical_note(figures)
    shift = figures.get("shift", {})
    gaming_date = shift.get("gaming_date")
    currency = currency or shift.get("currency", "")
    grouping = grouping or shift.get("grouping", Grouping.COMMA)
    flag = str(_("FLAG"))

    def walk(value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        if key == "flagged":
            return flag if value else ""
        if key == "counted":
            return count_state(value)
        if value is None:
            if key in {"theoretical_win", "theoretical_hold_pct", "actual_minus_theoretical"}:
                return note
            return "—"
        if key in MONEY:
            return figure_money(key, value, currency, grouping)
        if key in PERCENT:
            return f"{grouped(Decimal(value), 2, grouping)}%"
        if key in COUNTS and isinstance(value, int):
            return grouped(Decimal(value), 0, grouping)
        if key == "odds":
            return f"{Decimal(value).normalize():f}:1"
        if key in {"status", "kind"} and isinstance(value, str):
            return status_label(value)
        if isinstance(value, bool):
            return yes_no(value)
        if isinstance(value, str) and len(value) > 18 and value[10:11] == "T":
            return value[11:16] if value[:10] == gaming_date else value[:16].replace("T", " ")
        return value

    notes = figures.get("notes")
    shown = walk(copy.deepcopy({k: v for k, v in figures.items() if k != "notes"}))
    if notes is not None:
        shown["notes"] = [note_text(n) for n in notes]
    for section in ("games", "bet_types"):
        if isinstance(shown.get(section), list):
            shown[section] = [relabelled(section, row) for row in shown[section]]
    if isinstance(shown.get("fee_games"), dict):
        shown["fee_games"]["title"] = fee_games_title(figures)
    for row in shown.get("players") or []:
        # A report of layout 2 or older has no actual win of its own: it showed the
        # house win there.
        if isinstance(row, dict) and "actual_win" not in row:
            row["actual_win"] = row.get("house_win")
    return shown


def relabelled(section: str, row: Any) -> Any:
    """A game's or a bet type's row named in the active language (the stored label is in
    the language of the build)."""
    if not isinstance(row, dict) or not isinstance(row.get("key"), str):
        return row
    if section == "games":
        return {**row, "label": game_label(row["key"])}
    game, colon, bet_type = row["key"].partition(":")
    return {**row, "label": bet_type_label(game, bet_type)} if colon else row


def fee_games_title(figures: dict[str, Any]) -> str:
    """The title of the fee games' section: the names of the games in it."""
    codes = dict.fromkeys(row["game"] for row in figures.get("fee_games", {}).get("tables", []))
    return " / ".join(game_label(code) for code in codes) or str(_("Fee games"))


# CSV and XLSX


def count_lines(figures: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """The count's figures of the shift, as the page's summary shows them: (key, label,
    stored value)."""
    count = figures.get("count", {})
    return [
        ("win_with_count", str(_("Win with the count's drops")), count.get("win_with_count")),
        ("counted_drop", str(_("Drops counted after close")), count.get("counted_drop")),
        ("win_drop_pct", str(_("Win/drop %")), count.get("win_drop_pct")),
        ("flagged_sessions", str(_("Sessions flagged")), count.get("flagged_sessions")),
        (
            "uncounted_sessions",
            str(_("Sessions whose drop is not counted yet")),
            count.get("uncounted_sessions", 0),
        ),
    ]


def _cell(key: str, value: Any) -> Any:
    """A stored figure as the export's typed cell: a status worded, a time a time, a
    whether the drop is counted said so."""
    if key == "counted":
        return count_state(value)
    if key in {"status", "kind"} and isinstance(value, str):
        return status_label(value)
    if key.endswith("_at") and isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return value
    return value


def export_of(figures: dict[str, Any]) -> Export:
    """The report's figures as one export (the CSV and the XLSX say the same), in the
    active language (the venue's, for a report a worker builds)."""
    shift = figures["shift"]
    voids = figures["voids"]
    heading: list[list[Any]] = [
        [_("Shift report"), shift["venue_name"], shift["gaming_date"], shift["name"]],
        [_("Currency"), shift["currency"], _("Time zone"), shift["timezone"]],
        [
            _("From"),
            _cell("starts_at", shift["starts_at"]),
            _("To"),
            _cell("ends_at", shift["ends_at"]),
        ],
        [_("Voided rounds"), Cell(voids["count"], Kind.COUNT)],
        [_("Voided handle"), Cell(voids["handle"], Kind.MONEY)],
    ]
    heading += [
        [label, Cell(value, kind_of(key))]
        for key, label, value in count_lines(figures)
        if value is not None
    ]
    heading += [[_("Note"), note_text(note)] for note in figures["notes"]]
    sheets = []
    for _key, title, first, columns, rows in _tables(figures):
        headers = ([("label", first)] if first else []) + columns
        sheets.append(
            Sheet(
                title,
                [Column(header, kind_of(key)) for key, header in headers],
                [[_cell(key, row.get(key)) for key, _h in headers] for row in rows],
            )
        )
    return Export(
        currency=shift["currency"],
        zone=zone(shift.get("timezone", "")),
        heading=heading,
        sheets=sheets,
    )


def render_csv(figures: dict[str, Any]) -> bytes:
    """The figures as CSV: the heading, then a block per section (``export_of``)."""
    return csv_bytes(export_of(figures))


def render_xlsx(figures: dict[str, Any]) -> bytes:
    """One sheet per section, the heading above the summary; amounts as numbers (so sums
    can be checked in the sheet) shown with the currency's decimals."""
    return xlsx_bytes(export_of(figures))


def _tables(
    figures: dict[str, Any],
) -> list[tuple[str, str, str | None, list[tuple[str, Any]], list[dict[str, Any]]]]:
    """Every tabular section: (key column, title, its header, columns, rows)."""
    total = dict(figures["total"], label=str(_("Shift total")))
    summary = [total]
    if figures.get("rated_total"):  # rated tables' win: not the settled bets' house win
        summary.append(dict(figures["rated_total"], label=str(_("Win of rated tables (by count)"))))
    tables: list[Any] = [("label", str(_("Summary")), str(_("Section")), FIGURE_COLUMNS, summary)]
    for key, title, first in SECTIONS:
        rows = [relabelled(key, row) for row in figures[key]]
        tables.append(("label", str(title), str(first), FIGURE_COLUMNS, rows))
    voids = figures["voids"]
    tables += [
        ("label", str(_("Player ratings")), None, PLAYER_COLUMNS, figures["players"]),
        ("label", fee_games_title(figures), None, FEE_COLUMNS, figures["fee_games"]["tables"]),
        ("label", str(_("Largest payouts")), None, PAYOUT_COLUMNS, figures["payouts"]),
        ("label", str(_("Voided rounds")), None, VOID_COLUMNS, voids["listed"]),
        (
            "label",
            str(_("Void requests not approved")),
            None,
            REQUEST_COLUMNS,
            voids["requests_not_approved"],
        ),
        ("label", str(_("Voided slips")), None, VOIDED_SLIP_COLUMNS, voids["voided_slips"]),
        (
            "label",
            str(_("Count against ledger")),
            None,
            SESSION_COLUMNS,
            figures["count"]["sessions"],
        ),
        ("label", str(_("Fills and credits")), None, SLIP_COLUMNS, figures["count"]["slips"]),
    ]
    return tables


# PDF


def render_pdf(figures: dict[str, Any], svgs: dict[str, str]) -> bytes:
    """The report as a PDF (WeasyPrint), with the charts, in the active language; amounts
    in the grouping the venue wrote them in when the report was built."""

    images = {
        name.removesuffix(".svg").replace("-", "_"): "data:image/svg+xml;base64,"
        + base64.b64encode(svg.encode("utf-8")).decode("ascii")
        for name, svg in svgs.items()
    }
    return pdf_bytes(
        "reports/shift_report_pdf.html",
        {
            "f": present(figures),
            "charts": images,
            "voids_shown": f":{PDF_VOIDS}",
            "voids_shown_count": PDF_VOIDS,
        },
    )


#: The build's steps after the figures, stored untranslated and worded when shown.
STEP_FILES = gettext_noop("CSV and XLSX")
STEP_PDF = gettext_noop("PDF")


def render_all(
    figures: dict[str, Any],
    *,
    progress: Progress | None = None,
    language: str | None = None,
) -> dict[str, tuple[str, bytes]]:
    """Every file of a report: name -> (content type, bytes), in ``language`` (the
    venue's; by default the active one)."""
    from casino.kernel import charts  # matplotlib: loaded by the processes that draw

    step = progress or (lambda _percent, _step: None)
    with translation.override(language or translation.get_language()):
        svgs = charts.shift_charts(figures)
        files = {name: (CONTENT_TYPES["svg"], svg.encode("utf-8")) for name, svg in svgs.items()}
        step(75, STEP_FILES)
        files[CSV_NAME] = (CONTENT_TYPES["csv"], render_csv(figures))
        files[XLSX_NAME] = (CONTENT_TYPES["xlsx"], render_xlsx(figures))
        step(85, STEP_PDF)
        files[PDF_NAME] = (CONTENT_TYPES["pdf"], render_pdf(figures, svgs))
    return files


def render_one(figures: dict[str, Any], name: str) -> bytes | None:
    """One of a report's files (CSV, XLSX, PDF) written now in the active language, for a
    reader who asks it in theirs (the stored files are the venue's); None for another name."""
    if name == CSV_NAME:
        return render_csv(figures)
    if name == XLSX_NAME:
        return render_xlsx(figures)
    if name == PDF_NAME:
        from casino.kernel import charts  # matplotlib: loaded by the processes that draw

        return render_pdf(figures, charts.shift_charts(figures))
    return None
