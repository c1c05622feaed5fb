"""A round's outcome as it recorded itself: the read every screen and answer shows.

A round's outcome is evaluated once, when it is dealt, under the ruleset version it
records, and stored on its bets (outcome, odds, gross, commission, net) and boxes (cards,
evaluation); settling posts exactly that. So a round is shown from what it recorded, dealt
or settled, voided since or not, and nothing is evaluated again: no later change (a venue's
settings, a new version) changes what it shows or makes showing it fail.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Prefetch

from casino import games
from casino.floor.models import Bet, Box, Round
from casino.floor.rules import rules_of_round
from casino.games import BetResult, BoxInput, BoxResult, RoundResult


def with_bets(boxes: Sequence[Box], bets: Sequence[Bet]) -> None:
    """Give each box its ``bets`` (read in one query of their own, in their order) as
    ``box.bets.all()``, as ``prefetch_related("bets")`` does."""
    of_box: dict[int, list[Bet]] = {box.pk: [] for box in boxes}
    for bet in bets:
        of_box[bet.box_id].append(bet)
    for box in boxes:
        found = box.bets.all()
        found._result_cache = of_box[box.pk]
        found._prefetch_done = True
        box._prefetched_objects_cache = {"bets": found}


def with_boxes(round_: Round, boxes: Sequence[Box]) -> None:
    """Give the round its ``boxes`` (in their order) as ``round_.boxes.all()``, as
    ``prefetch_related("boxes")`` does."""
    found = round_.boxes.all()
    found._result_cache = list(boxes)
    found._prefetch_done = True
    round_._prefetched_objects_cache = {"boxes": found}


def inputs_of(boxes: Sequence[Box]) -> list[BoxInput]:
    return [
        BoxInput(
            position=box.position,
            cards=box.cards,
            stakes={bet.bet_type: bet.stake for bet in box.bets.all()},
            deposits={
                bet.bet_type: bet.deposit_shown
                for bet in box.bets.all()
                if bet.deposit_shown is not None
            },
            player_id=box.player_id,
            quit=box.quit,
        )
        for box in boxes
    ]


def recorded_result(round_: Round, boxes: Sequence[Box], adapter: games.GameAdapter) -> RoundResult:
    """A settled round as it recorded itself: each box's cards and evaluation and each bet's
    outcome, odds and amounts, in the order they were dealt and posted. No rule is read."""
    deal_order, payment_order = adapter.round_orders(inputs_of(boxes))
    return RoundResult(
        dealer_cards=round_.dealer_cards,
        dealer_evaluation=round_.dealer_evaluation,
        boxes=tuple(
            BoxResult(
                position=box.position,
                cards=box.cards,
                evaluation=box.evaluation or {},
                bets=tuple(
                    BetResult(
                        bet_type=bet.bet_type,
                        stake=bet.stake,
                        deposit_required=bet.deposit_required,
                        outcome=bet.outcome,
                        odds=bet.odds,
                        gross=bet.gross,
                        commission=bet.commission,
                        net=bet.net,
                    )
                    for bet in box.bets.all()
                ),
            )
            for box in boxes
        ),
        deal_order=deal_order,
        payment_order=payment_order,
    )


def has_outcomes(boxes: Sequence[Box]) -> bool:
    """Whether the round's bets carry the outcome evaluated when it was dealt (every round
    dealt since outcomes are recorded at deal time; older dealt rounds do not)."""
    return all(bet.outcome for box in boxes for bet in box.bets.all())


def round_result(round_: Round) -> RoundResult:
    """A recorded round's hands and settlement, in three queries.

    A round is shown from what it recorded: its bets' outcomes and amounts (evaluated once,
    when it was dealt, under the version it records; posted as they are when it is settled),
    its boxes' cards and evaluations. Nothing is evaluated again, so no later change (a
    venue's settings, a new version) changes it or makes it fail. Only a dealt round that
    predates outcomes being recorded at deal time is evaluated, under its recorded version,
    which never changes.
    """
    round_ = (
        Round.objects.select_related("ruleset__venue")
        .prefetch_related(
            Prefetch("boxes", queryset=Box.objects.order_by("pk")),
            # The order the bets were recorded in is the engine's settlement order.
            Prefetch("boxes__bets", queryset=Bet.objects.order_by("pk")),
        )
        .get(pk=round_.pk)
    )
    adapter = games.get(round_.game)
    boxes = list(round_.boxes.all())
    if round_.settled_at is not None or has_outcomes(boxes):
        return recorded_result(round_, boxes, adapter)
    return adapter.evaluate_round(
        rules=rules_of_round(round_), dealer_cards=round_.dealer_cards, boxes=inputs_of(boxes)
    )
