"""The round screen's flow, the same for every game: the whole screen, the preview and the
Confirm. The game's screen (``games.get(table.game).console``) reads the dealer's entry,
lays out its preview and renders its template; this module does the rest.

- the whole screen (GET ``sessions/<id>/``): the form prefilled from the query, or with the
  last round's players and stakes (``console.data_from_round``);
- the preview (POST): the entry read, then evaluated by the game under the rules on the
  screen, writing nothing; the totals and the Confirm button come with it;
- the Confirm (POST): the entry read once, without evaluating a hand; refused when it is
  not what the preview showed (its digest), else ``services.round_confirm`` deals and
  settles it once per the form's idempotency key; then the next round's form.

A refusal of the floor or the game comes back as the service says it, in the venue's
language, beside the field it names (``ConsoleEntry.refuse``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import wraps
from typing import Any, Protocol

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import trigger_client_event

from casino.console import selectors
from casino.console.access import closed, page, refusal
from casino.console.closing import summary
from casino.console.services import round_confirm
from casino.errors import ServiceError
from casino.games import BoxInput, RoundResult
from casino.models import Round, TableSession
from casino.money import plain
from casino.rules import NoRulesInForce


class ConsoleEntry(Protocol):
    """A round as the dealer typed it, read by the game's screen."""

    key: str
    errors: list[str]

    @property
    def has_errors(self) -> bool: ...

    def check_complete(self) -> bool:
        """Mark what a preview and a Confirm need beyond each field being right; True when
        nothing is wrong."""

    def round_input(self) -> tuple[str, list[BoxInput]]:
        """The dealer's cards and the boxes, as the services take them."""

    def digest(self) -> str:
        """A fingerprint of the round as read, so a Confirm settles what was previewed."""

    def refuse(self, error: ServiceError) -> None:
        """Show a refusal of the services beside the field it names."""


@dataclass(frozen=True)
class Totals:
    """What the dealer pays out and collects for a round, and the house's result."""

    total_stake: Decimal
    paid: Decimal
    collected: Decimal
    commission: Decimal
    house_net: Decimal

    @classmethod
    def of(cls, result: RoundResult) -> Totals:
        bets = [bet for box in result.boxes for bet in box.bets]
        zero = Decimal(0)
        return cls(
            total_stake=sum((b.stake for b in bets), zero),
            paid=sum((b.net for b in bets if b.net > 0), zero),
            collected=sum((-b.net for b in bets if b.net < 0), zero),
            commission=sum((b.commission for b in bets), zero),
            house_net=result.house_net,
        )

    @property
    def players_net(self) -> Decimal:
        return -self.house_net


def screen_context(
    screen: selectors.Screen,
    entry: ConsoleEntry,
    *,
    preview: object | None = None,
    settled: Round | None = None,
    last: Round | None = None,
) -> dict[str, Any]:
    """What every game's round template is given; a game adds what its screen needs."""
    return {
        "session": screen.session,
        "table": screen.table,
        "venue": screen.venue,
        "tab": "round",
        "screen": screen,
        "entry": entry,
        "preview": preview,
        "settled": settled,
        "last_round": last,
    }


def box_of_field(field: str | None, boxes: list[BoxInput]) -> tuple[BoxInput | None, str]:
    """The box a service's field (``boxes[2].bets.single``) names, and the rest of it
    (``bets.single``); ``(None, field)`` for a field of the round."""
    if not field or not field.startswith("boxes["):
        return None, field or ""
    index, _sep, rest = field[len("boxes[") :].partition("]")
    if not index.isdecimal() or int(index) >= len(boxes):
        return None, field
    return boxes[int(index)], rest.lstrip(".")


def no_rules(request: HttpRequest, session: TableSession) -> HttpResponse:
    return refusal(
        request,
        409,
        _("Table %(table)s has no ruleset version in force: a manager must activate one.")
        % {"table": session.table.code},
    )


def screen_or_refusal(
    request: HttpRequest, session: TableSession
) -> selectors.Screen | HttpResponse:
    try:
        return selectors.screen_for(session=session)
    except NoRulesInForce:
        return no_rules(request, session)


def whole_screen(
    request: HttpRequest, session: TableSession, data: Mapping[str, str] | None = None
) -> HttpResponse:
    """The round screen: the form prefilled from ``data``, or from the last round."""
    if session.status != TableSession.Status.OPEN:
        return summary(request, session)
    screen = screen_or_refusal(request, session)
    if isinstance(screen, HttpResponse):
        return screen
    console = screen.console
    last = selectors.last_round(session=session)
    if data is None or not console.entry_in(data):
        data = console.data_from_round(last, screen)
    entry = console.read_entry(data, screen)
    return render(request, console.template, console.context(screen, entry, last=last))


def live_partial(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A live partial of the round screen, asked by htmx as the dealer types: a plain
    request gets the whole screen, a table without rules in force its refusal; the view is
    given the screen (``view(request, session, screen)``)."""

    @wraps(view)
    def wrapper(request: HttpRequest, session: TableSession, **kwargs: Any) -> HttpResponse:
        if not request.htmx:
            return whole_screen(request, session, request.GET)
        screen = screen_or_refusal(request, session)
        if isinstance(screen, HttpResponse):
            return screen
        return view(request, session, screen, **kwargs)

    return wrapper


def preview(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Evaluate and settle the round as typed, writing nothing; Confirm appears with it."""
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "preview")
    screen = screen_or_refusal(request, session)
    if isinstance(screen, HttpResponse):
        return screen
    console = screen.console
    entry = console.read_entry(request.POST, screen)
    # A mistake in a field or a refusal is a 422; a round not yet all typed is only not
    # ready (200): the dealer is still dealing.
    mistaken = entry.has_errors
    shown = None
    if entry.check_complete():
        dealer_cards, boxes = entry.round_input()
        try:
            result = selectors.settlement_preview(
                screen=screen, dealer_cards=dealer_cards, boxes=boxes
            )
        except ServiceError as error:
            entry.refuse(error)
            mistaken = True
        else:
            shown = console.preview_of(result, entry)
    # Every hand comes back with the preview (out of band), as the preview read it.
    context = {**console.context(screen, entry, preview=shown), "oob_entry": bool(request.htmx)}
    return page(request, console.template, "preview", context, status=422 if mistaken else 200)


def confirm(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Deal and settle the previewed round once (the form's key), then the next round's form
    with the same players and stakes. The entry is read once, no hand evaluated: the
    services evaluate the round once, as they record it."""
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "round")
    screen = screen_or_refusal(request, session)
    if isinstance(screen, HttpResponse):
        return screen
    console = screen.console
    entry = console.read_entry(request.POST, screen, evaluate=False)
    if entry.check_complete() and request.POST.get("digest") != entry.digest():
        entry.errors.append(console.stale_preview)
    if entry.has_errors:
        context = console.context(screen, entry)
        return page(request, console.template, "round", context, status=422)
    dealer_cards, boxes = entry.round_input()
    try:
        settled, _result = round_confirm(
            session=session,
            user=request.user,
            dealer_cards=dealer_cards,
            boxes=boxes,
            key=entry.key,
        )
    except ServiceError as error:
        entry.refuse(error)
        context = console.context(screen, entry)
        return page(request, console.template, "round", context, status=422)
    if not request.htmx:
        return HttpResponseRedirect(reverse("console:round", args=[session.pk]), status=303)
    last = selectors.last_round(session=session)
    following = console.read_entry(console.data_from_round(last, screen), screen)
    context: dict[str, Any] = console.context(screen, following, settled=settled, last=last)
    response = render(request, f"{console.template}#round", context)
    return trigger_client_event(
        response,
        "console:settled",
        {"round": settled.number, "house_net": plain(settled.house_net)},
    )
