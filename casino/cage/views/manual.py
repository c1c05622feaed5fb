"""When the system is down: a venue's manual series and their papers on the console.

- The venue's page (``manual_home``): its tables' series with what is used of each and its
  gaps; a manager or the cage's cashier issues a series there; a gaming day's late entries
  and its paper reconciliation (each session's figures with its late entries beside the
  count's). Read by the cage, the supervisors, managers and auditors.
- A series' printable forms (``series_print``, ``series_pdf``): a sheet of pre-numbered
  forms, one to a page, printed as a slip's PDF is (``console/slip_pdf.html``;
  ``casino.exports.pdf_bytes``); by whoever issues series.
- A series' page (``series_page``): its papers, entered late or spoiled; a supervisor
  enters a paper slip or round sheet, or records a paper as spoiled with the reason
  (``casino.cage.services.manual``, whose refusals the form shows).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino import games
from casino.cage import manual_selectors, slip_selectors
from casino.cage.manual import ManualKind, ManualSeries, paper_label
from casino.cage.services.manual import (
    manual_paper_spoil,
    manual_round_enter,
    manual_series_issue,
    manual_slip_enter,
)
from casino.exports import pdf_bytes
from casino.floor.console import forms
from casino.floor.console.access import console_login_required, page, refusal, use_venue_language
from casino.floor.models import TableSession
from casino.games import BoxInput
from casino.kernel.amounts import read_amount
from casino.kernel.errors import Conflict, Forbidden, ServiceError
from casino.kernel.timezones import venue_zone
from casino.players.membership import membership_key
from casino.players.models import Player
from casino.staff.models import StaffRole
from casino.staff.policy import Capability, allows, declare
from casino.staff.roles import CASHIER, PLAY, SUPERVISE
from casino.venues.models import Table, Venue

TEMPLATE = "console/manual.html"
SERIES_TEMPLATE = "console/manual_series.html"


def _venue(request: HttpRequest, venue_id: int) -> Venue | HttpResponse:
    venue = slip_selectors.venue_for(user=request.user, pk=venue_id)
    if venue is None:
        raise Http404("no such venue among yours")
    use_venue_language(request, venue.language)
    if not allows(request.user, Capability.READ_SLIP_REPORT, venue.pk):
        return refusal(
            request,
            403,
            _("Manual series are read by the cage, the supervisors, managers and auditors."),
        )
    return venue


def _gaming_date(request: HttpRequest, venue: Venue) -> date:
    try:
        return date.fromisoformat(request.GET.get("day", ""))
    except ValueError:
        current = slip_selectors.current_gaming_date(venue=venue)
        return current or timezone.localdate(timezone=venue_zone(venue))


def home_context(venue: Venue, user: Any, gaming_date: date, **extra: Any) -> dict[str, Any]:
    return {
        "venue": venue,
        "gaming_date": gaming_date,
        "lines": manual_selectors.series_lines(venue=venue),
        "late": manual_selectors.late_entries(venue=venue, gaming_date=gaming_date),
        "reconciliation": manual_selectors.paper_reconciliation(
            venue=venue, gaming_date=gaming_date
        ),
        "day_gaps": manual_selectors.day_gaps(venue=venue, gaming_date=gaming_date),
        "tables": Table.objects.filter(venue=venue).order_by("code"),
        "kinds": ManualKind.choices,
        "may_issue": allows(user, Capability.MANUAL_SERIES, venue.pk),
        "errors": {},
        "data": {},
        "message": "",
        "notice": "",
        **extra,
    }


@declare(Capability.READ_SLIP_REPORT)
@require_GET
@console_login_required
def manual_home(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The venue's manual series, a gaming day's late entries and their reconciliation."""
    venue = _venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    context = home_context(venue, request.user, _gaming_date(request, venue))
    return page(request, TEMPLATE, "manual-series", context)


def _number(text: str | None) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdecimal() and len(text) < 9 else None


@declare(Capability.MANUAL_SERIES)
@require_POST
@console_login_required
def series_issue(request: HttpRequest, venue_id: int) -> HttpResponse:
    """Issue a series for one of the venue's tables (a manager or the cage's cashier)."""
    venue = _venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    table = Table.objects.filter(venue=venue, pk=_number(request.POST.get("table"))).first()
    first, last = _number(request.POST.get("first")), _number(request.POST.get("last"))
    errors = {}
    if table is None:
        errors["table"] = _("Choose one of the venue's tables.")
    if first is None:
        errors["first"] = _("Write the first number, 1 or more.")
    if last is None:
        errors["last"] = _("Write the last number.")
    gaming_date = _gaming_date(request, venue)
    if not errors:
        try:
            series = manual_series_issue(
                table=table,
                user=request.user,
                kind=request.POST.get("kind", ""),
                prefix=request.POST.get("prefix", ""),
                first=first,
                last=last,
            )
        except Forbidden as refused:
            return refusal(request, 403, refused.message)
        except ServiceError as refused:
            errors[refused.field or "prefix"] = refused.message
        else:
            notice = _("Series %(series)s issued for table %(table)s: print it now.") % {
                "series": series.label,
                "table": table.code,
            }
            context = home_context(venue, request.user, gaming_date, notice=notice)
            return page(request, TEMPLATE, "manual-series", context)
    context = home_context(venue, request.user, gaming_date, errors=errors, data=request.POST)
    return page(request, TEMPLATE, "manual-series", context, status=422)


# A series' forms, printed in advance


def _series(request: HttpRequest, series_id: int, capability: Capability) -> Any:
    series = manual_selectors.series_for(user=request.user, pk=series_id)
    if series is None:
        raise Http404("no such manual series at your venues")
    use_venue_language(request, series.venue.language)
    if not allows(request.user, capability, series.venue_id):
        return refusal(request, 403, _("You may not open this series' page."))
    return series


def _forms_context(request: HttpRequest, series: ManualSeries, *, pdf: bool) -> dict[str, Any]:
    first = _number(request.GET.get("from")) or series.first
    last = _number(request.GET.get("to")) or series.last
    first, last = max(first, series.first), min(last, series.last)
    query = f"?from={first}&to={last}"
    return {
        "series": series,
        "venue": series.venue,
        "pdf": pdf,
        "language": translation.get_language(),
        "first": first,
        "last": last,
        "forms": [(n, paper_label(series.prefix, n)) for n in range(first, last + 1)],
        "positions": range(1, series.table.seats + 1),
        "denominations": series.table.chip_denominations,
        "pdf_url": reverse("console:manual-series-pdf", args=[series.pk]) + query,
    }


@declare(Capability.MANUAL_SERIES)
@require_GET
@console_login_required
def series_print(request: HttpRequest, series_id: int) -> HttpResponse:
    """The series' forms as a page to print, one to a sheet (``?from=&to=`` a part of it)."""
    series = _series(request, series_id, Capability.MANUAL_SERIES)
    if isinstance(series, HttpResponse):
        return series
    with timezone.override(venue_zone(series.venue)):
        return page(
            request, "console/manual_forms.html", None, _forms_context(request, series, pdf=False)
        )


@declare(Capability.MANUAL_SERIES)
@require_GET
@console_login_required
def series_pdf(request: HttpRequest, series_id: int) -> HttpResponse:
    """The series' forms as a PDF (WeasyPrint), the slip's printing."""
    series = _series(request, series_id, Capability.MANUAL_SERIES)
    if isinstance(series, HttpResponse):
        return series
    with timezone.override(venue_zone(series.venue)):
        content = pdf_bytes("console/manual_forms.html", _forms_context(request, series, pdf=True))
    response = HttpResponse(content, content_type="application/pdf")
    name = f"manual-{series.venue.code}-{series.prefix}{series.first}-{series.last}.pdf"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


# A series' papers: entered late, or spoiled


def _people(venue: Venue, roles: frozenset[str]) -> list[Any]:
    found = StaffRole.objects.filter(venue=venue, role__in=roles, user__is_active=True)
    users = {role.user.pk: role.user for role in found.select_related("user")}
    return sorted(users.values(), key=lambda user: user.get_username())


def series_context(series: ManualSeries, user: Any, **extra: Any) -> dict[str, Any]:
    venue = series.venue
    session = (
        TableSession.objects.filter(table=series.table, status=TableSession.Status.OPEN)
        .order_by("-opened_at")
        .first()
    )
    game = games.get(series.table.game)
    return {
        "series": series,
        "venue": venue,
        "line": manual_selectors.series_line(series),
        "papers": series.papers.select_related("series", "recorded_by", "slip", "round").order_by(
            "number"
        ),
        "session": session,
        "may_enter": allows(user, Capability.ENTER_PAPER, venue.pk),
        "denominations": series.table.chip_denominations,
        "positions": [str(n) for n in range(1, series.table.seats + 1)],
        "bet_types": [(code, game.reports.bet_label(code)) for code in game.bet_types],
        "cashiers": _people(venue, CASHIER),
        "dealers": _people(venue, PLAY),
        "supervisors": _people(venue, SUPERVISE),
        "errors": {},
        "data": {},
        "message": "",
        "notice": "",
        **extra,
    }


@declare(Capability.READ_SLIP_REPORT)
@require_GET
@console_login_required
def series_page(request: HttpRequest, series_id: int) -> HttpResponse:
    """A series' papers, and the forms to enter one or record it spoiled."""
    series = _series(request, series_id, Capability.READ_SLIP_REPORT)
    if isinstance(series, HttpResponse):
        return series
    with timezone.override(venue_zone(series.venue)):
        return page(request, SERIES_TEMPLATE, "paper", series_context(series, request.user))


def _written_at(text: str | None, venue: Venue) -> datetime | None:
    try:
        written = datetime.fromisoformat((text or "").strip())
    except ValueError:
        return None
    if timezone.is_naive(written):
        written = written.replace(tzinfo=venue_zone(venue))
    return written


def _user(venue: Venue, user_id: str | None) -> Any:
    role = StaffRole.objects.filter(venue=venue, user_id=_number(user_id)).select_related("user")
    found = role.first()
    return found.user if found is not None else None


def _boxes(data: Any, positions: range, venue: Venue) -> tuple[list[BoxInput], dict[str, str]]:
    boxes, errors = [], {}
    for position in positions:
        cards = (data.get(f"box-{position}-cards") or "").strip()
        if not cards:
            continue
        try:
            stake = read_amount(data.get(f"box-{position}-stake"), venue)
        except ValueError as error:
            errors[f"box-{position}-stake"] = str(error)
            continue
        if stake is None:
            errors[f"box-{position}-stake"] = _("Write the stake as on the sheet.")
            continue
        bet_type = data.get(f"box-{position}-bet") or ""
        member = (data.get(f"box-{position}-member") or "").strip()
        player = None
        if member:
            key = membership_key(member)
            player = Player.objects.filter(venue=venue, membership_number=key).first()
            if key is None or player is None:
                errors[f"box-{position}-member"] = _(
                    "No member %(number)s at this venue; leave it blank for a player not known."
                ) % {"number": member}
                continue
        boxes.append(
            BoxInput(
                position=position,
                cards=cards,
                stakes={bet_type: stake},
                player_id=player.pk if player is not None else None,
            )
        )
    return boxes, errors


def _enter(request: HttpRequest, series: ManualSeries, session: TableSession) -> Any:
    """Enter the paper the form describes (its fields read and checked); the service's
    refusal is raised, a form's own error answered as a dict."""
    venue = series.venue
    number = _number(request.POST.get("number"))
    written_at = _written_at(request.POST.get("written_at"), venue)
    errors: dict[str, str] = {}
    if number is None:
        errors["number"] = _("Write the number printed on the paper.")
    if written_at is None:
        errors["written_at"] = _("Write the date and time on the paper.")
    if series.kind == ManualKind.ROUND:
        boxes, box_errors = _boxes(request.POST, range(1, series.table.seats + 1), venue)
        errors.update(box_errors)
        if not errors and not boxes:
            errors["box-1-cards"] = _("Write at least one box as on the sheet.")
        if errors:
            return errors
        return manual_round_enter(
            series=series,
            user=request.user,
            number=number,
            session=session,
            dealer_cards=request.POST.get("dealer_cards", ""),
            boxes=boxes,
            written_at=written_at,
        )
    chips, chip_errors = forms.read_chips(
        request.POST, series.table.chip_denominations, grouping=venue.amount_grouping
    )
    errors.update(chip_errors)
    if errors:
        return errors
    return manual_slip_enter(
        series=series,
        user=request.user,
        number=number,
        session=session,
        chips=chips,
        written_at=written_at,
        cashier=_user(venue, request.POST.get("cashier")),
        dealer=_user(venue, request.POST.get("dealer")),
        supervisor=_user(venue, request.POST.get("supervisor")),
    )


@declare(Capability.ENTER_PAPER)
@require_http_methods(["POST"])
@console_login_required
def paper_enter(request: HttpRequest, series_id: int) -> HttpResponse:
    """A supervisor enters a paper of the series, as written: flagged late."""
    series = _series(request, series_id, Capability.ENTER_PAPER)
    if isinstance(series, HttpResponse):
        return series
    context = series_context(series, request.user)
    if context["session"] is None:
        message = _(
            "Table %(table)s has no open session: paper is entered into the session it was "
            "played in, before it closes."
        ) % {"table": series.table.code}
        return _answer(request, series, status=409, message=message, data=request.POST)
    try:
        entered = _enter(request, series, context["session"])
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    except ServiceError as refused:
        status = 409 if isinstance(refused, Conflict) else 422
        return _answer(request, series, status=status, message=refused.message, data=request.POST)
    if isinstance(entered, dict):
        return _answer(request, series, status=422, errors=entered, data=request.POST)
    notice = _("Paper %(paper)s entered, flagged as a late entry.") % {"paper": entered.label}
    return _answer(request, series, notice=notice)


@declare(Capability.ENTER_PAPER)
@require_POST
@console_login_required
def paper_spoil(request: HttpRequest, series_id: int) -> HttpResponse:
    """A supervisor records a paper of the series as spoiled, with the reason."""
    series = _series(request, series_id, Capability.ENTER_PAPER)
    if isinstance(series, HttpResponse):
        return series
    number = _number(request.POST.get("spoil_number"))
    if number is None:
        errors = {"spoil_number": _("Write the number printed on the paper.")}
        return _answer(request, series, status=422, errors=errors, data=request.POST)
    try:
        paper = manual_paper_spoil(
            series=series, user=request.user, number=number, reason=request.POST.get("reason", "")
        )
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    except ServiceError as refused:
        status = 409 if isinstance(refused, Conflict) else 422
        return _answer(request, series, status=status, message=refused.message, data=request.POST)
    notice = _("Paper %(paper)s recorded as spoiled.") % {"paper": paper.label}
    return _answer(request, series, notice=notice)


def _answer(
    request: HttpRequest, series: ManualSeries, *, status: int = 200, **extra: Any
) -> HttpResponse:
    with timezone.override(venue_zone(series.venue)):
        context = series_context(series, request.user, **extra)
        return page(request, SERIES_TEMPLATE, "paper", context, status=status)
