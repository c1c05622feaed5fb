"""Reading Baccarat's round form: the seats' members and stakes, and one deal of six card
fields in deal order (read by ``baccarat.console.deal_entry``).

Field names: ``box-<n>-member``, ``box-<n>-<bet type>`` (positions 1 to 7 the seats, 8 and
up betting behind), the deal's six card fields, ``key`` (the idempotency key) and ``digest``
(what the confirmed preview showed). The seats hold no cards: the floor is given the whole
deal as the dealer's cards, in deal order, and every box's cards empty (docs/RULES.md,
Baccarat).

Rules of the floor (table limits, the rules' unit) and of the game are theirs: what they
refuse comes back in their words (``RoundEntry.refuse``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from baccarat.console.deal_entry import DealEntry, deal_fields, read_deal
from baccarat.console.labels import (
    bet_label,
    card_field_label,
    seat_label,
)
from casino.floor.console import forms
from casino.floor.console.round import box_of_field
from casino.floor.console.selectors import Screen
from casino.floor.models import Round
from casino.games import BoxInput
from casino.kernel.errors import ServiceError
from casino.kernel.money import venue_money
from casino.players.models import Player


def member_field(position: int) -> str:
    return f"box-{position}-member"


def stake_field(position: int, bet_type: str) -> str:
    return f"box-{position}-{bet_type}"


def entry_in(data: Mapping[str, str]) -> bool:
    return any(name.startswith(("box-", "bac-")) for name in data)


# Stakes and players


@dataclass
class StakeEntry:
    bet_type: str
    position: int
    text: str
    amount: Decimal | None = None
    error: str = ""

    @property
    def name(self) -> str:
        return stake_field(self.position, self.bet_type)

    @property
    def label(self) -> str:
        return bet_label(self.bet_type)


def read_stake(position: int, bet_type: str, text: str, screen: Screen) -> StakeEntry:
    entry = StakeEntry(bet_type=bet_type, position=position, text=(text or "").strip())
    entry.amount, entry.error = forms.read_stake(
        entry.text,
        unit=screen.rounding_unit,
        limit=screen.limits.get(bet_type),
        venue=screen.venue,
    )
    return entry


@dataclass
class BoxEntry:
    """A seat (or a player betting behind): the member and a stake per offered bet."""

    position: int
    member: str
    stakes: list[StakeEntry]
    player: Player | None = None
    player_error: str = ""
    error: str = ""
    #: What the seat owes the commission box (a version collecting into the box); None else.
    owed: Decimal | None = None

    @property
    def label(self) -> str:
        return seat_label(self.position)

    @property
    def owed_back(self) -> Decimal:
        """What the house gives back (a void after the box was collected); 0 else."""
        return -self.owed if self.owed is not None and self.owed < 0 else Decimal(0)

    @property
    def member_name(self) -> str:
        return member_field(self.position)

    @property
    def in_play(self) -> bool:
        return any(s.text for s in self.stakes)

    @property
    def placed(self) -> dict[str, Decimal]:
        return {s.bet_type: s.amount for s in self.stakes if s.amount is not None and not s.error}

    @property
    def has_errors(self) -> bool:
        return bool(self.error or self.player_error or any(s.error for s in self.stakes))

    def refuse(self, rest: str, message: str) -> None:
        """A refusal of the services on this box's field ``rest`` (``bets.tie``...)."""
        if rest == "player":
            self.player_error = message
            return
        bet_type = rest.removeprefix("bets.").removeprefix("deposits.")
        for stake in self.stakes:
            if stake.bet_type == bet_type:
                stake.error = message
                return
        self.error = message


# The whole round


@dataclass
class RoundEntry:
    key: str
    boxes: list[BoxEntry]
    deal: DealEntry
    errors: list[str] = field(default_factory=list)

    @property
    def playing(self) -> list[BoxEntry]:
        return [box for box in self.boxes if box.in_play]

    @property
    def has_errors(self) -> bool:
        return bool(self.errors or self.deal.has_errors or any(b.has_errors for b in self.boxes))

    @property
    def all_errors(self) -> list[str]:
        """Every mistake with the seat or card field it is in, for the preview's list."""
        found = list(self.errors)
        for box in self.boxes:
            for message in (box.player_error, box.error):
                if message:
                    found.append(f"{box.label}: {message}")
            found += [f"{box.label}, {s.label}: {s.error}" for s in box.stakes if s.error]
        found += [f"{f.label}: {f.error}" for f in self.deal.field_errors]
        if self.deal.error:
            found.append(self.deal.error)
        return found

    def check_complete(self) -> bool:
        """What a preview and a confirmation need beyond each field being right: a seat with
        a stake, and the whole deal as the tableau draws it."""
        if not self.playing:
            self.errors.append(_("Enter a stake on at least one seat"))
        deal = self.deal
        if not deal.has_errors and deal.coup is None:
            if deal.next_field is not None:
                deal.error = _("The deal is not complete: enter the %(field)s") % {
                    "field": card_field_label(deal.next_field)
                }
            else:  # pragma: no cover - an incomplete deal says what comes next
                deal.error = _("The deal is not complete")
        return not self.has_errors

    def box_inputs(self) -> list[BoxInput]:
        return [
            BoxInput(
                position=box.position,
                cards="",
                stakes=box.placed,
                player_id=box.player.pk if box.player else None,
            )
            for box in self.playing
        ]

    def round_input(self) -> tuple[str, list[BoxInput]]:
        return self.deal.canonical, self.box_inputs()

    def refuse(self, error: ServiceError) -> None:
        """Show a refusal of the services beside the field it names (a seat's bet, the
        deal), or above the form."""
        message = error.message
        if error.field == "dealer_cards":
            self.deal.error = message
            return
        box_input, rest = box_of_field(error.field, self.box_inputs())
        box = next((b for b in self.boxes if box_input and b.position == box_input.position), None)
        if box is None:
            self.errors.append(message)
        else:
            box.refuse(rest, message)

    def digest(self) -> str:
        """A fingerprint of the round as read, so a confirmation settles what was previewed."""
        content = [
            self.deal.canonical,
            [
                [
                    box.position,
                    box.player.pk if box.player else None,
                    sorted((b, str(a.normalize())) for b, a in box.placed.items()),
                ]
                for box in self.playing
            ],
        ]
        return hashlib.sha256(json.dumps(content).encode()).hexdigest()[:32]


def member_numbers(data: Mapping[str, str], screen: Screen) -> list[str]:
    return [data.get(member_field(p)) or "" for p in screen.positions]


def read_round(
    data: Mapping[str, str],
    screen: Screen,
    players: Mapping[str, Player],
    owed: Mapping[int, Decimal] | None = None,
) -> RoundEntry:
    """Read the round form field by field: each seat's member and stakes, then the deal."""
    boxes = []
    for position in screen.positions:
        box = BoxEntry(
            position=position,
            member=(data.get(member_field(position)) or "").strip(),
            stakes=[
                read_stake(position, b, data.get(stake_field(position, b)) or "", screen)
                for b in screen.bet_types
            ],
        )
        box.player, box.player_error = forms.read_player(box.member, players)
        if owed is not None:
            box.owed = owed.get(position, Decimal(0))
        boxes.append(box)
    return RoundEntry(key=forms.read_key(data), boxes=boxes, deal=read_deal(data, screen.rules))


def form_data(
    dealer_cards: str, boxes: Sequence[BoxInput], screen: Screen, players: Mapping[int, str]
) -> dict[str, str]:
    """The form a dealer fills for this round (``players``: membership numbers by id)."""
    data = deal_fields(dealer_cards, screen.rules)
    for box in boxes:
        if box.player_id is not None:
            data[member_field(box.position)] = players[box.player_id]
        for bet_type, stake in box.stakes.items():
            data[stake_field(box.position, bet_type)] = venue_money(stake, screen.venue)
    return data


def data_from_round(round_: Round | None, screen: Screen) -> dict[str, str]:
    """The next round's form: the same players and stakes as ``round_``, no cards."""
    data: dict[str, str] = {}
    if round_ is None:
        return data
    for box in round_.boxes.all():
        if box.position not in screen.positions:
            continue
        if box.player is not None:
            data[member_field(box.position)] = box.player.membership_number
        for bet in box.bets.all():
            if bet.bet_type in screen.bet_types:
                data[stake_field(box.position, bet.bet_type)] = venue_money(bet.stake, screen.venue)
    return data
