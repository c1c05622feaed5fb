"""What every console view shares: login, the venue's language, the session at the
user's venues, the dealer's role, refusals, and rendering a page or its htmx partial.

Each page is one template; when htmx asks (``request.htmx``) a view renders only the named
partial of that template that the request replaces (``"console/history.html#history"``),
and the same URL without htmx answers the whole page. Views parse the request, call one
service or selector and render; they never write on their own.

Every POST carries the CSRF token (``hx-headers`` on ``<body>``, a hidden field in plain
forms) and is idempotent: a round's form carries its idempotency key, a slip form the slip
count it was drawn with, and opening, closing and voiding are refused by the services once
done, which the views answer by showing what was done. Status codes: 422 for a form with
mistakes and 409 for a closed session (htmx is configured in ``base.html`` to swap both),
404 for another venue's table or session, 403 for a user without the dealer's role.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect, reswap

from casino.floor.console import selectors
from casino.floor.console.forms import Credentials
from casino.floor.models import TableSession
from casino.kernel.logs import log_venue, not_at_venue
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, allows, declare
from casino.staff.throttling import LoginRefusal, refusal_message

View = Callable[..., HttpResponse]


def use_venue_language(request: HttpRequest, language: str) -> None:
    """Speak the venue's language unless the user picked one (Django's language cookie)."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if (chosen and translation.check_for_language(chosen)) or not language:
        return
    translation.activate(language)
    request.LANGUAGE_CODE = translation.get_language()


def login_needed(request: HttpRequest) -> HttpResponse:
    """To the login page; to htmx, 401: the page stays (with the round typed on it) and its
    lock screen signs in again (``casino/floor/console/lock.py``)."""
    if request.htmx:
        message = _("Your login ran out: sign in again on this screen; what you typed is kept.")
        response = HttpResponse(message, status=401, content_type="text/plain; charset=utf-8")
        return reswap(response, "none")
    return redirect_to_login(request.get_full_path())


def console_login_required(view: View) -> View:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return login_needed(request)
        return view(request, *args, **kwargs)

    return wrapper


def refusal(request: HttpRequest, status: int, message: str) -> HttpResponse:
    """A page saying why not; to htmx, the bare message, which console.js shows."""
    if request.htmx:
        response = HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
        return reswap(response, "none")
    return render(request, "console/error.html", {"message": message}, status=status)


def forbidden(request: HttpRequest) -> HttpResponse:
    return refusal(request, 403, _("You do not run tables at this venue."))


def session_view(
    view: View, *, capability: Capability, read_only: bool = False, live: bool = False
) -> View:
    """Resolve ``session_id`` to a session at the user's venues (404 otherwise), speak
    its venue's language and show times in its zone, and require ``capability`` there
    (403 otherwise); a ``read_only`` view refuses anything but a GET (403): nothing is
    written from it. The view declares ``capability`` (``casino.staff.policy``). A
    ``live`` partial asked by htmx reads the session with its table only, kept a few
    seconds in the cache (``selectors.live_session_for``)."""

    @declare(capability)
    @console_login_required
    @wraps(view)
    def wrapper(request: HttpRequest, session_id: int, **kwargs: Any) -> HttpResponse:
        if live and request.htmx:
            session = selectors.live_session_for(user=request.user, pk=session_id)
        else:  # a page: a live partial asked without htmx answers the whole screen
            session = selectors.session_for(user=request.user, pk=session_id)
        if session is None:
            not_at_venue(f"session {session_id}", session_id=session_id)
            raise Http404("no such session at your venues")
        log_venue(session.table.venue)
        if selectors.console_of(session.table.game) is None:
            raise Http404("no such session at your venues")
        use_venue_language(request, session.table.venue.language)
        if not allows(request.user, capability, session.table.venue_id):
            return forbidden(request)
        if read_only and request.method != "GET":
            return refusal(request, 403, _("This view is read-only: nothing changes from it."))
        with timezone.override(venue_zone(session.table.venue)):  # times on its clocks
            return view(request, session, **kwargs)

    return wrapper


def with_session(view: View, *, live: bool = False) -> View:
    """A session's page for its dealer: the dealer's role at its venue (``session_view``)."""
    return session_view(view, capability=Capability.PLAY_ROUND, live=live)


def game_only(code: str, *, live: bool = False) -> Callable[[View], View]:
    """``with_session`` for a page of one game's screen: a session at another game's table
    has no such page (404). ``live``: a partial asked as the dealer types."""

    def decorate(view: View) -> View:
        @partial(with_session, live=live)
        @wraps(view)
        def wrapper(request: HttpRequest, session: TableSession, **kwargs: Any) -> HttpResponse:
            if session.table.game != code:
                raise Http404("this page is another game's")
            return view(request, session, **kwargs)

        return wrapper

    return decorate


def page(
    request: HttpRequest,
    template: str,
    partial: str | None,
    context: dict[str, Any],
    status: int = 200,
) -> HttpResponse:
    """The partial for htmx, the whole page otherwise."""
    name = f"{template}#{partial}" if request.htmx and partial else template
    return render(request, name, context, status=status)


def session_context(session: TableSession, tab: str) -> dict[str, Any]:
    table = session.table
    return {"session": session, "table": table, "venue": table.venue, "tab": tab}


def closed(request: HttpRequest, session: TableSession, partial: str) -> HttpResponse:
    """What a write to a closed session answers, in place of the part it targeted."""
    context = {
        **session_context(session, "round"),
        "closed_message": _("This session is closed; open the table again to play."),
    }
    return page(request, "console/closed.html", partial, context, status=409)


def signed_by(request: HttpRequest, credentials: Credentials, wrong: str) -> tuple[Any, str]:
    """The supervisor signing with their own username and password, or why nobody does:
    ``wrong``, or the lockout's own message when it refused them (the right password would
    not help then)."""
    refusal = LoginRefusal()
    supervisor = authenticate(
        request, username=credentials.username, password=credentials.password, refusal=refusal
    )
    if supervisor is None:
        return None, refusal_message(refusal) or wrong
    return supervisor, ""


def go(request: HttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url, status=303)
