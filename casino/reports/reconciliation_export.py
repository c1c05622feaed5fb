"""The reconciliation of a gaming day as typed rows (``casino.exports``): a sheet of the
tables' figures and the total, one of what explains each difference, session by session,
and one of the same figures as every other surface shows them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from casino.exports import Column, Export, Kind, Sheet
from casino.floor.figures import DEFINITIONS
from casino.kernel.timezones import venue_zone
from casino.reports.reconciliation_surfaces import surface_lines


def _tables(found: dict[str, Any]) -> Sheet:
    total = found["total"]
    return Sheet(
        _("Tables"),
        [
            Column(_("Table")),
            Column(_("Win by ledger"), Kind.MONEY),
            Column(_("Drop"), Kind.MONEY),
            Column(_("Win by count"), Kind.MONEY),
            Column(_("Difference"), Kind.MONEY),
            Column(_("Reconciles")),
        ],
        [
            *(
                [
                    row["table"].code,
                    row["win_by_ledger"],
                    row["drop"],
                    row["win"],
                    row["difference"],
                    row["reconciles"],
                ]
                for row in found["rows"]
            ),
            [
                _("Total"),
                total["win_by_ledger"],
                total["drop"],
                total["win"],
                total["difference"],
                total["reconciles"],
            ],
        ],
    )


def _explained(row: dict[str, Any]) -> list[list[Any]]:
    """The lines that explain a table's difference: (what, amount, count, detail)."""
    out = []
    for line in row["lines"]:
        session = line["session"].pk
        if line["open"]:
            out.append([session, _("Still open"), None, None, ""])
        else:
            out.append([session, _("Variance at close"), line["variance"], None, line["reason"]])
            counted = line["counted"]
            if counted and counted.counted:
                out.append([session, _("Drop counted since"), counted.counted_drop, None, ""])
                out.append([session, _("Variance with the count"), counted.variance, None, ""])
            else:
                out.append([session, _("Box not counted yet"), None, None, ""])
        if line["voids"]:
            voids = line["voids"]
            out.append([session, _("Voided rounds (stakes)"), voids["stakes"], voids["rounds"], ""])
        if line["late"]:
            late = line["late"]
            out.append(
                [
                    session,
                    _("Ledger entries after the close (to the house)"),
                    late["house"],
                    late["entries"],
                    _("cash records: %(count)s") % {"count": late["cash"]},
                ]
            )
    return [[row["table"].code, *line] for line in out]


def _surfaces(found: dict[str, Any]) -> Sheet:
    rows = []
    for surface in surface_lines(found)["surfaces"]:
        for table in surface["tables"]:
            values = {cell["figure"]: cell.get("value") for cell in table["cells"]}
            agrees = table["agrees"]
            rows.append(
                [
                    surface["label"],
                    table["table"].code,
                    values["win_by_ledger"],
                    values["win_by_count"],
                    "" if agrees is None else agrees,
                ]
            )
    return Sheet(
        _("Other surfaces"),
        [
            Column(_("Surface")),
            Column(_("Table")),
            Column(_("Win by ledger"), Kind.MONEY),
            Column(_("Win by count"), Kind.MONEY),
            Column(_("Agrees")),
        ],
        rows,
    )


def export_of(found: dict[str, Any]) -> Export:
    """The reconciliation ``found`` (``casino.reports.reconciliation``) as an export."""
    venue = found["venue"]
    explained = Sheet(
        _("What explains it"),
        [
            Column(_("Table")),
            Column(_("Session"), Kind.COUNT),
            Column(_("Line")),
            Column(_("Amount"), Kind.MONEY),
            Column(_("Count"), Kind.COUNT),
            Column(_("Detail")),
        ],
        [line for row in found["rows"] for line in _explained(row)],
    )
    heading = [
        [_("Reconciliation of the day"), venue.name],
        [_("Gaming date"), found["day"]],
        [_("Currency"), venue.currency],
        [_("Reconciles"), found["total"]["reconciles"]],
        *([DEFINITIONS[key]] for key in ("win_by_ledger", "win_by_count", "drop", "variance")),
    ]
    return Export(
        currency=venue.currency,
        zone=venue_zone(venue),
        heading=heading,
        sheets=[_tables(found), explained, _surfaces(found)],
    )
