"""The count room's screens: the venues one counts at, a gaming day's drop boxes, a box's
count by denomination (the second count shows how it differs from the first and asks
why), closing the day's count, and the win per table of the day.

The count's pages are the count team's (403 to anyone else at the venue, 404 for another
venue); the figures are also read by the venue's supervisors, managers and auditors.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from decimal import Decimal
from functools import wraps
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.cage.marker_selectors import markers_in_drop
from casino.count import selectors
from casino.count.contents import MAX_WHAT, count_differences
from casino.count.duties import may_reopen_count
from casino.count.models import DropBox
from casino.count.reopening import count_reopen
from casino.count.services import (
    MAX_REASON,
    box_sessions,
    count_close,
    count_record,
    counter_refusal,
)
from casino.floor.console.access import (
    console_login_required,
    go,
    page,
    refusal,
    signed_by,
    use_venue_language,
)
from casino.floor.console.forms import read_chips, read_credentials
from casino.floor.figures import figure_definitions
from casino.kernel.amounts import read_amount
from casino.kernel.errors import ServiceError
from casino.kernel.money import venue_money
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, allows, declare
from casino.venues.models import Venue
from casino.venues.services.gaming_days import gaming_day_end

View = Callable[..., HttpResponse]
#: Why a second counter does not confirm a close (``casino.count.duties.count_close_refusal``).
SECOND_COUNTER_REFUSALS = {
    "no_second_counter",
    "same_counter",
    "second_not_counter",
    "second_supervises",
}
#: How many other instruments the count's form takes at once.
OTHER_ROWS = 3


def _gaming_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise Http404("not a gaming date") from None


def count_view(capability: Capability) -> Callable[[View], View]:
    """Resolve ``venue_id`` to one of the user's venues (404 otherwise) and the gaming
    date, speak the venue's language and require ``capability`` there (403 otherwise)."""

    def decorate(view: View) -> View:
        @declare(capability)
        @console_login_required
        @wraps(view)
        def wrapper(
            request: HttpRequest, venue_id: int, gaming_date: str, **kwargs: Any
        ) -> HttpResponse:
            venue = selectors.venue_for(user=request.user, pk=venue_id)
            if venue is None:
                raise Http404("no such venue among yours")
            day = _gaming_date(gaming_date)
            use_venue_language(request, venue.language)
            if not allows(request.user, capability, venue.pk):
                if capability == Capability.COUNT_BOX:
                    message = _("Only the count team counts the drop boxes.")
                elif capability == Capability.MANAGE_VENUE:
                    message = _("Only a manager of the venue reopens a closed count.")
                else:
                    message = _(
                        "The count's figures are for the count team and the pit's managers."
                    )
                return refusal(request, 403, message)
            with timezone.override(venue_zone(venue)):  # times on the venue's clocks
                return view(request, venue, day, **kwargs)

        return wrapper

    return decorate


@declare(Capability.SIGNED_IN)
@require_GET
@console_login_required
def count_home(request: HttpRequest) -> HttpResponse:
    """The venues the user counts at (or reads the count of), each with its latest gaming
    days; a date typed in the form goes to that day."""
    venues = selectors.count_venues(request.user)
    wanted, text = request.GET.get("venue", ""), request.GET.get("date", "")
    if wanted.isdecimal() and text:
        try:
            day = date.fromisoformat(text)
        except ValueError:
            day = None
        row = next((r for r in venues if r["venue"].pk == int(wanted)), None)
        if day is not None and row is not None:
            name = "console:count-day" if row["counts"] else "console:count-figures"
            return go(request, reverse(name, args=[row["venue"].pk, day.isoformat()]))
    for row in venues:
        row["dates"] = selectors.recent_gaming_dates(row["venue"])
    return page(request, "count/home.html", None, {"venues": venues})


def _day_context(venue: Venue, day: date, user: Any, **extra: Any) -> dict[str, Any]:
    listing = selectors.count_day(venue, day)
    for line in listing["boxes"]:
        refused = counter_refusal(box=line.box, user=user)
        line.refusal = refused.message if refused is not None else ""
        line.may_count = (
            refused is None
            and line.ready
            and line.box.status != DropBox.Status.COUNTED
            and not listing["closed"]
            and not (line.first is not None and line.first.counted_by_id == user.pk)
        )
    # Before the gaming day ends its count cannot close (``count_close``): say from when.
    ends = gaming_day_end(venue, day)
    closes_from = ends if not listing["closed"] and timezone.now() < ends else None
    return {
        "venue": venue,
        "gaming_date": day,
        **listing,
        **selectors.close_help(venue, day),
        "closes_from": closes_from,
        "drop_total": sum(
            (line.second.total for line in listing["boxes"] if line.second), Decimal(0)
        ),
        "message": "",
        "notice": "",
        "confirming": False,
        **extra,
    }


def _counted_notice(venue: Venue, lines: list[Any], box_id: str) -> str:
    """What the count just recorded of the box ``box_id`` (after the form's redirect)."""
    line = next((line for line in lines if str(line.box.pk) == box_id), None)
    if line is None or line.first is None:
        return ""
    if line.second is None:
        notice = _("First count of box %(box)s: %(total)s. Another counter makes the second.")
        total = line.first.total
    else:
        total = line.second.total
        if not line.second.difference:
            notice = _("Second count of box %(box)s agrees: %(total)s posted as its drop.")
        else:
            notice = _(
                "Second count of box %(box)s: %(total)s posted as its drop, with the reason "
                "for the difference."
            )
    return notice % {"box": line.box.label, "total": venue_money(total, venue)}


@require_GET
@count_view(Capability.COUNT_BOX)
def count_day(request: HttpRequest, venue: Venue, day: date) -> HttpResponse:
    """The day's drop boxes, their sessions and counts, and closing the day's count
    (``?close=1``: the close's confirmation, where a second counter signs)."""
    context = _day_context(venue, day, request.user)
    context["notice"] = _counted_notice(venue, context["boxes"], request.GET.get("box", ""))
    context["confirming"] = bool(request.GET.get("close")) and _closable(context)
    return page(request, "count/day.html", "boxes", context)


def _closable(context: dict[str, Any]) -> bool:
    return not context["closed"] and context["all_counted"]


@require_POST
@count_view(Capability.COUNT_BOX)
def count_day_close(request: HttpRequest, venue: Venue, day: date) -> HttpResponse:
    """Close the count, confirmed by a second member of the count team who signs with
    their own username and password; a refusal says why, and who to ask."""
    credentials = read_credentials(
        {
            "supervisor": request.POST.get("counter", ""),
            "password": request.POST.get("password", ""),
        }
    )
    if not credentials.given:
        second, wrong = None, _("The second counter signs with their username and password.")
    else:
        second, wrong = signed_by(request, credentials, _("Wrong username or password."))
    if second is None:
        context = _day_context(venue, day, request.user, message=wrong, confirming=True)
        return page(request, "count/day.html", "boxes", context, status=422)
    try:
        count_close(venue=venue, gaming_date=day, user=request.user, confirmed_by=second)
    except ServiceError as refused:
        if refused.reason in {"not_counter", "counter_supervises"}:
            return refusal(request, 403, refused.message)
        # the second counter refused: the confirmation again, its mistake said (422)
        second_refused = refused.reason in SECOND_COUNTER_REFUSALS
        context = _day_context(
            venue, day, request.user, message=refused.message, confirming=second_refused
        )
        status = 422 if second_refused else refused.status
        return page(request, "count/day.html", "boxes", context, status=status)
    context = _day_context(venue, day, request.user, notice=_("The count of this day is closed."))
    return page(request, "count/day.html", "boxes", context)


def _read_count(data: Any, venue: Venue, box: DropBox) -> tuple[dict[str, Any], dict[str, str]]:
    """The form's notes, chips and other instruments, and its mistakes by field name."""
    grouping = venue.amount_grouping
    notes, errors = read_chips(data, venue.note_denominations, prefix="notes-", grouping=grouping)
    chips, chip_errors = read_chips(
        data, box.table.chip_denominations, prefix="chips-", grouping=grouping
    )
    errors.update(chip_errors)
    others = []
    for row in range(1, OTHER_ROWS + 1):
        what = (data.get(f"other-{row}-what") or "").strip()
        text = (data.get(f"other-{row}-amount") or "").strip()
        if not what and not text:
            continue
        if not what:
            errors[f"other-{row}-what"] = _("Say what it is, e.g. a cheque")
        try:
            amount = read_amount(text, venue)
        except ValueError as error:
            errors[f"other-{row}-amount"] = str(error)
            continue
        if amount is None or amount <= 0:
            errors[f"other-{row}-amount"] = _("Give its amount, more than 0")
            continue
        others.append({"what": what[:MAX_WHAT], "amount": amount})
    return {"notes": notes, "chips": chips, "others": others}, errors


def _box_context(venue: Venue, day: date, box: DropBox, user: Any, **extra: Any) -> dict[str, Any]:
    listing = selectors.count_day(venue, day)
    line = next(line for line in listing["boxes"] if line.box.pk == box.pk)
    refused = counter_refusal(box=box, user=user)
    refusal = refused.message if refused is not None else ""
    if not refusal and line.first is not None and line.first.counted_by_id == user.pk:
        refusal = _("You made the first count: another counter makes the second.")
    return {
        "venue": venue,
        "gaming_date": day,
        "box": box,
        "line": line,
        "closed": listing["closed"],
        "refusal": refusal,
        "second": line.first is not None,
        "note_denominations": venue.note_denominations,
        "chip_denominations": box.table.chip_denominations,
        "other_rows": [str(n) for n in range(1, OTHER_ROWS + 1)],
        # the copies the count adds to the box itself (casino.count.services._counted)
        "marker_copies": markers_in_drop(s.pk for s in box_sessions(box)),
        "max_reason": MAX_REASON,
        "data": {},
        "errors": {},
        "message": "",
        "differences": None,
        **extra,
    }


def _differences(line: Any, counted: dict[str, Any]) -> dict[str, Any]:
    total = sum(
        (Decimal(d) * n for part in ("notes", "chips") for d, n in counted[part].items()),
        Decimal(0),
    ) + sum((o["amount"] for o in counted["others"]), Decimal(0))
    differences = count_differences(line.first, {**counted, "total": total})
    differences["lines"] = [
        (_("Note %(value)s") % {"value": venue_money(d, line.box.venue)}, n)
        for d, n in differences["notes"].items()
    ] + [
        (_("Chip %(value)s") % {"value": venue_money(d, line.box.venue)}, n)
        for d, n in differences["chips"].items()
    ]
    return differences


@require_http_methods(["GET", "POST"])
@count_view(Capability.COUNT_BOX)
def count_box(request: HttpRequest, venue: Venue, day: date, box_id: int) -> HttpResponse:
    """A box's count by denomination; the second count says how it differs and why."""
    box = selectors.box_for(venue=venue, gaming_date=day, pk=box_id)
    if box is None:
        raise Http404("no such box that day")
    if request.method == "GET":
        return page(
            request,
            "count/box.html",
            "count-form",
            _box_context(venue, day, box, request.user),
        )
    counted, errors = _read_count(request.POST, venue, box)
    reason = (request.POST.get("reason") or "").strip()
    context = _box_context(venue, day, box, request.user, data=request.POST, errors=errors)
    if errors:
        context["message"] = _("Check the marked fields.")
        return page(request, "count/box.html", "count-form", context, status=422)
    if context["second"]:
        context["differences"] = _differences(context["line"], counted)
    try:
        count_record(box=box, user=request.user, reason=reason, **counted)
    except ServiceError as refused:
        if refused.status == 403:
            return refusal(request, 403, refused.message)
        context["message"] = refused.message
        status = 422 if refused.status == 400 else refused.status
        return page(request, "count/box.html", "count-form", context, status=status)
    url = reverse("console:count-day", args=[venue.pk, day.isoformat()])
    return go(request, f"{url}?box={box.pk}")


@require_GET
@count_view(Capability.READ_COUNT_FIGURES)
def count_figures(request: HttpRequest, venue: Venue, day: date) -> HttpResponse:
    """Win, hold and win/drop per table for the gaming day; to a manager, the reopening of
    a closed count that left a box uncounted (``?reopen=1``: its confirmation, with the
    reason), and to anyone else who reopens it."""
    context = _figures_context(request, venue, day)
    context["confirming"] = bool(request.GET.get("reopen")) and context["reopens"]
    return page(request, "count/figures.html", None, context)


def _figures_context(request: HttpRequest, venue: Venue, day: date, **extra: Any) -> dict[str, Any]:
    figures = selectors.win_figures(venue, day)
    listing = selectors.count_day(venue, day)
    left_out = selectors.uncounted_boxes(venue, day) if listing["closed"] else []
    return {
        "venue": venue,
        "gaming_date": day,
        **figures,
        "closed": listing["closed"],
        "left_out": left_out,
        "reopens": bool(left_out) and may_reopen_count(user=request.user, venue_id=venue.pk),
        "reopeners": selectors.count_reopeners(venue) if left_out else [],
        "confirming": False,
        "reason": "",
        "max_reason": MAX_REASON,
        "counts": allows(request.user, Capability.COUNT_BOX, venue.pk),
        "reconciles": allows(request.user, Capability.READ_REPORTS, venue.pk),
        "definitions": figure_definitions("win_by_count", "drop", "hold_pct", "win_drop_pct"),
        "chart_svg": _win_chart(venue, figures["rows"]),
        "message": "",
        "notice": "",
        **extra,
    }


@require_POST
@count_view(Capability.MANAGE_VENUE)
def count_day_reopen(request: HttpRequest, venue: Venue, day: date) -> HttpResponse:
    """A manager reopens a closed count that left a box uncounted, saying why
    (``count_reopen``: audited; refused once every box is counted, the count being final).
    A reason missing is asked for again on the confirmation, beside what was typed."""
    reason = request.POST.get("reason", "")
    try:
        count_reopen(venue=venue, gaming_date=day, user=request.user, reason=reason)
    except ServiceError as refused:
        if refused.status == 403:
            return refusal(request, 403, refused.message)
        mistaken = refused.status == 400
        context = _figures_context(
            request, venue, day, message=refused.message, reason=reason, confirming=mistaken
        )
        status = 422 if mistaken else refused.status
        return page(request, "count/figures.html", None, context, status=status)
    notice = _(
        "The count is reopened: the count team counts the boxes left out and closes it again."
    )
    context = _figures_context(request, venue, day, notice=notice)
    return page(request, "count/figures.html", None, context)


def _win_chart(venue: Venue, rows: list[dict[str, Any]]) -> str:
    """The win by count per table as bars (a table still open: none yet), for the eye; the
    table below it has the figures."""
    from casino.kernel import charts  # matplotlib: loaded on the first chart

    counted = [row for row in rows if row["win"] is not None]
    svg = charts.bars(
        _("Win by count per table"),
        [row["table"].code for row in counted],
        [float(row["win"]) for row in counted],  # drawn only
        venue.currency,
        venue.amount_grouping,
    )
    return charts.accessible(
        svg,
        ident="count-win-chart",
        title=_("Win by count per table"),
        desc=_(
            "A bar per table whose win is counted, green above zero and red below; the "
            "table below gives each figure."
        ),
    )
