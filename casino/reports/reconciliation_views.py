"""The reconciliation of a gaming day (``casino.reports.reconciliation``): per table the
win by ledger and the win by count side by side, and what explains their difference.
Read by those who read the venue's reports (supervisors, managers and auditors), in the
venue's language unless the reader picked one."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from casino.policy import Capability, declare
from casino.reports.reconciliation import SHOWN, reconciliation
from casino.reports.statistical_views import _asked


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
    }
    return render(request, "reports/reconciliation.html", context)
