"""The floor view: the pits a supervisor runs, and every table of a pit live.

``/console/pits/`` lists the user's pits (a manager's: every pit of the venue; a
supervisor's: those they are named to); ``/console/pits/<id>/`` shows the pit's tables and
polls its ``floor`` partial every ``REFRESH_SECONDS``. From the same page a supervisor or
manager schedules a change of a table's limits (``casino.floor.services.limits``). Another
venue's pit is 404; a pit the user does not run, or a user without the supervisor's role,
403.
"""

from __future__ import annotations

import hashlib
from dataclasses import fields, is_dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from casino.floor.console import floor_selectors as floor
from casino.floor.console.access import (
    console_login_required,
    go,
    page,
    refusal,
    use_venue_language,
)
from casino.floor.services.limits import limit_change_schedule
from casino.kernel import quick_charts
from casino.kernel.amounts import read_amount
from casino.kernel.errors import ServiceError
from casino.kernel.logs import log_venue, not_at_venue
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, declare, holds_anywhere
from casino.venues.models import Pit, Table

#: How often the floor view asks for its tables again, in seconds.
REFRESH_SECONDS = 5


def _not_supervisor(request: HttpRequest) -> HttpResponse:
    return refusal(request, 403, _("The floor view is for the pit's supervisors and managers."))


@declare(Capability.SUPERVISE_TABLES)
@require_GET
@console_login_required
def pits(request: HttpRequest) -> HttpResponse:
    """The pits the user runs."""
    if not holds_anywhere(request.user, Capability.SUPERVISE_TABLES):
        return _not_supervisor(request)
    found = floor.pits_for(user=request.user)
    languages = {pit.venue.language for pit in found}
    if len(languages) == 1:
        use_venue_language(request, languages.pop())
    return render(request, "console/pits.html", {"pits": found})


def _pit(request: HttpRequest, pit_id: int) -> Pit | HttpResponse:
    pit = floor.pit_for(user=request.user, pk=pit_id)
    if pit is None:
        not_at_venue(f"pit {pit_id}", pit_id=pit_id)
        raise Http404("no such pit at your venues")
    log_venue(pit.venue)
    use_venue_language(request, pit.venue.language)
    if not floor.runs_pit(request.user, pit):
        return refusal(
            request, 403, _("You do not run this pit: a manager assigns its supervisors.")
        )
    return pit


#: Each table's card as last drawn, by everything it shows (``_card_key``). A supervisor's
#: screen asks for the pit's cards every ``REFRESH_SECONDS``, and a table that deals a round
#: a minute changes about one poll in twelve: drawing the cards was half the view's CPU
#: (docs/BENCHMARKS.md "floor"). Kept in this process's memory (Django's local-memory
#: cache: bounded, the least recently used dropped first), so a new release starts empty;
#: the key names every input of the card, so a kept card is never an older state's.
_CARDS = LocMemCache("casino-floor-cards", {"TIMEOUT": 600, "OPTIONS": {"MAX_ENTRIES": 5000}})


def _read_as_shown(value: Any) -> Any:
    """What a card can show of ``value``: a model's every column, a dataclass's every field,
    a list's every item, else the value itself."""
    if isinstance(value, Model):
        return (
            type(value).__name__,
            *(getattr(value, f.attname) for f in value._meta.concrete_fields),
        )
    if is_dataclass(value):
        return tuple(_read_as_shown(getattr(value, f.name)) for f in fields(value))
    if isinstance(value, list | tuple):
        return tuple(_read_as_shown(item) for item in value)
    return value


def _card_key(row: floor.FloorTable, drawn_as: str) -> str:
    """The card's inputs, digested: the row and its table, session, dealer, limits and
    scheduled changes, and ``drawn_as``, what every card of the view shares (written once)."""
    inputs = f"{drawn_as}|{_read_as_shown(row)!r}"
    return hashlib.blake2b(inputs.encode(), digest_size=16).hexdigest()


def cards_drawn(shown: floor.Floor, venue: Any) -> list[str]:
    """Each table's card of the floor view (the ``floor-card`` part of console/floor.html),
    drawn again only when something it shows changed."""
    # What every card shares, read once: the language it is drawn in, the venue (its zone,
    # currency and grouping) and the alerts' thresholds.
    drawn_as = repr(
        (
            translation.get_language(),
            _read_as_shown(venue),
            shown.idle_minutes,
            shown.slip_wait_minutes,
        )
    )
    keys = [_card_key(row, drawn_as) for row in shown.tables]
    kept = _CARDS.get_many(keys)
    template = get_template("console/floor.html#floor-card")
    cards = []
    for key, row in zip(keys, shown.tables, strict=True):
        card = kept.get(key)
        if card is None:
            card = template.render({"row": row, "venue": venue, "floor": shown})
            _CARDS.set(key, card)
        cards.append(card)
    return cards


def _context(pit: Pit, **extra: Any) -> dict[str, Any]:
    shown = floor.pit_floor(pit=pit)
    return {
        "pit": pit,
        "venue": pit.venue,
        "floor": shown,
        "cards": cards_drawn(shown, pit.venue),
        "bet_types": sorted({limit.bet_type for row in shown.tables for limit in row.limits}),
        "refresh_seconds": REFRESH_SECONDS,
        "notice_minutes": settings.LIMIT_NOTICE_MINUTES,
        "chart_svg": _win_chart(pit, shown.tables),
        **extra,
    }


def _win_chart(pit: Pit, rows: list[Any]) -> str:
    """The win by ledger of each open table that deals rounds, as bars, for the eye; each
    table's card has the figure. Drawn by hand (``quick_charts``), not by matplotlib: the
    view is asked again every ``REFRESH_SECONDS`` by every supervisor's screen."""
    dealt = [row for row in rows if row.is_open and row.deals_rounds]
    venue = pit.venue
    svg = quick_charts.bars(
        _("Win by ledger per open table"),
        [row.table.code for row in dealt],
        [float(row.win or 0) for row in dealt],  # drawn only
        venue.currency,
        venue.amount_grouping,
    )
    return quick_charts.accessible(
        svg,
        ident="floor-win-chart",
        title=_("Win by ledger per open table"),
        desc=_(
            "A bar per open table dealing rounds, green above zero and red below; each "
            "table's card below gives the figure."
        ),
    )


@declare(Capability.SUPERVISE_TABLES)
@require_GET
@console_login_required
def pit_view(request: HttpRequest, pit_id: int) -> HttpResponse:
    """The pit's tables live (the whole page, or its ``floor`` part when it polls)."""
    pit = _pit(request, pit_id)
    if isinstance(pit, HttpResponse):
        return pit
    with timezone.override(venue_zone(pit.venue)):
        return page(request, "console/floor.html", "floor", _context(pit))


def _effective_at(text: str, pit: Pit) -> datetime | None:
    """A ``datetime-local`` value read on the venue's clocks."""
    value = parse_datetime((text or "").strip())
    if value is None:
        return None
    if timezone.is_naive(value):
        value = timezone.make_aware(value, venue_zone(pit.venue))
    return value


@declare(Capability.SUPERVISE_TABLES)
@require_http_methods(["POST"])
@console_login_required
def limit_schedule(request: HttpRequest, pit_id: int) -> HttpResponse:
    """Schedule a change of one table's limits from a time on (the form on the pit's page)."""
    pit = _pit(request, pit_id)
    if isinstance(pit, HttpResponse):
        return pit
    data = request.POST
    venue = pit.venue
    error = ""
    table_id = data.get("table") or ""
    table = Table.objects.filter(pit=pit, pk=int(table_id)).first() if table_id.isdigit() else None
    try:
        low = read_amount(data.get("min_stake", ""), venue, unit=venue.rounding_unit)
        high = read_amount(data.get("max_stake", ""), venue, unit=venue.rounding_unit)
    except ValueError as problem:
        low = high = None
        error = str(problem)
    when = _effective_at(data.get("effective_at", ""), pit)
    if not error and table is None:
        error = _("Choose one of the pit's tables.")
    elif not error and (low is None or high is None):
        error = _("Give the new minimum and maximum.")
    elif not error and when is None:
        error = _("Give the date and time the limits change, e.g. 2026-12-02 22:00.")
    if not error:
        try:
            limit_change_schedule(
                user=request.user,
                table=table,
                bet_type=(data.get("bet_type") or "").strip(),
                min_stake=low,
                max_stake=high,
                effective_at=when,
                reason=data.get("reason", ""),
            )
        except ServiceError as problem:
            error = problem.message
    if not error:
        return go(request, reverse("console:pit", args=[pit.pk]) + "?scheduled=1")
    with timezone.override(venue_zone(pit.venue)):
        context = _context(pit, schedule_error=error, form=data)
        return render(request, "console/floor.html", context, status=422)
