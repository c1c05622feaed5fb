"""The Mau Binh round screen: 2 to 4 seats, each laying out 13 cards as back / middle / front.

The screen is one template (``console/maubinh_round.html``) with partials, like Niu Niu's:

- ``seat_eval`` (GET ``maubinh/seat/?seat=N``): one seat's rows described as they are typed,
  a live foul warning, an instant-win badge, and what is wrong (a bad card, a row too long, a
  card already in another seat);
- ``seat`` (POST ``maubinh/arrange/?seat=N``): the seat's 13 cards, typed in any row, laid
  out by ``maubinh.engine.suggest_arrangement`` (never fouled, the instant win if any);
- ``preview`` (POST ``maubinh/preview/``): the pairwise matrix (chi each seat wins from each
  other, scoops marked), the fees and the totals, and the Confirm button;
- ``round`` (POST ``maubinh/confirm/``): the round dealt and settled once per the form's
  idempotency key (``services.round_confirm``, which is game-agnostic), then the next round's
  form with the same stake.

A mistake is answered inline (422), never with a 500. The seats play for one table stake.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from casino.cards import Card, format_cards, parse_card, parse_cards
from casino.console import forms, selectors
from casino.console.labels import format_money, foul_label, instant_win_label, row_label
from casino.console.services import round_confirm
from casino.console.views import closed, no_rules, page, session_context, summary, with_session
from casino.errors import ServiceError
from casino.games import BoxInput, RoundResult
from casino.models import Player, Round, TableLimit, TableSession
from casino.money import plain
from maubinh import engine
from maubinh.adapter import BET_TYPE, HAND_SIZE, parse_seat
from maubinh.engine import ROWS, Arrangement, Row, check_arrangement, evaluate_row

#: The rows' names as the engine spells them, shown with ``_()``: marked here for the
#: translators.
ROW_NAMES = (gettext_noop("back"), gettext_noop("middle"), gettext_noop("front"))

PAGE = "console/maubinh_round.html"
GAME = "maubinh"
STAKE_FIELD = "stake"
_SEPARATORS = re.compile(r"[\s,;/]+")


def row_field(position: int, row: Row | str) -> str:
    return f"seat-{position}-{row}"


def quit_field(position: int) -> str:
    return f"seat-{position}-quit"


def member_field(position: int) -> str:
    return f"seat-{position}-member"


# Reading the form


@dataclass
class RowEntry:
    position: int
    row: Row
    text: str
    cards: tuple[Card, ...] = ()
    error: str = ""
    label: str = ""  # the row's hand, once it has its cards

    @property
    def name(self) -> str:
        return row_field(self.position, self.row)

    @property
    def complete(self) -> bool:
        return not self.error and len(self.cards) == self.row.size


def read_row(position: int, row: Row, text: str, rules: Any) -> RowEntry:
    entry = RowEntry(position=position, row=row, text=text or "")
    cards: list[Card] = []
    for token in _SEPARATORS.split(entry.text.strip()):
        if not token:
            continue
        try:
            card = parse_card(token)
        except ValueError:
            entry.error = _(
                "“%(token)s” is not a card: rank A 2-10 J Q K, suit S H C D or ♠ ♥ ♣ ♦"
            ) % {"token": token}
            break
        if card in cards:
            entry.error = _("%(card)s is in this row twice") % {"card": card.symbol_text}
            break
        cards.append(card)
    entry.cards = tuple(cards)
    if not entry.error and len(cards) > row.size:
        entry.error = _("The %(row)s row takes %(size)s cards; it has %(count)s") % {
            "row": _(row.value),
            "size": row.size,
            "count": len(cards),
        }
    if entry.complete:
        try:
            entry.label = row_label(evaluate_row(entry.cards, rules))
        except ValueError as error:  # pragma: no cover - the size and cards are checked
            entry.error = str(error)
    return entry


@dataclass
class SeatEntry:
    position: int
    rows: list[RowEntry]
    quit: bool = False
    error: str = ""
    arrangement: Arrangement | None = None
    instant_chi: int = 0
    member: str = ""  # the membership number typed; blank: an anonymous player
    player: Player | None = None
    player_error: str = ""

    @property
    def dom_id(self) -> str:
        return f"seat-{self.position}"

    @property
    def quit_name(self) -> str:
        return quit_field(self.position)

    @property
    def member_name(self) -> str:
        return member_field(self.position)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for row in self.rows for card in row.cards)

    @property
    def count(self) -> int:
        return len(self.cards)

    @property
    def in_play(self) -> bool:
        return self.quit or any(row.text.strip() for row in self.rows)

    @property
    def row_errors(self) -> list[str]:
        return [row.error for row in self.rows if row.error]

    @property
    def has_errors(self) -> bool:
        return bool(self.error or self.player_error or self.row_errors)

    @property
    def canonical(self) -> str:
        """The seat's cards as the adapter takes them: ``"back / middle / front"``."""
        if self.arrangement is None:
            return ""
        return " / ".join(format_cards(row) for row in self.arrangement.rows)

    @property
    def fouled(self) -> bool:
        return self.arrangement is not None and self.arrangement.fouled and not self.quit

    @property
    def foul_reason(self) -> str:
        return foul_label(self.arrangement) if self.fouled else ""

    @property
    def instant_win(self) -> str:
        if self.quit or self.arrangement is None or self.arrangement.instant_win is None:
            return ""
        return instant_win_label(self.arrangement.instant_win)


@dataclass
class MauBinhEntry:
    key: str
    stake_text: str
    seats: list[SeatEntry]
    stake: Decimal | None = None
    stake_error: str = ""
    errors: list[str] = field(default_factory=list)

    @property
    def playing(self) -> list[SeatEntry]:
        return [seat for seat in self.seats if seat.in_play]

    @property
    def has_errors(self) -> bool:
        return bool(self.errors or self.stake_error or any(s.has_errors for s in self.seats))

    @property
    def all_errors(self) -> list[str]:
        found = list(self.errors)
        if self.stake_error:
            found.append(_("Stake: %(error)s") % {"error": self.stake_error})
        for seat in self.seats:
            where = _("Seat %(number)s") % {"number": seat.position}
            messages = [seat.player_error, seat.error, *seat.row_errors]
            found += [f"{where}: {message}" for message in messages if message]
        return found

    def check_complete(self, rules: Any) -> bool:
        playing = self.playing
        if not self.stake_error and self.stake is None:
            self.stake_error = _("Enter the table stake")
        if not engine.MIN_PLAYERS <= len(playing) <= engine.MAX_PLAYERS:
            self.errors.append(
                _("Mau Binh takes %(low)s to %(high)s players; %(count)s seats are in play")
                % {"low": engine.MIN_PLAYERS, "high": engine.MAX_PLAYERS, "count": len(playing)}
            )
        for seat in playing:
            if seat.quit or seat.has_errors or seat.arrangement is not None:
                continue
            typed = " / ".join(format_cards(row.cards) for row in seat.rows)
            try:
                parse_seat(typed)
            except ValueError as error:
                seat.error = str(error)
            else:  # pragma: no cover - 13 good cards in rows of 5, 5, 3 are arranged
                seat.error = _("Enter the seat's 13 cards")
        return not self.has_errors

    def box_inputs(self) -> list[BoxInput]:
        return [
            BoxInput(
                position=seat.position,
                cards=seat.canonical,
                stakes={BET_TYPE: self.stake} if self.stake is not None else {},
                quit=seat.quit,
                player_id=seat.player.pk if seat.player else None,
            )
            for seat in self.playing
        ]

    def digest(self) -> str:
        content = [
            str(self.stake.normalize()) if self.stake is not None else "",
            [
                [seat.position, seat.quit, seat.canonical, seat.player.pk if seat.player else None]
                for seat in self.playing
            ],
        ]
        return hashlib.sha256(json.dumps(content).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Screen:
    session: TableSession
    rules: Any
    limits: tuple[Decimal, Decimal] | None
    positions: tuple[int, ...]

    @property
    def venue(self) -> Any:
        return self.session.table.venue


def screen_for(session: TableSession) -> Screen:
    table = session.table
    limit = TableLimit.objects.filter(table=table, bet_type=BET_TYPE).first()
    return Screen(
        session=session,
        rules=selectors.rules_for(session=session),
        limits=(limit.min_stake, limit.max_stake) if limit else None,
        positions=tuple(range(1, min(table.seats, engine.MAX_PLAYERS) + 1)),
    )


def read_stake(text: str, screen: Screen) -> tuple[Decimal | None, str]:
    try:
        amount = forms.read_amount(text)
    except ValueError as error:
        return None, str(error)
    if amount is None:
        return None, ""
    currency = screen.venue.currency
    unit = screen.rules.rounding_unit
    if amount <= 0:
        return None, _("A stake must be more than 0")
    if amount % unit:
        return None, _("Stakes go in steps of %(unit)s") % {"unit": format_money(unit, currency)}
    if screen.limits:
        low, high = screen.limits
        if amount < low:
            return None, _("Below the table minimum of %(min)s") % {
                "min": format_money(low, currency)
            }
        if amount > high:
            return None, _("Above the table maximum of %(max)s") % {
                "max": format_money(high, currency)
            }
    return amount, ""


def read_seat(data: Mapping[str, str], position: int, rules: Any) -> SeatEntry:
    return SeatEntry(
        position=position,
        rows=[
            read_row(position, row, data.get(row_field(position, row)) or "", rules) for row in ROWS
        ],
        quit=bool(data.get(quit_field(position))),
        member=(data.get(member_field(position)) or "").strip(),
    )


def check_seats(seats: list[SeatEntry]) -> None:
    """A card already in an earlier seat marks the later one."""
    seen: dict[Card, int] = {}
    for seat in seats:
        if seat.has_errors:
            continue
        for card in seat.cards:
            if card in seen:
                seat.error = _("%(card)s is already in seat %(seat)s") % {
                    "card": card.symbol_text,
                    "seat": seen[card],
                }
                break
            seen[card] = seat.position


def evaluate_seat(seat: SeatEntry, rules: Any) -> None:
    if seat.has_errors or not all(row.complete for row in seat.rows):
        return
    try:
        seat.arrangement = check_arrangement(*(row.cards for row in seat.rows), rules)
    except ValueError as error:
        seat.error = str(error)
        return
    if seat.arrangement.instant_win is not None:
        seat.instant_chi = rules.instant_win_amount(seat.arrangement.instant_win)


def read_entry(data: Mapping[str, str], screen: Screen) -> MauBinhEntry:
    seats = [read_seat(data, position, screen.rules) for position in screen.positions]
    players = selectors.players_by_number(
        venue=screen.venue, numbers=[seat.member for seat in seats]
    )
    for seat in seats:
        seat.player, seat.player_error = forms.read_player(seat.member, players)
    check_seats(seats)
    for seat in seats:
        evaluate_seat(seat, screen.rules)
    stake_text = (data.get(STAKE_FIELD) or "").strip()
    entry = MauBinhEntry(key=forms.read_key(data), stake_text=stake_text, seats=seats)
    entry.stake, entry.stake_error = read_stake(stake_text, screen)
    return entry


def data_from_round(round_: Round | None, screen: Screen) -> dict[str, str]:
    """The next round's form: the same stake and members in their seats, no cards."""
    if round_ is None:
        low = screen.limits[0] if screen.limits else None
        return {STAKE_FIELD: format_money(low, screen.venue.currency)} if low else {}
    data: dict[str, str] = {}
    for box in round_.boxes.select_related("player").prefetch_related("bets"):
        if box.player is not None and box.position in screen.positions:
            data[member_field(box.position)] = box.player.membership_number
        for bet in box.bets.all():
            if bet.bet_type == BET_TYPE:
                data[STAKE_FIELD] = format_money(bet.stake, screen.venue.currency)
    return data


# The preview


def preview_of(result: RoundResult, digest: str) -> dict[str, Any]:
    positions = [box.position for box in result.boxes]
    seats = []
    zero = Decimal(0)
    for box in result.boxes:
        evaluation = box.evaluation
        bet = box.bets[0]
        cells = []
        for opponent in positions:
            pair = evaluation["against"].get(str(opponent)) if opponent != box.position else None
            cells.append(
                {
                    "opponent": opponent,
                    "pair": pair,
                    "scooped": opponent in evaluation["scooped"],
                    "scooped_by": opponent in evaluation["scooped_by"],
                }
            )
        seats.append(
            {
                "position": box.position,
                "evaluation": evaluation,
                "cells": cells,
                "chi": evaluation["chi"],
                "stake": bet.stake,
                "gross": bet.gross,
                "fee": bet.commission,
                "net": bet.net,
                "outcome": bet.outcome,
            }
        )
    return {
        "positions": positions,
        "seats": seats,
        "stake": result.boxes[0].bets[0].stake,
        "fees": sum((s["fee"] for s in seats), zero),
        "paid": sum((s["net"] for s in seats if s["net"] > 0), zero),
        "collected": sum((-s["net"] for s in seats if s["net"] < 0), zero),
        "gross": sum((s["gross"] for s in seats), zero),
        "house_net": result.house_net,
        "digest": digest,
    }


# Views


def context_of(
    screen: Screen,
    entry: MauBinhEntry,
    *,
    preview: dict[str, Any] | None = None,
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
        "rows": ROWS,
        "hand_size": HAND_SIZE,
    }


def screen_or_refusal(request: HttpRequest, session: TableSession) -> Screen | HttpResponse:
    if session.table.game != GAME:
        raise Http404("not a Mau Binh table")
    try:
        return screen_for(session)
    except selectors.NoRulesInForce:
        return no_rules(request, session)


def screen(request: HttpRequest, session: TableSession) -> HttpResponse:
    """The whole round screen (``views.round_screen`` sends a Mau Binh session here)."""
    if session.status != TableSession.Status.OPEN:
        return summary(request, session)
    found = screen_or_refusal(request, session)
    if isinstance(found, HttpResponse):
        return found
    last = selectors.last_round(session=session)
    data: Mapping[str, str] = request.GET
    if not any(name.startswith(("seat-", STAKE_FIELD)) for name in data):
        data = data_from_round(last, found)
    entry = read_entry(data, found)
    return render(request, PAGE, context_of(found, entry, last=last))


def seat_of(request: HttpRequest, found: Screen) -> int:
    seat = request.GET.get("seat", "")
    if seat.isdecimal() and int(seat) in found.positions:
        return int(seat)
    raise Http404("no such seat at this table")


@require_GET
@with_session
def seat(request: HttpRequest, session: TableSession) -> HttpResponse:
    """One seat read and evaluated as it is typed (the live partial under its rows)."""
    if not request.htmx:
        return screen(request, session)
    found = screen_or_refusal(request, session)
    if isinstance(found, HttpResponse):
        return found
    position = seat_of(request, found)
    entry = read_entry(request.GET, found)
    wanted = next(s for s in entry.seats if s.position == position)
    return render(request, f"{PAGE}#seat_eval", {"seat": wanted, "hand_size": HAND_SIZE})


@require_POST
@with_session
def arrange(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Lay out a seat's 13 cards (typed in any of its rows) as the engine suggests."""
    found = screen_or_refusal(request, session)
    if isinstance(found, HttpResponse):
        return found
    position = seat_of(request, found)
    entry = read_entry(request.POST, found)
    wanted = next(s for s in entry.seats if s.position == position)
    typed = " ".join(request.POST.get(row_field(position, row)) or "" for row in ROWS)
    status = 422
    try:
        cards = parse_cards([token for token in _SEPARATORS.split(typed) if token])
    except ValueError as error:
        wanted.error = str(error)
    else:
        if len(cards) != HAND_SIZE:
            wanted.error = _("Auto-arrange needs the seat's 13 cards (%(count)s so far)") % {
                "count": len(cards)
            }
        else:
            try:
                layout = engine.suggest_arrangement(cards, found.rules)
            except ValueError as error:  # pragma: no cover - 13 different cards lay out
                wanted.error = str(error)
            else:
                data = request.POST.copy()
                for row, laid in zip(ROWS, layout, strict=True):
                    data[row_field(position, row)] = format_cards(laid)
                entry = read_entry(data, found)
                wanted = next(s for s in entry.seats if s.position == position)
                status = 422 if wanted.has_errors else 200
    if not request.htmx:
        return render(request, PAGE, context_of(found, entry), status=status)
    context = {**context_of(found, entry), "seat": wanted}
    return render(request, f"{PAGE}#seat", context, status=status)


@require_POST
@with_session
def preview(request: HttpRequest, session: TableSession) -> HttpResponse:
    """The round settled as typed, writing nothing: the matrix, fees, totals and Confirm."""
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "preview")
    found = screen_or_refusal(request, session)
    if isinstance(found, HttpResponse):
        return found
    entry = read_entry(request.POST, found)
    shown = None
    if entry.check_complete(found.rules):
        adapter_result = _evaluate(found, entry)
        if isinstance(adapter_result, str):
            entry.errors.append(adapter_result)
        else:
            shown = preview_of(adapter_result, entry.digest())
    context = {**context_of(found, entry, preview=shown), "oob_seats": bool(request.htmx)}
    return page(request, PAGE, "preview", context, status=200 if shown else 422)


def _evaluate(found: Screen, entry: MauBinhEntry) -> RoundResult | str:
    from casino import games

    try:
        return games.get(GAME).evaluate_round(
            rules=found.rules, dealer_cards="", boxes=entry.box_inputs()
        )
    except ServiceError as error:
        return error.message


@require_POST
@with_session
def confirm(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Deal and settle the previewed round once (the form's key); then the next round."""
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "round")
    found = screen_or_refusal(request, session)
    if isinstance(found, HttpResponse):
        return found
    entry = read_entry(request.POST, found)
    if entry.check_complete(found.rules) and request.POST.get("digest") != entry.digest():
        entry.errors.append(
            _("The round changed after its preview: preview it again, then confirm.")
        )
    if entry.has_errors:
        return page(request, PAGE, "round", context_of(found, entry), status=422)
    try:
        settled, _result = round_confirm(
            session=session,
            user=request.user,
            dealer_cards="",
            boxes=entry.box_inputs(),
            key=entry.key,
        )
    except ServiceError as error:
        entry.errors.append(error.message)
        return page(request, PAGE, "round", context_of(found, entry), status=422)
    if not request.htmx:
        return HttpResponseRedirect(reverse("console:round", args=[session.pk]), status=303)
    last = selectors.last_round(session=session)
    following = read_entry(data_from_round(last, found), found)
    response = render(
        request, f"{PAGE}#round", context_of(found, following, settled=settled, last=last)
    )
    return trigger_client_event(
        response,
        "console:settled",
        {"round": settled.number, "house_net": plain(settled.house_net)},
    )
