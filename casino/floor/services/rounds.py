"""Dealing, settling and voiding rounds.

Locking: ``round_create`` locks the session row (round numbers are sequential per
session, and the number the next round takes is the table's state a preview was made in:
``expected_number``); ``round_settle`` and the void services lock the round row, so a
round is settled or voided exactly once however many requests arrive at the same time.
Every write runs in one transaction: a round has all of its ledger entries or none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino import games
from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.compiled import (
    SAMPLE_KEY,
    SAMPLE_TEXT,
    SAMPLE_TIME,
    Compiled,
    lock_by_key,
)
from casino.floor.models import Bet, Box, Round, RoundStatus, TableSession
from casino.floor.outcomes import has_outcomes, inputs_of, recorded_result, round_result, with_bets
from casino.floor.rules import rules_in_force, rules_of_round
from casino.floor.selectors import barred_on
from casino.floor.services.rotation import check_may_deal
from casino.floor.services.sessions import lock_open_session
from casino.floor.services.tallies import tally_settled, tally_voided
from casino.floor.signals import round_tallied
from casino.games import BoxInput, RoundResult
from casino.kernel.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.kernel.money import Grouping, written
from casino.kernel.timezones import venue_today
from casino.ledger.models import EntryKind, LedgerEntry
from casino.ledger.services import ledger_post
from casino.players.eligibility import Activity, players_eligibility
from casino.players.models import Player
from casino.staff.roles import PLAY, SUPERVISE, can, venue_ids
from casino.venues.limits import Limit, in_force, with_limits_in_force
from casino.venues.models import TableLimit

MAX_KEY_LENGTH = 64


def _check_key(key: str | None, field: str) -> str | None:
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
#: The table's limits in force at an instant (``casino.venues.limits``), in one query.
_LIMITS = Compiled(
    lambda table, at: with_limits_in_force(
        TableLimit.objects.filter(table_id=table), at
    ).order_by(),
    samples=(SAMPLE_KEY, SAMPLE_TIME),
)
#: What the posting and the answer need, and no more.
_LOCK_ROUND_TO_SETTLE = lock_by_key(Round, "session__table__venue", "ruleset")
_BOXES = Compiled(
    lambda round_: Box.objects.filter(round_id=round_).select_related("player").order_by("pk"),
    samples=(SAMPLE_KEY,),
)
_BETS = Compiled(
    lambda round_: Bet.objects.filter(box__round_id=round_).order_by("pk"), samples=(SAMPLE_KEY,)
)


def _check_boxes(session: TableSession, boxes: Sequence[BoxInput]) -> dict[int, Player]:
    """Positions, players and table limits: what the floor checks before the game does."""
    table = session.table
    positions: set[int] = set()
    player_ids = {box.player_id for box in boxes if box.player_id is not None}
    # Unordered: the models' default orders join the venue (and table) only to sort. The
    # same query says who is barred on the venue's date (a barring keeps them from rounds).
    today = venue_today(table.venue) if player_ids else None
    players = (
        {
            p.pk: p
            for p in Player.objects.filter(pk__in=player_ids, venue_id=table.venue_id)
            .annotate(barred_today=barred_on(today))
            .order_by()
        }
        if player_ids
        else {}
    )
    # The eligibility question, answered from that annotation: a query of its own only to
    # read the barrings of the barred.
    answers = players_eligibility(
        players=players.values(), venue=table.venue, activity=Activity.PLAY
    )
    limits = {limit.bet_type: in_force(limit) for limit in _LIMITS(table.pk, timezone.now())}
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


@transaction.atomic
def round_create_written(
    *,
    session: TableSession,
    user: Any,
    dealer_cards: str,
    boxes: Sequence[BoxInput],
    create_key: str | None = None,
    expected_number: int | None = None,
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
    """
    create_key = _check_key(create_key, "create_key")
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
    audit_record(
        user=user,
        action=AuditAction.ROUND_CREATE,
        obj=round_,
        venue=session.table.venue,
        summary=f"dealt round {number} at {session.table}",
    )
    return RoundWritten(round=round_, result=result, boxes=created, bets=bets)


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


def _outcomes_of(
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


@transaction.atomic
def round_settle_written(
    *, round_: Round, user: Any, key: str, dealt: RoundWritten | None = None
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
    """
    key = _check_key(key, "Idempotency-Key")
    if key is None:
        raise InvalidInput("send an Idempotency-Key to settle a round", field="Idempotency-Key")
    if dealt is not None and dealt.round.pk != round_.pk:
        raise ValueError(f"round {round_.pk} was given what round {dealt.round.pk} was dealt with")
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
    result, boxes, bets = _outcomes_of(round_, adapter, dealt)
    _check_outcome(round_, result, bets)
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
    round_.status = RoundStatus.SETTLED
    round_.settle_key = key
    round_.settled_by = user
    round_.settled_at = timezone.now()
    round_.house_net = result.house_net
    try:
        # No savepoint of its own: a refusal here leaves this service's transaction (or
        # savepoint) by the exception, which rolls back the ledger entries with it.
        round_.save(update_fields=["status", "settle_key", "settled_by", "settled_at", "house_net"])
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


def _lock_round(round_: Round) -> Round:
    """Lock a round for a void; its session must still be open (a closed count is final)."""
    locked = (
        Round.objects.select_for_update(of=("self",))
        .select_related("session__table__venue")
        .get(pk=round_.pk)
    )
    if locked.session.status != TableSession.Status.OPEN:
        raise Conflict(
            f"round {locked.number} belongs to a closed session; its count is final, so "
            "correct it with the venue's adjustment procedure instead of a void"
        )
    return locked


@transaction.atomic
def round_void_request(*, round_: Round, user: Any, reason: str) -> Round:
    """Ask for a round to be voided; a supervisor other than the requester approves it."""
    round_ = _lock_round(round_)
    if not can(user, PLAY, round_.session.table.venue_id):
        raise Forbidden("you do not deal at this venue")
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput("say why the round should be voided", field="reason")
    if round_.status == RoundStatus.VOIDED:
        raise Conflict(f"round {round_.number} is already voided")
    if round_.void_requested_by_id not in (None, user.pk):
        raise Conflict(
            f"a void of round {round_.number} is already requested by "
            f"{round_.void_requested_by}; a supervisor approves or it stays as it is"
        )
    round_.void_reason = reason[:255]
    round_.void_requested_by = user
    round_.void_requested_at = timezone.now()
    round_.save(update_fields=["void_reason", "void_requested_by", "void_requested_at"])
    audit_record(
        user=user,
        action=AuditAction.ROUND_VOID_REQUEST,
        obj=round_,
        venue=round_.session.table.venue,
        summary=f"void requested: {reason[:200]}",
    )
    return round_


@transaction.atomic
def round_void_approve(*, round_: Round, user: Any) -> Round:
    """Void a round whose void was requested: a settled round's entries are reversed.

    The approver is a supervisor other than the requester. Nothing is deleted: every
    ledger entry of the round gets a reversing entry.
    """
    round_ = _lock_round(round_)
    venue = round_.session.table.venue
    if round_.status == RoundStatus.VOIDED:
        raise Conflict(f"round {round_.number} is already voided")
    if round_.void_requested_by_id is None:
        raise Conflict(f"no void was requested for round {round_.number}; request it first")
    if not can(user, SUPERVISE, venue.pk):
        raise Forbidden("a supervisor must approve a void", reason="not_supervisor")
    if user.pk == round_.void_requested_by_id:
        raise Forbidden(
            "a void needs a second person: another supervisor must approve it",
            reason="void_by_requester",
        )
    entries = list(LedgerEntry.objects.filter(round=round_, reverses__isnull=True).order_by("pk"))
    ledger_post(
        LedgerEntry(
            venue_id=entry.venue_id,
            session_id=entry.session_id,
            round=round_,
            box_id=entry.box_id,
            bet_id=entry.bet_id,
            player_id=entry.player_id,
            account=entry.account,
            kind=EntryKind.VOID,
            amount=-entry.amount,
            reverses=entry,
            created_by=user,
        )
        for entry in entries
    )
    was = round_.status
    round_.status = RoundStatus.VOIDED
    round_.voided_by = user
    round_.voided_at = timezone.now()
    round_.save(update_fields=["status", "voided_by", "voided_at"])
    if was == RoundStatus.SETTLED:
        tally_voided([round_.pk])
        voided, boxes, _bets = _outcomes_of(round_, games.get(round_.game), None)
        round_tallied.send(sender=Round, round_=round_, result=voided, boxes=boxes, sign=-1)
    audit_record(
        user=user,
        action=AuditAction.ROUND_VOID,
        obj=round_,
        venue=venue,
        summary=f"voided round {round_.number} ({was}): {round_.void_reason}",
        before={"status": was},
        after={"status": RoundStatus.VOIDED, "reversed_entries": len(entries)},
    )
    return round_


@transaction.atomic
def round_void(*, round_: Round, requested_by: Any, approved_by: Any, reason: str) -> Round:
    """Request and approve a void at once (the console, with the supervisor present)."""
    round_void_request(round_=round_, user=requested_by, reason=reason)
    return round_void_approve(round_=round_, user=approved_by)
