"""The multiple transaction log of a gaming day (``casino.cage.cash_log``): every cash movement
at the tables and the cage, with each person's totals in and out, filtered by a person (a
membership number or an unknown patron's identifier), under
``/console/cage/<venue>/cash-log/``, and its CSV (``casino.exports``).

Read by the cage, the supervisors, managers and auditors (``Capability.READ_CAGE``; 403
otherwise, another venue's page 404).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from casino.cage import slip_selectors
from casino.cage.cash_log import (
    CashMovement,
    cash_log,
    person_name,
    person_named,
    person_totals,
)
from casino.cage.services.thresholds import gaming_date_at
from casino.export_views import export_view, file_language
from casino.exports import Column, Export, Kind, Sheet, csv_response
from casino.floor.console.access import console_login_required, refusal, use_venue_language
from casino.kernel.replicas import replica_reads
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, allows, declare
from casino.venues.models import Venue


def _venue(request: HttpRequest, venue_id: int) -> Venue | HttpResponse:
    venue = slip_selectors.venue_for(user=request.user, pk=venue_id)
    if venue is None:
        raise Http404("no such venue among yours")
    use_venue_language(request, venue.language)
    if not allows(request.user, Capability.READ_CAGE, venue.pk):
        return refusal(
            request,
            403,
            _("The cash log is read by the cage, the supervisors, managers and auditors."),
        )
    return venue


@dataclass(frozen=True)
class Asked:
    """What a reader asks of the log: a gaming day, and a person or nobody ("")."""

    day: date
    person: str
    rows: list[CashMovement]
    #: The person named is nobody at the venue.
    unknown: bool

    def query(self) -> str:
        asked = {"day": self.day.isoformat(), **({"person": self.person} if self.person else {})}
        return urlencode(asked)


def _asked(request: HttpRequest, venue: Venue) -> Asked:
    try:
        day = date.fromisoformat(request.GET.get("day", ""))
    except ValueError:
        day = gaming_date_at(venue, timezone.now())
    person = request.GET.get("person", "").strip()[:64]
    with replica_reads():
        people = person_named(venue, person) if person else None
        if person and people is None:
            return Asked(day, person, [], unknown=True)
        rows = cash_log(gaming_date=day, venue=venue, people=people)
    return Asked(day, person, rows, unknown=False)


@declare(Capability.READ_CAGE)
@require_GET
@console_login_required
def cash_log_page(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The day's log (``?day=YYYY-MM-DD``, the current one otherwise; ``?person=``)."""
    venue = _venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    asked = _asked(request, venue)
    context = {
        "venue": venue,
        "asked": asked,
        "totals": person_totals(asked.rows),
        "csv_url": f"{reverse('console:cash-log-csv', args=[venue.pk])}?{asked.query()}",
    }
    with timezone.override(venue_zone(venue)):
        return render(request, "console/cash_log.html", context)


@declare(Capability.READ_CAGE)
@require_GET
@console_login_required
@export_view
def cash_log_csv(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The day's log as CSV: one row per movement, then each person's totals."""
    venue = _venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    language = file_language(request, venue.language)
    asked = _asked(request, venue)
    rows: list[list[Any]] = [
        [
            row.at,
            row.where,
            row.kind_label,
            row.direction_label,
            row.instrument_label,
            row.amount,
            _("yes") if row.counts else _("no"),
            row.person,
            person_name(row),
            row.unknown_patron.code if row.unknown_patron is not None else "",
            row.id_document,
            row.recorded_by.get_username(),
            f"{row.source} {row.source_id}",
        ]
        for row in asked.rows
    ]
    log = Sheet(
        _("Cash log"),
        [
            Column(_("Recorded at")),
            Column(_("Where")),
            Column(_("Kind")),
            Column(_("Direction")),
            Column(_("Instrument")),
            Column(_("Amount"), Kind.MONEY),
            Column(_("Counts")),
            Column(_("Person")),
            Column(_("Name or description")),
            Column(_("Unknown patron")),
            Column(_("Identity document")),
            Column(_("Recorded by")),
            Column(_("Source")),
        ],
        rows,
    )
    totals = Sheet(
        _("Totals"),
        [Column(_("Person")), Column(_("Cash in"), Kind.MONEY), Column(_("Cash out"), Kind.MONEY)],
        [[t.person, t.cash_in, t.cash_out] for t in person_totals(asked.rows)],
    )
    heading = [
        [_("Cash log"), venue.name, venue.currency],
        [_("Gaming date"), asked.day],
        *([[_("Person"), asked.person]] if asked.person else []),
    ]
    export = Export(
        currency=venue.currency, zone=venue_zone(venue), heading=heading, sheets=[log, totals]
    )
    return csv_response(
        export, f"cash-log-{venue.code}-{asked.day.isoformat()}.csv", language=language
    )
