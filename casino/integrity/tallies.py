"""Integrity tallies: each settled round's categories and cards counted as it settles.

The game says what a round counts (``casino.games``: ``integrity_counts``); this module adds
it to ``CategoryTally`` and ``CardTally`` in the settlement's transaction, with one upsert
each, and takes it off again on a void. Rows are summed first (one row per key) and
written in key order, so two settlements at one table cannot deadlock on them. A game
without the hook counts nothing. A bulk writer (``manage.py simulate --via bulk``) adds
its batches of rounds through the same code (``integrity_tally_rounds``). The integrity
run (casino.integrity.runs) reads these tallies, never the rounds; ``integrity_recount``
counts a shift's settled rounds again, for the audit (compared) and a rebuild (written).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Prefetch

from casino import games
from casino.floor.models import Bet, Box, Round, RoundStatus, TableSession
from casino.games import IntegrityCounts, RoundResult
from casino.integrity.models import CardTally, CategoryTally
from casino.integrity.models.tallies import CARDS_DEALT


class TalliedRound(NamedTuple):
    """What the tallies need of a settled round: a ``Round`` of the services, or a round a
    bulk writer is about to copy (``casino.simulation.bulk``)."""

    game: str
    dealer_id: int
    ruleset_version_id: int
    result: RoundResult
    #: Each box's member (None: no member), by position.
    players: dict[int, int | None]


def integrity_tally(
    round_: Round, result: RoundResult, boxes: Sequence[Box], *, sign: int = 1
) -> None:
    """Add a settled round to the integrity tallies (``sign`` -1: take a voided one off)."""
    integrity_tally_rounds(round_.session, [tallied(round_, result, boxes)], sign=sign)


def integrity_tally_rounds(
    session: TableSession, rounds: Iterable[TalliedRound], *, sign: int = 1
) -> None:
    """Add rounds settled at one session to the integrity tallies (``sign`` -1: take voided
    ones off), the counts of every round summed first: one upsert each for categories and
    cards, one round or a bulk writer's batch of thousands."""
    categories, cards = _rows(session, rounds)
    write_category_tallies([(base, key, sign * n) for base, key, n in categories])
    write_card_tallies([(base, key, sign * n) for base, key, n in cards])


def tallied(round_: Round, result: RoundResult, boxes: Sequence[Box]) -> TalliedRound:
    """What the tallies need of a round the services settled (or voided)."""
    return TalliedRound(
        game=round_.game,
        dealer_id=round_.dealer_id,
        ruleset_version_id=round_.ruleset_version_id,
        result=result,
        players={box.position: box.player_id for box in boxes},
    )


Row = tuple[dict[str, Any], tuple, int]


def _rows(session: TableSession, rounds: Iterable[TalliedRound]) -> tuple[list[Row], list[Row]]:
    """The rounds' category and card rows: (the session's columns, key, count), summed per
    dealer and game as they are counted. A game without the hook gives none (and the
    session is not read)."""
    summed: dict[tuple[int, str], tuple[Counter, Counter]] = {}
    for round_ in rounds:
        counts = games.get(round_.game).integrity_counts(round_.result)
        if counts is None:
            continue
        into = summed.get((round_.dealer_id, round_.game))
        if into is None:
            into = summed[(round_.dealer_id, round_.game)] = (Counter(), Counter())
        _count(counts, round_.players, round_.ruleset_version_id, *into)
    categories: list[Row] = []
    cards: list[Row] = []
    for (dealer_id, game), (category_counts, card_counts) in summed.items():
        base = {
            "venue_id": session.table.venue_id,
            "shift_id": session.shift_id,
            "session_id": session.pk,
            "table_id": session.table_id,
            "dealer_id": dealer_id,
            "gaming_date": session.shift.gaming_date,
            "game": game,
        }
        categories += [(base, key, n) for key, n in category_counts.items()]
        cards += [(base, _card_key(card), n) for card, n in card_counts.items()]
    return categories, cards


def round_counts(
    counts: IntegrityCounts, *, players: dict[int, int | None], ruleset_version_id: int
) -> tuple[Counter, Counter]:
    """A round's counts by tally key: (player, version, subject, category) and (rank, suit)."""
    categories: Counter = Counter()
    cards: Counter = Counter()
    _count(counts, players, ruleset_version_id, categories, cards)
    return categories, Counter({_card_key(card): n for card, n in cards.items()})


def _count(
    counts: IntegrityCounts,
    players: dict[int, int | None],
    ruleset_version_id: int,
    categories: Counter,
    cards: Counter,
) -> None:
    """Add a round's counts: its categories by tally key, its cards by their text (keyed
    by rank and suit once summed: a batch of rounds deals the same 52 cards)."""
    for key in counts.keys:
        player = players.get(key.position) if key.position is not None else None
        categories[(player, ruleset_version_id, key.subject, key.category)] += 1
    if counts.cards:
        categories[(None, ruleset_version_id, CARDS_DEALT, str(len(counts.cards)))] += 1
        cards.update(counts.cards)


def _card_key(card: str) -> tuple[str, str]:
    return card[0], card[1]


_CATEGORY_COLUMNS = (
    "venue_id",
    "shift_id",
    "session_id",
    "table_id",
    "dealer_id",
    "gaming_date",
    "game",
    "player_id",
    "ruleset_version_id",
    "subject",
    "category",
    "count",
)
_CARD_COLUMNS = (
    "venue_id",
    "shift_id",
    "session_id",
    "table_id",
    "dealer_id",
    "gaming_date",
    "game",
    "rank",
    "suit",
    "count",
)
_BASE = ("venue_id", "shift_id", "session_id", "table_id", "dealer_id", "gaming_date", "game")


def write_category_tallies(rows: Iterable[tuple[dict[str, Any], tuple, int]]) -> None:
    """Upsert category counts: each row (the session's columns, (player, version, subject,
    category), count), summed per key first; also what a bulk loader writes."""
    _write(
        CategoryTally,
        _CATEGORY_COLUMNS,
        rows,
        conflict="session_id, dealer_id, gaming_date, COALESCE(player_id, 0), game, "
        "ruleset_version_id, subject, category",
        order=lambda values: (values[2], values[4], str(values[5]), values[7] or 0, *values[8:11]),
    )


def write_card_tallies(rows: Iterable[tuple[dict[str, Any], tuple, int]]) -> None:
    """Upsert card counts: each row (the session's columns, (rank, suit), count)."""
    _write(
        CardTally,
        _CARD_COLUMNS,
        rows,
        conflict="session_id, dealer_id, gaming_date, game, rank, suit",
        order=lambda values: (
            values[2],
            values[4],
            str(values[5]),
            values[6],
            values[7],
            values[8],
        ),
    )


def _write(
    model: type, columns: Sequence[str], rows: Iterable, *, conflict: str, order: Any
) -> None:
    """One upsert of the rows summed per key, in key order: each column sent as one array
    and unnested in order (as many parameters as columns, however many rows: a batch of
    thousands of rounds costs the statement, not the parsing of its placeholders)."""
    values = sorted(((*key, count) for key, count in _summed(rows).items() if count), key=order)
    if not values:
        return
    table = model._meta.db_table
    names = ", ".join(columns)
    upsert = f"ON CONFLICT ({conflict}) DO UPDATE SET count = {table}.count + EXCLUDED.count"
    if connection.vendor != "postgresql":  # SQLite (make run): no arrays; rows of values
        placeholders = "(" + ", ".join(["%s"] * len(columns)) + ")"
        with connection.cursor() as cursor:
            for start in range(0, len(values), 80):  # 80 rows: under 999 parameters
                chunk = values[start : start + 80]
                cursor.execute(
                    f"INSERT INTO {table} ({names}) "  # noqa: S608 (names, not input)
                    f"VALUES {', '.join([placeholders] * len(chunk))} {upsert}",
                    [value for row in chunk for value in row],
                )
        return
    types = [model._meta.get_field(name).db_type(connection) for name in columns]
    arrays = ", ".join(f"%s::{kind}[]" for kind in types)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({names}) "  # noqa: S608 (names, not input)
            f"SELECT {names} FROM unnest({arrays}) WITH ORDINALITY AS summed ({names}, ordinal) "
            f"ORDER BY ordinal {upsert}",
            [list(column) for column in zip(*values, strict=True)],
        )


def _summed(rows: Iterable[Row], into: Counter | None = None) -> Counter:
    """Counts per tally key: the session's columns (``_BASE``) and the row's own key
    (added to ``into``, if given)."""
    summed: Counter = Counter() if into is None else into
    for base, key, count in rows:
        summed[(*(base[name] for name in _BASE), *key)] += count
    return summed


class Recount(NamedTuple):
    """A shift's tallies as its settled rounds give them, by the tally's key: the columns
    of ``CategoryTally`` and ``CardTally`` up to ``count``, in their order."""

    categories: Counter
    cards: Counter
    rounds: int


def integrity_recount(shift_id: int) -> Recount:
    """The shift's integrity tallies counted again from its settled rounds, as each round
    recorded itself (nothing is written or evaluated; voided rounds count nothing). The
    rounds are read 500 at a time with their boxes and bets (three queries a chunk)."""
    from casino.floor.outcomes import recorded_result

    rounds = (
        Round.objects.filter(session__shift_id=shift_id, status=RoundStatus.SETTLED)
        .select_related("session__table", "session__shift")
        .prefetch_related(
            Prefetch("boxes", queryset=Box.objects.order_by("pk")),
            Prefetch("boxes__bets", queryset=Bet.objects.order_by("pk")),
        )
        .order_by("session_id", "pk")
    )
    categories: Counter = Counter()
    cards: Counter = Counter()
    counted = 0
    session: TableSession | None = None
    batch: list[TalliedRound] = []

    def add(session: TableSession, batch: list[TalliedRound]) -> None:
        session_categories, session_cards = _rows(session, batch)
        _summed(session_categories, into=categories)
        _summed(session_cards, into=cards)

    for round_ in rounds.iterator(chunk_size=500):
        if batch and (round_.session_id != session.pk or len(batch) == 500):
            add(session, batch)
            batch = []
        session = round_.session
        boxes = list(round_.boxes.all())
        batch.append(tallied(round_, recorded_result(round_, boxes, games.get(round_.game)), boxes))
        counted += 1
    if batch:
        add(session, batch)
    return Recount(categories, cards, counted)


def integrity_differences(shift_id: int) -> list[str]:
    """Where the shift's integrity tallies differ from a recount of its settled rounds
    (``integrity_recount``); empty when they agree. Read-only, for the audit."""
    recount = integrity_recount(shift_id)
    problems = []
    for model, counted, columns, what in (
        (CategoryTally, recount.categories, _CATEGORY_COLUMNS, "category"),
        (CardTally, recount.cards, _CARD_COLUMNS, "card"),
    ):
        expected = Counter(counted)  # what no tally holds is left in it
        for pk, *key, count in model.objects.filter(shift_id=shift_id).values_list("pk", *columns):
            right = expected.pop(tuple(key), 0)
            if count != right:
                problems.append(
                    f"shift {shift_id}: {what} tally {pk} ({_described(columns, key)}) counts "
                    f"{count}, its settled rounds give {right}"
                )
        problems += [
            f"shift {shift_id}: its settled rounds give {count} of {_described(columns, key)}, "
            f"in no {what} tally"
            for key, count in expected.items()
            if count
        ]
    return problems


def _described(columns: Sequence[str], key: Sequence[Any]) -> str:
    """A tally's key as the audit names it: session, dealer, member and what it counts."""
    values = dict(zip(columns, key, strict=False))
    parts = [f"session {values['session_id']}", f"dealer {values['dealer_id']}"]
    if values.get("player_id") is not None:
        parts.append(f"member {values['player_id']}")
    if "subject" in values:
        parts.append(f"{values['subject']} {values['category']}")
    else:
        parts.append(f"card {values['rank']}{values['suit']}")
    return ", ".join(parts)


def integrity_rebuild(shift_id: int) -> int:
    """The shift's integrity tallies counted again from its settled rounds (the rows are
    set to 0, then the recount written): what settlements and voids leave. Returns the
    rounds counted."""
    recount = integrity_recount(shift_id)
    CategoryTally.objects.filter(shift_id=shift_id).update(count=0)
    CardTally.objects.filter(shift_id=shift_id).update(count=0)
    for write, counts in (
        (write_category_tallies, recount.categories),
        (write_card_tallies, recount.cards),
    ):
        write(
            (dict(zip(_BASE, key[: len(_BASE)], strict=True)), key[len(_BASE) :], n)
            for key, n in counts.items()
        )
    return recount.rounds
