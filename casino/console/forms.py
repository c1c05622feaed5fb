"""Reading what the dealer typed: the round form, chip counts, a supervisor's credentials.

The round form is read field by field so every mistake is shown beside the field it is in,
in the page's language, while the dealer types: a card that is not a card, a card already
in another hand, a stake off the table's limits. Only a round without mistakes reaches the
services, which check everything again.

Field names: ``box-<n>-member``, ``box-<n>-<bet type>``, ``box-<n>-cards``, ``dealer-cards``,
``key`` (the idempotency key of the round) and ``digest`` (what the confirmed preview showed).
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _

from casino.cards import Card, parse_card
from casino.console.labels import bet_label, box_label, format_money
from casino.console.selectors import Screen
from casino.games import BoxInput
from casino.models import Player, Round
from casino.players import membership_key
from niuniu.adapter import hand_evaluation
from niuniu.engine import Hand, deal_order, evaluate, payment_order

DEALER_CARDS = "dealer-cards"
HAND_SIZE = 5
#: Player boxes Niu Niu deals to besides the dealer (RULES.md A1).
MAX_BOXES = 5
_SEPARATORS = re.compile(r"[\s,;]+")
#: Up to 15 digits before the point: more than any table takes, less than the ledger holds.
_AMOUNT = re.compile(r"\d{1,15}(\.\d{1,2})?")
#: The most chips of one denomination a count may give (a tray holds far fewer).
MAX_CHIPS = 99_999
_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


def member_field(position: int) -> str:
    return f"box-{position}-member"


def stake_field(position: int, bet_type: str) -> str:
    return f"box-{position}-{bet_type}"


def cards_field(position: int | None) -> str:
    return DEALER_CARDS if position is None else f"box-{position}-cards"


def new_key() -> str:
    return uuid.uuid4().hex


def read_key(data: Mapping[str, str]) -> str:
    """The form's idempotency key; a new one when it is missing or malformed."""
    key = (data.get("key") or "").strip()
    return key if _KEY.fullmatch(key) else new_key()


def read_amount(text: str) -> Decimal | None:
    """An amount as a dealer types it: ``100000``, ``100,000``, ``100 000``, ``12.50``.

    >>> read_amount("1,000,000"), read_amount(" "), read_amount("12.50")
    (Decimal('1000000'), None, Decimal('12.50'))
    >>> read_amount("1" * 16)
    Traceback (most recent call last):
    ...
    ValueError: “1111111111111111” is not an amount
    >>> read_amount("1e3")
    Traceback (most recent call last):
    ...
    ValueError: “1e3” is not an amount
    """
    cleaned = re.sub(r"[\s,_\u00a0]", "", text or "")
    if not cleaned:
        return None
    if not _AMOUNT.fullmatch(cleaned):
        raise ValueError(_("“%(text)s” is not an amount") % {"text": text.strip()})
    try:
        return Decimal(cleaned)
    except InvalidOperation:  # pragma: no cover - the pattern admits only digits
        raise ValueError(_("“%(text)s” is not an amount") % {"text": text.strip()}) from None


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
    entry = HandEntry(position=position, text=text or "")
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
            entry.error = _("%(card)s is in this hand twice") % {"card": card.symbol_text}
            break
        cards.append(card)
    entry.cards = tuple(cards)
    if not entry.error and len(cards) > HAND_SIZE:
        entry.error = _("A hand has 5 cards; this one has %(count)s") % {"count": len(cards)}
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
    try:
        amount = read_amount(entry.text)
    except ValueError as error:
        entry.error = str(error)
        return entry
    if amount is None:
        return entry
    currency = screen.venue.currency
    unit = screen.rounding_unit
    if amount <= 0:
        entry.error = _("A stake must be more than 0")
    elif amount % unit != 0:
        entry.error = _("Stakes go in steps of %(unit)s") % {"unit": format_money(unit, currency)}
    elif bet_type in screen.limits:
        low, high = screen.limits[bet_type]
        if amount < low:
            entry.error = _("Below the table minimum of %(min)s") % {
                "min": format_money(low, currency)
            }
        elif amount > high:
            entry.error = _("Above the table maximum of %(max)s") % {
                "max": format_money(high, currency)
            }
    entry.amount = amount
    multiple = screen.deposit_multiples.get(bet_type, Decimal(1))
    if multiple > 1:
        entry.deposit = amount * multiple
    return entry


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


def read_player(member: str, players: Mapping[str, Player]) -> tuple[Player | None, str]:
    number = (member or "").strip()
    if not number:
        return None, ""
    # ``players`` is keyed by the stored form; a number that has none finds nobody.
    key = membership_key(number)
    player = players.get(key) if key else None
    if player is None:
        return None, _("No player with membership number %(number)s at this venue") % {
            "number": number
        }
    if player.status == Player.Status.BARRED:
        return player, _("%(name)s is barred and cannot play") % {"name": player.name}
    return player, ""


def check_bets(box: BoxEntry) -> None:
    """A box takes part only with a Single; every other bet needs one beside it."""
    placed = box.placed
    if placed and "single" not in placed and not any(s.error for s in box.stakes):
        other = next(iter(placed))
        box.error = _("A %(bet)s bet needs a Single on the same box") % {"bet": bet_label(other)}


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
        """What a preview and a confirmation need beyond each field being right."""
        playing = self.playing
        if not playing:
            self.errors.append(_("Enter at least one box: a Single stake and 5 cards"))
        if len(playing) > MAX_BOXES:
            self.errors.append(
                _("Niu Niu deals to at most %(count)s boxes besides the dealer")
                % {"count": MAX_BOXES}
            )
        for box in playing:
            if (
                "single" not in box.placed
                and not box.error
                and not any(s.error for s in box.stakes)
            ):
                box.error = _("Enter a Single stake, or clear the box")
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
    data: Mapping[str, str], screen: Screen, players: Mapping[str, Player]
) -> RoundEntry:
    """Read the round form field by field; evaluates every hand that has its 5 cards."""
    boxes = []
    for position in screen.positions:
        box = BoxEntry(
            position=position,
            member=(data.get(member_field(position)) or "").strip(),
            stakes=[
                read_stake(position, b, data.get(stake_field(position, b)) or "", screen)
                for b in screen.bet_types
            ],
            hand=read_hand(position, data.get(cards_field(position)) or ""),
        )
        box.player, box.player_error = read_player(box.member, players)
        check_bets(box)
        boxes.append(box)
    entry = RoundEntry(
        key=read_key(data), boxes=boxes, dealer=read_hand(None, data.get(DEALER_CARDS) or "")
    )
    check_distinct(entry.hands)
    for hand in entry.hands:
        evaluate_hand(hand, screen.rules)
    return entry


def data_from_round(round_: Round | None, screen: Screen) -> dict[str, str]:
    """The next round's form: the same players and stakes as ``round_``, no cards."""
    data: dict[str, str] = {}
    if round_ is None:
        return data
    currency = screen.venue.currency
    for box in round_.boxes.all():
        if box.position not in screen.positions:
            continue
        if box.player is not None:
            data[member_field(box.position)] = box.player.membership_number
        for bet in box.bets.all():
            if bet.bet_type in screen.bet_types:
                data[stake_field(box.position, bet.bet_type)] = format_money(bet.stake, currency)
    return data


# Chip counts and credentials


def read_chips(
    data: Mapping[str, str], denominations: Iterable[str], prefix: str = "chips-"
) -> tuple[dict[str, int], dict[str, str]]:
    """A chip count per denomination (blank is 0); errors by field name."""
    chips: dict[str, int] = {}
    errors: dict[str, str] = {}
    for denomination in denominations:
        name = f"{prefix}{denomination}"
        text = re.sub(r"[\s,_]", "", data.get(name) or "")
        if not text:
            continue
        if not text.isdecimal():
            errors[name] = _("Count the chips as a whole number, 0 or more")
            continue
        if int(text) > MAX_CHIPS:
            errors[name] = _("At most %(count)s chips of one value") % {"count": f"{MAX_CHIPS:,}"}
            continue
        if int(text):
            chips[denomination] = int(text)
    return chips, errors


def chips_value(chips: Mapping[str, int]) -> Decimal:
    return sum((Decimal(d) * n for d, n in chips.items()), Decimal(0))


@dataclass(frozen=True)
class Credentials:
    username: str
    password: str

    @property
    def given(self) -> bool:
        return bool(self.username and self.password)


def read_credentials(data: Mapping[str, str]) -> Credentials:
    return Credentials(
        username=(data.get("supervisor") or "").strip(), password=data.get("password") or ""
    )
