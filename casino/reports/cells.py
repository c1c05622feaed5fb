"""A shift report's cells: a copy of the shift's tallies, each rated by the house edge and
SD of the ruleset version its bets were played under (a fee game's theoretical win is its
fee)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime

from django.db import connection, connections, transaction
from django.db.models import F, QuerySet, Value

from casino.floor.lines import ZERO
from casino.floor.models import Bet, BetTally, RoundStatus
from casino.floor.models.tallies import BET_KEYS, BET_SUMS
from casino.kernel.replicas import PRIMARY, read_alias
from casino.reports.models import ShiftReport, ShiftReportCell
from casino.rulesets.rates import VersionRates, rates_of
from casino.venues.models import Shift

#: The columns a report cell copies from its shift's tallies.
CELL_COLUMNS = [*BET_KEYS.keys() - {"shift_id", "venue_id"}, *BET_SUMS, "max_net"]


def settled_bets(shift_id: int) -> QuerySet[Bet]:
    return Bet.objects.filter(
        box__round__session__shift_id=shift_id, box__round__status=RoundStatus.SETTLED
    )


def cells_build(report: ShiftReport, shift: Shift) -> int:
    """Replace the report's cells with the shift's tallies (casino.floor.services.tallies: the
    settled bets summed as they settled), in one ``INSERT ... SELECT``; a tally whose bets
    were all voided is left out."""
    ShiftReportCell.objects.filter(report=report).delete()
    quote = connection.ops.quote_name
    columns = ", ".join(quote(name) for name in sorted(CELL_COLUMNS))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(ShiftReportCell._meta.db_table)} "  # noqa: S608 (names, not input)
            f"(report_id, venue_id, gaming_date, {columns}) "
            f"SELECT %s, venue_id, %s, {columns} FROM {quote(BetTally._meta.db_table)} "
            "WHERE shift_id = %s AND bets > 0",
            [report.pk, shift.gaming_date, shift.pk],
        )
        return cursor.rowcount


@contextmanager
def sums_transaction() -> Iterator[None]:
    """A transaction on each database the build reads from, with PostgreSQL's settings for
    the report's few large sums in force until it ends: memory to hash a shift's bets in
    one pass, and no JIT (compiling the query costs seconds and saves less on a single
    pass). ``SET LOCAL``, never a session's ``SET``: PgBouncer in transaction mode lends a
    server connection for one transaction, so a session's setting would miss the next
    statement and stay behind for another client."""
    with ExitStack() as stack:
        for alias in dict.fromkeys([PRIMARY, read_alias()]):
            stack.enter_context(transaction.atomic(using=alias))
            if connections[alias].vendor == "postgresql":
                with connections[alias].cursor() as cursor:
                    cursor.execute("SET LOCAL work_mem = '256MB'")
                    cursor.execute("SET LOCAL jit = off")
        yield


def version_rates(report: ShiftReport) -> list[VersionRates]:
    """The rates of every ruleset version the report's cells were played under: the cells
    read on the primary (just written), the versions where reads go (a replica in a build)."""
    used = (
        ShiftReportCell.objects.using(PRIMARY)
        .filter(report=report)
        .values_list("game", "ruleset_version_id")
        .distinct()
        .order_by("game", "ruleset_version_id")
    )
    return rates_of(used)


def cells_rate(report: ShiftReport, rates: Iterable[VersionRates], fee: frozenset[str]) -> None:
    """Write each cell's theoretical win and win variance (one UPDATE per version and bet
    type); a cell of a version without figures keeps both empty."""
    cells = ShiftReportCell.objects.filter(report=report)
    cells.filter(game__in=fee).update(theoretical_win=F("commission"), win_variance=ZERO)
    for rate in rates:
        if rate.game in fee:
            continue
        for bet_type, edge in rate.edges.items():
            sd = rate.sds.get(bet_type)
            cells.filter(
                game=rate.game, ruleset_version_id=rate.version_id, bet_type=bet_type
            ).update(
                theoretical_win=F("handle") * Value(edge),
                win_variance=F("stake_squared") * Value(sd * sd) if sd is not None else None,
            )


def aware(value: datetime | str) -> datetime:
    if isinstance(value, str):  # SQLite hands back text for a truncated time
        value = datetime.fromisoformat(value)
    return value if value.tzinfo else value.replace(tzinfo=UTC)
