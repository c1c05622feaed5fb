"""The reconciliation of a gaming day (``casino.reports.reconciliation``): per table the
win by ledger and the win by count side by side, and what explains their difference.
Read by those who read the venue's reports (supervisors, managers and auditors), in the
venue's language unless the reader picked one."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from casino.models import ShiftReport, Venue
from casino.policy import Capability, declare
from casino.reports.reconciliation import SHOWN, reconciliation
from casino.reports.statistical_views import _asked


def surfaces(venue: Venue, day: date) -> list[dict[str, Any]]:
    """The other pages, files and endpoints that show the same figures of the day, each
    read from the same definitions (``casino.count.selectors.win_figures``)."""
    on = day.isoformat()
    lines = [
        {
            "label": _("The count's win per table"),
            "url": reverse("console:count-figures", args=[venue.pk, on]),
        },
        {
            "label": _("Statistical report (the day's win and drop)"),
            "url": f"{reverse('reports:statistical')}?venue={venue.code}&date={on}",
        },
        {
            "label": _("API: the day's figures"),
            "url": reverse("api:day-figures", args=[venue.pk, on]),
        },
    ]
    reports = (
        ShiftReport.objects.filter(shift__venue=venue, shift__gaming_date=day)
        .select_related("shift")
        .order_by("shift__starts_at", "pk")
    )
    lines += [
        {
            "label": _("Shift report, %(shift)s: win by count against win by ledger")
            % {"shift": report.shift.name},
            "url": reverse("reports:report", args=[report.pk]),
        }
        for report in reports
    ]
    return lines


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def reconciliation_page(request: HttpRequest) -> HttpResponse:
    """The reconciliation of a venue's gaming date (``?date=``, by default today's)."""
    venues, venue, day, errors = _asked(request)
    context = {
        **reconciliation(venue, day),
        "venues": venues,
        "errors": errors,
        "definitions": SHOWN,
        "surfaces": surfaces(venue, day),
    }
    return render(request, "reports/reconciliation.html", context)
