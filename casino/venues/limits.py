"""The limits in force at a table: its ``TableLimit`` per bet type, overtaken from their
``effective_at`` by scheduled changes (``TableLimitChange``).

At an instant, a bet type's limits are those of its latest change that took effect by
then, else its ``TableLimit`` row. A change is scheduled for a bet type the table has a
limit for (``casino.floor.services.limits``); the reads here add the change to the limit row in
the same query, so checking a stake costs what it did before changes were scheduled.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db.models import DecimalField, F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from casino.compiled import SAMPLE_KEY, SAMPLE_TIME, Compiled, key_samples
from casino.kernel.money import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS
from casino.venues.models import TableLimit, TableLimitChange


@dataclass(frozen=True)
class Limit:
    """A bet type's smallest and largest stake (what ``check_stake`` reads)."""

    bet_type: str
    min_stake: Decimal
    max_stake: Decimal


def _money() -> DecimalField:
    return DecimalField(max_digits=MONEY_MAX_DIGITS, decimal_places=MONEY_DECIMAL_PLACES)


def with_limits_in_force(limits: QuerySet[TableLimit], at: datetime) -> QuerySet[TableLimit]:
    """``limits`` each with ``in_force_min`` and ``in_force_max``: its limits at ``at``."""
    latest = TableLimitChange.objects.filter(
        table_id=OuterRef("table_id"), bet_type=OuterRef("bet_type"), effective_at__lte=at
    ).order_by("-effective_at", "-pk")
    return limits.annotate(
        in_force_min=Coalesce(
            Subquery(latest.values("min_stake")[:1]), F("min_stake"), output_field=_money()
        ),
        in_force_max=Coalesce(
            Subquery(latest.values("max_stake")[:1]), F("max_stake"), output_field=_money()
        ),
    )


def in_force(limit: TableLimit) -> Limit:
    """The limit of a row read through ``with_limits_in_force``."""
    return Limit(limit.bet_type, limit.in_force_min, limit.in_force_max)


#: The tables one statement of ``limits_in_force`` or ``upcoming_changes`` reads: a whole
#: pit's (a large one has 30), as the floor view asks every few seconds; more are read in
#: turns. Fewer are made up to as many by repeating the first. No more than 48: with the
#: instant read at, a statement then has at most 50 parameters, the most psycopg keeps a
#: statement's parsing for (its query cache); one of 128 places was parsed again at every
#: call, a millisecond of each floor view (tests/casino/test_compiled.py).
TABLES_AT_ONCE = 48
#: The samples of those tables' keys (``casino.compiled``).
TABLE_SAMPLES = key_samples(TABLES_AT_ONCE)

#: ``limits_in_force`` of up to ``TABLES_AT_ONCE`` tables, its SQL built once.
_LIMITS_OF_TABLES = Compiled(
    lambda at, *tables: with_limits_in_force(
        TableLimit.objects.filter(table_id__in=tables).order_by("table_id", "bet_type"), at
    ),
    samples=(SAMPLE_TIME, *TABLE_SAMPLES),
)


def limits_in_force(
    table_ids: Iterable[int], at: datetime | None = None
) -> dict[int, dict[str, Limit]]:
    """The limits in force at ``at`` (now) per table and bet type, in one query (one each
    ``TABLES_AT_ONCE`` tables)."""
    rows = _LIMITS_OF_TABLES.in_turns((at or timezone.now(),), sorted(set(table_ids)))
    found: dict[int, dict[str, Limit]] = defaultdict(dict)
    for row in rows:  # by table and bet type: each table's in one statement, in key order
        found[row.table_id][row.bet_type] = in_force(row)
    return dict(found)


#: ``limits_in_force`` of one table, the read a round and its screen make, its SQL built
#: once (``casino.compiled``).
_TABLE_LIMITS = Compiled(
    lambda table, at: with_limits_in_force(
        TableLimit.objects.filter(table_id=table), at
    ).order_by(),
    samples=(SAMPLE_KEY, SAMPLE_TIME),
)


def table_limits_in_force(table_id: int, at: datetime | None = None) -> dict[str, Limit]:
    """The limits in force at ``at`` (now) at one table, by bet type (one query)."""
    rows = _TABLE_LIMITS(table_id, at or timezone.now())
    return {row.bet_type: in_force(row) for row in sorted(rows, key=lambda row: row.bet_type)}


def _upcoming(tables: QuerySet[TableLimitChange], at: datetime) -> QuerySet[TableLimitChange]:
    return tables.filter(effective_at__gt=at).order_by("effective_at", "bet_type", "pk")


#: ``upcoming_changes`` of up to ``TABLES_AT_ONCE`` tables, its SQL built once.
_UPCOMING_OF_TABLES = Compiled(
    lambda at, *tables: _upcoming(TableLimitChange.objects.filter(table_id__in=tables), at),
    samples=(SAMPLE_TIME, *TABLE_SAMPLES),
)


def upcoming_changes(
    table_ids: Iterable[int], at: datetime | None = None
) -> dict[int, list[TableLimitChange]]:
    """The changes not yet in force at ``at`` (now) per table, soonest first, in one query
    (one each ``TABLES_AT_ONCE`` tables: each table's changes in one of them)."""
    found: dict[int, list[TableLimitChange]] = defaultdict(list)
    for change in _UPCOMING_OF_TABLES.in_turns((at or timezone.now(),), sorted(set(table_ids))):
        found[change.table_id].append(change)
    return dict(found)


#: ``upcoming_changes`` of one table, the read the round screen's head makes (its whole
#: screen and every Confirm's answer), its SQL built once (``casino.compiled``).
_TABLE_UPCOMING = Compiled(
    lambda table, at: _upcoming(TableLimitChange.objects.filter(table_id=table), at),
    samples=(SAMPLE_KEY, SAMPLE_TIME),
)


def table_upcoming_changes(table_id: int, at: datetime | None = None) -> list[TableLimitChange]:
    """``upcoming_changes`` of one table: its changes not yet in force, soonest first."""
    return _TABLE_UPCOMING(table_id, at or timezone.now())
