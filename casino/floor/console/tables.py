"""My tables, opening a table, the round screen of the table's game, the language."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.floor.console import forms, selectors
from casino.floor.console.access import (
    console_login_required,
    forbidden,
    signed_by,
    use_venue_language,
    with_session,
)
from casino.floor.models import TableSession
from casino.floor.services.inventory import chips_discrepancy, table_inventory
from casino.floor.services.sessions import session_open
from casino.kernel.errors import Conflict, ServiceError
from casino.kernel.logs import log_venue, not_at_venue
from casino.staff.policy import Capability, declare
from casino.staff.roles import CASHIER, COMPLIANCE_WORK, PLAY, SUPERVISE, can, has_role
from casino.venues.models import Table


@declare(Capability.SIGNED_IN)
@require_GET
@console_login_required
def home(request: HttpRequest) -> HttpResponse:
    """The tables of the user's venues; for those who watch the floor (supervisors,
    managers, auditors), first the pit: every live session with its figures."""
    groups = selectors.tables_for(user=request.user)
    languages = {group.venue.language for group in groups}
    if len(languages) == 1:
        use_venue_language(request, languages.pop())
    pit = selectors.pit_for(user=request.user)
    watches = has_role(request.user, selectors.PIT)
    context = {
        "groups": groups,
        "pit": pit,
        "watches_floor": watches,
        "runs_pits": has_role(request.user, SUPERVISE),
        "cage_venues": selectors.venues_where(user=request.user, capability=CASHIER),
        "slip_report_venues": selectors.venues_where(
            user=request.user, capability=selectors.SLIP_REPORT
        ),
        "compliance_venues": selectors.venues_where(user=request.user, capability=COMPLIANCE_WORK),
    }
    return render(request, "console/home.html", context)


@declare(Capability.PLAY_ROUND)
@require_http_methods(["GET", "POST"])
@console_login_required
def table_open(request: HttpRequest, table_id: int) -> HttpResponse:
    """Open a table: the dealer counts the tray beside the table's inventory (what its last
    session counted at close), a supervisor confirms the count with their own username and
    password, and a difference is opened only with its reason."""
    table = selectors.table_for(user=request.user, pk=table_id)
    if table is None:
        not_at_venue(f"table {table_id}", table_id=table_id)
        raise Http404("no such table at your venues")
    log_venue(table.venue)
    if selectors.console_of(table.game) is None:
        raise Http404("no such table at your venues")
    use_venue_language(request, table.venue.language)
    if not can(request.user, PLAY, table.venue_id):
        return forbidden(request)
    already = selectors.open_session_of(table)
    if already is not None:  # open already (also a repeated POST of this form)
        return HttpResponseRedirect(reverse("console:round", args=[already.pk]), status=303)
    expected = table_inventory(table=table)
    errors: dict[str, str] = {}
    message = ""
    chips: dict[str, int] | None = None
    if request.method == "POST":
        chips, errors = forms.read_chips(
            request.POST, table.chip_denominations, grouping=table.venue.amount_grouping
        )
        reason = (request.POST.get("discrepancy_reason") or "").strip()
        credentials = forms.read_credentials(request.POST)
        if table.status != Table.Status.ACTIVE:
            message = _("Table %(table)s is inactive; a manager can reactivate it.") % {
                "table": table.code
            }
        elif not errors and not credentials.given:
            message = _("A supervisor confirms the count with their username and password.")
        elif not errors:
            supervisor, message = signed_by(
                request, credentials, _("Wrong username or password: the table is not open yet.")
            )
            session = None
            if supervisor is not None:
                try:
                    session = session_open(
                        table=table,
                        counted_by=request.user,
                        confirmed_by=supervisor,
                        opening_chips=chips,
                        discrepancy_reason=reason,
                    )
                except ServiceError as error:
                    # opened meanwhile (a double submit racing itself): show that session
                    if isinstance(error, Conflict):
                        session = selectors.open_session_of(table)
                    if session is None and error.field == "discrepancy_reason":
                        errors["discrepancy_reason"] = error.message
                    elif session is None:
                        message = error.message
            if session is not None:
                return HttpResponseRedirect(reverse("console:round", args=[session.pk]), status=303)
    typo = bool(errors.keys() - {"discrepancy_reason"})  # a count not read: no difference
    context = {
        "table": table,
        "venue": table.venue,
        "rows": open_rows(table.chip_denominations, expected, None if typo else chips),
        "expected": expected,
        "expected_total": None if expected is None else forms.chips_value(expected),
        "discrepancy": (
            None
            if expected is None or chips is None or typo
            else chips_discrepancy(chips, expected, table.chip_denominations)
        ),
        "data": request.POST,
        "errors": errors,
        "message": message,
    }
    return render(request, "console/open.html", context, status=422 if errors or message else 200)


@dataclass(frozen=True)
class OpenRow:
    """One denomination of the opening count: the chips expected (``None`` when the table
    was never closed) and, after a refused submit, the difference of the count."""

    denomination: str
    name: str
    expected: int | None
    difference: int | None


def open_rows(
    denominations: list[str], expected: dict[str, int] | None, counted: dict[str, int] | None
) -> list[OpenRow]:
    rows = []
    for denomination in denominations:
        want = None if expected is None else expected.get(denomination, 0)
        difference = (
            None if want is None or counted is None else counted.get(denomination, 0) - want
        )
        rows.append(OpenRow(denomination, f"chips-{denomination}", want, difference))
    return rows


@require_GET
@with_session
def round_screen(request: HttpRequest, session: TableSession) -> HttpResponse:
    """The round screen the table's game registers (``GameConsole.screen``)."""
    console = selectors.console_of(session.table.game)
    assert console is not None  # ``with_session`` answers 404 for a game without one
    return console.screen(request, session)


@declare(Capability.PUBLIC)
@require_POST
def language_of_venue(request: HttpRequest) -> HttpResponse:
    """Forget the language the user picked, so each venue's own is spoken again."""
    target = request.POST.get("next") or reverse("console:home")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = reverse("console:home")
    response = HttpResponseRedirect(target, status=303)
    response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
    return response
