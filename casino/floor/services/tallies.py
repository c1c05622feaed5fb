"""Tallies: settled bets and seats summed as rounds settle and are voided.

A shift of a million rounds has five million bets; a report that summed them all would
read them all. Instead each settlement adds its round to ``BetTally`` (per table session,
the round's dealer, hour on the venue's clocks, player, ruleset version and bet type) and
``SeatTally`` (per table session and member) with one upsert each, and a void takes it off
again. A report then copies a few thousand tallies (casino.reports.figures).

The sums are computed by the database from the round's own rows (an ``INSERT ... SELECT
... GROUP BY ... ON CONFLICT DO UPDATE``), in the settlement's transaction, so a tally
holds exactly the settled rounds: :func:`tally_differences` checks that against the bets
(``manage.py audit_ledger --tallies``). Rows are upserted in key order, so two
settlements at one table cannot deadlock on them.

The hour is the start of the venue's local hour (``casino.kernel.timezones.LocalHour``, an
instant): the venue's zone is read through the join to the round's table the statement
makes anyway, so settling costs no query more. Tallies written before hours were local
are bucketed by the UTC hour; ``manage.py rebuild_tallies`` makes them again (only a venue
whose zone is not a whole number of hours off UTC differs).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, timedelta
from typing import Any

from django.db import connection
from django.db.models import Count, F, Max, Min, QuerySet

from casino.floor.models import Bet, BetTally, Box, Round, RoundStatus, SeatTally
from casino.floor.models.tallies import BET_KEYS, BET_SUMS

#: The columns of ``bet_tally_key``, as its unique index spells them.
BET_CONFLICT = (
    "session_id",
    "dealer_id",
    "hour",
    "COALESCE(player_id, 0)",
    "game",
    "ruleset_version_id",
    "bet_type",
)
SEAT_KEYS: dict[str, Any] = {
    "shift_id": F("round__session__shift_id"),
    "session_id": F("round__session_id"),
    "player_id": F("player_id"),
}
SEAT_SUMS: dict[str, Any] = {
    "rounds": Count("round_id", distinct=True),
    "hands": Count("pk"),
    "first_dealt_at": Min("round__created_at"),
    "last_settled_at": Max("round__settled_at"),
}


def tally_settled(round_ids: Sequence[int]) -> None:
    """Add settled rounds to the tallies (in the transaction that settled them)."""
    if round_ids:
        _bets_upsert(round_ids, sign=1)
        _seats_upsert(round_ids, sign=1)


def tally_voided(round_ids: Sequence[int]) -> None:
    """Take settled rounds that were just voided off the tallies.

    A maximum or a minimum cannot be subtracted: the largest net of each bet tally they
    touched, and the first deal and last settlement of each seat, are read again from the
    rounds still settled (a few rows per void).
    """
    if round_ids:
        _max_net_again(_bets_upsert(round_ids, sign=-1))
        _times_again(_seats_upsert(round_ids, sign=-1))


def _bets_upsert(round_ids: Sequence[int], *, sign: int) -> list[int]:
    return _upsert(_bets_statement, round_ids, sign)


def _seats_upsert(round_ids: Sequence[int], *, sign: int) -> list[int]:
    return _upsert(_seats_statement, round_ids, sign)


#: Compiled upserts for a few rounds (a settlement, a void), by statement, sign, number of
#: rounds and database: compiling the ORM's GROUP BY costs more than running it.
_COMPILED: dict[tuple, tuple[str, list[Any], list[int]]] = {}
_CACHED_UP_TO = 4


def _upsert(build: Any, round_ids: Sequence[int], sign: int) -> list[int]:
    """Run the upsert ``build`` makes for these rounds; the ids of the rows it wrote."""
    key = (build.__name__, sign, len(round_ids), connection.alias, connection.vendor)
    compiled = _COMPILED.get(key)
    if compiled is None:
        # Stand-in ids, then found among the parameters, where each round's id goes.
        stand_ins = [-(10**15) - n for n in range(len(round_ids))]
        statement, params = build(stand_ins, sign)
        compiled = (statement, params, [params.index(stand_in) for stand_in in stand_ins])
        if len(round_ids) <= _CACHED_UP_TO:
            _COMPILED[key] = compiled
    statement, params, positions = compiled
    params = list(params)
    for position, round_id in zip(positions, round_ids, strict=True):
        params[position] = round_id
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return [row[0] for row in cursor.fetchall()]


def _bets_statement(round_ids: Sequence[int], sign: int) -> tuple[str, list[Any]]:
    grouped = _bets_summed(Bet.objects.filter(box__round_id__in=list(round_ids)))
    table = BetTally._meta.db_table
    sums = [*BET_SUMS, "max_net"]
    selected = [f"g.k_{name}" for name in BET_KEYS] + [
        "g.s_max_net" if name == "max_net" else f"{sign} * g.s_{name}" for name in sums
    ]
    if sign < 0:
        selected[-1] = "NULL"  # read again from the bets afterwards
    added = [f"{name} = {table}.{name} + EXCLUDED.{name}" for name in BET_SUMS]
    # A tally whose bets were all voided has no maximum; one with a void just taken off
    # waits for _max_net_again.
    max_net = (
        f"max_net = CASE WHEN {table}.bets = 0 THEN EXCLUDED.max_net "
        f"WHEN {table}.max_net IS NULL OR EXCLUDED.max_net IS NULL THEN NULL "
        f"WHEN EXCLUDED.max_net > {table}.max_net THEN EXCLUDED.max_net "
        f"ELSE {table}.max_net END"
    )
    return _statement(
        grouped,
        table=table,
        columns=[*BET_KEYS, *sums],
        selected=selected,
        order=[
            f"g.k_{name}" for name in ("session_id", "dealer_id", "hour", "player_id", "bet_type")
        ],
        conflict=BET_CONFLICT,
        updates=[*added, max_net],
    )


def _bets_summed(bets: QuerySet[Bet]) -> QuerySet:
    """The bets grouped by the tally's key (``k_`` columns) with its sums (``s_``)."""
    return (
        bets.values(**{f"k_{name}": expression for name, expression in BET_KEYS.items()})
        .annotate(
            **{f"s_{name}": expression for name, expression in BET_SUMS.items()},
            s_max_net=Max("net"),
        )
        .order_by()
    )


def _seats_summed(boxes: QuerySet[Box]) -> QuerySet:
    """Members' boxes grouped by the seat's key (``k_`` columns) with its sums (``s_``)."""
    return (
        boxes.filter(player__isnull=False)
        .values(**{f"k_{name}": expression for name, expression in SEAT_KEYS.items()})
        .annotate(**{f"s_{name}": expression for name, expression in SEAT_SUMS.items()})
        .order_by()
    )


def _seats_statement(round_ids: Sequence[int], sign: int) -> tuple[str, list[Any]]:
    grouped = _seats_summed(Box.objects.filter(round_id__in=list(round_ids)))
    table = SeatTally._meta.db_table
    return _statement(
        grouped,
        table=table,
        columns=[*SEAT_KEYS, "rounds", "hands", "first_dealt_at", "last_settled_at"],
        selected=[
            *(f"g.k_{name}" for name in SEAT_KEYS),
            f"{sign} * g.s_rounds",
            f"{sign} * g.s_hands",
            "g.s_first_dealt_at",
            "g.s_last_settled_at",
        ],
        order=["g.k_session_id", "g.k_player_id"],
        conflict=("session_id", "player_id"),
        updates=[
            f"rounds = {table}.rounds + EXCLUDED.rounds",
            f"hands = {table}.hands + EXCLUDED.hands",
            # A seat whose rounds were all voided starts again from the new round.
            f"first_dealt_at = CASE WHEN {table}.rounds = 0 "
            f"OR EXCLUDED.first_dealt_at < {table}.first_dealt_at "
            f"THEN EXCLUDED.first_dealt_at ELSE {table}.first_dealt_at END",
            f"last_settled_at = CASE WHEN {table}.rounds = 0 "
            f"OR EXCLUDED.last_settled_at > {table}.last_settled_at "
            f"THEN EXCLUDED.last_settled_at ELSE {table}.last_settled_at END",
        ],
    )


def _statement(
    grouped: QuerySet,
    *,
    table: str,
    columns: list[str],
    selected: list[str],
    order: list[str],
    conflict: Sequence[str],
    updates: list[str],
) -> tuple[str, list[Any]]:
    """``INSERT INTO table (columns) SELECT selected FROM (grouped) ... ON CONFLICT ...
    RETURNING id`` and its parameters. (Names are the models' own, never input.)"""
    sql, params = grouped.query.sql_with_params()
    statement = (
        f"INSERT INTO {table} ({', '.join(columns)}) "  # noqa: S608 (names, not input)
        f"SELECT {', '.join(selected)} FROM ({sql}) AS g "
        # WHERE: SQLite would read ON CONFLICT as a join's ON without it.
        f"WHERE 1 = 1 ORDER BY {', '.join(order)} "
        f"ON CONFLICT ({', '.join(conflict)}) DO UPDATE SET {', '.join(updates)} "
        "RETURNING id"
    )
    return statement, list(params)


def _max_net_again(tally_ids: list[int]) -> None:
    """Each tally's largest net, read from its settled bets (a few tallies per void)."""
    for tally in BetTally.objects.filter(pk__in=tally_ids).order_by("pk"):
        bets = Bet.objects.filter(
            box__round__session_id=tally.session_id,
            box__round__dealer_id=tally.dealer_id,
            box__round__status=RoundStatus.SETTLED,
            box__round__settled_at__gte=tally.hour,
            box__round__settled_at__lt=tally.hour + timedelta(hours=1),
            box__round__game=tally.game,
            box__round__ruleset_version_id=tally.ruleset_version_id,
            box__player_id=tally.player_id,
            bet_type=tally.bet_type,
        )
        top = bets.aggregate(top=Max("net"))["top"]
        BetTally.objects.filter(pk=tally.pk).update(max_net=top)


def _times_again(seat_ids: list[int]) -> None:
    """Each seat's first deal and last settlement, read from its settled rounds; a seat
    left with none keeps its times until its next round replaces them (it counts no
    round, so no report shows it)."""
    for seat in SeatTally.objects.filter(pk__in=seat_ids).order_by("pk"):
        times = Box.objects.filter(
            round__session_id=seat.session_id,
            round__status=RoundStatus.SETTLED,
            player_id=seat.player_id,
        ).aggregate(first=Min("round__created_at"), last=Max("round__settled_at"))
        if times["first"] is not None:
            SeatTally.objects.filter(pk=seat.pk).update(
                first_dealt_at=times["first"], last_settled_at=times["last"]
            )


def tally_rebuild(shift_id: int) -> None:
    """The shift's tallies made again from its settled rounds (an upgrade, or rows
    repaired by hand); what the services leave after the same settlements and voids."""
    BetTally.objects.filter(shift_id=shift_id).delete()
    SeatTally.objects.filter(shift_id=shift_id).delete()
    settled = Round.objects.filter(session__shift_id=shift_id, status=RoundStatus.SETTLED)
    for chunk in _chunks(list(settled.order_by("pk").values_list("pk", flat=True))):
        tally_settled(chunk)


def _chunks(ids: list[int], size: int = 5000) -> list[list[int]]:
    return [ids[start : start + size] for start in range(0, len(ids), size)]


def tally_differences(shift_id: int | None = None) -> list[str]:
    """Where the tallies (of one shift, or all) differ from the settled rounds' bets and
    boxes; empty when they agree. One pass over the bets, for the audit."""
    scope = {} if shift_id is None else {"shift_id": shift_id}
    rounds = {"status": RoundStatus.SETTLED}
    if shift_id is not None:
        rounds["session__shift_id"] = shift_id
    bets = _bets_summed(
        Bet.objects.filter(**{f"box__round__{name}": value for name, value in rounds.items()})
    )
    expected = {_bet_key(row): row for row in bets}
    problems = []
    for tally in BetTally.objects.filter(**scope).values():
        row = expected.pop(_bet_key({f"k_{name}": tally[name] for name in BET_KEYS}), None)
        if row is None:
            if tally["bets"]:
                problems.append(f"bet tally {tally['id']} counts {tally['bets']} bets not settled")
            continue
        problems += [
            f"bet tally {tally['id']}: {name} {tally[name]}, its bets give {row[f's_{name}']}"
            for name in [*BET_SUMS, "max_net"]
            if tally[name] != row[f"s_{name}"]
        ]
    problems += [f"settled bets in no tally: {key}" for key in expected]

    seats = {
        (row["k_session_id"], row["k_player_id"]): row
        for row in _seats_summed(
            Box.objects.filter(**{f"round__{name}": value for name, value in rounds.items()})
        )
    }
    for seat in SeatTally.objects.filter(**scope).values():
        row = seats.pop((seat["session_id"], seat["player_id"]), None)
        if row is None:
            if seat["rounds"] or seat["hands"]:
                problems.append(f"seat tally {seat['id']} counts rounds not settled")
            continue
        problems += [
            f"seat tally {seat['id']}: {name} {seat[name]}, its rounds give {row[f's_{name}']}"
            for name in SEAT_SUMS
            if seat[name] != row[f"s_{name}"]
        ]
    problems += [f"a member's settled rounds in no seat tally: {key}" for key in seats]
    return problems


def _bet_key(row: dict[str, Any]) -> tuple:
    hour = row["k_hour"]
    hour = hour.astimezone(UTC) if hour.tzinfo else hour.replace(tzinfo=UTC)
    return (
        row["k_session_id"],
        row["k_dealer_id"],
        hour,
        row["k_player_id"] or 0,
        row["k_game"],
        row["k_ruleset_version_id"],
        row["k_bet_type"],
    )
