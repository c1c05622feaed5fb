"""Reading what the dealer typed, shared by every game's round screen: cards, amounts and
stakes, a membership number, the form's idempotency key, chip counts, a supervisor's
credentials.

Each reader answers what it read and, beside it, what is wrong in the page's language, so
a screen shows every mistake next to the field it is in while the dealer types. Only an
entry without mistakes reaches the services, which check everything again. Amounts are
read by the one reader of amounts, ``casino.kernel.amounts.read_amount`` (``read_stake`` too).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from casino.floor.services.rounds import check_stake
from casino.kernel.amounts import read_amount
from casino.kernel.cards import Card, parse_card
from casino.kernel.errors import ServiceError
from casino.kernel.money import Grouping, grouped, marks
from casino.players.eligibility import Activity, player_eligibility
from casino.players.membership import membership_key
from casino.players.models import Player
from casino.venues.limits import Limit
from casino.venues.models import TableLimit

#: The most chips of one denomination a count may give (a tray holds far fewer).
MAX_CHIPS = 99_999
_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: What separates the cards a dealer types: spaces, commas, semicolons.
CARD_SEPARATORS = re.compile(r"[\s,;]+")


def new_key() -> str:
    return uuid.uuid4().hex


def read_key(data: Mapping[str, str]) -> str:
    """The form's idempotency key; a new one when it is missing or malformed."""
    key = (data.get("key") or "").strip()
    return key if _KEY.fullmatch(key) else new_key()


# Cards


@dataclass(frozen=True)
class CardsRead:
    """A card field read: the cards up to the first mistake, and the mistake."""

    cards: tuple[Card, ...]
    error: str = ""

    @property
    def canonical(self) -> str:
        return " ".join(str(card) for card in self.cards)


def read_cards(
    text: str, *, twice: str, separators: re.Pattern[str] = CARD_SEPARATORS
) -> CardsRead:
    """The one reader of typed cards (``ks qh 10d``, ``K♠ Q♥``): each token parsed once.

    Stops at the first token that is not a card, or at a card given twice in the field
    (``twice`` says so, with ``%(card)s``: "in this hand", "in this row").
    """
    cards: list[Card] = []
    for token in separators.split((text or "").strip()):
        if not token:
            continue
        try:
            card = parse_card(token)
        except ValueError:
            error = _("“%(token)s” is not a card: rank A 2-10 J Q K, suit S H C D or ♠ ♥ ♣ ♦") % {
                "token": token
            }
            return CardsRead(tuple(cards), error)
        if card in cards:
            return CardsRead(tuple(cards), twice % {"card": card.symbol_text})
        cards.append(card)
    return CardsRead(tuple(cards))


# Stakes and players


def read_stake(
    text: str,
    *,
    unit: Decimal,
    limit: Limit | TableLimit | None,
    grouping: Grouping | str = Grouping.COMMA,
    venue: Any = None,
) -> tuple[Decimal | None, str]:
    """The one reader of a stake: the amount typed (read by ``read_amount`` at ``venue``,
    or in ``grouping`` alone) and, if the floor would refuse it (more than 0, within the
    table's limits, in steps of the rules' unit), the floor's own reason in the page's
    language (``casino.floor.services.rounds.check_stake``, which the API's round is checked
    with too)."""
    if venue is not None:
        grouping = venue.amount_grouping
    try:
        amount = read_amount(text, venue if venue is not None else grouping)
    except ValueError as error:
        return None, str(error)
    if amount is None:
        return None, ""
    try:
        check_stake(stake=amount, limit=limit, unit=unit, grouping=grouping)
    except ServiceError as error:
        return amount, error.message
    return amount, ""


def read_player(member: str, players: Mapping[str, Player]) -> tuple[Player | None, str]:
    """The player of a typed membership number among ``players`` (keyed by stored number),
    and why they may not play (``casino.players.eligibility``), if they may not."""
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
    # The services' own question and words. Players read by ``players_by_number`` say
    # whether they are barred today: the barring itself is read only to say why.
    answer = player_eligibility(player=player, venue=player.venue, activity=Activity.PLAY)
    return player, answer.reason


# Chip counts and credentials


def read_chips(
    data: Mapping[str, str],
    denominations: Iterable[str],
    prefix: str = "chips-",
    grouping: Grouping | str = Grouping.COMMA,
) -> tuple[dict[str, int], dict[str, str]]:
    """A chip count per denomination (blank is 0), its thousands grouped as the venue
    groups them (``1.000`` where it groups with points); errors by field name."""
    chips: dict[str, int] = {}
    errors: dict[str, str] = {}
    thousands = re.escape(marks(grouping)[0])
    for denomination in denominations:
        name = f"{prefix}{denomination}"
        text = re.sub(rf"[\s_{thousands}]", "", data.get(name) or "")
        if not text:
            continue
        if not text.isdecimal():
            errors[name] = _("Count the chips as a whole number, 0 or more")
            continue
        if int(text) > MAX_CHIPS:
            errors[name] = _("At most %(count)s chips of one value") % {
                "count": grouped(Decimal(MAX_CHIPS), 0, grouping)
            }
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
