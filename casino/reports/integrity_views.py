"""The integrity page: a venue's integrity runs, their tests and alerts, for its managers
and auditors (casino.integrity.runs; docs/INTEGRITY.md)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from casino.integrity.runs import integrity_request
from casino.models import IntegrityResult, IntegrityRun, Pit
from casino.reports.views import _render, dates_asked, venue_asked
from casino.roles import AUDITOR, MANAGER, can
from casino.timezones import venue_today

READERS = frozenset({MANAGER, AUDITOR})
#: Results shown on the page at most (the alerts first).
SHOWN = 500


def _reader(request: HttpRequest, venue) -> None:
    if not can(request.user, READERS, venue.pk):
        raise PermissionDenied(gettext("only the venue's managers and auditors read integrity"))


@login_required
def integrity_page(request: HttpRequest) -> HttpResponse:
    venues, venue = venue_asked(request)
    _reader(request, venue)
    runs = IntegrityRun.objects.filter(venue=venue).order_by("-date_to", "-id")
    run = None
    asked = request.GET.get("run", "")
    if asked.isdigit():
        run = runs.filter(pk=int(asked)).first()
    run = run or runs.filter(status=IntegrityRun.Status.DONE).first()
    scope = request.GET.get("scope", "")
    if scope not in IntegrityResult.Scope.values:
        scope = ""
    pit = request.GET.get("pit", "")
    results = IntegrityResult.objects.none()
    if run is not None:
        results = run.results.select_related("investigation").order_by(
            "-alert", "q_value", "scope", "label", "test"
        )
        if scope:
            results = results.filter(scope=scope)
        if pit.isdigit():
            results = results.filter(pit_id=int(pit)) | results.filter(table__pit_id=int(pit))
        alerts_only = request.GET.get("alerts") == "1"
        if alerts_only:
            results = results.filter(alert=True)
    today = venue_today(venue)
    date_from, date_to = dates_asked(request, today=today - timedelta(days=1), days=1)
    shown = list(results[:SHOWN])
    chart = next((r for r in shown if r.alert), shown[0] if shown else None)
    context = {
        "venues": venues,
        "venue": venue,
        "run": run,
        "runs": list(runs[:30]),
        "results": shown,
        "chart": chart,
        "chart_svg": _chart(chart) if chart is not None else "",
        "scopes": IntegrityResult.Scope.choices,
        "scope": scope,
        "pits": list(Pit.objects.filter(venue=venue).order_by("code")),
        "pit": pit,
        "date_from": date_from,
        "date_to": date_to,
        "done": request.GET.get("done") == "1",
    }
    return _render(request, venue, "reports/integrity.html", context)


@login_required
@require_POST
def integrity_run_now(request: HttpRequest) -> HttpResponse:
    request.GET = request.POST  # the venue and dates come with the form (read as a query)
    _venues, venue = venue_asked(request)
    _reader(request, venue)
    today = venue_today(venue)
    date_from, date_to = dates_asked(request, today=today, days=1)
    integrity_request(venue=venue, date_from=date_from, date_to=date_to, user=request.user)
    return redirect(reverse("reports:integrity") + f"?venue={venue.code}&done=1")


def _chart(result: IntegrityResult) -> str:
    """Observed against expected per cell, the 95% band a fair game keeps (inline SVG)."""
    from django.utils.html import escape

    cells = result.cells[:20]
    if not cells:
        return ""
    width, height, left, bottom = 640, 240, 40, 60
    top = max(max(c["high"], c["observed"], c["expected"]) for c in cells) or 1
    step = (width - left) / len(cells)

    def y(value: float) -> float:
        return round(10 + (height - bottom - 10) * (1 - value / top), 1)

    title = gettext("Observed against expected, with the 95% band of a fair game")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="chart-title" class="chart">',
        f'<title id="chart-title">{escape(title)}: {escape(result.label)}</title>',
    ]
    for index, cell in enumerate(cells):
        x = left + index * step
        parts.append(
            f'<rect x="{x + step * 0.2:.1f}" y="{y(cell["high"])}" width="{step * 0.6:.1f}" '
            f'height="{max(y(cell["low"]) - y(cell["high"]), 1):.1f}" class="band" fill="#cde"/>'
        )
        mean = y(cell["expected"])
        parts.append(
            f'<line x1="{x + step * 0.15:.1f}" x2="{x + step * 0.85:.1f}" y1="{mean}" '
            f'y2="{mean}" stroke="#333" stroke-dasharray="3 2"/>'
        )
        colour = "#c00" if cell.get("outside") else "#036"
        parts.append(
            f'<circle cx="{x + step / 2:.1f}" cy="{y(cell["observed"])}" r="4" fill="{colour}">'
            f"<title>{escape(str(cell['key']))}: {cell['observed']} / "
            f"{cell['expected']:.1f}</title>"
            "</circle>"
        )
        parts.append(
            f'<text x="{x + step / 2:.1f}" y="{height - bottom + 14}" font-size="9" '
            f'text-anchor="end" transform="rotate(-40 {x + step / 2:.1f} {height - bottom + 14})">'
            f"{escape(str(cell['key']))}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
