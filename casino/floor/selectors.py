"""Reads of the floor, scoped to the venues a user works at (the API's and the console's).

Every list is a queryset of the user's venues only, with the rows it is shown with loaded
(``select_related`` / ``prefetch_related``), so a page costs the same few queries however
many rows it has. A ``*_get`` returns ``None`` for an object at another venue exactly as
for one that does not exist: callers answer both with "not found".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery
from django.utils import timezone

from casino.floor.figures import with_count_sums
from casino.floor.models import Bet, Box, Round, TableSession
from casino.floor.outcomes import round_result
from casino.games import BetResult, RoundResult
from casino.ledger.models import Drop
from casino.players.models import Player
from casino.staff.models import ApiToken
from casino.staff.roles import venue_ids

_ZERO = Decimal(0)


# Venues and staff


def staff_get(*, user: Any, username: str) -> Any | None:
    """A staff member working at one of ``user``'s venues, by username."""
    return (
        get_user_model()
        .objects.filter(username=username, venues__in=venue_ids(user), is_active=True)
        .distinct()
        .first()
    )


# Sessions


def session_list(
    *,
    user: Any,
    table_id: int | None = None,
    venue_id: int | None = None,
    status: str | None = None,
) -> QuerySet[TableSession]:
    sessions = with_count_sums(
        TableSession.objects.filter(table__venue_id__in=venue_ids(user))
        .select_related(
            "table__venue",
            "shift",
            "dealer",
            "opened_by",
            "opening_confirmed_by",
            "closing_counted_by",
            "closed_by",
        )
        .order_by("-opened_at", "-pk")
    )
    if table_id is not None:
        sessions = sessions.filter(table_id=table_id)
    if venue_id is not None:
        sessions = sessions.filter(table__venue_id=venue_id)
    if status:
        sessions = sessions.filter(status=status)
    return sessions


def session_get(*, user: Any, pk: int) -> TableSession | None:
    return session_list(user=user).filter(pk=pk).first()


def session_drops(*, session: TableSession) -> QuerySet[Drop]:
    """The session's drops and their reversals, in the order they were entered."""
    return Drop.objects.filter(session=session).select_related("counted_by").order_by("pk")


def session_drop_get(*, session: TableSession, pk: int) -> Drop | None:
    return session_drops(session=session).filter(pk=pk).first()


# Rounds

_ROUND_PEOPLE = ("dealer", "created_by", "settled_by", "void_requested_by", "voided_by")


def round_list(
    *, user: Any, session_id: int | None = None, status: str | None = None
) -> QuerySet[Round]:
    rounds = (
        Round.objects.filter(session__table__venue_id__in=venue_ids(user))
        .select_related("session__table__venue", *_ROUND_PEOPLE)
        .order_by("-session_id", "-number")
    )
    if session_id is not None:
        rounds = rounds.filter(session_id=session_id)
    if status:
        rounds = rounds.filter(status=status)
    return rounds


def round_get(*, user: Any, pk: int) -> Round | None:
    return round_list(user=user).filter(pk=pk).first()


@dataclass(frozen=True)
class BoxView:
    position: int
    player: Player | None
    cards: str
    quit: bool
    evaluation: dict[str, Any]
    bets: tuple[BetResult, ...]
    net: Decimal


@dataclass(frozen=True)
class RoundView:
    """A round as the console shows it: the record, every hand and the settlement.

    For a dealt round the bets' outcomes are the preview; for a settled or voided one they
    are what it settled with (the same engine, the same ruleset version the round recorded).
    """

    round: Round
    dealer_cards: str
    dealer_evaluation: dict[str, Any] | None
    boxes: tuple[BoxView, ...]
    deal_order: tuple[int, ...]
    payment_order: tuple[int, ...]
    house_net: Decimal
    total_stake: Decimal
    total_commission: Decimal

    @property
    def preview(self) -> bool:
        return self.round.status == "dealt"


def round_view(*, round_id: int, result: RoundResult | None = None) -> RoundView:
    """The round with its boxes, players and bets, merged with its settlement.

    ``result`` is the settlement a service just computed; without it the round is
    evaluated again under the ruleset version it recorded. A fixed number of queries.
    """
    round_ = (
        Round.objects.select_related("session__table__venue", "ruleset", *_ROUND_PEOPLE)
        .prefetch_related(
            Prefetch("boxes", queryset=Box.objects.select_related("player").order_by("position")),
            Prefetch("boxes__bets", queryset=Bet.objects.order_by("pk")),
        )
        .get(pk=round_id)
    )
    if result is None:
        result = round_result(round_)
    boxes = list(round_.boxes.all())
    bets = [bet for box in boxes for bet in box.bets.all()]
    return round_view_of(round_=round_, boxes=boxes, bets=bets, result=result)


def round_answer(
    *,
    round_: Round,
    result: RoundResult,
    boxes: Sequence[Box] | None,
    bets: Sequence[Bet] | None,
) -> RoundView:
    """The view of a round a service has just dealt or settled: from the ``boxes`` and
    ``bets`` the service answered (``RoundWritten``), else read (a repeated key answers what
    is recorded, without them)."""
    if boxes is None or bets is None:
        return round_view(round_id=round_.pk, result=result)
    return round_view_of(round_=round_, boxes=boxes, bets=bets, result=result)


def round_view_of(
    *, round_: Round, boxes: Sequence[Box], bets: Sequence[Bet], result: RoundResult
) -> RoundView:
    """The view of a round a service has just written or read, from the objects it holds
    (``boxes`` with their players, and their ``bets``): the API answers a deal or a settle
    with what the service computed, without reading the round back."""
    stored = {box.position: box for box in boxes}
    shown_by_box: dict[int, dict[str, Decimal | None]] = {box.pk: {} for box in boxes}
    for bet in bets:
        shown_by_box[bet.box_id][bet.bet_type] = bet.deposit_shown
    boxes = []
    for box_result in result.boxes:
        box = stored[box_result.position]
        shown = shown_by_box[box.pk]
        boxes.append(
            BoxView(
                position=box_result.position,
                player=box.player,
                cards=box_result.cards,
                quit=box.quit,
                evaluation=box_result.evaluation,
                bets=tuple(
                    bet._replace(deposit_shown=shown.get(bet.bet_type)) for bet in box_result.bets
                ),
                net=box_result.net,
            )
        )
    all_bets = [bet for box in result.boxes for bet in box.bets]
    return RoundView(
        round=round_,
        dealer_cards=result.dealer_cards,
        dealer_evaluation=result.dealer_evaluation,
        boxes=tuple(boxes),
        deal_order=tuple(result.deal_order),
        payment_order=tuple(result.payment_order),
        house_net=round_.house_net if round_.house_net is not None else result.house_net,
        total_stake=sum((bet.stake for bet in all_bets), _ZERO),
        total_commission=sum((bet.commission for bet in all_bets), _ZERO),
    )


def api_token_list(*, user: Any) -> QuerySet[ApiToken]:
    """The user's API tokens still valid (an expired one no longer counts), newest first."""
    return ApiToken.objects.filter(user=user).exclude(expiry__lte=timezone.now())


def api_token_get(*, user: Any, pk: int) -> ApiToken | None:
    """One of the user's own tokens; another user's is not found."""
    return ApiToken.objects.filter(user=user, pk=pk).select_related("user").first()


# Open sessions


def open_session_id() -> Subquery:
    """The id of the session open at a table (null when none), an expression over ``Table``
    rows: the floor's answer to what the venues ask (``casino.venues.hooks.open_session``)."""
    return Subquery(
        TableSession.objects.filter(table=OuterRef("pk"), status=TableSession.Status.OPEN).values(
            "pk"
        )[:1]
    )
