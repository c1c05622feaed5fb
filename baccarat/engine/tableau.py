"""The deal: the cards in deal order checked against the drawing tableau (docs/RULES.md, C2).

The cards come Player, Banker, Player, Banker, then the Player's third card if it draws,
then the Banker's third card if it draws. A card is worth its face (ace 1), ten and the
court cards 0; a hand's total is the last digit of the sum. A natural (8 or 9 in two
cards, either hand) ends the deal. The Player draws on 0-5 and stands on 6-7. The Banker,
when the Player stood, draws on 0-5; when the Player drew a third card ``t``, it draws on
0-2, on 3 unless ``t`` is 8, on 4 against 2-7, on 5 against 4-7, on 6 against 6-7, and
stands on 7.

>>> from casino.kernel.cards import parse_cards
>>> from baccarat.engine import presets
>>> rules = presets.get("commission")
>>> coup = deal(parse_cards("4H 3C AD 3S 5S"), rules)
>>> coup.player.total, coup.banker.total, str(coup.winner), coup.super6
(0, 6, 'banker', True)
>>> deal(parse_cards("4H 3C 2D 4S 5S"), rules)
Traceback (most recent call last):
...
baccarat.engine.tableau.DealError: Banker stands on 7: '5S' is one card too many
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from baccarat.engine.rules import Ruleset, Winner
from casino.kernel.cards import Card


class DealError(ValueError):
    """Cards that do not make a deal; ``code`` and ``params`` say why (for translation),
    ``card`` and ``index`` (0-based, in deal order) which card, when one is to blame."""

    def __init__(
        self,
        message: str,
        *,
        code: str,
        params: Mapping[str, Any] | None = None,
        card: Card | None = None,
        index: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params = dict(params or {})
        self.card = card
        self.index = index


def point(card: Card) -> int:
    """A card's worth: ace 1, two to nine their face, ten and the court cards 0."""
    return card.value % 10


def total(cards: Sequence[Card]) -> int:
    return sum(point(card) for card in cards) % 10


@dataclass(frozen=True, slots=True)
class Hand:
    """One side's cards (two or three) and what they make."""

    cards: tuple[Card, ...]
    total: int
    natural: bool
    drew: bool
    pair: bool

    @classmethod
    def of(cls, cards: Sequence[Card]) -> Hand:
        cards = tuple(cards)
        points = sum(card.value for card in cards) % 10  # a ten's 10 counts 0 either way
        two = len(cards) >= 2
        return cls(
            cards=cards,
            total=points,
            natural=len(cards) == 2 and points >= 8,
            drew=len(cards) == 3,
            pair=two and cards[0].rank == cards[1].rank,
        )


@dataclass(frozen=True, slots=True)
class Coup:
    """A complete deal: both hands, the winner, and the cards in deal order."""

    player: Hand
    banker: Hand
    winner: Winner
    cards: tuple[Card, ...]

    @property
    def super6(self) -> bool:
        """The Banker wins with a total of 6."""
        return self.winner is Winner.BANKER and self.banker.total == 6


def player_draws(player_total: int) -> bool:
    return player_total <= 5


def banker_draws(banker_total: int, player_third: Card | None) -> bool:
    """The Banker's side of the tableau (``player_third`` None: the Player stood)."""
    if player_third is None:
        return banker_total <= 5
    third = point(player_third)
    if banker_total <= 2:
        return True
    if banker_total == 3:
        return third != 8
    if banker_total == 4:
        return 2 <= third <= 7
    if banker_total == 5:
        return 4 <= third <= 7
    if banker_total == 6:
        return third in (6, 7)
    return False


@dataclass(frozen=True)
class Progress:
    """A deal as far as it is typed: both hands so far and what comes next.

    ``next_card`` is ``"player"``, ``"banker"`` or None (the deal is complete); ``reason``
    (a code, with ``params``) says why: ``deal`` (the first four cards), ``natural``,
    ``player_draws``, ``player_stands``, ``banker_draws``, ``banker_stands``, ``complete``.
    ``error`` is the refusal of cards typed beyond the tableau (or beyond the shoe).
    """

    player: Hand
    banker: Hand
    next_card: str | None
    reason: str
    params: Mapping[str, Any] = field(default_factory=dict)
    error: DealError | None = None

    @property
    def complete(self) -> bool:
        return self.next_card is None and self.error is None

    @property
    def message(self) -> str:
        """What comes next, in the engine's English ("Player draws on 4", "Banker stands on
        7", "natural 9: no more cards"), or the refusal; the screens translate ``reason``
        and ``params`` instead."""
        if self.error is not None:
            return str(self.error)
        params = self.params
        if self.reason == "deal":
            count = params.get("count", 0)
            side = "Player" if count % 2 == 0 else "Banker"
            which = "first" if count < 2 else "second"
            return f"the {side}'s {which} card"
        if self.reason == "natural":
            return f"natural {params['total']}: no more cards"
        if self.reason == "player_draws":
            return f"Player draws on {params['total']}"
        if self.reason == "banker_draws":
            return f"Banker draws on {params['total']}"
        if self.reason == "banker_stands":
            return f"Banker stands on {params['total']}"
        return "complete"


def _copies(cards: Sequence[Card], rules: Ruleset) -> None:
    """Refuse a card dealt more often than the shoe holds it, naming the copy too many."""
    if len(cards) <= rules.decks:
        return  # a shoe of as many decks as there are cards holds each of them
    counts = Counter(cards)
    seen: Counter[Card] = Counter()
    for index, card in enumerate(cards):
        seen[card] += 1
        if seen[card] > rules.decks:
            held = "once" if rules.decks == 1 else f"{rules.decks} times"
            raise DealError(
                f"'{card}' is dealt {counts[card]} times; a {rules.decks}-deck shoe holds it "
                f"{held}",
                code="too_many_copies",
                params={
                    "card": str(card),
                    "times": counts[card],
                    "decks": rules.decks,
                    "held": held,
                },
                card=card,
                index=index,
            )


def hands_so_far(cards: Sequence[Card], rules: Ruleset) -> Progress:
    """Both hands of a deal typed so far (any number of cards) and what comes next."""
    cards = tuple(cards)
    player = [cards[i] for i in (0, 2) if i < len(cards)]
    banker = [cards[i] for i in (1, 3) if i < len(cards)]
    try:
        _copies(cards, rules)
    except DealError as error:
        return Progress(Hand.of(player), Hand.of(banker), None, "error", error=error)
    if len(cards) < 4:
        side = "player" if len(cards) % 2 == 0 else "banker"
        return Progress(Hand.of(player), Hand.of(banker), side, "deal", {"count": len(cards)})
    p_total, b_total = total(player), total(banker)
    extra = list(cards[4:])

    def too_many(code: str, params: dict[str, Any], message: str) -> Progress:
        card = extra[0]
        error = DealError(
            f"{message}: '{card}' is one card too many",
            code=code,
            params={**params, "card": str(card)},
            card=card,
            index=len(cards) - len(extra),
        )
        return Progress(Hand.of(player), Hand.of(banker), None, code, params, error)

    if p_total >= 8 or b_total >= 8:
        natural = max(p_total, b_total)
        params = {"total": natural}
        if extra:
            return too_many("natural", params, f"a natural {natural}: both hands stand")
        return Progress(Hand.of(player), Hand.of(banker), None, "natural", params)
    third: Card | None = None
    if player_draws(p_total):
        if not extra:
            params = {"total": p_total}
            return Progress(Hand.of(player), Hand.of(banker), "player", "player_draws", params)
        third = extra.pop(0)
        player.append(third)
    draws = banker_draws(b_total, third)
    params = {"total": b_total, "third": str(third) if third else None}
    if draws:
        if not extra:
            return Progress(Hand.of(player), Hand.of(banker), "banker", "banker_draws", params)
        banker.append(extra.pop(0))
        if extra:
            card = extra[0]
            error = DealError(
                f"a round deals at most six cards; got {len(cards)}",
                code="too_many_cards",
                params={"count": len(cards), "card": str(card)},
                card=card,
                index=6,
            )
            return Progress(Hand.of(player), Hand.of(banker), None, "too_many_cards", {}, error)
        return Progress(Hand.of(player), Hand.of(banker), None, "complete", params)
    if extra:
        return too_many("banker_stands", params, f"Banker stands on {b_total}")
    return Progress(Hand.of(player), Hand.of(banker), None, "banker_stands", params)


def deal(cards: Sequence[Card], rules: Ruleset) -> Coup:
    """The complete deal of ``cards`` (in deal order), or ``DealError`` naming the card that
    breaks the tableau, the card dealt more often than the shoe holds it, or the card missing."""
    cards = tuple(cards)
    if len(cards) > 6:
        raise DealError(
            f"a round deals at most six cards; got {len(cards)}",
            code="too_many_cards",
            params={"count": len(cards)},
            card=cards[6],
            index=6,
        )
    progress = hands_so_far(cards, rules)
    if progress.error is not None:
        raise progress.error
    if len(cards) < 4:
        raise DealError(
            f"a round starts with four cards (Player, Banker, Player, Banker); got {len(cards)}",
            code="too_few_cards",
            params={"count": len(cards)},
        )
    if progress.next_card == "player":
        raise DealError(
            f"the Player draws on {progress.params['total']}: enter the Player's third card",
            code="player_draws",
            params=progress.params,
        )
    if progress.next_card == "banker":
        raise DealError(
            f"the Banker draws on {progress.params['total']}: enter the Banker's third card",
            code="banker_draws",
            params=progress.params,
        )
    player, banker = progress.player, progress.banker
    if player.total > banker.total:
        winner = Winner.PLAYER
    elif banker.total > player.total:
        winner = Winner.BANKER
    else:
        winner = Winner.TIE
    return Coup(player=player, banker=banker, winner=winner, cards=cards)
