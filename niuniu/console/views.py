"""Niu Niu's round screen: five boxes and the dealer, the card picker, the live partials.

The screen is one template (``niuniu/console/round.html``) with partials:

- ``hand`` (GET ``hand/?box=N``): one hand's cards read and, with five, evaluated;
- ``stakes`` (GET ``stakes/?box=N``): one box's stakes checked against the table (the
  floor's limits, the deposit to show) with the deal order;
- ``player`` (GET ``player/?box=N``): the player of a membership number as it is typed;
- ``preview`` and ``round``: the settlement preview and the Confirm, the floor's own views
  (``casino.floor.console.round``, POST ``preview/`` and ``confirm/``) run with this screen's
  reading of the form.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from casino.floor.console import round as rounds
from casino.floor.console import selectors
from casino.floor.console.access import game_only
from casino.floor.console.forms import read_player
from casino.floor.console.selectors import Screen
from casino.floor.models import TableSession
from casino.floor.rules import NoRulesInForce
from niuniu.console import forms

GAME = "niuniu"
TEMPLATE = "niuniu/console/round.html"


#: Every view here is a live partial, asked as the dealer types (the hand on every card):
#: the session is read with its table only.
this_game = game_only(GAME, live=True)


def box_of(request: HttpRequest, positions: tuple[int, ...]) -> int | None:
    """The ``box`` query parameter: a position of the table, or None for the dealer."""
    box = request.GET.get("box", "")
    if box == "dealer":
        return None
    if box.isdecimal() and int(box) in positions:
        return int(box)
    raise Http404("no such box at this table")


@require_GET
@this_game
def hand(request: HttpRequest, session: TableSession) -> HttpResponse:
    """One hand's cards read and, with five, evaluated (the live partial of a card field).

    The answer is out of band: it lands on the hand as the page holds it when it arrives,
    even when a preview answered meanwhile has redrawn every hand."""
    if not request.htmx:
        return rounds.whole_screen(request, session, request.GET)
    try:
        rules = selectors.live_rules_for(session=session)
    except NoRulesInForce:
        return rounds.no_rules(request, session)
    positions = tuple(range(1, min(session.table.seats, rules.max_boxes) + 1))
    position = box_of(request, positions)
    hands = [forms.read_hand(p, request.GET.get(forms.cards_field(p), "")) for p in positions]
    hands.append(forms.read_hand(None, request.GET.get(forms.DEALER_CARDS, "")))
    forms.check_distinct(hands)
    wanted = next(h for h in hands if h.position == position)
    forms.evaluate_hand(wanted, rules)
    context = {"hand": wanted, "venue": session.table.venue, "oob_entry": True}
    return render(request, f"{TEMPLATE}#hand", context)


@require_GET
@this_game
@rounds.live_partial
def stakes(request: HttpRequest, session: TableSession, screen: Screen) -> HttpResponse:
    """One box's stakes checked against the table (limits, deposits) and the deal order."""
    position = box_of(request, screen.positions)
    entry = forms.read_round(request.GET, screen, players={}, evaluate=False)
    box = next(b for b in entry.boxes if b.position == position)
    context = {"box": box, "entry": entry, "venue": screen.venue, "oob": True}
    return render(request, f"{TEMPLATE}#stakes", context)


@require_GET
@this_game
@rounds.live_partial
def player(request: HttpRequest, session: TableSession, screen: Screen) -> HttpResponse:
    """The player of a membership number, or why there is none (live, as it is typed)."""
    position = box_of(request, screen.positions)
    if position is None:
        raise Http404("the dealer has no player")
    member = (request.GET.get(forms.member_field(position)) or "").strip()
    players = selectors.players_by_number(venue=screen.venue, numbers=[member])
    box = forms.BoxEntry(
        position=position, member=member, stakes=[], hand=forms.read_hand(position, "")
    )
    box.player, box.player_error = read_player(member, players)
    return render(request, f"{TEMPLATE}#player", {"box": box})
