"""Mau Binh's round screen: 2 to 4 seats, each laying out 13 cards as back / middle / front.

The screen is one template (``maubinh/console/round.html``) with partials:

- ``seat_eval`` (GET ``maubinh/seat/?seat=N``): one seat's rows described as they are typed,
  a live foul warning, an instant-win badge, and what is wrong (a bad card, a row too long, a
  card already in another seat);
- ``seat`` (POST ``maubinh/arrange/?seat=N``): the seat's 13 cards, typed in any row, laid
  out by ``maubinh.engine.suggest_arrangement`` (never fouled, the instant win if any);
- ``preview`` (POST ``preview/``) and ``round`` (POST ``confirm/``): the pairwise matrix
  with the totals and Confirm, then the round dealt and settled once; the floor's own views
  (``casino.floor.console.round``), run with this screen's reading of the form.

A mistake is answered inline (422), never with a 500. The seats play for one table stake.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.floor.console import round as rounds
from casino.floor.console.access import game_only
from casino.floor.console.forms import read_cards
from casino.floor.console.selectors import Screen
from casino.floor.models import TableSession
from casino.kernel.cards import format_cards
from maubinh import engine
from maubinh.console.forms import ROWS, SEPARATORS, read_entry, row_field
from maubinh.seats import HAND_SIZE

GAME = "maubinh"
TEMPLATE = "maubinh/console/round.html"


this_game = game_only(GAME)


def seat_of(request: HttpRequest, found: Screen) -> int:
    seat = request.GET.get("seat", "")
    if seat.isdecimal() and int(seat) in found.positions:
        return int(seat)
    raise Http404("no such seat at this table")


@require_GET
@this_game
@rounds.live_partial
def seat(request: HttpRequest, session: TableSession, found: Screen) -> HttpResponse:
    """One seat read and evaluated as it is typed (the live partial under its rows).

    The answer is out of band: it lands on the seat's evaluation as the page holds it when
    the answer arrives. A preview answered meanwhile redraws every seat's evaluation, and an
    answer aimed at the element that was there when it was asked for would land nowhere
    (and take the declaration's question, kept by hx-preserve, with it)."""
    position = seat_of(request, found)
    entry = read_entry(request.GET, found)
    wanted = next(s for s in entry.seats if s.position == position)
    context = {"seat": wanted, "hand_size": HAND_SIZE, "oob_entry": True}
    return render(request, f"{TEMPLATE}#seat_eval", context)


@require_POST
@this_game
def arrange(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Lay out a seat's 13 cards (typed in any of its rows) as the engine suggests."""
    found = rounds.screen_or_refusal(request, session)
    if isinstance(found, HttpResponse):
        return found
    position = seat_of(request, found)
    entry = read_entry(request.POST, found)
    wanted = next(s for s in entry.seats if s.position == position)
    typed = " ".join(request.POST.get(row_field(position, row)) or "" for row in ROWS)
    status = 422
    read = read_cards(typed, twice=_("%(card)s is in this seat twice"), separators=SEPARATORS)
    if read.error:
        wanted.error = read.error
    elif len(read.cards) != HAND_SIZE:
        wanted.error = _("Auto-arrange needs the seat's 13 cards (%(count)s so far)") % {
            "count": len(read.cards)
        }
    else:
        try:
            layout = engine.suggest_arrangement(read.cards, found.rules)
        except ValueError as error:  # pragma: no cover - 13 different cards lay out
            wanted.error = str(error)
        else:
            data = request.POST.copy()
            for row, laid in zip(ROWS, layout, strict=True):
                data[row_field(position, row)] = format_cards(laid)
            entry = read_entry(data, found)
            wanted = next(s for s in entry.seats if s.position == position)
            status = 422 if wanted.has_errors else 200
    context = found.console.context(found, entry)
    if not request.htmx:
        return render(request, TEMPLATE, context, status=status)
    return render(request, f"{TEMPLATE}#seat", {**context, "seat": wanted}, status=status)
