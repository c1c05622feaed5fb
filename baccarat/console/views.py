"""Baccarat's round screen: the seats and their stakes, one deal of six card fields, the
shoe and the commission box, the live partials.

The screen is one template (``baccarat/console/round.html``) with partials:

- ``deal`` (GET ``baccarat/deal/``): the deal as typed so far, followed through the tableau:
  both hands with their totals, "Player draws on 4", "Banker stands on 7", a natural, the
  winner, and a card the tableau or the shoe refuses named on its field;
- ``stakes`` (GET ``baccarat/stakes/?box=N``): one seat's stakes against the table's limits;
- ``player`` (GET ``baccarat/player/?box=N``): the player of a membership number as typed;
- ``preview`` and ``round``: the settlement preview and the Confirm, the floor's own views
  (``casino.floor.console.round``, POST ``preview/`` and ``confirm/``) run with this screen's
  reading of the form;
- ``round`` again after "New shoe" (POST ``baccarat/shoe/``, ``baccarat.services.shoe_start``)
  and "Collect commission" (POST ``baccarat/commission/``, ``commission_collect``), with what
  was typed kept and the service's refusal shown in its words (409, 422), never a 500.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from baccarat.console import deal_entry, forms
from baccarat.console.labels import seat_label
from baccarat.services import commission_collect, shoe_start
from casino.floor.console import round as rounds
from casino.floor.console import selectors
from casino.floor.console.access import closed, game_only
from casino.floor.console.forms import read_player
from casino.floor.console.selectors import Screen
from casino.floor.models import TableSession
from casino.kernel.errors import Conflict, ServiceError
from casino.kernel.money import venue_money

GAME = "baccarat"
TEMPLATE = "baccarat/console/round.html"


this_game = game_only(GAME)


def box_of(request: HttpRequest, positions: tuple[int, ...]) -> int:
    """The ``box`` parameter: a position of the table (a seat or a player betting behind)."""
    box = request.GET.get("box", "") or request.POST.get("box", "")
    if box.isdecimal() and int(box) in positions:
        return int(box)
    raise Http404("no such seat at this table")


@require_GET
@this_game
@rounds.live_partial
def deal(request: HttpRequest, session: TableSession, screen: Screen) -> HttpResponse:
    """The deal as typed so far, followed through the tableau (the live partial of the six
    card fields). Out of band, as the notes: it lands on the deal as the page holds it when
    it arrives, even when a preview answered meanwhile has redrawn it."""
    dealt = deal_entry.read_deal(request.GET, screen.rules)
    return render(request, f"{TEMPLATE}#deal", {"deal": dealt, "oob": True})


@require_GET
@this_game
@rounds.live_partial
def stakes(request: HttpRequest, session: TableSession, screen: Screen) -> HttpResponse:
    """One seat's stakes checked against the table's limits and the rules' unit."""
    position = box_of(request, screen.positions)
    box = forms.BoxEntry(
        position=position,
        member="",
        stakes=[
            forms.read_stake(
                position, b, request.GET.get(forms.stake_field(position, b)) or "", screen
            )
            for b in screen.bet_types
        ],
    )
    return render(request, f"{TEMPLATE}#stakes", {"box": box})


@require_GET
@this_game
@rounds.live_partial
def player(request: HttpRequest, session: TableSession, screen: Screen) -> HttpResponse:
    """The player of a membership number, or why there is none (live, as it is typed)."""
    position = box_of(request, screen.positions)
    member = (request.GET.get(forms.member_field(position)) or "").strip()
    players = selectors.players_by_number(venue=screen.venue, numbers=[member])
    box = forms.BoxEntry(position=position, member=member, stakes=[])
    box.player, box.player_error = read_player(member, players)
    return render(request, f"{TEMPLATE}#player", {"box": box})


def round_again(
    request: HttpRequest,
    screen: Screen,
    *,
    notice: str = "",
    refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    """The round form again as typed (the button sends it along), with what was done or why
    it was refused above it; the commission box and the shoe read anew."""
    console = screen.console
    entry = console.read_entry(request.POST, screen)
    last = selectors.last_round(session=screen.session)
    context: dict[str, Any] = {
        **console.context(screen, entry, last=last),
        **rounds.rules_context(screen, request.POST.get(rounds.RULES_SEEN)),
        "notice": notice,
        "refusal": refusal,
    }
    name = f"{TEMPLATE}#round" if request.htmx else TEMPLATE
    return render(request, name, context, status=status)


def refused(request: HttpRequest, screen: Screen, error: ServiceError) -> HttpResponse:
    status = 409 if isinstance(error, Conflict) else 422
    return round_again(request, screen, refusal=error.message, status=status)


def done(request: HttpRequest, screen: Screen, notice: str) -> HttpResponse:
    if not request.htmx:
        url = reverse("console:round", args=[screen.session.pk])
        return HttpResponseRedirect(url, status=303)
    return round_again(request, screen, notice=notice)


@require_POST
@this_game
def shoe(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Start the next shoe; refused while a seat owes the commission box."""
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "round")
    screen = rounds.screen_or_refusal(request, session)
    if isinstance(screen, HttpResponse):
        return screen
    try:
        started = shoe_start(session=session, user=request.user)
    except ServiceError as error:
        return refused(request, screen, error)
    return done(request, screen, _("Shoe %(number)s started.") % {"number": started.number})


@require_POST
@this_game
def collect(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Collect what a seat owes the commission box (or give back what a void left it owed)."""
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "round")
    screen = rounds.screen_or_refusal(request, session)
    if isinstance(screen, HttpResponse):
        return screen
    position = box_of(request, screen.positions)
    try:
        collection = commission_collect(session=session, position=position, user=request.user)
    except ServiceError as error:
        return refused(request, screen, error)
    words = {
        "seat": seat_label(position),
        "amount": venue_money(abs(collection.amount), screen.venue),
    }
    if collection.amount > 0:
        notice = _("%(seat)s: commission of %(amount)s collected.") % words
    else:
        notice = _("%(seat)s: %(amount)s of commission given back.") % words
    return done(request, screen, notice)
