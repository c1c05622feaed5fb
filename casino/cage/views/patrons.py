"""The gaming day's unknown patrons under ``/console/cage/<venue>/unknown-patrons/``: each
patron's temporary identifier, description, when first seen and their cash of the day in
and out (``casino.cage.patron_selectors``), a form to record one and, for each patron not
yet linked, a form to link them to the member they turn out to be.

Read by the cage, the supervisors, managers and auditors (``Capability.READ_CAGE``); a
patron is recorded by the cage and the supervisors (``Capability.RECORD_PATRON``) and
linked by a supervisor or a manager (``Capability.SUPERVISE_TABLES``). Each form calls its
service (``casino.cage.services.patrons``), which checks, audits and, on a link, judges the
member's day again; a role without the capability is refused (403), another venue's page
is not found (404).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from casino.cage import slip_selectors
from casino.cage.models import UnknownPatron
from casino.cage.patron_selectors import patrons_of_day
from casino.cage.services.cash import player_of
from casino.cage.services.patrons import unknown_patron_create, unknown_patron_link
from casino.cage.services.thresholds import gaming_date_at
from casino.floor.console.access import console_login_required, page, refusal, use_venue_language
from casino.kernel.errors import Forbidden, InvalidInput, ServiceError
from casino.kernel.replicas import replica_reads
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, allows, declare
from casino.venues.models import Venue

TEMPLATE = "console/unknown_patrons.html"
PARTIAL = "unknown-patrons"

#: Why each capability refuses, said to the one refused.
_REFUSED = {
    Capability.READ_CAGE: gettext_lazy(
        "The unknown patrons are read by the cage, the supervisors, managers and auditors."
    ),
    Capability.RECORD_PATRON: gettext_lazy(
        "The cage and the supervisors record an unknown patron here; a dealer records one "
        "at the table, with the buy-in."
    ),
    Capability.SUPERVISE_TABLES: gettext_lazy(
        "Only a supervisor or a manager links an unknown patron."
    ),
}


def _venue(request: HttpRequest, venue_id: int, capability: Capability) -> Venue | HttpResponse:
    venue = slip_selectors.venue_for(user=request.user, pk=venue_id)
    if venue is None:
        raise Http404("no such venue among yours")
    use_venue_language(request, venue.language)
    if not allows(request.user, capability, venue.pk):
        return refusal(request, 403, str(_REFUSED[capability]))
    return venue


def _day(request: HttpRequest, venue: Venue) -> date:
    try:
        return date.fromisoformat(request.GET.get("day") or request.POST.get("day") or "")
    except ValueError:
        return gaming_date_at(venue, timezone.now())


def _render(
    request: HttpRequest, venue: Venue, day: date, status: int = 200, **extra: Any
) -> HttpResponse:
    with replica_reads():
        patrons = patrons_of_day(venue=venue, gaming_date=day)
    context = {
        "venue": venue,
        "day": day,
        "patrons": patrons,
        "may_record": allows(request.user, Capability.RECORD_PATRON, venue.pk),
        "may_link": allows(request.user, Capability.SUPERVISE_TABLES, venue.pk),
        "errors": {},
        "data": {},
        "notice": "",
        #: The patron whose link form ``errors`` and ``data`` are of.
        "failed": None,
        **extra,
    }
    with timezone.override(venue_zone(venue)):
        return page(request, TEMPLATE, PARTIAL, context, status=status)


@declare(Capability.READ_CAGE)
@require_GET
@console_login_required
def unknown_patrons(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The gaming day's unknown patrons (``?day=YYYY-MM-DD``, the current one otherwise)."""
    venue = _venue(request, venue_id, Capability.READ_CAGE)
    if isinstance(venue, HttpResponse):
        return venue
    return _render(request, venue, _day(request, venue))


@declare(Capability.RECORD_PATRON)
@require_POST
@console_login_required
def unknown_patron_record(request: HttpRequest, venue_id: int) -> HttpResponse:
    """Record a patron nobody knows from their description; the page says their
    identifier."""
    venue = _venue(request, venue_id, Capability.RECORD_PATRON)
    if isinstance(venue, HttpResponse):
        return venue
    description = request.POST.get("description", "")
    try:
        patron = unknown_patron_create(venue=venue, user=request.user, description=description)
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    except ServiceError as error:
        errors = {"description": error.message}
        day = gaming_date_at(venue, timezone.now())
        return _render(request, venue, day, 422, errors=errors, data=request.POST)
    notice = _("Recorded as %(code)s: give this identifier to the tables and the cage.") % {
        "code": patron.code
    }
    return _render(request, venue, patron.gaming_date, notice=notice)


def _link(request: HttpRequest, patron: UnknownPatron) -> str:
    """Link the patron to the member the form names; what the page says after it."""
    number = request.POST.get("member", "").strip()
    member = player_of(patron.venue, number)
    if member is None:
        raise InvalidInput(_("Give the member's membership number."), field="member")
    if patron.member_id == member.pk:
        return _("%(code)s is already linked to member %(member)s.") % {
            "code": patron.code,
            "member": member.membership_number,
        }
    linked = unknown_patron_link(patron=patron, member=member, user=request.user)
    return _("%(code)s is member %(member)s: their cash of the day counts with the member's.") % {
        "code": linked.code,
        "member": member.membership_number,
    }


@declare(Capability.SUPERVISE_TABLES)
@require_POST
@console_login_required
def unknown_patron_link_page(request: HttpRequest, venue_id: int, patron_id: int) -> HttpResponse:
    """Link an unknown patron of the venue to a member, by membership number."""
    venue = _venue(request, venue_id, Capability.SUPERVISE_TABLES)
    if isinstance(venue, HttpResponse):
        return venue
    patron = UnknownPatron.objects.filter(venue=venue, pk=patron_id).first()
    if patron is None:
        raise Http404("no such unknown patron at this venue")
    try:
        notice = _link(request, patron)
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    except ServiceError as error:
        errors = {"member": error.message}
        data = {"member": request.POST.get("member", "")}
        return _render(
            request, venue, patron.gaming_date, 422, errors=errors, data=data, failed=patron.pk
        )
    return _render(request, venue, patron.gaming_date, notice=notice)
