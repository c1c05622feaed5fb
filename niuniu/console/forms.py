"""Reading Niu Niu's round form: five boxes and the dealer, each with five cards; a box's
stakes on the bets the rules offer.

Field names: ``box-<n>-member``, ``box-<n>-<bet type>``, ``box-<n>-cards``, ``dealer-cards``,
``key`` (the idempotency key of the round) and ``digest`` (what the confirmed preview showed).
Cards are read by the console's one card reader, each token once; a hand is evaluated as it
gets its fifth card, except on a Confirm (the services evaluate the round as they record it).
Rules of the floor and the game (table limits, the rules' unit, a Single beside every other
bet, how many boxes) are theirs: what they refuse comes back in their words
(``RoundEntry.refuse``), on the field they name.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from casino.floor.console import forms
from casino.floor.console.labels import box_label
from casino.floor.console.round import box_of_field
from casino.floor.console.selectors import Screen
from casino.floor.models import Round
from casino.games import BoxInput
from casino.kernel.cards import Card
from casino.kernel.errors import ServiceError
from casino.kernel.money import venue_money
from casino.players.models import Player
from niuniu.adapter import hand_evaluation
from niuniu.console.labels import bet_label
from niuniu.engine import BetType, Hand, deal_order, evaluate, payment_order

DEALER_CARDS = "dealer-cards"
HAND_SIZE = 5


def member_field(position: int) -> str:
    return f"box-{position}-member"


def stake_field(position: int, bet_type: str) -> str:
    return f"box-{position}-{bet_type}"


def cards_field(position: int | None) -> str:
    return DEALER_CARDS if position is None else f"box-{position}-cards"


def entry_in(data: Mapping[str, str]) -> bool:
    return any(name.startswith(("box-", "dealer-")) for name in data)


# Hands


@dataclass
class HandEntry:
    """One hand's card field: what was typed, the cards read so far, the evaluation."""

    position: int | None  # None for the dealer
    text: str
    cards: tuple[Card, ...] = ()
    error: str = ""
    hand: Hand | None = None

    @property
    def name(self) -> str:
        return cards_field(self.position)

    @property
    def dom_id(self) -> str:
        return "hand-dealer" if self.position is None else f"hand-{self.position}"

    @property
    def label(self) -> str:
        return box_label(self.position)

    @property
    def complete(self) -> bool:
        return self.hand is not None and not self.error

    @property
    def canonical(self) -> str:
        return " ".join(str(card) for card in self.cards)

    @property
    def evaluation(self) -> dict[str, Any] | None:
        """The hand as the templates show it (category, three, two, high card)."""
        return hand_evaluation(self.hand) if self.hand is not None else None


def read_hand(position: int | None, text: str) -> HandEntry:
    """Read one card field on its own: bad cards, a card twice, more than five cards."""
    read = forms.read_cards(text, twice=_("%(card)s is in this hand twice"))
    entry = HandEntry(position=position, text=text or "", cards=read.cards, error=read.error)
    if not entry.error and len(entry.cards) > HAND_SIZE:
        entry.error = _("A hand has 5 cards; this one has %(count)s") % {"count": len(entry.cards)}
    return entry


def check_distinct(hands: Iterable[HandEntry]) -> None:
    """Mark a card already in an earlier hand (boxes in order, then the dealer)."""
    seen: dict[Card, HandEntry] = {}
    for entry in hands:
        if entry.error:
            continue
        for card in entry.cards:
            earlier = seen.get(card)
            if earlier is not None:
                entry.error = _("%(card)s is already in %(hand)s") % {
                    "card": card.symbol_text,
                    "hand": earlier.label,
                }
                break
            seen[card] = entry


def evaluate_hand(entry: HandEntry, rules: Any) -> None:
    if not entry.error and len(entry.cards) == HAND_SIZE:
        entry.hand = evaluate(entry.cards, rules)


# Stakes and players


@dataclass
class StakeEntry:
    bet_type: str
    position: int
    text: str
    amount: Decimal | None = None
    error: str = ""
    deposit: Decimal | None = None  # what the player must show, Double and Super

    @property
    def name(self) -> str:
        return stake_field(self.position, self.bet_type)

    @property
    def label(self) -> str:
        return bet_label(self.bet_type)


def read_stake(position: int, bet_type: str, text: str, screen: Screen) -> StakeEntry:
    entry = StakeEntry(bet_type=bet_type, position=position, text=text or "")
    entry.amount, entry.error = forms.read_stake(
        entry.text,
        unit=screen.rounding_unit,
        limit=screen.limits.get(bet_type),
        venue=screen.venue,
    )
    return entry


def read_stakes(position: int, data: Mapping[str, str], screen: Screen) -> list[StakeEntry]:
    """A box's stakes, each Double and Super with the deposit to show: its multiple of the
    stake it counts from (its own, unless the rules say another bet's)."""
    stakes = [
        read_stake(position, b, data.get(stake_field(position, b)) or "", screen)
        for b in screen.bet_types
    ]
    amounts = {entry.bet_type: entry.amount for entry in stakes}
    for entry in stakes:
        multiple = screen.deposit_multiples.get(entry.bet_type, Decimal(1))
        basis = amounts.get(screen.rules.deposit_basis(BetType(entry.bet_type)).value)
        if entry.amount is not None and basis is not None and multiple > 1:
            entry.deposit = basis * multiple
    return stakes


@dataclass
class BoxEntry:
    position: int
    member: str
    stakes: list[StakeEntry]
    hand: HandEntry
    player: Player | None = None
    player_error: str = ""
    error: str = ""

    @property
    def member_name(self) -> str:
        return member_field(self.position)

    @property
    def in_play(self) -> bool:
        return bool(self.hand.text.strip()) or any(s.text.strip() for s in self.stakes)

    def stake(self, bet_type: str) -> Decimal | None:
        for entry in self.stakes:
            if entry.bet_type == bet_type and not entry.error:
                return entry.amount
        return None

    @property
    def placed(self) -> dict[str, Decimal]:
        return {s.bet_type: s.amount for s in self.stakes if s.amount is not None and not s.error}

    @property
    def has_errors(self) -> bool:
        return bool(
            self.error or self.player_error or self.hand.error or any(s.error for s in self.stakes)
        )

    def refuse(self, rest: str, message: str) -> None:
        """A refusal of the services on this box's field ``rest`` (``bets.single``...)."""
        if rest == "cards":
            self.hand.error = message
            return
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
    dealer: HandEntry
    errors: list[str] = field(default_factory=list)

    @property
    def hands(self) -> list[HandEntry]:
        return [box.hand for box in self.boxes] + [self.dealer]

    @property
    def playing(self) -> list[BoxEntry]:
        return [box for box in self.boxes if box.in_play]

    @property
    def used_cards(self) -> set[str]:
        return {str(card) for hand in self.hands for card in hand.cards}

    @property
    def has_errors(self) -> bool:
        return bool(self.errors or self.dealer.error or any(b.has_errors for b in self.boxes))

    @property
    def all_errors(self) -> list[str]:
        """Every mistake with the box it is in, for the preview's list."""
        found = list(self.errors)
        for box in self.boxes:
            where = box_label(box.position)
            for message in (box.player_error, box.error, box.hand.error):
                if message:
                    found.append(f"{where}: {message}")
            found += [f"{where}, {s.label}: {s.error}" for s in box.stakes if s.error]
        if self.dealer.error:
            found.append(f"{self.dealer.label}: {self.dealer.error}")
        return found

    @property
    def deal_order(self) -> tuple[int, ...]:
        singles = {box.position: box.stake("single") for box in self.playing}
        return deal_order({p: s for p, s in singles.items() if s is not None})

    @property
    def payment_order(self) -> tuple[int, ...]:
        return payment_order([box.position for box in self.playing])

    def check_complete(self) -> bool:
        """What a preview and a confirmation need beyond each field being right: a box, and
        every hand in play with its 5 cards."""
        playing = self.playing
        if not playing:
            self.errors.append(_("Enter at least one box: a Single stake and 5 cards"))
        for box in playing:
            if not box.hand.error and len(box.hand.cards) != HAND_SIZE:
                box.hand.error = _("Enter 5 cards (%(count)s so far)") % {
                    "count": len(box.hand.cards)
                }
        if playing and not self.dealer.error and len(self.dealer.cards) != HAND_SIZE:
            self.dealer.error = _("Enter the dealer's 5 cards (%(count)s so far)") % {
                "count": len(self.dealer.cards)
            }
        return not self.has_errors

    def box_inputs(self) -> list[BoxInput]:
        return [
            BoxInput(
                position=box.position,
                cards=box.hand.canonical,
                stakes=box.placed,
                player_id=box.player.pk if box.player else None,
            )
            for box in self.playing
        ]

    def round_input(self) -> tuple[str, list[BoxInput]]:
        return self.dealer.canonical, self.box_inputs()

    def refuse(self, error: ServiceError) -> None:
        """Show a refusal of the services beside the field it names (a box's cards or bet,
        the dealer's cards), or above the form."""
        message = error.message
        if error.field == "dealer_cards":
            self.dealer.error = message
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
            self.dealer.canonical,
            [
                [
                    box.position,
                    box.player.pk if box.player else None,
                    box.hand.canonical,
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
    *,
    evaluate: bool = True,
) -> RoundEntry:
    """Read the round form field by field; with ``evaluate``, every hand that has its 5
    cards is evaluated."""
    boxes = []
    for position in screen.positions:
        box = BoxEntry(
            position=position,
            member=(data.get(member_field(position)) or "").strip(),
            stakes=read_stakes(position, data, screen),
            hand=read_hand(position, data.get(cards_field(position)) or ""),
        )
        box.player, box.player_error = forms.read_player(box.member, players)
        boxes.append(box)
    entry = RoundEntry(
        key=forms.read_key(data), boxes=boxes, dealer=read_hand(None, data.get(DEALER_CARDS) or "")
    )
    check_distinct(entry.hands)
    if evaluate:
        for hand in entry.hands:
            evaluate_hand(hand, screen.rules)
    return entry


def form_data(
    dealer_cards: str, boxes: Sequence[BoxInput], screen: Screen, players: Mapping[int, str]
) -> dict[str, str]:
    """The form a dealer fills for this round (``players``: membership numbers by id)."""
    data = {cards_field(None): dealer_cards}
    for box in boxes:
        data[cards_field(box.position)] = box.cards
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
