"""Dealing rounds: the boxes and stakes checked, the round evaluated under the rules in force
and written with its boxes and bets (settling is ``casino.floor.services.settlement``,
voiding ``casino.floor.services.voids``).

Locking: ``round_create`` locks the session row (round numbers are sequential per
session, and the number the next round takes is the table's state a preview was made in:
``expected_number``). Every write runs in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from casino import games
from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.compiled import (
    SAMPLE_DATE,
    SAMPLE_KEY,
    SAMPLE_TEXT,
    Compiled,
    key_samples,
)
from casino.floor.models import Bet, Box, Round, TableSession
from casino.floor.outcomes import round_result
from casino.floor.rules import rules_in_force
from casino.floor.services.rotation import check_may_deal
from casino.floor.services.sessions import lock_open_session
from casino.games import BoxInput, RoundResult
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import Grouping, written
from casino.kernel.timezones import venue_today
from casino.players.eligibility import Activity, players_eligibility
from casino.players.models import Player
from casino.players.selectors import barred_on
from casino.staff.roles import PLAY, can
from casino.venues.limits import Limit, table_limits_in_force
from casino.venues.models import TableLimit

MAX_KEY_LENGTH = 64


def check_key(key: str | None, field: str) -> str | None:
    """An idempotency key stripped (None when none is sent), refused when empty or too long."""
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_KEY_LENGTH:
        raise InvalidInput(
            f"the idempotency key must be 1 to {MAX_KEY_LENGTH} characters", field=field
        )
    return key


def _amount(value: Decimal, grouping: Grouping | str = Grouping.COMMA) -> str:
    """An amount in a message: ``10,000``, ``95.5`` (no exponent, no trailing zeros)."""
    return written(value, grouping)


def check_stake(
    *,
    stake: Decimal,
    limit: Limit | TableLimit | None,
    unit: Decimal | None = None,
    grouping: Grouping | str = Grouping.COMMA,
) -> None:
    """The floor's rules of one stake: within the table's limits for its bet and, when
    ``unit`` is given (the rules' rounding unit), more than 0 and a multiple of it.

    ``InvalidInput`` with the reason (``stake_below_minimum``, ``stake_above_maximum``,
    ``stake_not_positive``, ``stake_off_unit``) and a message in the reader's language, its
    amounts in ``grouping`` (the venue's, on its console); the caller sets the field. The
    console checks a stake with it as the dealer types.
    """
    if limit is not None and stake < limit.min_stake:
        raise InvalidInput(
            _("the stake %(stake)s is below the table minimum of %(min)s")
            % {"stake": _amount(stake, grouping), "min": _amount(limit.min_stake, grouping)},
            reason="stake_below_minimum",
        )
    if limit is not None and stake > limit.max_stake:
        raise InvalidInput(
            _("the stake %(stake)s is above the table maximum of %(max)s")
            % {"stake": _amount(stake, grouping), "max": _amount(limit.max_stake, grouping)},
            reason="stake_above_maximum",
        )
    if unit is None:
        return
    if stake <= 0:
        raise InvalidInput(_("A stake must be more than 0"), reason="stake_not_positive")
    if stake % unit:
        raise InvalidInput(
            _("Stakes go in steps of %(unit)s") % {"unit": _amount(unit, grouping)},
            reason="stake_off_unit",
        )


# The reads of every round, their SQL built once (casino.compiled): a round's own key and
# the few tables they join, no default order that would join more only to sort.
_ROUND_OF_KEY = Compiled(
    lambda session, key: Round.objects.filter(session_id=session, create_key=key).order_by()[:1],
    samples=(SAMPLE_KEY, SAMPLE_TEXT),
)
#: Players a round's boxes name, looked up this many at a time (the boxes of the largest
#: table; one repeated where fewer are asked, more in turns).
PLAYERS_AT_ONCE = 8
#: The venue's players of ``PLAYERS_AT_ONCE`` ids and whether a barring keeps each from
#: play on a date (``barred_today``).
_PLAYERS_TO_CHECK = Compiled(
    lambda venue_id, on, *ids: (
        Player.objects.filter(pk__in=ids, venue_id=venue_id)
        .annotate(barred_today=barred_on(on))
        .order_by()
    ),
    samples=(SAMPLE_KEY, SAMPLE_DATE, *key_samples(PLAYERS_AT_ONCE)),
)


def _check_boxes(session: TableSession, boxes: Sequence[BoxInput]) -> dict[int, Player]:
    """Positions, players and table limits: what the floor checks before the game does."""
    table = session.table
    positions: set[int] = set()
    player_ids = {box.player_id for box in boxes if box.player_id is not None}
    # Unordered (the models' default orders join the venue only to sort); the same query
    # says who is barred on the venue's date (a barring keeps them from rounds).
    today = venue_today(table.venue) if player_ids else None
    players = {
        player.pk: player
        for player in _PLAYERS_TO_CHECK.in_turns((table.venue_id, today), sorted(player_ids))
    }
    # The eligibility question, answered from that annotation: a query of its own only to
    # read the barrings of the barred.
    answers = players_eligibility(
        players=players.values(), venue=table.venue, activity=Activity.PLAY
    )
    limits = table_limits_in_force(table.pk)
    for index, box in enumerate(boxes):
        if not 1 <= box.position <= table.seats:
            raise InvalidInput(
                _(
                    "box position %(position)s is not on table %(table)s; it has boxes 1 to "
                    "%(seats)s"
                )
                % {"position": box.position, "table": table.code, "seats": table.seats},
                field=f"boxes[{index}].position",
                reason="box_not_on_table",
            )
        if box.position in positions:
            raise InvalidInput(
                _("box %(position)s is given twice") % {"position": box.position},
                field=f"boxes[{index}].position",
                reason="box_twice",
            )
        positions.add(box.position)
        if box.player_id is not None:
            player = players.get(box.player_id)
            if player is None:
                raise InvalidInput(
                    _("there is no player %(player)s at this venue") % {"player": box.player_id},
                    field=f"boxes[{index}].player",
                    reason="player_unknown",
                )
            answers[player.pk].check(field=f"boxes[{index}].player")
        for bet_type, stake in box.stakes.items():
            # A bet type without a limit: the game refuses one its rules do not offer.
            try:
                check_stake(
                    stake=stake, limit=limits.get(bet_type), grouping=table.venue.amount_grouping
                )
            except InvalidInput as error:
                error.field = f"boxes[{index}].bets.{bet_type}"
                raise
    return players


def table_moved_on(session: TableSession, expected_number: int) -> Conflict | InvalidInput:
    """The refusal of a round previewed as round ``expected_number`` of ``session`` when the
    table has recorded rounds since (``session`` is the locked row)."""
    recorded = session.next_round_number - 1
    if expected_number > recorded:
        return InvalidInput(
            _("Round %(number)s is not the next round of this session: the next is %(next)s.")
            % {"number": expected_number, "next": session.next_round_number},
            field="expected_number",
            reason="round_number_ahead",
        )
    return Conflict(
        _(
            "Table %(table)s moved on after this preview: round %(number)s was recorded there "
            "since. If it was this deal, it is recorded already; otherwise preview the round "
            "again and confirm it."
        )
        % {"table": session.table.code, "number": recorded},
        reason="table_moved_on",
    )


def _rules_in_force(session: TableSession) -> tuple[games.GameAdapter, Any, Any]:
    found = rules_in_force(session.table)
    return found.game, found.version, found.rules


def round_preview(
    *, session: TableSession, dealer_cards: str, boxes: Sequence[BoxInput]
) -> RoundResult:
    """Evaluate and settle a round without writing anything (the console's preview)."""
    session = TableSession.objects.select_related("table__venue", "table__ruleset__venue").get(
        pk=session.pk
    )
    _check_boxes(session, boxes)
    adapter, _version, rules = _rules_in_force(session)
    return adapter.evaluate_round(rules=rules, dealer_cards=dealer_cards, boxes=boxes)


def round_create(
    *,
    session: TableSession,
    user: Any,
    dealer_cards: str,
    boxes: Sequence[BoxInput],
    create_key: str | None = None,
    expected_number: int | None = None,
) -> tuple[Round, RoundResult]:
    """:func:`round_create_written`, answering only the round and its result."""
    written = round_create_written(
        session=session,
        user=user,
        dealer_cards=dealer_cards,
        boxes=boxes,
        create_key=create_key,
        expected_number=expected_number,
    )
    return written.round, written.result


def round_create_written(
    *,
    session: TableSession,
    user: Any,
    dealer_cards: str,
    boxes: Sequence[BoxInput],
    create_key: str | None = None,
    expected_number: int | None = None,
    savepoint: bool = True,
) -> RoundWritten:
    """Record a dealt round: its bets and cards, checked together, under the rules in force.

    The answer carries every hand's evaluation and the settlement preview. The same
    ``create_key`` in the same session returns the round already recorded. ``session``
    needs only its key: a session at none of the user's venues is not found.

    ``expected_number`` is the number the round was to take when it was previewed (the
    session's ``next_round_number`` then): when another round was recorded at the table
    since (a second terminal, a client of the API), the round is refused (``Conflict``,
    ``table_moved_on``) and nothing is written: the preview spoke of a table that has moved
    on. The same ``create_key`` again still answers the round it recorded.

    ``savepoint`` False: inside a caller's transaction, no savepoint of its own. Only for
    a caller that lets every refusal leave its transaction (``round_confirm``), which then
    rolls back whole: a refusal caught inside the transaction needs the savepoint.
    """
    with transaction.atomic(savepoint=savepoint):
        create_key = check_key(create_key, "create_key")
        session = lock_open_session(session.pk, seen_by=user)
        if not can(user, PLAY, session.table.venue_id):
            raise Forbidden("you do not deal at this venue")
        check_may_deal(user=user, session=session)
        if create_key:
            # After the lock, in a statement of its own: a query that waited for the lock sees
            # the rows committed meanwhile only from its next statement on (READ COMMITTED), so
            # a Confirm sent twice finds the round the first one dealt.
            existing = _ROUND_OF_KEY.first(session.pk, create_key)
            if existing is not None:
                return RoundWritten(round=existing, result=round_result(existing))
        if expected_number is not None and expected_number != session.next_round_number:
            raise table_moved_on(session, expected_number)
        players = _check_boxes(session, boxes)
        adapter, version, rules = _rules_in_force(session)
        result = adapter.evaluate_round(rules=rules, dealer_cards=dealer_cards, boxes=boxes)
        round_ = _round_written(session, user, adapter, version, result, create_key)
        created, bets = _boxes_written(round_, result, boxes, players)
        audit_record(
            user=user,
            action=AuditAction.ROUND_CREATE,
            obj=round_,
            venue=session.table.venue,
            summary=f"dealt round {round_.number} at {session.table}",
        )
        return RoundWritten(round=round_, result=result, boxes=created, bets=bets)


def _round_written(
    session: TableSession,
    user: Any,
    adapter: games.GameAdapter,
    version: Any,
    result: RoundResult,
    create_key: str | None,
) -> Round:
    """The round written as the session's next, under the version in force, its dealer the
    one on duty (from the locked session row)."""
    number = session.next_round_number
    session.next_round_number = number + 1
    session.save(update_fields=["next_round_number"])
    (round_,) = Round.objects.bulk_create(
        [
            Round(
                session=session,
                number=number,
                game=adapter.code,
                ruleset_id=session.table.ruleset_id,
                ruleset_version_id=version.pk,
                ruleset_version_number=version.number,
                dealer_cards=result.dealer_cards,
                dealer_evaluation=result.dealer_evaluation,
                # The dealer on duty, from the session row locked above (no query).
                dealer_id=session.dealer_id,
                create_key=create_key,
                created_by=user,
            )
        ]
    )
    round_.ruleset = session.table.ruleset
    if round_.dealer_id == user.pk:
        round_.dealer = user
    return round_


def _boxes_written(
    round_: Round, result: RoundResult, boxes: Sequence[BoxInput], players: dict[int, Player]
) -> tuple[list[Box], list[Bet]]:
    """The round's boxes and bets written, each bet with the outcome evaluated now."""
    inputs = {box.position: box for box in boxes}
    created = Box.objects.bulk_create(
        [
            Box(
                round=round_,
                position=box.position,
                player=players.get(inputs[box.position].player_id),
                cards=box.cards,
                evaluation=box.evaluation,
                quit=inputs[box.position].quit,
            )
            for box in result.boxes
        ]
    )
    by_position = {box.position: box for box in created}
    bets = Bet.objects.bulk_create(
        [
            Bet(
                box=by_position[box.position],
                bet_type=bet.bet_type,
                stake=bet.stake,
                deposit_shown=inputs[box.position].deposits.get(bet.bet_type),
                deposit_required=bet.deposit_required,
                # The round's outcome as evaluated now, under the version it records: what
                # settling posts. A dealt round is not paid until it is settled.
                outcome=bet.outcome,
                odds=bet.odds,
                gross=bet.gross,
                commission=bet.commission,
                net=bet.net,
            )
            for box in result.boxes
            for bet in box.bets
        ]
    )
    return created, bets


@dataclass(frozen=True)
class RoundWritten:
    """A round as a service has just dealt or settled it: its outcome, and the boxes and bets
    that record it (None when the service answered a repeated key without reading them).
    Settling a round dealt in the same transaction (the console's Confirm) is given it and
    posts it without reading it back, and an answer is built from it (``round_answer``)."""

    round: Round
    result: RoundResult
    boxes: list[Box] | None = None
    bets: list[Bet] | None = None
