"""Reading Mau Binh's round form: 2 to 4 seats, each laying out 13 cards as back / middle /
front rows, a membership number and a quit; one table stake.

Field names: ``seat-<n>-back``, ``seat-<n>-middle``, ``seat-<n>-front``, ``seat-<n>-member``,
``seat-<n>-quit``, ``seat-<n>-declared`` (``yes`` or ``no``: asked of a seat holding an instant
win where the rules leave declaring it to the player), ``stake``, ``key`` and ``digest``.
Cards are read by the console's one card reader, each token once; rows and seats are evaluated
as they are typed, except on a Confirm (the services evaluate the round as they record it).
The floor's and the game's rules (the table's limits, the number of players, what a seat must
declare) are theirs: what they refuse comes back in their words (``MauBinhEntry.refuse``), on
the field they name.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from casino.floor.console import forms, selectors
from casino.floor.console.round import box_of_field
from casino.floor.console.selectors import Screen
from casino.floor.models import Round
from casino.games import BoxInput
from casino.kernel.cards import Card, format_cards
from casino.kernel.errors import ServiceError
from casino.kernel.money import venue_money
from casino.players.models import Player
from maubinh.console.labels import foul_label, instant_win_label, row_label
from maubinh.engine import ROWS, Arrangement, Declaring, Row, check_arrangement, evaluate_row
from maubinh.seats import BET_TYPE, ROW_SEPARATOR

#: The rows' names as the engine spells them, shown with ``_()``: marked here for the
#: translators.
ROW_NAMES = (gettext_noop("back"), gettext_noop("middle"), gettext_noop("front"))

STAKE_FIELD = "stake"
SEPARATORS = re.compile(r"[\s,;/]+")


def row_field(position: int, row: Row | str) -> str:
    return f"seat-{position}-{row}"


def quit_field(position: int) -> str:
    return f"seat-{position}-quit"


def member_field(position: int) -> str:
    return f"seat-{position}-member"


def declared_field(position: int) -> str:
    return f"seat-{position}-declared"


DECLARED = {"yes": True, "no": False}


def entry_in(data: Mapping[str, str]) -> bool:
    return any(name.startswith(("seat-", STAKE_FIELD)) for name in data)


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


def read_row(position: int, row: Row, text: str, rules: Any, *, evaluate: bool = True) -> RowEntry:
    read = forms.read_cards(text, twice=_("%(card)s is in this row twice"), separators=SEPARATORS)
    entry = RowEntry(
        position=position, row=row, text=text or "", cards=read.cards, error=read.error
    )
    if not entry.error and len(entry.cards) > row.size:
        entry.error = _("The %(row)s row takes %(size)s cards; it has %(count)s") % {
            "row": _(row.value),
            "size": row.size,
            "count": len(entry.cards),
        }
    if evaluate and entry.complete:
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
    #: Whether the player declares the instant win the hand holds; None: not said.
    declared: bool | None = None
    #: The rules leave declaring an instant win to the player.
    asks_declaring: bool = False
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
    def declared_name(self) -> str:
        return declared_field(self.position)

    @property
    def asks_declared(self) -> bool:
        """The dealer is asked whether the player declares the instant win the hand holds."""
        return self.asks_declaring and bool(self.instant_win)

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
    def complete(self) -> bool:
        """13 good cards laid out in rows of 5, 5 and 3."""
        return not self.has_errors and all(row.complete for row in self.rows)

    @property
    def canonical(self) -> str:
        """The seat's cards as the adapter takes them: ``"back / middle / front"`` (as typed
        when a row is short: the game says what is missing)."""
        if not self.count:
            return ""
        return " / ".join(format_cards(row.cards) for row in self.rows)

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

    def check_complete(self) -> bool:
        """What a preview and a Confirm need beyond each field being right: the stake. The
        seats' cards and how many seats play are the game's rules: its refusal comes back
        from the preview, on the seat it names."""
        if not self.stake_error and self.stake is None:
            self.stake_error = _("Enter the table stake")
        return not self.has_errors

    def box_inputs(self) -> list[BoxInput]:
        return [
            BoxInput(
                position=seat.position,
                cards=seat.canonical,
                stakes={BET_TYPE: self.stake} if self.stake is not None else {},
                quit=seat.quit,
                player_id=seat.player.pk if seat.player else None,
                declared=seat.declared,
            )
            for seat in self.playing
        ]

    def round_input(self) -> tuple[str, list[BoxInput]]:
        return "", self.box_inputs()

    def refuse(self, error: ServiceError) -> None:
        """Show a refusal of the services beside the field it names (a seat's cards or
        player, the stake), or above the form."""
        message = error.message
        seat_input, rest = box_of_field(error.field, self.box_inputs())
        seat = next(
            (s for s in self.seats if seat_input and s.position == seat_input.position), None
        )
        if seat is None:
            self.errors.append(message)
        elif rest.startswith("bets."):
            self.stake_error = message
        elif rest == "player":
            seat.player_error = message
        else:
            seat.error = message

    def digest(self) -> str:
        content = [
            str(self.stake.normalize()) if self.stake is not None else "",
            [
                [
                    seat.position,
                    seat.quit,
                    seat.canonical,
                    seat.player.pk if seat.player else None,
                    seat.declared,
                ]
                for seat in self.playing
            ],
        ]
        return hashlib.sha256(json.dumps(content).encode()).hexdigest()[:32]


def read_stake(text: str, screen: Screen) -> tuple[Decimal | None, str]:
    amount, error = forms.read_stake(
        text,
        unit=screen.rounding_unit,
        limit=screen.limits.get(BET_TYPE),
        venue=screen.venue,
    )
    return (None, error) if error else (amount, "")


def read_seat(
    data: Mapping[str, str], position: int, rules: Any, *, evaluate: bool = True
) -> SeatEntry:
    return SeatEntry(
        position=position,
        rows=[
            read_row(
                position, row, data.get(row_field(position, row)) or "", rules, evaluate=evaluate
            )
            for row in ROWS
        ],
        quit=bool(data.get(quit_field(position))),
        declared=DECLARED.get(data.get(declared_field(position)) or ""),
        asks_declaring=rules.declaring is Declaring.OPTIONAL,
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


def read_entry(data: Mapping[str, str], screen: Screen, *, evaluate: bool = True) -> MauBinhEntry:
    """Read the round form; with ``evaluate``, each seat's rows are named and a seat with
    its 13 cards is laid out (foul, instant win)."""
    seats = [
        read_seat(data, position, screen.rules, evaluate=evaluate) for position in screen.positions
    ]
    players = selectors.players_by_number(
        venue=screen.venue, numbers=[seat.member for seat in seats]
    )
    for seat in seats:
        seat.player, seat.player_error = forms.read_player(seat.member, players)
    check_seats(seats)
    if evaluate:
        for seat in seats:
            evaluate_seat(seat, screen.rules)
    stake_text = (data.get(STAKE_FIELD) or "").strip()
    entry = MauBinhEntry(key=forms.read_key(data), stake_text=stake_text, seats=seats)
    entry.stake, entry.stake_error = read_stake(stake_text, screen)
    return entry


def form_data(
    boxes: Sequence[BoxInput], screen: Screen, players: Mapping[int, str]
) -> dict[str, str]:
    """The form a dealer fills for this round (``players``: membership numbers by id)."""
    data: dict[str, str] = {}
    for box in boxes:
        rows = box.cards.split(ROW_SEPARATOR)
        for row, text in zip(ROWS, rows, strict=True):
            data[row_field(box.position, row)] = text.strip()
        if box.player_id is not None:
            data[member_field(box.position)] = players[box.player_id]
        if box.quit:
            data[quit_field(box.position)] = "on"
        if box.declared is not None:
            data[declared_field(box.position)] = "yes" if box.declared else "no"
        for stake in box.stakes.values():
            data[STAKE_FIELD] = venue_money(stake, screen.venue)
    return data


def data_from_round(round_: Round | None, screen: Screen) -> dict[str, str]:
    """The next round's form: the same stake and members in their seats, no cards."""
    if round_ is None:
        limit = screen.limits.get(BET_TYPE)
        return {STAKE_FIELD: venue_money(limit.min_stake, screen.venue)} if limit else {}
    data: dict[str, str] = {}
    for box in round_.boxes.select_related("player").prefetch_related("bets"):
        if box.player is not None and box.position in screen.positions:
            data[member_field(box.position)] = box.player.membership_number
        for bet in box.bets.all():
            if bet.bet_type == BET_TYPE:
                data[STAKE_FIELD] = venue_money(bet.stake, screen.venue)
    return data
