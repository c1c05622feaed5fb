"""Baccarat as the floor sees it: the adapter registered in ``casino.games``.

The seats hold no cards: a round's whole deal is the dealer's cards, in deal order (Player,
Banker, Player, Banker, then the third cards the tableau draws), and every box is a position
betting on it: seats 1 to 7, then players betting behind (docs/RULES.md, Baccarat).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from baccarat import engine
from baccarat.engine import DealError, SettlementError
from baccarat.house_edge import figures_compute, figures_summary, figures_warnings
from baccarat.models import BET_TYPES, RULE_FIELDS, BaccaratAuditAction, BaccaratRulesetVersion
from baccarat.selectors import behind_number, cached_snapshot
from baccarat.services import close_refusal
from baccarat.validation import ruleset_errors
from casino.games import (
    BetResult,
    BoxInput,
    BoxResult,
    GameAdapter,
    GameAdmin,
    GameApi,
    GameConsole,
    GameDemo,
    GameReports,
    IntegrityCounts,
    IntegrityKey,
    RoundInputError,
    RoundResult,
)
from casino.kernel.cards import Card, format_cards, parse_card

#: The most cards a round deals: two to each hand and a third to each.
MOST_CARDS = 6
_SEPARATORS = re.compile(r"[\s,]+")


#: The engine's refusals of a deal (``DealError.code``) in the reader's language; the English
#: reads as the engine's own message. A code not listed is shown in the engine's words.
DEAL_MESSAGES = {
    "too_few_cards": _(
        "a round starts with four cards (Player, Banker, Player, Banker); got %(count)s"
    ),
    "too_many_cards": _("a round deals at most six cards; got %(count)s"),
    "player_draws": _("the Player draws on %(total)s: enter the Player's third card"),
    "banker_draws": _("the Banker draws on %(total)s: enter the Banker's third card"),
    "banker_stands": _("Banker stands on %(total)s: '%(card)s' is one card too many"),
    "natural": _("a natural %(total)s: both hands stand: '%(card)s' is one card too many"),
    "too_many_copies": _(
        "'%(card)s' is dealt %(times)s times; a %(decks)s-deck shoe holds it %(decks)s times"
    ),
}
#: A card dealt more often than a one-deck shoe holds it.
ONE_DECK_COPIES = _("'%(card)s' is dealt %(times)s times; a 1-deck shoe holds it once")
#: The engine's refusals of a bet (``SettlementError.code``).
SETTLEMENT_MESSAGES = {
    "bet_not_offered": _(
        "the ruleset %(ruleset)s does not offer the %(bet)s bet; it offers %(offered)s"
    ),
    "stake_not_positive": _("the %(bet)s stake must be positive, got %(stake)s"),
    "stake_off_unit": _(
        "the %(bet)s stake %(stake)s is not a multiple of the rounding unit %(unit)s"
    ),
}


def _message(messages: dict, error: Exception) -> str:
    message = messages.get(getattr(error, "code", None))
    if message is None:
        return str(error)
    try:
        return str(message) % error.params
    except (KeyError, TypeError, ValueError):
        return str(error)


def deal_message(error: DealError) -> str:
    """An engine's refusal of a deal in the active language."""
    if error.code == "too_many_copies" and error.params.get("decks") == 1:
        return str(ONE_DECK_COPIES) % error.params
    return _message(DEAL_MESSAGES, error)


def settlement_message(error: SettlementError) -> str:
    """An engine's refusal of a bet in the active language."""
    return _message(SETTLEMENT_MESSAGES, error)


def hand_evaluation(hand: engine.Hand) -> dict[str, Any]:
    """A hand as stored on the round and shown on the console."""
    return {
        "cards": format_cards(hand.cards),
        "total": hand.total,
        "natural": hand.natural,
        "drew": hand.drew,
        "pair": hand.pair,
    }


def coup_evaluation(coup: engine.Coup) -> dict[str, Any]:
    """The deal as the round stores it (``Round.dealer_evaluation``)."""
    return {
        "player": hand_evaluation(coup.player),
        "banker": hand_evaluation(coup.banker),
        "winner": str(coup.winner),
        "super6": coup.super6,
    }


def seat_evaluation(position: int) -> dict[str, Any]:
    """What a box says of itself: nothing for a seat, its number (and its label in the
    dealer's language) for one betting behind."""
    behind = behind_number(position)
    if behind is None:
        return {}
    return {"behind": behind, "label": gettext("Behind %(number)s") % {"number": behind}}


def parse_deal(text: str) -> tuple[Card, ...]:
    """The dealer's cards in deal order; a card may come more than once from a shoe of several
    decks (the engine checks how many times)."""
    tokens = [token for token in _SEPARATORS.split(text or "") if token]
    if len(tokens) > MOST_CARDS:
        raise RoundInputError(
            _("a round deals at most six cards; got %(count)s") % {"count": len(tokens)},
            field="dealer_cards",
            reason="too_many_cards",
        )
    cards = []
    for token in tokens:
        try:
            cards.append(parse_card(token))
        except (TypeError, ValueError) as error:
            raise RoundInputError(
                _("the deal: %(error)s") % {"error": error},
                field="dealer_cards",
                reason="bad_card",
            ) from None
    return tuple(cards)


def bet_result(line: Any) -> BetResult:
    return BetResult(
        bet_type=str(line.bet_type),
        stake=line.stake,
        deposit_required=line.stake,
        outcome=str(line.outcome),
        odds=line.odds,
        gross=line.gross,
        commission=line.commission,
        net=line.net,
    )


class BaccaratAdapter(GameAdapter):
    code = "baccarat"
    name = _("Baccarat")
    bet_types = BET_TYPES
    version_model = BaccaratRulesetVersion
    audit_actions = (BaccaratAuditAction,)

    # The game's parts, each in its own module (imported when first asked, after every app
    # is loaded: they import the floor's screens, API and admin).

    @cached_property
    def console(self) -> GameConsole:
        from baccarat.console import CONSOLE

        return CONSOLE

    @cached_property
    def api(self) -> GameApi:
        from baccarat.api import API

        return API

    @cached_property
    def admin(self) -> GameAdmin:
        from baccarat.admin import ADMIN

        return ADMIN

    @cached_property
    def reports(self) -> GameReports:
        from baccarat.reports import REPORTS

        return REPORTS

    @cached_property
    def demo(self) -> GameDemo:
        from baccarat.demo import DEMO

        return DEMO

    # The rules of a version: its fields.

    rule_fields = RULE_FIELDS

    def rule_errors(self, version: BaccaratRulesetVersion) -> list[str]:
        return ruleset_errors(version)

    def approval_figures(self, version: BaccaratRulesetVersion) -> tuple[dict, list[str]]:
        """The exact odds to store on approval, and what about them needs an override."""
        summary = figures_summary(figures_compute(version_id=version.pk), version)
        return summary, figures_warnings(summary)

    def snapshot(self, version: BaccaratRulesetVersion) -> engine.Ruleset:
        return cached_snapshot(version)

    def session_close_refusal(self, session: Any) -> tuple[str, str] | None:
        """A seat's commission box not settled keeps the table open."""
        return close_refusal(session)

    def offered_bet_types(self, rules: engine.Ruleset) -> tuple[str, ...]:
        return tuple(str(bet) for bet in rules.bet_types)

    def evaluate_round(
        self, *, rules: engine.Ruleset, dealer_cards: str, boxes: Sequence[BoxInput]
    ) -> RoundResult:
        if not boxes:
            raise RoundInputError(
                _("a round needs at least one box with a bet"), field="boxes", reason="no_boxes"
            )
        for index, box in enumerate(boxes):
            if box.cards.strip():
                raise RoundInputError(
                    _(
                        "box %(position)s: the seats hold no cards; enter the whole deal as "
                        "the dealer's cards and leave the box's cards empty"
                    )
                    % {"position": box.position},
                    field=f"boxes[{index}].cards",
                    reason="seat_cards",
                )
        cards = parse_deal(dealer_cards)
        try:
            coup = engine.deal(cards, rules)
        except DealError as error:
            raise RoundInputError(
                deal_message(error), field="dealer_cards", reason=error.code or "invalid"
            ) from None
        results = []
        for index, box in enumerate(boxes):
            try:
                settled = engine.settle(coup, box.stakes, rules)
            except SettlementError as error:
                raise RoundInputError(
                    _("box %(position)s: %(error)s")
                    % {"position": box.position, "error": settlement_message(error)},
                    field=f"boxes[{index}].bets.{error.field}",
                    reason=error.code or "invalid",
                ) from None
            results.append(
                BoxResult(
                    position=box.position,
                    cards="",
                    evaluation=seat_evaluation(box.position),
                    bets=tuple(bet_result(line) for line in settled.lines),
                )
            )
        dealt, paid = self.round_orders(boxes)
        return RoundResult(
            dealer_cards=format_cards(coup.cards),
            dealer_evaluation=coup_evaluation(coup),
            boxes=tuple(results),
            deal_order=dealt,
            payment_order=paid,
        )

    integrity_tested = True

    def integrity_counts(self, result: RoundResult) -> IntegrityCounts:
        """The round's result (``round_result``: the winner and how the hands were dealt,
        ``result_category``), every card dealt, and each box's bets on the Player and the
        Banker with their outcome (``bet_outcome`` ``"<side>/<outcome>"`` for its member,
        ``seat_bet_outcome`` ``"<position>:<side>/<outcome>"`` for its position, whoever
        sat there): the seats hold no cards and play one deal, so what a seat can be
        favoured in is the side it backs, which a fair deal makes win at its share."""
        evaluation = result.dealer_evaluation or {}
        player, banker = evaluation["player"], evaluation["banker"]
        category = result_category(
            player["total"],
            banker["total"],
            len(player["cards"].split()),
            len(banker["cards"].split()),
        )
        keys = [IntegrityKey("round_result", category)]
        for box in result.boxes:
            for bet in box.bets:
                if bet.bet_type in _SIDES:
                    side = f"{bet.bet_type}/{bet.outcome}"
                    keys.append(IntegrityKey("bet_outcome", side, box.position))
                    keys.append(IntegrityKey("seat_bet_outcome", f"{box.position}:{side}"))
        return IntegrityCounts(tuple(keys), tuple(result.dealer_cards.split()))

    def integrity_expected(self, rules: engine.Ruleset) -> Mapping[str, Mapping[str, Fraction]]:
        """Exact, from the count of every ordered deal of a full shoe of the rules' decks
        (``baccarat.engine.ruleset_odds``): each result category's share of the deals, and
        each side's share of the deals that decide it (a tie pushes both)."""
        shares = _result_shares(rules)
        won = {
            side: sum((p for key, p in shares.items() if key.startswith(f"{side}/")), Fraction(0))
            for side in _SIDES
        }
        decided = sum(won.values(), Fraction(0))
        return {
            "round_result": shares,
            "bet_outcome": {side: p / decided for side, p in won.items()} if decided else {},
        }

    def integrity_decks(self, rules: engine.Ruleset) -> int:
        return rules.decks

    def round_orders(self, boxes: Sequence[BoxInput]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """No box is dealt to (the deal is the dealer's); the seats are paid in seat order,
        then those betting behind."""
        return (), tuple(sorted(box.position for box in boxes))


def result_category(
    player_total: int, banker_total: int, player_cards: int, banker_cards: int
) -> str:
    """A round's result as the integrity tests count it: the winner and how the hands were
    dealt (``natural``, ``stood``: both stood on two cards, ``player_drew``,
    ``banker_drew``, ``both_drew``), e.g. ``"banker/natural"``."""
    if player_total > banker_total:
        winner = "player"
    elif banker_total > player_total:
        winner = "banker"
    else:
        winner = "tie"
    if player_cards == banker_cards == 2:
        dealt = "natural" if max(player_total, banker_total) >= 8 else "stood"
    elif player_cards == banker_cards == 3:
        dealt = "both_drew"
    else:
        dealt = "player_drew" if player_cards == 3 else "banker_drew"
    return f"{winner}/{dealt}"


#: The bets on a side of the deal, tested per seat (``integrity_counts``).
_SIDES = (str(engine.BetType.PLAYER), str(engine.BetType.BANKER))


@lru_cache(maxsize=16)
def _result_shares(rules: engine.Ruleset) -> dict[str, Fraction]:
    odds = engine.ruleset_odds(rules)
    counts: dict[str, int] = {}
    for (player, banker, player_cards, banker_cards), n in odds.outcomes.items():
        key = result_category(player, banker, player_cards, banker_cards)
        counts[key] = counts.get(key, 0) + n
    return {key: Fraction(n, odds.total) for key, n in sorted(counts.items())}
