"""My tables, opening a table, the round screen of the table's game, the language."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.console import forms, selectors
from casino.console.access import (
    console_login_required,
    forbidden,
    use_venue_language,
    with_session,
)
from casino.errors import Conflict, ServiceError
from casino.models import Table, TableSession
from casino.roles import CASHIER, PLAY, can, has_role
from casino.services.sessions import session_open


@require_GET
@console_login_required
def home(request: HttpRequest) -> HttpResponse:
    """The tables of the user's venues; for those who watch the floor (supervisors,
    managers, auditors), first the pit: every live session with its figures."""
    groups = selectors.tables_for(user=request.user)
    for group in groups:
        for table in group.tables:
            table.in_console = selectors.console_of(table.game) is not None
    languages = {group.venue.language for group in groups}
    if len(languages) == 1:
        use_venue_language(request, languages.pop())
    pit = selectors.pit_for(user=request.user)
    watches = has_role(request.user, selectors.PIT)
    context = {
        "groups": groups,
        "pit": pit,
        "watches_floor": watches,
        "cage_venues": selectors.venues_where(user=request.user, capability=CASHIER),
        "slip_report_venues": selectors.venues_where(
            user=request.user, capability=selectors.SLIP_REPORT
        ),
    }
    return render(request, "console/home.html", context)


@require_http_methods(["GET", "POST"])
@console_login_required
def table_open(request: HttpRequest, table_id: int) -> HttpResponse:
    table = selectors.table_for(user=request.user, pk=table_id)
    if table is None or selectors.console_of(table.game) is None:
        raise Http404("no such table at your venues")
    use_venue_language(request, table.venue.language)
    if not can(request.user, PLAY, table.venue_id):
        return forbidden(request)
    already = selectors.open_session_of(table)
    if already is not None:  # open already (also a repeated POST of this form)
        return HttpResponseRedirect(reverse("console:round", args=[already.pk]), status=303)
    errors: dict[str, str] = {}
    message = ""
    if request.method == "POST":
        chips, errors = forms.read_chips(
            request.POST, table.chip_denominations, grouping=table.venue.amount_grouping
        )
        if table.status != Table.Status.ACTIVE:
            message = _("Table %(table)s is inactive; a manager can reactivate it.") % {
                "table": table.code
            }
        elif not errors:
            try:
                session = session_open(table=table, user=request.user, opening_chips=chips)
            except ServiceError as error:
                # opened meanwhile (a double submit racing itself): show that session
                session = selectors.open_session_of(table) if isinstance(error, Conflict) else None
                message = "" if session else error.message
            if session is not None and not message:
                return HttpResponseRedirect(reverse("console:round", args=[session.pk]), status=303)
    context = {
        "table": table,
        "venue": table.venue,
        "denominations": table.chip_denominations,
        "data": request.POST,
        "errors": errors,
        "message": message,
    }
    return render(request, "console/open.html", context, status=422 if errors or message else 200)


@require_GET
@with_session
def round_screen(request: HttpRequest, session: TableSession) -> HttpResponse:
    """The round screen the table's game registers (``GameConsole.screen``)."""
    console = selectors.console_of(session.table.game)
    assert console is not None  # ``with_session`` answers 404 for a game without one
    return console.screen(request, session)


@require_POST
def language_of_venue(request: HttpRequest) -> HttpResponse:
    """Forget the language the user picked, so each venue's own is spoken again."""
    target = request.POST.get("next") or reverse("console:home")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = reverse("console:home")
    response = HttpResponseRedirect(target, status=303)
    response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
    return response
