"""The marker aging of a venue (docs/MARKERS.md): each member's outstanding markers by days
past due on today's gaming date, a page under ``/reports/`` and its CSV.

Read by the venue's supervisors, managers and auditors (another venue: 404, another role:
403, as the other report pages).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from casino.cage.marker_dates import today_of
from casino.cage.marker_selectors import BUCKETS, marker_aging
from casino.export_views import export_view, file_language
from casino.exports import Column, Export, Kind, Sheet, csv_response
from casino.floor.console.readers import venue_asked
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, declare


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def marker_aging_report(request: HttpRequest) -> HttpResponse:
    """The venue's marker aging on today's gaming date."""
    _venues, venue = venue_asked(request)
    aging = marker_aging(venue=venue, as_of=today_of(venue))
    context = {
        "venue": venue,
        "aging": aging,
        "buckets": [(key, label) for key, label, _first, _last in BUCKETS],
        "csv_url": reverse("reports:marker_aging_csv") + f"?venue={venue.code}",
    }
    with timezone.override(venue_zone(venue)):
        return render(request, "reports/marker_aging.html", context)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_view
def marker_aging_csv(request: HttpRequest) -> HttpResponse:
    """The marker aging as CSV (``casino.exports``): a line per member, then the totals."""
    _venues, venue = venue_asked(request)
    language = file_language(request, venue.language)
    aging = marker_aging(venue=venue, as_of=today_of(venue))
    heading = [
        [_("Marker aging"), venue.name, venue.currency],
        [_("As of gaming date"), aging.as_of],
    ]
    columns = [
        Column(_("Membership number")),
        Column(_("Player")),
        Column(_("Markers"), Kind.COUNT),
        *(Column(str(label), Kind.MONEY) for _key, label, _first, _last in BUCKETS),
        Column(_("Outstanding"), Kind.MONEY),
        Column(_("Overdue"), Kind.MONEY),
    ]
    rows = [
        [
            line.player.membership_number,
            line.player.name,
            line.markers,
            *(line.buckets[key] for key, _label, _first, _last in BUCKETS),
            line.total,
            line.overdue,
        ]
        for line in aging.lines
    ]
    totals = aging.totals
    rows.append(
        [
            _("Total"),
            "",
            sum(line.markers for line in aging.lines),
            *(totals[key] for key, _label, _first, _last in BUCKETS),
            aging.total,
            aging.total - totals["current"],
        ]
    )
    export = Export(
        currency=venue.currency,
        zone=venue_zone(venue),
        heading=heading,
        sheets=[Sheet(_("Marker aging"), columns, rows)],
    )
    return csv_response(
        export, f"marker-aging-{venue.code}-{aging.as_of.isoformat()}.csv", language=language
    )
