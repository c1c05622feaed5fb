"""Settling a seat's bets on a deal (docs/RULES.md, C3).

Player and Banker push on a tie. A Banker win pays 1:1 less the commission in the commission
variant; in the no-commission variant it pays 1:1, or ``banker_six_odds`` (1:2) on a total
of 6. Tie pays ``tie_odds``; a pair (the hand's first two cards of one rank) ``pair_odds``;
Super 6 (the Banker wins with 6) its two-card or three-card odds. The house's commission,
and the part of a no-commission Banker 6 it keeps, round to the unit by the rules.

>>> from decimal import Decimal
>>> from casino.kernel.cards import parse_cards
>>> from baccarat.engine import deal, presets
>>> rules = presets.get("commission")
>>> coup = deal(parse_cards("4H 3C AD 3S 5S"), rules)
>>> [(str(l.bet_type), str(l.net)) for l in settle(coup, {"banker": Decimal(100)}, rules).lines]
[('banker', '95')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

from baccarat.engine.rules import BetType, Ruleset, Variant, Winner
from baccarat.engine.tableau import Coup, deal
from casino.kernel.cards import Card
from casino.kernel.money import round_to_unit

ZERO = Decimal(0)
ONE = Decimal(1)


class SettlementError(ValueError):
    """A bet the rules refuse; ``code``/``params`` for translation, ``field`` the bet."""

    def __init__(self, message: str, *, code: str, params: Mapping[str, Any], field: str) -> None:
        super().__init__(message)
        self.code = code
        self.params = dict(params)
        self.field = field


class BetLine(NamedTuple):
    """One bet settled. Immutable like the engine's dataclasses; a named tuple because a round
    makes a dozen of them and one is built several times faster (bench/baccarat.py)."""

    bet_type: BetType
    stake: Decimal
    outcome: str  # "win", "lose" or "push"
    odds: Decimal
    gross: Decimal  # the player's view, signed
    commission: Decimal  # taken by the house, >= 0
    net: Decimal  # gross - commission


@dataclass(frozen=True, slots=True)
class SeatSettlement:
    lines: tuple[BetLine, ...]

    @property
    def net(self) -> Decimal:
        return sum((line.net for line in self.lines), ZERO)

    @property
    def commission(self) -> Decimal:
        return sum((line.commission for line in self.lines), ZERO)


@dataclass(frozen=True)
class RoundOutcome:
    coup: Coup
    seats: Mapping[int, SeatSettlement] = field(default_factory=dict)


def _win(bet: BetType, stake: Decimal, odds: Decimal, commission: Decimal = ZERO) -> BetLine:
    gross = stake * odds
    return BetLine(bet, stake, "win", odds, gross, commission, gross - commission)


def _lose(bet: BetType, stake: Decimal, odds: Decimal) -> BetLine:
    return BetLine(bet, stake, "lose", odds, -stake, ZERO, -stake)


def _push(bet: BetType, stake: Decimal, odds: Decimal) -> BetLine:
    return BetLine(bet, stake, "push", odds, ZERO, ZERO, ZERO)


def _banker(coup: Coup, stake: Decimal, rules: Ruleset) -> BetLine:
    bet = BetType.BANKER
    if coup.winner is Winner.TIE:
        return _push(bet, stake, ONE)
    if coup.winner is Winner.PLAYER:
        return _lose(bet, stake, ONE)
    if rules.variant is Variant.COMMISSION:
        commission = round_to_unit(
            stake * rules.banker_commission, rules.rounding_unit, rules.rounding_mode
        )
        return _win(bet, stake, ONE, max(commission, ZERO))
    if coup.banker.total == 6:
        odds = rules.banker_six_odds
        kept = round_to_unit(stake * (ONE - odds), rules.rounding_unit, rules.rounding_mode)
        gross = stake - kept
        return BetLine(bet, stake, "win", odds, gross, ZERO, gross)
    return _win(bet, stake, ONE)


def settle_bet(coup: Coup, bet: BetType, stake: Decimal, rules: Ruleset) -> BetLine:
    """One bet on the deal."""
    winner = coup.winner
    if bet is BetType.PLAYER:
        if winner is Winner.TIE:
            return _push(bet, stake, ONE)
        return _win(bet, stake, ONE) if winner is Winner.PLAYER else _lose(bet, stake, ONE)
    if bet is BetType.BANKER:
        return _banker(coup, stake, rules)
    if bet is BetType.TIE:
        odds = rules.tie_odds
        return _win(bet, stake, odds) if winner is Winner.TIE else _lose(bet, stake, odds)
    if bet in (BetType.PLAYER_PAIR, BetType.BANKER_PAIR):
        hand = coup.player if bet is BetType.PLAYER_PAIR else coup.banker
        odds = rules.pair_odds
        return _win(bet, stake, odds) if hand.pair else _lose(bet, stake, odds)
    # Super 6
    three = len(coup.banker.cards) == 3
    odds = rules.super6_three_card_odds if three else rules.super6_two_card_odds
    return _win(bet, stake, odds) if coup.super6 else _lose(bet, stake, odds)


#: Each bet type by its name, and its place in table order (the order a seat's lines are
#: settled and shown in).
_BY_NAME: dict[str, BetType] = {str(bet): bet for bet in BetType}
_ORDER = {bet: index for index, bet in enumerate(BetType)}


def _refuse_bet(name: str, rules: Ruleset) -> SettlementError:
    offered = ", ".join(str(b) for b in rules.bet_types)
    return SettlementError(
        f"the ruleset {rules.code} does not offer the {name} bet; it offers {offered}",
        code="bet_not_offered",
        params={"ruleset": rules.code, "bet": name, "offered": offered},
        field=str(name),
    )


def settle(coup: Coup, stakes: Mapping[str, Decimal], rules: Ruleset) -> SeatSettlement:
    """A seat's bets (``stakes`` by bet type) settled on ``coup``, in table order."""
    offered = rules.bet_types
    unit = rules.rounding_unit
    bets: list[tuple[BetType, Decimal]] = []
    for name, value in stakes.items():
        bet = _BY_NAME.get(name)  # a BetType is a str: "player" finds BetType.PLAYER
        if bet is None or bet not in offered:
            raise _refuse_bet(str(name), rules)
        stake = value if type(value) is Decimal else Decimal(value)
        if not stake > ZERO:
            raise SettlementError(
                f"the {bet} stake must be positive, got {stake}",
                code="stake_not_positive",
                params={"bet": str(bet), "stake": str(stake)},
                field=str(bet),
            )
        if stake % unit:
            raise SettlementError(
                f"the {bet} stake {stake} is not a multiple of the rounding unit {unit}",
                code="stake_off_unit",
                params={"bet": str(bet), "stake": str(stake), "unit": str(unit)},
                field=str(bet),
            )
        bets.append((bet, stake))
    if len(bets) > 1:
        bets.sort(key=lambda pair: _ORDER[pair[0]])
    return SeatSettlement(tuple(settle_bet(coup, bet, stake, rules) for bet, stake in bets))


def evaluate_round(
    cards: tuple[Card, ...] | list[Card],
    seats: Mapping[int, Mapping[str, Decimal]],
    rules: Ruleset,
) -> RoundOutcome:
    """A whole round: the deal checked, then every seat's bets settled on it."""
    coup = deal(cards, rules)
    return RoundOutcome(coup, {seat: settle(coup, stakes, rules) for seat, stakes in seats.items()})
