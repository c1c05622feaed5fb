"""The dealer's console: my tables -> open a session -> the round screen.

Each page is one template; when htmx asks (``request.htmx``) a view renders only the named
partial of that template that the request replaces (``"console/round.html#preview"``), and
the same URL without htmx answers the whole page. Views parse the request, call one
service or selector and render; they never write on their own.

Every POST carries the CSRF token (``hx-headers`` on ``<body>``, a hidden field in plain
forms) and is idempotent: a round's form carries its idempotency key, a slip form the slip
count it was drawn with, and opening, closing and voiding are refused by the services once
done, which the views answer by showing what was done. Status codes: 422 for a form with
mistakes and 409 for a closed session (htmx is configured in ``base.html`` to swap both),
404 for another venue's table or session, 403 for a user without the dealer's role.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, trigger_client_event

from casino import selectors as floor_selectors
from casino.cards import RANKS, SUITS, Card
from casino.console import forms, selectors
from casino.console.labels import format_money
from casino.console.services import round_confirm, slip_request_once
from casino.errors import Conflict, Forbidden, ServiceError
from casino.games import BetResult, RoundResult
from casino.models import Player, Round, RoundStatus, Slip, Table, TableSession
from casino.money import plain
from casino.roles import PLAY, SUPERVISE, can
from casino.services.rounds import round_void
from casino.services.sessions import drop_reverse, session_close, session_open
from casino.throttling import refusal_message

ROUND_PAGE = "console/round.html"
PICKER_ROWS = tuple(tuple(Card(rank, suit) for rank in RANKS) for suit in SUITS)

View = Callable[..., HttpResponse]
#: The games the console deals: Niu Niu's round screen here, Mau Binh's in ``maubinh.py``.
CONSOLE_GAMES = selectors.CONSOLE_GAMES | {"maubinh"}


# Access, language, rendering


def use_venue_language(request: HttpRequest, language: str) -> None:
    """Speak the venue's language unless the user picked one (Django's language cookie)."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if (chosen and translation.check_for_language(chosen)) or not language:
        return
    translation.activate(language)
    request.LANGUAGE_CODE = translation.get_language()


def login_needed(request: HttpRequest) -> HttpResponse:
    """To the login page; htmx is told to load it as a page rather than swap it in."""
    if request.htmx:  # back to the page the partial was on, not to the partial
        page_path = request.htmx.current_url_abs_path or request.path
        return HttpResponseClientRedirect(f"{settings.LOGIN_URL}?{urlencode({'next': page_path})}")
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


def with_session(view: View) -> View:
    """Resolve ``session_id`` to a session at the user's venues (404 otherwise), speak
    its venue's language, and require the dealer's role there (403 otherwise)."""

    @console_login_required
    @wraps(view)
    def wrapper(request: HttpRequest, session_id: int, **kwargs: Any) -> HttpResponse:
        session = selectors.session_for(user=request.user, pk=session_id)
        if session is None or session.table.game not in CONSOLE_GAMES:
            raise Http404("no such session at your venues")
        use_venue_language(request, session.table.venue.language)
        if not can(request.user, PLAY, session.table.venue_id):
            return forbidden(request)
        return view(request, session, **kwargs)

    return wrapper


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
    if session.table.game != "niuniu":  # Mau Binh's screen has its own views
        raise Http404("not a Niu Niu table")
    try:
        return selectors.screen_for(session=session)
    except selectors.NoRulesInForce:
        return no_rules(request, session)


def session_context(session: TableSession, tab: str) -> dict[str, Any]:
    table = session.table
    return {"session": session, "table": table, "venue": table.venue, "tab": tab}


# My tables


@require_GET
@console_login_required
def home(request: HttpRequest) -> HttpResponse:
    groups = selectors.tables_for(user=request.user)
    for group in groups:
        for table in group.tables:
            table.in_console = table.game in CONSOLE_GAMES
    languages = {group.venue.language for group in groups}
    if len(languages) == 1:
        use_venue_language(request, languages.pop())
    return render(request, "console/home.html", {"groups": groups})


@require_http_methods(["GET", "POST"])
@console_login_required
def table_open(request: HttpRequest, table_id: int) -> HttpResponse:
    table = selectors.table_for(user=request.user, pk=table_id)
    if table is None or table.game not in CONSOLE_GAMES:
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
        chips, errors = forms.read_chips(request.POST, table.chip_denominations)
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


# The round screen


@dataclass(frozen=True)
class PreviewBet:
    bet_type: str
    stake: Decimal
    deposit_required: Decimal
    outcome: str
    odds: Decimal
    gross: Decimal
    commission: Decimal
    net: Decimal
    #: What a lost bet takes beyond its stake, out of the deposit the player showed.
    from_deposit: Decimal


@dataclass(frozen=True)
class PreviewBox:
    position: int
    player: Player | None
    cards: str
    evaluation: dict[str, Any]
    bets: tuple[PreviewBet, ...]
    net: Decimal


@dataclass(frozen=True)
class Preview:
    """A settlement as the dealer pays it: boxes in payment order, the table's totals."""

    dealer_cards: str
    dealer_evaluation: dict[str, Any] | None
    boxes: tuple[PreviewBox, ...]
    deal_order: tuple[int, ...]
    payment_order: tuple[int, ...]
    total_stake: Decimal
    paid: Decimal
    collected: Decimal
    commission: Decimal
    from_deposit: Decimal
    house_net: Decimal
    digest: str = ""

    @property
    def players_net(self) -> Decimal:
        return -self.house_net


def _preview_bet(bet: BetResult) -> PreviewBet:
    return PreviewBet(
        bet_type=bet.bet_type,
        stake=bet.stake,
        deposit_required=bet.deposit_required,
        outcome=bet.outcome,
        odds=bet.odds,
        gross=bet.gross,
        commission=bet.commission,
        net=bet.net,
        from_deposit=max(-bet.net - bet.stake, Decimal(0)),
    )


def preview_of(
    result: RoundResult, players: Mapping[int, Player | None], digest: str = ""
) -> Preview:
    by_position = {box.position: box for box in result.boxes}
    boxes = tuple(
        PreviewBox(
            position=position,
            player=players.get(position),
            cards=by_position[position].cards,
            evaluation=by_position[position].evaluation,
            bets=tuple(_preview_bet(bet) for bet in by_position[position].bets),
            net=by_position[position].net,
        )
        for position in result.payment_order
    )
    bets = [bet for box in boxes for bet in box.bets]
    zero = Decimal(0)
    return Preview(
        dealer_cards=result.dealer_cards,
        dealer_evaluation=result.dealer_evaluation,
        boxes=boxes,
        deal_order=tuple(result.deal_order),
        payment_order=tuple(result.payment_order),
        total_stake=sum((b.stake for b in bets), zero),
        paid=sum((b.net for b in bets if b.net > 0), zero),
        collected=sum((-b.net for b in bets if b.net < 0), zero),
        commission=sum((b.commission for b in bets), zero),
        from_deposit=sum((b.from_deposit for b in bets), zero),
        house_net=result.house_net,
        digest=digest,
    )


def read_entry(data: Mapping[str, str], screen: selectors.Screen) -> forms.RoundEntry:
    players = selectors.players_by_number(
        venue=screen.venue, numbers=forms.member_numbers(data, screen)
    )
    return forms.read_round(data, screen, players)


def round_context(
    screen: selectors.Screen,
    entry: forms.RoundEntry,
    *,
    preview: Preview | None = None,
    settled: Round | None = None,
    last: Round | None = None,
) -> dict[str, Any]:
    return {
        **session_context(screen.session, "round"),
        "screen": screen,
        "entry": entry,
        "preview": preview,
        "settled": settled,
        "last_round": last,
        "picker_rows": PICKER_ROWS,
        "used": entry.used_cards,
    }


def round_fields_in(data: Mapping[str, str]) -> bool:
    return any(name.startswith(("box-", "dealer-")) for name in data)


def whole_screen(
    request: HttpRequest, session: TableSession, data: Mapping[str, str] | None = None
) -> HttpResponse:
    """The round screen: the form prefilled from ``data``, or from the last round."""
    if session.status != TableSession.Status.OPEN:
        return summary(request, session)
    screen = screen_or_refusal(request, session)
    if isinstance(screen, HttpResponse):
        return screen
    last = selectors.last_round(session=session)
    if data is None or not round_fields_in(data):
        data = forms.data_from_round(last, screen)
    entry = read_entry(data, screen)
    return render(request, ROUND_PAGE, round_context(screen, entry, last=last))


@require_GET
@with_session
def round_screen(request: HttpRequest, session: TableSession) -> HttpResponse:
    if session.table.game == "maubinh":
        from casino.console import maubinh

        return maubinh.screen(request, session)
    return whole_screen(request, session, request.GET)


def box_of(request: HttpRequest, positions: tuple[int, ...]) -> int | None:
    """The ``box`` query parameter: a position of the table, or None for the dealer."""
    box = request.GET.get("box", "")
    if box == "dealer":
        return None
    if box.isdecimal() and int(box) in positions:
        return int(box)
    raise Http404("no such box at this table")


@require_GET
@with_session
def hand(request: HttpRequest, session: TableSession) -> HttpResponse:
    """One hand's cards read and, with five, evaluated (the live partial of a card field)."""
    if not request.htmx:
        return whole_screen(request, session, request.GET)
    if session.table.game != "niuniu":
        raise Http404("not a Niu Niu table")
    try:
        rules = selectors.rules_for(session=session)
    except selectors.NoRulesInForce:
        return no_rules(request, session)
    positions = tuple(range(1, session.table.seats + 1))
    position = box_of(request, positions)
    hands = [forms.read_hand(p, request.GET.get(forms.cards_field(p), "")) for p in positions]
    hands.append(forms.read_hand(None, request.GET.get(forms.DEALER_CARDS, "")))
    forms.check_distinct(hands)
    wanted = next(h for h in hands if h.position == position)
    forms.evaluate_hand(wanted, rules)
    return render(request, f"{ROUND_PAGE}#hand", {"hand": wanted, "venue": session.table.venue})


@require_GET
@with_session
def stakes(request: HttpRequest, session: TableSession) -> HttpResponse:
    """One box's stakes checked against the table (limits, deposits) and the deal order."""
    if not request.htmx:
        return whole_screen(request, session, request.GET)
    screen = screen_or_refusal(request, session)
    if isinstance(screen, HttpResponse):
        return screen
    position = box_of(request, screen.positions)
    entry = forms.read_round(request.GET, screen, players={})
    box = next(b for b in entry.boxes if b.position == position)
    context = {"box": box, "entry": entry, "venue": screen.venue, "oob": True}
    return render(request, f"{ROUND_PAGE}#stakes", context)


@require_GET
@with_session
def player(request: HttpRequest, session: TableSession) -> HttpResponse:
    """The player of a membership number, or why there is none (live, as it is typed)."""
    if not request.htmx:
        return whole_screen(request, session, request.GET)
    screen = screen_or_refusal(request, session)
    if isinstance(screen, HttpResponse):
        return screen
    position = box_of(request, screen.positions)
    if position is None:
        raise Http404("the dealer has no player")
    member = (request.GET.get(forms.member_field(position)) or "").strip()
    players = selectors.players_by_number(venue=screen.venue, numbers=[member])
    box = forms.BoxEntry(
        position=position, member=member, stakes=[], hand=forms.read_hand(position, "")
    )
    box.player, box.player_error = forms.read_player(member, players)
    return render(request, f"{ROUND_PAGE}#player", {"box": box})


def closed(request: HttpRequest, session: TableSession, partial: str) -> HttpResponse:
    context = {
        **session_context(session, "round"),
        "closed_message": _("This session is closed; open the table again to play."),
    }
    return page(request, "console/closed.html", partial, context, status=409)


@require_POST
@with_session
def preview(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Evaluate and settle the round as typed, writing nothing; Confirm appears with it."""
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "preview")
    screen = screen_or_refusal(request, session)
    if isinstance(screen, HttpResponse):
        return screen
    entry = read_entry(request.POST, screen)
    shown = None
    if entry.check_complete():
        try:
            result = selectors.settlement_preview(
                screen=screen, dealer_cards=entry.dealer.canonical, boxes=entry.box_inputs()
            )
        except ServiceError as error:
            entry.errors.append(error.message)
        else:
            players = {box.position: box.player for box in entry.playing}
            shown = preview_of(result, players, entry.digest())
    # Every hand comes back with the preview (out of band), evaluated as the preview saw it.
    context = {**round_context(screen, entry, preview=shown), "oob_hands": bool(request.htmx)}
    return page(request, ROUND_PAGE, "preview", context, status=200 if shown else 422)


@require_POST
@with_session
def confirm(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Deal and settle the previewed round once (the form's key), then the next round's form
    with the same players and stakes."""
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "round")
    screen = screen_or_refusal(request, session)
    if isinstance(screen, HttpResponse):
        return screen
    entry = read_entry(request.POST, screen)
    if entry.check_complete() and request.POST.get("digest") != entry.digest():
        entry.errors.append(
            _("The round changed after its preview: preview it again (Enter), then confirm.")
        )
    if entry.has_errors:
        return page(request, ROUND_PAGE, "round", round_context(screen, entry), status=422)
    try:
        settled, _result = round_confirm(
            session=session,
            user=request.user,
            dealer_cards=entry.dealer.canonical,
            boxes=entry.box_inputs(),
            key=entry.key,
        )
    except ServiceError as error:
        entry.errors.append(error.message)
        return page(request, ROUND_PAGE, "round", round_context(screen, entry), status=422)
    if not request.htmx:
        return HttpResponseRedirect(reverse("console:round", args=[session.pk]), status=303)
    last = selectors.last_round(session=session)
    following = forms.read_round(forms.data_from_round(last, screen), screen, _players_of(last))
    context = round_context(screen, following, settled=settled, last=last)
    response = render(request, f"{ROUND_PAGE}#round", context)
    return trigger_client_event(
        response,
        "console:settled",
        {"round": settled.number, "house_net": plain(settled.house_net)},
    )


def _players_of(round_: Round | None) -> dict[str, Player]:
    if round_ is None:
        return {}
    return {
        box.player.membership_number: box.player
        for box in round_.boxes.all()
        if box.player is not None
    }


# History and voids


def history_context(session: TableSession, **extra: Any) -> dict[str, Any]:
    return {
        **session_context(session, "history"),
        "rounds": selectors.session_rounds(session=session),
        "void_errors": {},
        "opened": None,
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
    }
    return render(request, "console/history.html#round-detail", context)


def _void_refusal(error: ServiceError, supervisor: Any, request: HttpRequest, venue_id: int) -> str:
    if isinstance(error, Forbidden):
        if not can(supervisor, SUPERVISE, venue_id):
            return _("%(user)s is not a supervisor at this venue and cannot approve a void.") % {
                "user": supervisor.get_username()
            }
        if supervisor.pk == request.user.pk:
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
        supervisor, error = _signed_by(
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
                error = _void_refusal(refused, supervisor, request, session.table.venue_id)
    context = history_context(
        session,
        opened=round_.pk if error else None,
        void_errors={round_.pk: error} if error else {},
        void_reason=reason,
    )
    return page(request, "console/history.html", "history", context, status=422 if error else 200)


# Fills and credits


def slips_context(session: TableSession, **extra: Any) -> dict[str, Any]:
    slips = selectors.session_slips(session=session)
    return {
        **session_context(session, "slips"),
        "slips": slips,
        "seen": len(slips),
        "denominations": session.table.chip_denominations,
        "kinds": Slip.Kind.choices,
        "errors": {},
        "data": {},
        "message": "",
        "notice": "",
        **extra,
    }


@require_http_methods(["GET", "POST"])
@with_session
def slips(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Fill and credit requests of the session and their status; the dealer requests."""
    if request.method == "GET":
        partial = "slip-list" if request.GET.get("list") else "slips"
        return page(request, "console/slips.html", partial, slips_context(session))
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "slips")
    kind = request.POST.get("kind", "")
    chips, errors = forms.read_chips(request.POST, session.table.chip_denominations)
    seen = request.POST.get("seen", "")
    message = notice = ""
    if kind not in Slip.Kind.values:
        message = _("Choose a fill or a credit.")
    elif not errors and not chips:
        message = _("Count at least one chip.")
    elif not seen.isdecimal():
        message = _("The form is out of date; here it is again.")
    if errors or message:
        context = slips_context(session, errors=errors, data=request.POST, message=message)
        return page(request, "console/slips.html", "slips", context, status=422)
    try:
        slip = slip_request_once(
            session=session, user=request.user, kind=kind, chips=chips, seen=int(seen)
        )
    except ServiceError as error:
        context = slips_context(session, data=request.POST, message=error.message)
        return page(request, "console/slips.html", "slips", context, status=422)
    if slip is None:
        notice = _("That request was already sent; here is the list.")
    else:
        notice = _("%(kind)s %(number)s requested for %(amount)s.") % {
            "kind": slip.get_kind_display(),
            "number": slip.number,
            "amount": format_money(slip.amount, session.table.venue.currency),
        }
    return page(request, "console/slips.html", "slips", slips_context(session, notice=notice))


# Closing


def summary(request: HttpRequest, session: TableSession) -> HttpResponse:
    """A closed session: its count, the settled win and the variance between them."""
    context = {
        **session_context(session, "close"),
        "state": selectors.session_state(session=session),
    }
    return render(request, "console/summary.html", context)


@require_http_methods(["GET", "POST"])
@with_session
def close(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Close the table with the closing count; a supervisor signs with their credentials."""
    done = reverse("console:round", args=[session.pk])
    if session.status != TableSession.Status.OPEN:
        if request.method == "POST":  # closed already (a repeat of this form)
            return _go(request, done)
        return summary(request, session)
    state = selectors.session_state(session=session)
    errors: dict[str, str] = {}
    message = ""
    if request.method == "POST":
        chips, errors = forms.read_chips(request.POST, session.table.chip_denominations)
        try:
            drop = forms.read_amount(request.POST.get("drop") or "")
        except ValueError as error:
            errors["drop"] = str(error)
            drop = None
        credentials = forms.read_credentials(request.POST)
        if state.unsettled:
            message = _("Round %(numbers)s is not settled: void it in the history first.") % {
                "numbers": ", ".join(str(n) for n in state.unsettled)
            }
        elif state.pending_slips:
            message = _(
                "Slip %(numbers)s is not verified: a supervisor verifies or voids it first."
            ) % {"numbers": ", ".join(str(n) for n in state.pending_slips)}
        elif not errors and not credentials.given:
            message = _("A supervisor enters their username and password to close the table.")
        elif not errors:
            supervisor, message = _signed_by(
                request, credentials, _("Wrong username or password: the table is still open.")
            )
            if supervisor is not None:
                try:
                    session_close(session=session, user=supervisor, closing_chips=chips, drop=drop)
                except Forbidden:
                    message = _(
                        "%(user)s is not a supervisor at this venue and cannot close the table."
                    ) % {"user": supervisor.get_username()}
                except Conflict as error:
                    session.refresh_from_db(fields=["status"])
                    if session.status != TableSession.Status.OPEN:
                        return _go(request, done)  # closed meanwhile
                    message = error.message
                except ServiceError as error:
                    message = error.message
                else:
                    return _go(request, done)
    context = close_context(session, state=state, data=request.POST, errors=errors, message=message)
    status = 422 if errors or message else 200
    return page(request, "console/close.html", "close", context, status=status)


def close_context(
    session: TableSession, state: selectors.SessionState | None = None, **extra: Any
) -> dict[str, Any]:
    """The close page: the figures so far, the drops entered (each with its reversal form
    until it is reversed) and the closing count's form."""
    drops = list(floor_selectors.session_drops(session=session))
    return {
        **session_context(session, "close"),
        "state": state or selectors.session_state(session=session),
        "denominations": session.table.chip_denominations,
        "drops": drops,
        "reversed": {drop.reverses_id for drop in drops if drop.reverses_id},
        "data": {},
        "errors": {},
        "message": "",
        "drop_errors": {},
        "drop_notice": "",
        "drop_reason": "",
        **extra,
    }


@require_POST
@with_session
def drop_reversal(request: HttpRequest, session: TableSession, drop_id: int) -> HttpResponse:
    """Reverse a drop entered by mistake: a supervisor signs with their own username and
    password and says why. Wrong credentials reverse nothing; a repeat shows it done."""
    drop = floor_selectors.session_drop_get(session=session, pk=drop_id)
    if drop is None:
        raise Http404("no such drop in this session")
    if session.status != TableSession.Status.OPEN:
        return _go(request, reverse("console:close", args=[session.pk]))
    reason = (request.POST.get("reason") or "").strip()
    credentials = forms.read_credentials(request.POST)
    error = notice = ""
    if drop.reverses_id or hasattr(drop, "reversed_by"):
        pass  # reversed already (a repeat of this form): show it
    elif not reason:
        error = _("Say why the drop is reversed.")
    elif not credentials.given:
        error = _("A supervisor enters their username and password to approve.")
    else:
        supervisor, error = _signed_by(
            request, credentials, _("Wrong username or password: nothing was reversed.")
        )
        if supervisor is not None:
            try:
                drop_reverse(drop=drop, user=supervisor, reason=reason)
            except Forbidden:
                error = _(
                    "%(user)s is not a supervisor at this venue and cannot reverse a drop."
                ) % {"user": supervisor.get_username()}
            except ServiceError as refused:
                error = refused.message
            else:
                notice = _("Drop %(number)s of %(amount)s reversed.") % {
                    "number": drop.pk,
                    "amount": format_money(drop.amount, session.table.venue.currency),
                }
    context = close_context(
        session,
        drop_errors={drop.pk: error} if error else {},
        drop_notice=notice,
        drop_reason=reason,
    )
    return page(request, "console/close.html", "close", context, status=422 if error else 200)


def _signed_by(request: HttpRequest, credentials: forms.Credentials, wrong: str) -> tuple[Any, str]:
    """The supervisor signing with their own username and password, or why nobody does:
    ``wrong``, or the lockout's own message when it refused them (the right password would
    not help then)."""
    supervisor = authenticate(request, username=credentials.username, password=credentials.password)
    if supervisor is None:
        return None, refusal_message(request) or wrong
    return supervisor, ""


def _go(request: HttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url, status=303)


# Language


@require_POST
def language_of_venue(request: HttpRequest) -> HttpResponse:
    """Forget the language the user picked, so each venue's own is spoken again."""
    target = request.POST.get("next") or reverse("console:home")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = reverse("console:home")
    response = HttpResponseRedirect(target, status=303)
    response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
    return response
