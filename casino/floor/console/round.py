"""The round screen's flow, the same for every game: the whole screen, the preview and the
Confirm. The game's screen (``games.get(table.game).console``) reads the dealer's entry,
lays out its preview and renders its template; this module does the rest.

- the whole screen (GET ``sessions/<id>/``): the form prefilled from the query, or with the
  last round's players and stakes (``console.data_from_round``);
The preview and the Confirm are the floor's own views (``console:preview`` and
``console:confirm`` at ``sessions/<id>/preview/`` and ``confirm/``), for every game that deals
rounds: the table says which game's screen reads the entry.

- the preview (POST): the entry read, then evaluated by the game under the rules on the
  screen, writing nothing; the totals and the Confirm button come with it;
- the Confirm (POST): the entry read once, without evaluating a hand; refused when it is
  not what the preview showed (its digest) or the rules in force are no longer the
  version it was previewed under, else ``services.round_confirm`` deals and settles it
  once per the form's idempotency key, under that version; then the next round's form,
  drawn from the round the service wrote (not read back).
  The preview carries the number the round takes (``ROUND_PREVIEWED``, the table's state
  it was made in): when another terminal recorded a round at the table since, the
  services refuse the Confirm with the reason and the dealer previews again.

The screen says which ruleset version is in force ("Rules: vn-kr-004 v3",
``console/_rules.html``) and, when it is not the version the dealer last saw (the one the
screen was opened or last confirmed with, which the form carries, or the last round's), that
a new version takes effect at this round; the preview brings the line up to date.

A refusal of the floor or the game comes back as the service says it, in the venue's
language, beside the field it names (``ConsoleEntry.refuse``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import wraps
from typing import Any, Protocol

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import trigger_client_event

from casino import games
from casino.floor.console import selectors
from casino.floor.console.access import closed, page, refusal, with_session
from casino.floor.console.closing import summary
from casino.floor.console.services import round_confirm
from casino.floor.models import Round, TableSession
from casino.floor.rules import NoRulesInForce
from casino.games import BoxInput, RoundResult
from casino.kernel.errors import ServiceError
from casino.kernel.money import plain


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
        **rules_context(screen),
    }


#: The version the dealer last saw, and the version a preview was evaluated under.
RULES_SEEN, RULES_PREVIEWED = "rules_seen", "rules_version"
#: The number the previewed round takes: the session's next round when it was previewed.
ROUND_PREVIEWED = "round_number"


def rules_context(screen: selectors.Screen, seen: object = None) -> dict[str, Any]:
    """The version in force on ``screen`` and whether it is new to the dealer: not ``seen``
    (a version's id: the one the form was drawn with, or the last round's)."""
    version = screen.version
    seen_id = str(seen) if seen else str(version.pk)
    return {
        "rules_version": version,
        "rules_seen": seen_id,
        "rules_changed": seen_id != str(version.pk),
    }


def with_rules(request: HttpRequest, response: HttpResponse, rules: dict[str, Any]) -> HttpResponse:
    """An htmx partial with the rules line brought up to date (out of band) when the version
    in force is not the one the dealer saw: otherwise the line on the page is already it."""
    if request.htmx and rules["rules_changed"]:
        oob = render_to_string("console/_rules.html", {**rules, "rules_oob": True}, request)
        response.content += oob.encode()
    return response


def rules_moved(screen: selectors.Screen) -> str:
    version = screen.version
    return _(
        "The rules changed after the preview: %(code)s v%(number)s is now in force. Preview "
        "again (Enter) to see the payouts under it, then confirm."
    ) % {"code": version.ruleset.code, "number": version.number}


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
    rules = rules_context(screen, last.ruleset_version_id if last else None)
    context = {**console.context(screen, entry, last=last), **rules}
    return render(request, console.template, context)


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


def dealt_here(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A write of the round screen (POST, the dealer's): a session whose game deals no
    rounds on the system has no such page (404)."""

    @require_POST
    @with_session
    @wraps(view)
    def wrapper(request: HttpRequest, session: TableSession) -> HttpResponse:
        if not games.get(session.table.game).settles_rounds:
            raise Http404("this game deals no rounds on the system")
        return view(request, session)

    return wrapper


@dealt_here
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
    rules = rules_context(screen, request.POST.get(RULES_SEEN))
    context = {
        **console.context(screen, entry, preview=shown),
        **rules,
        "oob_entry": bool(request.htmx),
    }
    response = page(request, console.template, "preview", context, status=422 if mistaken else 200)
    return with_rules(request, response, rules)


@dealt_here
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
    rules = rules_context(screen, request.POST.get(RULES_SEEN))
    previewed = request.POST.get(RULES_PREVIEWED, "")
    if entry.check_complete() and request.POST.get("digest") != entry.digest():
        entry.errors.append(console.stale_preview)
    elif previewed and previewed != str(screen.version.pk):
        entry.errors.append(rules_moved(screen))
    if entry.has_errors:
        context = {**console.context(screen, entry), **rules}
        return page(request, console.template, "round", context, status=422)
    dealer_cards, boxes = entry.round_input()
    number = request.POST.get(ROUND_PREVIEWED, "")
    try:
        written = round_confirm(
            session=session,
            user=request.user,
            dealer_cards=dealer_cards,
            boxes=boxes,
            key=entry.key,
            version_id=int(previewed) if previewed.isdecimal() else None,
            expected_number=int(number) if number.isdecimal() else None,
        )
    except ServiceError as error:
        entry.refuse(error)
        context = {**console.context(screen, entry), **rules}
        return page(request, console.template, "round", context, status=422)
    if not request.htmx:
        return HttpResponseRedirect(reverse("console:round", args=[session.pk]), status=303)
    settled = written.round
    last = selectors.round_in_hand(
        session=session, round_=settled, boxes=written.boxes, bets=written.bets
    )
    following = console.read_entry(console.data_from_round(last, screen), screen)
    context: dict[str, Any] = {
        **console.context(screen, following, settled=settled, last=last),
        **rules_context(screen, settled.ruleset_version_id),
    }
    response = render(request, f"{console.template}#round", context)
    return trigger_client_event(
        response,
        "console:settled",
        {"round": settled.number, "house_net": plain(settled.house_net)},
    )
