"""Integrity tallies: each settled round's categories and cards counted as it settles.

The game says what a round counts (``casino.games``: ``integrity_counts``); this module adds
it to ``CategoryTally`` and ``CardTally`` in the settlement's transaction, with one upsert
each, and takes it off again on a void. Rows are summed first (one row per key) and
written in key order, so two settlements at one table cannot deadlock on them. A game
without the hook counts nothing. The integrity run (casino.integrity.runs) reads these
tallies, never the rounds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection

from casino import games
from casino.games import IntegrityCounts, RoundResult
from casino.models import Box, CardTally, CategoryTally, Round
from casino.models.integrity import CARDS_DEALT


def integrity_tally(
    round_: Round, result: RoundResult, boxes: Sequence[Box], *, sign: int = 1
) -> None:
    """Add a settled round to the integrity tallies (``sign`` -1: take a voided one off)."""
    counts = games.get(round_.game).integrity_counts(result)
    if counts is None:
        return
    session = round_.session
    base = {
        "venue_id": session.table.venue_id,
        "shift_id": session.shift_id,
        "session_id": session.pk,
        "table_id": session.table_id,
        "dealer_id": round_.dealer_id,
        "gaming_date": session.shift.gaming_date,
        "game": round_.game,
    }
    categories, cards = round_counts(
        counts,
        players={box.position: box.player_id for box in boxes},
        ruleset_version_id=round_.ruleset_version_id,
    )
    write_category_tallies([(base, key, sign * n) for key, n in categories.items()])
    write_card_tallies([(base, key, sign * n) for key, n in cards.items()])


def round_counts(
    counts: IntegrityCounts, *, players: dict[int, int | None], ruleset_version_id: int
) -> tuple[Counter, Counter]:
    """A round's counts by tally key: (player, version, subject, category) and (rank, suit)."""
    categories: Counter = Counter()
    for key in counts.keys:
        player = players.get(key.position) if key.position is not None else None
        categories[(player, ruleset_version_id, key.subject, key.category)] += 1
    if counts.cards:
        categories[(None, ruleset_version_id, CARDS_DEALT, str(len(counts.cards)))] += 1
    cards: Counter = Counter((card[0], card[1]) for card in counts.cards)
    return categories, cards


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
    table = CategoryTally._meta.db_table
    _write(
        table,
        _CATEGORY_COLUMNS,
        rows,
        conflict="session_id, dealer_id, gaming_date, COALESCE(player_id, 0), game, "
        "ruleset_version_id, subject, category",
        order=lambda values: (values[2], values[4], str(values[5]), values[7] or 0, *values[8:11]),
    )


def write_card_tallies(rows: Iterable[tuple[dict[str, Any], tuple, int]]) -> None:
    """Upsert card counts: each row (the session's columns, (rank, suit), count)."""
    _write(
        CardTally._meta.db_table,
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
    table: str, columns: Sequence[str], rows: Iterable, *, conflict: str, order: Any
) -> None:
    summed: Counter = Counter()
    for base, key, count in rows:
        summed[(*(base[name] for name in _BASE), *key)] += count
    values = sorted(((*key, count) for key, count in summed.items() if count), key=order)
    if not values:
        return
    placeholders = "(" + ", ".join(["%s"] * len(columns)) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(values), 5000):
            chunk = values[start : start + 5000]
            cursor.execute(
                f"INSERT INTO {table} ({', '.join(columns)}) "  # noqa: S608 (names, not input)
                f"VALUES {', '.join([placeholders] * len(chunk))} "
                f"ON CONFLICT ({conflict}) DO UPDATE SET count = {table}.count + EXCLUDED.count",
                [value for row in chunk for value in row],
            )


def integrity_rebuild(shift_id: int) -> int:
    """The shift's integrity tallies counted again from its settled rounds (the rows are
    set to 0, then every settled round added): what settlements and voids leave."""
    from casino.models import RoundStatus
    from casino.services.rounds import _outcomes_of

    CategoryTally.objects.filter(shift_id=shift_id).update(count=0)
    CardTally.objects.filter(shift_id=shift_id).update(count=0)
    rounds = (
        Round.objects.filter(session__shift_id=shift_id, status=RoundStatus.SETTLED)
        .select_related("session__table", "session__shift")
        .order_by("pk")
    )
    done = 0
    for round_ in rounds.iterator(chunk_size=500):
        result, boxes, _bets = _outcomes_of(round_, games.get(round_.game), None)
        integrity_tally(round_, result, boxes)
        done += 1
    return done
