"""What a reader's page asks for and who may read it: the venue (``?venue=``) and the dates
(``?from=``, ``?to=``) of the reports', the cage's, the players' and integrity's pages.

A venue's supervisors, managers and auditors read its reports (``Capability.READ_REPORTS``);
a venue the user does not work at is "not found" (404) and one they work at in another
role "forbidden" (403): ``casino.venues.selectors.report_access`` says which,
``reader_check`` answers so.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext

from casino.floor.console.access import use_venue_language
from casino.kernel.logs import log_venue, not_at_venue
from casino.kernel.timezones import venue_zone
from casino.venues.models import Venue
from casino.venues.selectors import report_access, report_venues

#: The most days a reader's page shows at once.
MAX_DAYS = 366


def reader_check(user: Any, venue_id: int) -> None:
    """Refuse, as 404 or 403, a user who does not read the venue's reports."""
    status = report_access(user=user, venue_id=venue_id)
    if status == 404:
        not_at_venue(f"the reports of venue {venue_id}", venue_id=venue_id)
        raise Http404("no such report")
    if status == 403:
        raise PermissionDenied(
            "only the venue's supervisors, managers and auditors read its reports"
        )


def render_at_venue(
    request: HttpRequest, venue: Venue, template: str, context: dict
) -> HttpResponse:
    """The page in the venue's time zone: the ``date`` filter writes times on its clocks."""
    with timezone.override(venue_zone(venue)):
        return render(request, template, context)


def dates_asked(
    request: HttpRequest,
    *,
    today: date,
    days: int,
    longest: int = MAX_DAYS,
    asked: QueryDict | None = None,
) -> tuple[date, date]:
    """``?from=`` and ``?to=`` (dates, in either order; one that is not a date is left
    out): by default the ``days`` days up to ``today``; at most ``longest`` days, those
    ending on the later date. ``asked``: where they are read, when not the query (a
    form's POST)."""
    asked = request.GET if asked is None else asked
    date_to = _date(asked.get("to"), today)
    date_from = _date(asked.get("from"), date_to - timedelta(days=days - 1))
    if date_from > date_to:
        date_from, date_to = date_to, date_from
    return max(date_from, date_to - timedelta(days=longest - 1)), date_to


def date_asked(request: HttpRequest, name: str, default: date, errors: list[str]) -> date:
    """``?<name>=`` as a date (``YYYY-MM-DD``); empty: ``default``; anything else:
    ``default`` too, with what was wrong and what is shown added to ``errors`` for the page
    to say."""
    text = (request.GET.get(name) or "").strip()
    if not text:
        return default
    try:
        return date.fromisoformat(text)
    except ValueError:
        errors.append(
            gettext("%(text)s is not a date (write it YYYY-MM-DD): %(default)s is shown.")
            % {"text": text, "default": default.isoformat()}
        )
        return default


def venue_asked(
    request: HttpRequest, *, required: bool = True, asked: QueryDict | None = None
) -> tuple[list[Venue], Venue | None]:
    """The venues whose reports the user reads, and the one ``?venue=`` names (another
    venue: 404 if they do not work there, 403 if they hold no reader's role there); without
    one, their first when ``required``. The venue shown is logged and its language spoken
    (unless the user picked one). ``asked``: where ``venue`` is read, when not the query
    (a form's POST)."""
    venues = list(report_venues(user=request.user))
    code = (request.GET if asked is None else asked).get("venue")
    venue = next((v for v in venues if v.code == code), None) if code else None
    if code and venue is None:
        wanted = Venue.objects.filter(code=code).first()
        if wanted is None:
            raise Http404("no such venue")
        log_venue(wanted)
        reader_check(request.user, wanted.pk)
    if not venues:
        raise PermissionDenied(gettext("only supervisors, managers and auditors read reports"))
    if venue is None and required:
        venue = venues[0]
    if venue is not None:
        log_venue(venue)
        use_venue_language(request, venue.language)
    return venues, venue


def _date(text: str | None, default: date) -> date:
    try:
        return date.fromisoformat(text) if text else default
    except ValueError:
        return default
