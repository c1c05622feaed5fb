"""Settling a dealt round: the outcome it was dealt with, checked and posted to the ledger
once (dealing is ``casino.floor.services.rounds``, voiding ``casino.floor.services.voids``).

Locking: ``round_settle`` locks the round row, so a round is settled exactly once however
many requests arrive at the same time. Every write runs in one transaction: a round has all
of its ledger entries or none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from casino import games
from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.compiled import SAMPLE_KEY, Compiled, lock_by_key
from casino.floor.models import Bet, Box, Round, RoundStatus
from casino.floor.outcomes import has_outcomes, inputs_of, recorded_result, round_result, with_bets
from casino.floor.rules import rules_of_round
from casino.floor.services.rounds import RoundWritten, check_key
from casino.floor.services.tallies import tally_settled
from casino.floor.signals import round_tallied
from casino.games import RoundResult
from casino.kernel.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.kernel.metrics import SETTLE_SECONDS, timed
from casino.ledger.models import LedgerEntry
from casino.ledger.services import ledger_post
from casino.staff.roles import PLAY, can, venue_ids

#: What the posting and the answer need, and no more.
#: The session's shift with it: the integrity tallies key their rows by its gaming date.
_LOCK_ROUND_TO_SETTLE = lock_by_key(Round, "session__table__venue", "session__shift", "ruleset")
_BOXES = Compiled(
    lambda round_: Box.objects.filter(round_id=round_).select_related("player").order_by("pk"),
    samples=(SAMPLE_KEY,),
)
_BETS = Compiled(
    lambda round_: Bet.objects.filter(box__round_id=round_).order_by("pk"), samples=(SAMPLE_KEY,)
)


def outcomes_of(
    round_: Round, adapter: games.GameAdapter, dealt: RoundWritten | None
) -> tuple[RoundResult, list[Box], list[Bet]]:
    """The outcome a round was dealt with, and its boxes and bets: from ``round_create`` in
    this transaction, else read back (two queries). Nothing is evaluated, but for a round
    dealt before outcomes were recorded at deal time (evaluated here, once, and recorded)."""
    if dealt is not None and dealt.boxes is not None and dealt.bets is not None:
        return dealt.result, dealt.boxes, dealt.bets
    boxes = _BOXES(round_.pk)
    bets = _BETS(round_.pk)
    with_bets(boxes, bets)
    if has_outcomes(boxes):
        return recorded_result(round_, boxes, adapter), boxes, bets
    result = adapter.evaluate_round(
        rules=rules_of_round(round_), dealer_cards=round_.dealer_cards, boxes=inputs_of(boxes)
    )
    by_key = {(box.position, bet.bet_type): bet for box in boxes for bet in box.bets.all()}
    for box_result in result.boxes:
        for line in box_result.bets:
            bet = by_key[(box_result.position, line.bet_type)]
            bet.outcome, bet.odds, bet.gross = line.outcome, line.odds, line.gross
            bet.commission, bet.net = line.commission, line.net
    _record_outcomes(bets)
    return result, boxes, bets


def _check_outcome(round_: Round, result: RoundResult, bets: Sequence[Bet]) -> None:
    """The outcome to post is the one the bets recorded: every bet once, its net the
    engine's gross less commission (a posting that does not add up is refused, never paid)."""
    lines = [line for box in result.boxes for line in box.bets]
    if len(lines) != len(bets) or any(line.net != line.gross - line.commission for line in lines):
        raise Conflict(
            f"round {round_.number} does not add up as recorded; it cannot be settled, "
            "void it and deal it again"
        )


def round_settle(*, round_: Round, user: Any, key: str) -> tuple[Round, RoundResult]:
    """:func:`round_settle_written`, answering only the round and its result."""
    written = round_settle_written(round_=round_, user=user, key=key)
    return written.round, written.result


@timed(SETTLE_SECONDS)  # outside the transaction: its commit is part of the wait
def round_settle_written(
    *,
    round_: Round,
    user: Any,
    key: str,
    dealt: RoundWritten | None = None,
    savepoint: bool = True,
) -> RoundWritten:
    """Settle a dealt round once: post the outcome it was dealt with, in one transaction.

    The outcome was evaluated when the round was dealt, under the version it records,
    rounding included, and recorded on its bets: settling posts exactly that (checked, not
    evaluated again; a round settled in the transaction that dealt it is not even read
    back). Nothing is read from the venue's current settings. Idempotent by ``key``: the
    same key answers with the settlement already made. A round settled under another key,
    or voided, is a conflict. ``round_`` needs only its key: a round at none of the user's
    venues is not found. ``dealt`` is what :func:`round_create_written` answered for it in
    this transaction, if anything: its boxes and bets are posted without reading them back.

    ``savepoint`` False: inside a caller's transaction, no savepoint of its own. Only for
    a caller that lets every refusal leave its transaction (``round_confirm``), which then
    rolls back whole: a refusal caught inside the transaction needs the savepoint.
    """
    with transaction.atomic(savepoint=savepoint):
        key = check_key(key, "Idempotency-Key")
        if key is None:
            raise InvalidInput("send an Idempotency-Key to settle a round", field="Idempotency-Key")
        if dealt is not None and dealt.round.pk != round_.pk:
            raise ValueError(
                f"round {round_.pk} was given what round {dealt.round.pk} was dealt with"
            )
        locked = _LOCK_ROUND_TO_SETTLE.first(round_.pk)
        if locked is None or locked.session.table.venue_id not in venue_ids(user):
            raise NotFound(f"there is no round {round_.pk} at your venues")
        round_ = locked
        if round_.created_by_id == user.pk:
            round_.created_by = user
        if round_.dealer_id == user.pk:
            round_.dealer = user
        venue = round_.session.table.venue
        if not can(user, PLAY, venue.pk):
            raise Forbidden("you do not settle rounds at this venue")
        if round_.status == RoundStatus.SETTLED:
            if round_.settle_key == key:
                return RoundWritten(round=round_, result=round_result(round_))
            raise Conflict(f"round {round_.number} is already settled")
        if round_.status == RoundStatus.VOIDED:
            raise Conflict(f"round {round_.number} is voided and cannot be settled")

        adapter = games.get(round_.game)
        result, boxes, bets = outcomes_of(round_, adapter, dealt)
        _check_outcome(round_, result, bets)
        _post_outcome(round_, adapter, result, boxes, bets, venue=venue, user=user)
        round_.status = RoundStatus.SETTLED
        round_.settle_key = key
        round_.settled_by = user
        round_.settled_at = timezone.now()
        round_.house_net = result.house_net
        try:
            # No savepoint of its own: a refusal here leaves this service's transaction (or
            # savepoint) by the exception, which rolls back the ledger entries with it.
            round_.save(
                update_fields=["status", "settle_key", "settled_by", "settled_at", "house_net"]
            )
        except IntegrityError:
            # Keys are unique per session (another venue's keys are theirs, never a conflict).
            raise Conflict(
                "this Idempotency-Key was already used to settle another round of this session; "
                "send a new key for each round"
            ) from None
        tally_settled([round_.pk])
        round_tallied.send(sender=Round, round_=round_, result=result, boxes=boxes, sign=1)
        audit_record(
            user=user,
            action=AuditAction.ROUND_SETTLE,
            obj=round_,
            venue=venue,
            summary=f"settled round {round_.number}: house {result.house_net}",
        )
        return RoundWritten(round=round_, result=result, boxes=boxes, bets=bets)


def _post_outcome(
    round_: Round,
    adapter: games.GameAdapter,
    result: RoundResult,
    boxes: Sequence[Box],
    bets: Sequence[Bet],
    *,
    venue: Any,
    user: Any,
) -> None:
    """The round's outcome posted to the ledger as the game says (``ledger_lines``), each
    line with its box, bet and player."""
    box_by_position = {box.position: box for box in boxes}
    position_of = {box.pk: box.position for box in boxes}
    by_key = {(position_of[bet.box_id], bet.bet_type): bet for bet in bets}
    ledger_post(
        LedgerEntry(
            venue=venue,
            session_id=round_.session_id,
            round=round_,
            box=box_by_position.get(line.position) if line.position else None,
            bet=by_key.get((line.position, line.bet_type)),
            player_id=box_by_position[line.position].player_id if line.position else None,
            account=line.account,
            kind=line.kind,
            amount=line.amount,
            created_by=user,
        )
        for line in adapter.ledger_lines(result)
    )


def _record_outcomes(bets: list[Bet]) -> None:
    """Write every bet's outcome in one UPDATE.

    Django's ``bulk_update`` builds a CASE expression per field and bet, which costs more
    than the whole settlement on a full table; an UPDATE joined to a VALUES list does not.
    """
    table = connection.ops.quote_name(Bet._meta.db_table)
    rows = ", ".join(["(%s, %s, %s, %s, %s, %s)"] * len(bets))
    params: list[Any] = []
    for bet in bets:
        params += [bet.pk, bet.outcome, bet.odds, bet.gross, bet.commission, bet.net]
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH v (id, outcome, odds, gross, commission, net) AS (VALUES {rows}) "  # noqa: S608
            f"UPDATE {table} SET outcome = v.outcome, odds = v.odds, gross = v.gross, "
            f"commission = v.commission, net = v.net FROM v WHERE {table}.id = v.id",
            params,
        )
