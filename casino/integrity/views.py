"""The integrity page: a venue's integrity runs, their tests and alerts, for its managers
and auditors (casino.integrity.runs; docs/INTEGRITY.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from casino.floor.console.readers import dates_asked, render_at_venue, venue_asked
from casino.floor.kinds import game_label
from casino.integrity.models import IntegrityResult, IntegrityRun
from casino.integrity.runs import integrity_request
from casino.integrity.words import key_shown
from casino.kernel.timezones import venue_today
from casino.players.membership import membership_key
from casino.players.models import Player
from casino.staff.policy import Capability, declare
from casino.staff.roles import DEALER, can
from casino.venues.models import Pit, Table, Venue

READERS = Capability.READ_INTEGRITY.roles
#: Who asks for a run (an auditor reads the runs, asks for none).
RUNNERS = Capability.MANAGE_VENUE.roles
#: Results shown on the page at most (the alerts first).
SHOWN = 500
#: The characters a cell's label under the card chart keeps (one slanted row of labels).
LABEL_CHARS = 12


def _reader(request: HttpRequest, venue) -> None:
    if not can(request.user, READERS, venue.pk):
        raise PermissionDenied(gettext("only the venue's managers and auditors read integrity"))


class _DealerChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        name = obj.get_full_name()
        return f"{name} ({obj.username})" if name else obj.username


class IntegrityFilters(forms.Form):
    """What the page shows of a run: one scope, one table, pit, dealer or rated player of
    the venue (a foreign or unknown one is refused with a message), the alerts only."""

    scope = forms.ChoiceField(
        required=False,
        choices=[("", ""), *IntegrityResult.Scope.choices],
        error_messages={"invalid_choice": _("Choose the results by table, dealer, pit or player.")},
    )
    table = forms.ModelChoiceField(
        queryset=Table.objects.none(),
        required=False,
        error_messages={"invalid_choice": _("No such table at this venue.")},
    )
    pit = forms.ModelChoiceField(
        queryset=Pit.objects.none(),
        required=False,
        error_messages={"invalid_choice": _("No such pit at this venue.")},
    )
    dealer = _DealerChoice(
        queryset=get_user_model().objects.none(),
        required=False,
        error_messages={"invalid_choice": _("No such dealer at this venue.")},
    )
    player = forms.CharField(required=False, max_length=120)
    alerts = forms.BooleanField(required=False)

    def __init__(self, data, *, venue: Venue) -> None:
        super().__init__(data)
        self.venue = venue
        self.fields["table"].queryset = Table.objects.filter(venue=venue).order_by("code")
        self.fields["pit"].queryset = Pit.objects.filter(venue=venue).order_by("code")
        # Who deals at the venue now, and whoever a run of it tested as a dealer since.
        tested = IntegrityResult.objects.filter(venue=venue, scope=IntegrityResult.Scope.DEALER)
        self.fields["dealer"].queryset = (
            get_user_model()
            .objects.filter(
                Q(venue_roles__venue=venue, venue_roles__role=DEALER)
                | Q(pk__in=tested.values("dealer_id"))
            )
            .distinct()
            .order_by("username")
        )

    def clean_player(self) -> Player | None:
        """A rated player of the venue by membership number, or by a part of the name that
        only one of its members has."""
        text = self.cleaned_data["player"].strip()
        if not text:
            return None
        members = Player.objects.filter(venue=self.venue)
        number = membership_key(text)
        found = members.filter(membership_number=number).first() if number else None
        if found is not None:
            return found
        named = list(members.filter(name__icontains=text).order_by("membership_number")[:2])
        if len(named) == 1:
            return named[0]
        if named:
            raise forms.ValidationError(
                _(
                    "Several members of this venue have %(text)s in their name: give the "
                    "membership number."
                ),
                params={"text": text},
            )
        raise forms.ValidationError(_("No member %(text)s at this venue."), params={"text": text})


def integrity_results(*, run: IntegrityRun, filters: dict[str, Any]) -> QuerySet[IntegrityResult]:
    """The run's results the filters (``IntegrityFilters.cleaned_data``) keep, alerts first;
    a pit keeps its own results and those of its tables."""
    results = run.results.select_related("investigation").order_by(
        "-alert", "q_value", "scope", "label", "test"
    )
    if filters["scope"]:
        results = results.filter(scope=filters["scope"])
    if filters["table"] is not None:
        results = results.filter(table=filters["table"])
    if filters["pit"] is not None:
        results = results.filter(Q(pit=filters["pit"]) | Q(table__pit=filters["pit"]))
    if filters["dealer"] is not None:
        results = results.filter(dealer=filters["dealer"])
    if filters["player"] is not None:
        results = results.filter(player=filters["player"])
    if filters["alerts"]:
        results = results.filter(alert=True)
    return results


def _subjects(filters: dict[str, Any]) -> list[str]:
    """The single subjects picked, as the empty results name them."""
    kinds = (
        ("table", IntegrityResult.Scope.TABLE.label, lambda t: t.code),
        ("pit", IntegrityResult.Scope.PIT.label, lambda p: p.code),
        ("dealer", IntegrityResult.Scope.DEALER.label, lambda u: u.username),
        ("player", IntegrityResult.Scope.PLAYER.label, lambda p: p.membership_number),
    )
    return [f"{label} {name(filters[field])}" for field, label, name in kinds if filters[field]]


@declare(Capability.READ_INTEGRITY)
@login_required
def integrity_page(request: HttpRequest) -> HttpResponse:
    venues, venue = venue_asked(request)
    _reader(request, venue)
    runs = IntegrityRun.objects.filter(venue=venue).order_by("-date_to", "-id")
    filters = IntegrityFilters(request.GET, venue=venue)
    errors = [error for field in filters.errors.values() for error in field]
    run = None
    run_asked = request.GET.get("run", "")
    if run_asked:
        run = runs.filter(pk=int(run_asked)).first() if run_asked.isdigit() else None
        if run is None:
            errors.append(gettext("No such integrity run at this venue."))
    else:
        run = runs.filter(status=IntegrityRun.Status.DONE).first()
    results = IntegrityResult.objects.none()
    subjects: list[str] = []
    if run is not None and not errors:
        results = integrity_results(run=run, filters=filters.cleaned_data)
        subjects = _subjects(filters.cleaned_data)
    # Run now offers the dates of the run shown (a new run covers as many), else yesterday.
    if run is not None:
        date_from, date_to = run.date_from, run.date_to
    else:
        yesterday = venue_today(venue) - timedelta(days=1)
        date_from, date_to = dates_asked(request, today=yesterday, days=1)
    shown = list(results[:SHOWN])
    for result in shown:
        result.game_label = game_label(result.game)
    chart = next((r for r in shown if r.alert), shown[0] if shown else None)
    # The datalist offers the members the run tested (a venue's every member is too many).
    tested = IntegrityResult.objects.filter(run=run, scope=IntegrityResult.Scope.PLAYER)
    players = Player.objects.filter(pk__in=tested.values("player_id"))
    context = {
        "venues": venues,
        "venue": venue,
        "run": run,
        "runs": list(runs[:30]),
        "results": shown,
        "chart": chart,
        "chart_svg": _chart(chart) if chart is not None else "",
        "scopes": IntegrityResult.Scope.choices,
        "filters": filters,
        "asked": {name: request.GET.get(name, "") for name in filters.fields},
        "tables": list(filters.fields["table"].queryset),
        "pits": list(filters.fields["pit"].queryset),
        "dealers": [
            (d.pk, filters.fields["dealer"].label_from_instance(d))
            for d in filters.fields["dealer"].queryset
        ],
        "players": list(players.order_by("membership_number")),
        "errors": errors,
        "subjects": subjects,
        "date_from": date_from,
        "date_to": date_to,
        "done": request.GET.get("done") == "1",
        "rows": run.results.count() if run is not None else 0,
        "can_run": can(request.user, RUNNERS, venue.pk),
    }
    response = render_at_venue(request, venue, "reports/integrity.html", context)
    if errors:
        response.status_code = 400
    return response


@declare(Capability.MANAGE_VENUE)
@login_required
@require_POST
def integrity_run_now(request: HttpRequest) -> HttpResponse:
    """Managers: ask for a run of a range of gaming dates (an auditor reads, runs nothing)."""
    # The venue and dates come with the form.
    _venues, venue = venue_asked(request, asked=request.POST)
    _reader(request, venue)
    if not can(request.user, RUNNERS, venue.pk):
        raise PermissionDenied(gettext("only the venue's managers run the integrity tests"))
    today = venue_today(venue)
    date_from, date_to = dates_asked(request, today=today, days=1, asked=request.POST)
    integrity_request(venue=venue, date_from=date_from, date_to=date_to, user=request.user)
    return redirect(reverse("reports:integrity") + f"?venue={venue.code}&done=1")


def _chart(result: IntegrityResult) -> str:
    """Observed against expected per cell, the 95% band a fair game keeps (inline SVG)."""
    from django.utils.html import escape

    cells = result.cells[:20]
    if not cells:
        return ""
    width, height, left, bottom = 640, 240, 56, 60
    top = max(max(c["high"], c["observed"], c["expected"]) for c in cells) or 1
    step = (width - left) / len(cells)

    def y(value: float) -> float:
        return round(10 + (height - bottom - 10) * (1 - value / top), 1)

    title = gettext("Observed against expected, with the 95% band of a fair game")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="chart-title" class="chart">',
        f'<title id="chart-title">{escape(title)}: {escape(result.subject)}</title>',
    ]
    # The y axis: the count observed, from 0 to the highest value drawn, four steps.
    parts.append(
        f'<line class="axis" x1="{left - 4}" x2="{left - 4}" y1="{y(top)}" y2="{y(0)}" '
        'stroke="#555"/>'
    )
    for tick in range(5):
        value = top * tick / 4
        parts.append(
            f'<line x1="{left - 8}" x2="{left - 4}" y1="{y(value)}" y2="{y(value)}" '
            f'stroke="#555"/><text class="tick" x="{left - 10}" y="{y(value) + 3}" '
            f'font-size="9" text-anchor="end">{value:,.0f}</text>'
        )
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
            f"<title>{escape(key_shown(cell['key']))}: {cell['observed']} / "
            f"{cell['expected']:.1f}</title>"
            "</circle>"
        )
        key = key_shown(cell["key"])
        short = key if len(key) <= LABEL_CHARS else key[: LABEL_CHARS - 1] + "…"
        parts.append(
            f'<text x="{x + step / 2:.1f}" y="{height - bottom + 14}" font-size="9" '
            f'text-anchor="end" transform="rotate(-40 {x + step / 2:.1f} {height - bottom + 14})">'
            f"<title>{escape(key)}</title>{escape(short)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
