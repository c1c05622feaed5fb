"""The session's rounds, a round's detail and its void (a supervisor approves on the spot).

Each round's hands are shown by its game's templates (``GameConsole.summary_template`` in
the list, ``detail_template`` in the detail).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino import games
from casino.floor import answers
from casino.floor.console import forms, selectors
from casino.floor.console.access import page, session_context, signed_by, with_session
from casino.floor.models import RoundStatus, TableSession
from casino.floor.services.voids import round_void
from casino.kernel.errors import ServiceError


def round_parts() -> dict[str, games.GameConsole]:
    """Each installed game's screen by code: a round's boxes are shown by its game."""
    found = {}
    for game in games.all_games():
        console = selectors.console_of(game.code)
        if console is not None:
            found[game.code] = console
    return found


def history_context(session: TableSession, **extra: Any) -> dict[str, Any]:
    consoles = round_parts()
    game_console = consoles.get(session.table.game)
    columns = len(game_console.history_columns) if game_console is not None else 0
    return {
        **session_context(session, "history"),
        "rounds": selectors.session_rounds(session=session),
        # Rounds entered afterwards from a round sheet, flagged with the paper's number.
        "late": answers.late_rounds(session),
        "void_errors": {},
        "opened": None,
        "consoles": consoles,
        "game_console": game_console,
        # number, time, the game's cells, house, status, the details link
        "history_width": 5 + columns,
        **extra,
    }


@require_GET
@with_session
def history(request: HttpRequest, session: TableSession) -> HttpResponse:
    opened = request.GET.get("round")
    context = history_context(session, opened=int(opened) if (opened or "").isdecimal() else None)
    return page(request, "console/history.html", "history", context)


@require_GET
@with_session
def round_detail(request: HttpRequest, session: TableSession, round_id: int) -> HttpResponse:
    round_ = selectors.round_for(session=session, pk=round_id)
    if round_ is None:
        raise Http404("no such round in this session")
    if not request.htmx:
        url = reverse("console:history", args=[session.pk])
        return HttpResponseRedirect(f"{url}?{urlencode({'round': round_.pk})}#round-{round_.pk}")
    context = {
        **session_context(session, "history"),
        "round": round_,
        "opened": round_.pk,
        "void_errors": {},
        "consoles": round_parts(),
    }
    return render(request, "console/history.html#round-detail", context)


def _void_refusal(error: ServiceError, supervisor: Any) -> str:
    """The service's refusal, in the console's words when it names the supervisor."""
    if error.reason == "not_supervisor":
        return _("%(user)s is not a supervisor at this venue and cannot approve a void.") % {
            "user": supervisor.get_username()
        }
    if error.reason == "void_by_requester":
        return _("You asked for this void: another supervisor must approve it.")
    return error.message


@require_POST
@with_session
def void(request: HttpRequest, session: TableSession, round_id: int) -> HttpResponse:
    """Void a round: the dealer asks (with a reason), a supervisor approves on the spot
    with their own username and password. Wrong credentials void nothing."""
    round_ = selectors.round_for(session=session, pk=round_id)
    if round_ is None:
        raise Http404("no such round in this session")
    reason = (request.POST.get("reason") or "").strip()
    credentials = forms.read_credentials(request.POST)
    error = ""
    if round_.status == RoundStatus.VOIDED:
        pass  # voided already (a repeat of this form): show it
    elif not reason:
        error = _("Say why the round is voided.")
    elif not credentials.given:
        error = _("A supervisor enters their username and password to approve.")
    else:
        supervisor, error = signed_by(
            request, credentials, _("Wrong username or password: nothing was voided.")
        )
        if supervisor is not None:
            try:
                round_void(
                    round_=round_,
                    requested_by=request.user,
                    approved_by=supervisor,
                    reason=reason,
                )
            except ServiceError as refused:
                error = _void_refusal(refused, supervisor)
    context = history_context(
        session,
        opened=round_.pk if error else None,
        void_errors={round_.pk: error} if error else {},
        void_reason=reason,
    )
    return page(request, "console/history.html", "history", context, status=422 if error else 200)
