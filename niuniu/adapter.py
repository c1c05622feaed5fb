"""Niu Niu as the floor sees it: the adapter registered in ``casino.games``."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import Any

from django.utils.translation import gettext_lazy as _

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
from casino.kernel.cards import Card, canonical_cards, format_cards, parse_cards
from casino.kernel.money import plain
from niuniu import engine
from niuniu.engine import Hand, SettlementError, round_orders, settle_hands
from niuniu.engine.odds import category_counts
from niuniu.house_edge import figures_compute, figures_summary, figures_warnings
from niuniu.models import (
    READING_DEFAULTS,
    RULE_FIELDS,
    BonusLine,
    NiuNiuRulesetVersion,
    PaytableRow,
)
from niuniu.selectors import cached_snapshot
from niuniu.validation import paytable_errors


def hand_evaluation(hand: Hand) -> dict[str, Any]:
    """A hand as stored on a box and shown on the console."""
    return {
        "category": _CATEGORY_NAMES[hand.category],
        "label": hand.label,
        "points": hand.points,
        "three": format_cards(hand.three),
        "two": format_cards(hand.two),
        "high_card": hand.high_card.text,
    }


#: The engine's refusals (``SettlementError.code``) in the reader's language; the English
#: reads as the engine's own message.
SETTLEMENT_MESSAGES = {
    "bet_not_offered": _(
        "the ruleset %(ruleset)s does not offer the %(bet)s bet; it offers %(offered)s"
    ),
    "stake_not_positive": _("the %(bet)s stake must be positive, got %(stake)s"),
    "stake_off_unit": _(
        "the %(bet)s stake %(stake)s is not a multiple of the rounding unit %(unit)s"
    ),
    "single_needed": _("a %(bet)s bet needs a single bet on the same box"),
    "single_missing": _("a box takes part in the round only with a single bet"),
    "deposit_not_placed": _("a deposit is shown for a %(bet)s bet that is not placed"),
    "deposit_short": _(
        "the %(bet)s bet of %(stake)s needs a deposit of %(required)s shown, got %(shown)s"
    ),
    "deposit_basis_missing": _(
        "the %(bet)s deposit is a multiple of the %(basis)s stake: place a %(basis)s bet on "
        "the same box"
    ),
}


def settlement_message(error: SettlementError) -> str:
    """An engine's refusal in the active language (its English when it has no code)."""
    message = SETTLEMENT_MESSAGES.get(error.code)
    return str(message) % error.params if message is not None else str(error)


class NiuNiuAdapter(GameAdapter):
    code = "niuniu"
    name = _("Niu Niu")
    bet_types = tuple(b.value for b in engine.SETTLEMENT_ORDER)
    version_model = NiuNiuRulesetVersion

    # The game's parts, each in its own module (imported when first asked, after every app
    # is loaded: they import the floor's screens, API and admin).

    @cached_property
    def console(self) -> GameConsole:
        from niuniu.console import CONSOLE

        return CONSOLE

    @cached_property
    def api(self) -> GameApi:
        from niuniu.api import API

        return API

    @cached_property
    def admin(self) -> GameAdmin:
        from niuniu.admin import ADMIN

        return ADMIN

    @cached_property
    def reports(self) -> GameReports:
        from niuniu.reports import REPORTS

        return REPORTS

    @cached_property
    def demo(self) -> GameDemo:
        from niuniu.demo import DEMO

        return DEMO

    # The rules of a version: its paytable and bonus lines beside its fields.

    rule_fields = RULE_FIELDS
    rule_relations = ("paytable_rows", "bonus_lines")

    def rules_copy(self, version: NiuNiuRulesetVersion, draft: NiuNiuRulesetVersion) -> None:
        """The fields, then a copy of each paytable row and bonus line."""
        super().rules_copy(version, draft)
        PaytableRow.objects.bulk_create(
            PaytableRow(
                version=draft,
                bet_type=row.bet_type,
                category=row.category,
                win_odds=row.win_odds,
                commission_rate=row.commission_rate,
                loss_multiple=row.loss_multiple,
            )
            for row in version.paytable_rows.all()
        )
        BonusLine.objects.bulk_create(
            BonusLine(
                version=draft,
                position=line.position,
                name=line.name,
                predicate=line.predicate,
                odds=line.odds,
            )
            for line in version.bonus_lines.all()
        )

    def rules_as_dict(self, version: NiuNiuRulesetVersion) -> dict[str, Any]:
        """The fields, the paytable and the bonus lines. A reading left as the presets take
        it is not written, so the fingerprint of a version approved before the reading was
        a setting stays what it was."""
        return {
            **{
                name: value
                for name, value in super().rules_as_dict(version).items()
                if name not in READING_DEFAULTS or value != READING_DEFAULTS[name]
            },
            "paytable": [
                [
                    r.bet_type,
                    r.category,
                    _plain(r.win_odds),
                    _plain(r.commission_rate),
                    _plain(r.loss_multiple),
                ]
                for r in version.paytable_rows.order_by("bet_type", "category")
            ],
            "bonus_lines": [
                [b.position, b.name, b.predicate, _plain(b.odds)]
                for b in version.bonus_lines.order_by("position")
            ],
        }

    def rule_errors(self, version: NiuNiuRulesetVersion) -> list[str]:
        return paytable_errors(version, version.paytable_rows.all(), version.bonus_lines.all())

    def approval_figures(self, version: NiuNiuRulesetVersion) -> tuple[dict, list[str]]:
        """The exact odds to store on approval, and what about them needs an override."""
        summary = figures_summary(figures_compute(version_id=version.pk), version)
        return summary, figures_warnings(summary)

    def snapshot(self, version: NiuNiuRulesetVersion) -> engine.Ruleset:
        return cached_snapshot(version)

    def offered_bet_types(self, rules: engine.Ruleset) -> tuple[str, ...]:
        return tuple(b.value for b in rules.bet_types)

    def evaluate_round(
        self, *, rules: engine.Ruleset, dealer_cards: str, boxes: Sequence[BoxInput]
    ) -> RoundResult:
        if not boxes:
            raise RoundInputError(
                _("a round needs at least one box with a bet"), field="boxes", reason="no_boxes"
            )
        if len(boxes) > rules.max_boxes:
            raise RoundInputError(
                _("Niu Niu deals to at most %(most)s boxes besides the dealer, got %(count)s")
                % {"most": rules.max_boxes, "count": len(boxes)},
                field="boxes",
                reason="too_many_boxes",
            )
        dealer, seen = _hand_of(dealer_cards, None, boxes)
        # Every card of the round once: the cards' masks (one bit a card) do not overlap.
        hands: list[tuple[Card, ...]] = []
        for index, box in enumerate(boxes):
            cards, held = _hand_of(box.cards, index, boxes)
            if seen & held:
                _overlap(dealer, boxes, hands, cards, index)
            seen |= held
            hands.append(cards)
        dealer_hand = engine.evaluate(dealer, rules)
        results = []
        for index, (box, cards) in enumerate(zip(boxes, hands, strict=True)):
            try:
                settled = settle_hands(
                    engine.evaluate(cards, rules),
                    dealer_hand,
                    box.stakes,
                    rules,
                    deposits=box.deposits or None,
                    distinct=True,  # every card of the round checked once, above
                )
            except SettlementError as error:
                field = (
                    error.field if error.field.startswith("deposits.") else f"bets.{error.field}"
                )
                raise RoundInputError(
                    _("box %(position)s: %(error)s")
                    % {"position": box.position, "error": settlement_message(error)},
                    field=f"boxes[{index}].{field}",
                    reason=error.code or "invalid",
                ) from None
            results.append(
                BoxResult(
                    position=box.position,
                    cards=format_cards(cards),
                    evaluation=hand_evaluation(settled.player),
                    # Positional, in the fields' order (half a keyword call's cost, and a
                    # day's re-settlement makes one a bet): each argument names its field.
                    bets=tuple(
                        [
                            BetResult(
                                _BET_NAMES[line.bet_type],
                                line.stake,
                                line.deposit_required,
                                line.outcome,
                                line.odds,
                                line.gross,
                                line.commission,
                                line.net,
                            )
                            for line in settled.lines
                        ]
                    ),
                )
            )
        dealt, paid = self.round_orders(boxes)
        return RoundResult(
            dealer_cards=format_cards(dealer),
            dealer_evaluation=hand_evaluation(dealer_hand),
            boxes=tuple(results),
            deal_order=dealt,
            payment_order=paid,
        )

    integrity_tested = True

    def integrity_counts(self, result: RoundResult) -> IntegrityCounts:
        """The dealer's category, each box's category and its single bet's outcome against
        the dealer (a box without one is counted by its hand only), the same per position
        of the table (``seat_box_hand``, ``seat_box_outcome``: ``"<position>:<category>"``,
        whoever sat there, rated or not), the round's boxes won of those decided
        (``round_outcome`` ``won/decided``: boxes against one dealer's hand win or lose
        together), and every card dealt."""
        keys: list[IntegrityKey] = []
        cards = list(result.dealer_cards.split())
        if result.dealer_evaluation is not None:
            keys.append(IntegrityKey("dealer_hand", result.dealer_evaluation["category"]))
        for box in result.boxes:
            category = box.evaluation["category"]
            keys.append(IntegrityKey("box_hand", category, box.position))
            keys.append(IntegrityKey("seat_box_hand", f"{box.position}:{category}"))
            for bet in box.bets:
                if bet.bet_type == engine.BetType.SINGLE.value:
                    keys.append(IntegrityKey("box_outcome", bet.outcome, box.position))
                    keys.append(IntegrityKey("seat_box_outcome", f"{box.position}:{bet.outcome}"))
            cards += box.cards.split()
        outcomes = [key.category for key in keys if key.subject == "box_outcome"]
        if outcomes:
            won = sum(outcome == "win" for outcome in outcomes)
            keys.append(IntegrityKey("round_outcome", f"{won}/{len(outcomes)}"))
        return IntegrityCounts(tuple(keys), tuple(cards))

    def integrity_expected(self, rules: engine.Ruleset) -> dict[str, dict[str, Fraction]]:
        """Exact: each category's five-card hands of the 52 over all of them (the dealer's
        and a box's alike, dealt from one deck); a box wins exactly half of all deals (the
        swap symmetry of the showdown counts), never pushes."""
        key = repr(rules)  # a ruleset holds mappings: unhashable, its repr is its key
        if key not in _EXPECTED:
            if len(_EXPECTED) >= _EXPECTED_KEPT:
                _EXPECTED.pop(next(iter(_EXPECTED)))  # the oldest
            _EXPECTED[key] = _expected_computed(rules)
        return _EXPECTED[key]

    def boxes_dealt(self, rules: engine.Ruleset, seats: int) -> int:
        """The table's seats, at most the version's box limit."""
        return min(seats, rules.max_boxes)

    def round_orders(self, boxes: Sequence[BoxInput]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Dealt from the largest single stake; paid from the dealer's right."""
        singles = {box.position: Decimal(box.stakes.get("single", 0)) for box in boxes}
        return round_orders(singles)


#: Expected figures per ruleset (its repr), computed once per process; the oldest goes
#: when 32 are kept (the versions whose integrity is tested at once are a few).
_EXPECTED: dict[str, Any] = {}
_EXPECTED_KEPT = 32


def _expected_computed(rules: engine.Ruleset) -> dict[str, dict[str, Fraction]]:
    hands = comb(52, 5)
    categories = {
        category.name: Fraction(count, hands) for category, count in category_counts(rules).items()
    }
    return {
        "dealer_hand": categories,
        "box_hand": dict(categories),
        "box_outcome": {"win": Fraction(1, 2), "lose": Fraction(1, 2), "push": Fraction(0)},
    }


def _plain(value: object) -> object:
    """A rule value as JSON: decimals as their shortest exact text ("3", not "3.0000")."""
    return plain(value) if isinstance(value, Decimal) else value


#: Each bet type's name as a plain str (what a ``BetResult`` holds).
_BET_NAMES = {bet_type: bet_type.value for bet_type in engine.BetType}
#: Each category's name (the stored evaluation's ``category``).
_CATEGORY_NAMES = {category: category.name for category in engine.Category}


def _overlap(
    dealer: tuple[Card, ...],
    boxes: Sequence[BoxInput],
    hands: list[tuple[Card, ...]],
    cards: tuple[Card, ...],
    index: int,
) -> None:
    """The refusal of box ``index``'s ``cards``, one of which an earlier hand holds: the
    first such card and the hand it is in."""
    seen: dict[Card, str] = dict.fromkeys(dealer, "the dealer's hand")
    for box, held in zip(boxes, hands, strict=False):
        seen.update(dict.fromkeys(held, f"box {box.position}"))
    label = f"box {boxes[index].position}"
    card = next(card for card in cards if card in seen)
    raise RoundInputError(
        f"'{card}' is in both {seen[card]} and {label}", field=f"boxes[{index}].cards"
    )


def _hand_of(
    text: str, index: int | None, boxes: Sequence[BoxInput]
) -> tuple[tuple[Card, ...], int]:
    """The five distinct cards of the dealer's hand (``index`` None) or of box ``index``,
    and their masks (one bit a card) together. Canonical text (every record's) is read by
    look-up, its five masks distinct; anything else as :func:`_parse` reads it."""
    cards = canonical_cards(text) if isinstance(text, str) else None
    if cards is not None and len(cards) == 5:
        first, second, third, fourth, fifth = cards
        held = first.mask | second.mask | third.mask | fourth.mask | fifth.mask
        if held.bit_count() == 5:  # no card twice
            return cards, held
    cards = _parse(text, index, boxes)  # names what is wrong, or reads another spelling
    return cards, sum([card.mask for card in cards])


def _parse(text: str, index: int | None, boxes: Sequence[BoxInput]) -> tuple[Card, ...]:
    """The five cards of the dealer's hand (``index`` None) or of box ``index``; the field
    and the hand are named only in a refusal."""
    try:
        return parse_cards(text, count=5)
    except (TypeError, ValueError) as error:
        if index is None:
            field, label = "dealer_cards", "the dealer's hand"
        else:
            field, label = f"boxes[{index}].cards", f"box {boxes[index].position}"
        raise RoundInputError(f"{label}: {error}", field=field) from None
