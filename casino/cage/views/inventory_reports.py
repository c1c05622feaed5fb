"""The cage's inventory as management reads it, under ``/reports/``: the venue's cage
shifts, a cage shift's report (its opening count, each movement, what the cage should hold
at its close, what was counted and the over/short, by denomination) and the chip
liability, each a page and a CSV (``casino.exports``).

Read by the venue's supervisors, managers and auditors (another venue: 404, another role:
403, as the other report pages); the cage's cashiers see their shifts on the cage screen.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from casino.cage import inventory_selectors as inventory
from casino.cage.models import CageShift, Instrument, MovementKind
from casino.export_views import export_view, file_language
from casino.exports import Column, Export, Kind, Sheet, csv_response
from casino.floor.console.access import use_venue_language
from casino.floor.console.readers import reader_check, venue_asked
from casino.kernel.logs import log_venue
from casino.kernel.money import to_decimal
from casino.kernel.replicas import replica_reads
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, declare
from casino.venues.models import Venue


def _venue(request: HttpRequest) -> Venue:
    _venues, venue = venue_asked(request)
    return venue


def _shift(request: HttpRequest, pk: int) -> CageShift:
    shift = CageShift.objects.select_related("venue").filter(pk=pk).first()
    if shift is None:
        raise Http404("no such cage shift")
    log_venue(shift.venue)
    reader_check(request.user, shift.venue_id)
    use_venue_language(request, shift.venue.language)
    return shift


def _render(request: HttpRequest, venue: Venue, template: str, context: dict) -> HttpResponse:
    with timezone.override(venue_zone(venue)):
        return render(request, template, {"venue": venue, **context})


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def cage_shifts(request: HttpRequest) -> HttpResponse:
    """The venue's cage shifts, newest first, each linking its report."""
    venue = _venue(request)
    with replica_reads():
        shifts = inventory.cage_shifts(venue=venue)
    return _render(request, venue, "reports/cage_shifts.html", {"shifts": shifts})


def _local(at: Any, venue: Venue) -> str:
    return "" if at is None else at.astimezone(venue_zone(venue)).strftime("%Y-%m-%d %H:%M")


def _kind_label(kind: str) -> str:
    return str(MovementKind(kind).label)


def _instrument_label(instrument: str) -> str:
    return str(Instrument(instrument).label)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def cage_shift_report(request: HttpRequest, pk: int) -> HttpResponse:
    """A cage shift's report."""
    shift = _shift(request, pk)
    with replica_reads():
        report = inventory.cage_shift_report(shift=shift)
    columns = [(kind, _kind_label(kind)) for kind in report.kinds]
    rows = [
        {
            "line": line,
            "instrument": _instrument_label(line.instrument),
            "moved": [line.moved.get(kind, 0) for kind, _label in columns],
        }
        for line in report.lines
    ]
    return _render(
        request,
        shift.venue,
        "reports/cage_shift.html",
        {
            "report": report,
            "columns": columns,
            "rows": rows,
            "csv_url": reverse("reports:cage_shift_csv", args=[shift.pk]),
        },
    )


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_view
def cage_shift_report_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The cage shift report as CSV: the lines by denomination, then the movements."""
    shift = _shift(request, pk)
    venue = shift.venue
    language = file_language(request, venue.language)
    with replica_reads():
        report = inventory.cage_shift_report(shift=shift)
    heading: list[list[Any]] = [
        [_("Cage shift report"), venue.name, venue.currency],
        [_("Gaming date"), shift.gaming_date.isoformat()],
        [
            _("Opened at"),
            _local(shift.opened_at, venue),
            _("Closed at"),
            _local(shift.closed_at, venue),
        ],
    ]
    for count in (report.opening, report.closing):
        if count is not None:
            heading.append(
                [
                    count.get_kind_display(),
                    count.counted_by.get_username(),
                    count.signed_by.get_username(),
                    count.reason,
                ]
            )
    lines = Sheet(
        _("Inventory"),
        [
            Column(_("Instrument")),
            Column(_("Denomination"), Kind.MONEY),
            Column(_("At the opening count"), Kind.COUNT),
            *[Column(_kind_label(kind), Kind.COUNT) for kind in report.kinds],
            Column(_("Expected"), Kind.COUNT),
            Column(_("Counted"), Kind.COUNT),
            Column(_("Over/short"), Kind.COUNT),
            Column(_("Over/short value"), Kind.MONEY),
        ],
        [
            [
                _instrument_label(line.instrument),
                to_decimal(line.denomination),
                line.opening,
                *[line.moved.get(kind, 0) for kind in report.kinds],
                line.expected,
                line.counted,
                line.difference,
                line.difference_value,
            ]
            for line in report.lines
        ],
    )
    movements = Sheet(
        _("Movements"),
        [
            Column(_("Recorded at")),
            Column(_("Kind")),
            Column(_("Reference")),
            Column(_("Late entry, paper")),
            Column(_("Cage value"), Kind.MONEY),
            Column(_("Recorded by")),
            Column(_("Note")),
        ],
        [
            [
                movement.recorded_at,
                movement.get_kind_display(),
                movement.reference,
                getattr(inventory.late_paper(movement), "label", ""),
                sum(line.value for line in movement.lines.all() if line.account == "cage"),
                movement.recorded_by.get_username(),
                movement.note,
            ]
            for movement in report.movements
        ],
    )
    export = Export(
        currency=venue.currency, zone=venue_zone(venue), heading=heading, sheets=[lines, movements]
    )
    return csv_response(export, f"cage-shift-{venue.code}-{shift.pk}.csv", language=language)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def chip_liability(request: HttpRequest) -> HttpResponse:
    """The chips in patrons' hands, by denomination."""
    venue = _venue(request)
    with replica_reads():
        liability = inventory.chip_liability(venue=venue)
    return _render(
        request,
        venue,
        "reports/chip_liability.html",
        {
            "liability": liability,
            "csv_url": f"{reverse('reports:chip_liability_csv')}?venue={venue.code}",
        },
    )


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_view
def chip_liability_csv(request: HttpRequest) -> HttpResponse:
    """The chip liability as CSV."""
    venue = _venue(request)
    language = file_language(request, venue.language)
    with replica_reads():
        liability = inventory.chip_liability(venue=venue)
    heading = [
        [_("Chip liability"), venue.name, venue.currency],
        [_("At"), _local(timezone.now(), venue)],
        [_("Tables open, not counted yet"), str(liability.open_tables)],
    ]
    sheet = Sheet(
        _("Chip liability"),
        [
            Column(_("Denomination"), Kind.MONEY),
            Column(_("At the cage window"), Kind.COUNT),
            Column(_("At the tables"), Kind.COUNT),
            Column(_("Outstanding"), Kind.COUNT),
            Column(_("Value"), Kind.MONEY),
        ],
        [
            [
                to_decimal(line.denomination),
                line.at_window,
                line.at_tables,
                line.outstanding,
                line.value,
            ]
            for line in liability.lines
        ],
    )
    export = Export(
        currency=venue.currency, zone=venue_zone(venue), heading=heading, sheets=[sheet]
    )
    return csv_response(export, f"chip-liability-{venue.code}.csv", language=language)
