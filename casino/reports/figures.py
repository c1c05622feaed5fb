"""Every figure of a shift report, summed by the database.

The report's cells (``ShiftReportCell``) are a copy of the shift's tallies
(casino.services.tallies: the settled bets summed per table session, UTC hour, player,
ruleset version and bet type as each round settled), so a report never reads the shift's
bets one by one. Each section of the report (tables, dealers, games, bet types, hours,
players) is then a GROUP BY over those few cells; rounds are counted on the rounds
themselves, in one GROUP BY, since one round spans several cells; player ratings come from
the seat tallies. Python only divides sums (hold %) and writes them as strings.

- House win = what the players lost = -(sum of the bets' net, the players' view). The
  commission is inside the net; it is also shown on its own.
- Voided rounds are not settled rounds: their bets are in no cell, count in no handle or
  win, and are listed under voids with who asked for the void and who approved it.
- Theoretical win = stake x house edge of the bet type under the ruleset version the
  round was played with (the version's stored figures). A version without figures gives
  no theoretical win: its stakes are "unrated" and the figure reads n/a, naming the
  version. Mau Binh is player against player: the house's expected win is the fee it
  takes, so a fee game's theoretical win is its fee and its variance is zero.
- The fluctuation test: house win ~ theoretical win +- 1.96 x SD, where the variance is
  the sum over bets of stake^2 x SD^2 (SD per unit staked from the version's figures).
  Bets are taken as independent (boxes of one round share the dealer's hand, which
  makes the true spread a little wider, so the test errs on the side of flagging).
"""

from __future__ import annotations

import zoneinfo
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from django.db import DatabaseError, connection
from django.db.models import (
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.db.models.functions import TruncHour

from casino import games
from casino.models import (
    Account,
    Bet,
    BetTally,
    Drop,
    LedgerEntry,
    Round,
    RoundStatus,
    SeatTally,
    Shift,
    ShiftReport,
    ShiftReportCell,
    Slip,
    SlipStatus,
    TableSession,
)
from casino.services.tallies import BET_KEYS, BET_SUMS

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
Z95 = Decimal("1.96")
#: Rows listed one by one (voids, slips); past this they are counted, not listed.
LIST_LIMIT = 200
PAYOUTS = 10
#: Games where players play each other and the house takes a fee (RULES.md part B). A
#: game's adapter can say so itself with ``house_banked = False``.
FEE_GAMES = frozenset({"maubinh"})
#: Version of the figures' layout, for readers of stored figures.
LAYOUT = 1

Progress = Callable[[int, str], None]


def fee_games() -> frozenset[str]:
    fee = set(FEE_GAMES)
    for adapter in games.all_games():
        banked = getattr(adapter, "house_banked", None)
        if banked is True:
            fee.discard(adapter.code)
        elif banked is False:
            fee.add(adapter.code)
    return frozenset(fee)


# The cells


#: The columns a report cell copies from its shift's tallies.
CELL_COLUMNS = [*BET_KEYS.keys() - {"shift_id", "venue_id"}, *BET_SUMS, "max_net"]


def settled_bets(shift_id: int) -> QuerySet[Bet]:
    return Bet.objects.filter(
        box__round__session__shift_id=shift_id, box__round__status=RoundStatus.SETTLED
    )


def cells_build(report: ShiftReport, shift: Shift) -> int:
    """Replace the report's cells with the shift's tallies (casino.services.tallies: the
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
def _settings_for_sums(cursor: Any) -> Iterator[None]:
    """PostgreSQL settings for the few large sums of a report, for this session only:
    memory to hash a shift's bets in one pass, and no JIT (compiling the query costs
    seconds and saves less on a single pass)."""
    if connection.vendor != "postgresql":
        yield
        return
    cursor.execute("SELECT current_setting('work_mem'), current_setting('jit')")
    work_mem, jit = cursor.fetchone()
    cursor.execute("SET work_mem = '256MB'")
    cursor.execute("SET jit = off")
    try:
        yield
    finally:
        # In an aborted transaction this fails, and its rollback undoes the SETs anyway.
        with suppress(DatabaseError):
            cursor.execute(
                "SELECT set_config('work_mem', %s, false), set_config('jit', %s, false)",
                [work_mem, jit],
            )


@dataclass(frozen=True)
class VersionRates:
    """A ruleset version's house edge and SD per bet type (what its figures hold)."""

    game: str
    version_id: int
    label: str
    edges: dict[str, Decimal] = field(default_factory=dict)
    sds: dict[str, Decimal] = field(default_factory=dict)


def version_rates(report: ShiftReport) -> list[VersionRates]:
    """The rates of every ruleset version the report's cells were played under."""
    used = (
        ShiftReportCell.objects.filter(report=report)
        .values_list("game", "ruleset_version_id")
        .distinct()
        .order_by("game", "ruleset_version_id")
    )
    by_game: dict[str, list[int]] = defaultdict(list)
    for game, version_id in used:
        by_game[game].append(version_id)
    rates = []
    for game, ids in by_game.items():
        try:
            adapter = games.get(game)
        except LookupError:
            adapter = None
        stored = {}
        if adapter is not None:
            stored = {
                v.pk: v
                for v in adapter.version_model.objects.filter(pk__in=ids).select_related("ruleset")
            }
        for version_id in ids:
            version = stored.get(version_id)
            if version is None:
                rates.append(VersionRates(game, version_id, f"{game} version #{version_id}"))
                continue
            sd_figures = (version.figures or {}).get("sd", {})
            rates.append(
                VersionRates(
                    game,
                    version_id,
                    f"{version.ruleset.code} v{version.number}",
                    edges={
                        b: edge
                        for b in adapter.bet_types
                        if (edge := version.house_edge(b)) is not None
                    },
                    sds={b: Decimal(sd_figures[b]) for b in adapter.bet_types if b in sd_figures},
                )
            )
    return rates


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


# Sections


def cell_sums() -> dict[str, Any]:
    """The sums every section takes over its cells (``t_`` names: a sum may not be named
    like the field it sums)."""
    return {
        "t_bets": Sum("bets"),
        "t_handle": Sum("handle"),
        "t_player_result": Sum("player_result"),
        "t_commission": Sum("commission"),
        "t_volume": Sum("volume"),
        "t_theoretical_win": Sum("theoretical_win"),
        "t_unrated_handle": Sum("handle", filter=Q(theoretical_win__isnull=True)),
        "t_win_variance": Sum("win_variance"),
        "t_unvaried_handle": Sum("handle", filter=Q(win_variance__isnull=True)),
    }


def pct(part: Decimal | None, whole: Decimal | None) -> Decimal | None:
    if part is None or not whole:
        return None
    return (part * 100 / whole).quantize(CENT, rounding=ROUND_HALF_EVEN)


def figure_line(sums: dict[str, Any], *, rounds: int | None = None) -> dict[str, Any]:
    """A section's line from its sums: hold, theoretical, actual - theoretical, the range."""
    handle = sums.get("t_handle") or ZERO
    player_result = sums.get("t_player_result") or ZERO
    house_win = -player_result
    unrated = sums.get("t_unrated_handle") or ZERO
    theoretical = sums.get("t_theoretical_win") if not unrated else None
    if theoretical is not None:
        theoretical = theoretical.quantize(CENT)
    line: dict[str, Any] = {
        "rounds": rounds,
        "bets": sums.get("t_bets") or 0,
        "handle": handle,
        "player_result": player_result,
        "commission": sums.get("t_commission") or ZERO,
        "house_win": house_win,
        "hold_pct": pct(house_win, handle),
        "theoretical_win": theoretical,
        "theoretical_hold_pct": pct(theoretical, handle),
        "actual_minus_theoretical": house_win - theoretical if theoretical is not None else None,
        "unrated_handle": unrated,
        "volume": sums.get("t_volume") or ZERO,
    }
    line.update(fluctuation(sums, house_win=house_win, theoretical=theoretical))
    return line


def fluctuation(
    sums: dict[str, Any], *, house_win: Decimal, theoretical: Decimal | None
) -> dict[str, Any]:
    """The 95% range of the hold implied by the bets' SD, and whether the hold is outside."""
    variance = sums.get("t_win_variance")
    handle = sums.get("t_handle") or ZERO
    if theoretical is None or variance is None or sums.get("t_unvaried_handle") or not handle:
        return {"hold_low_pct": None, "hold_high_pct": None, "flagged": None}
    spread = Z95 * Decimal(variance).sqrt()
    low, high = theoretical - spread, theoretical + spread
    return {
        "hold_low_pct": pct(low, handle),
        "hold_high_pct": pct(high, handle),
        "flagged": not low <= house_win <= high,
    }


@dataclass(frozen=True)
class RoundCounts:
    """The shift's settled rounds counted per table, dealer, game and UTC hour in one
    pass (a round spans several cells, so cells cannot count rounds)."""

    rows: list[tuple[int, int, str, datetime, int]]

    @classmethod
    def of(cls, shift: Shift) -> RoundCounts:
        rows = (
            Round.objects.filter(session__shift=shift, status=RoundStatus.SETTLED)
            .values_list(
                "session__table_id",
                "session__dealer_id",
                "game",
                TruncHour("settled_at", tzinfo=UTC),
            )
            .annotate(n=Count("pk"))
            .order_by()
        )
        return cls([(*row[:3], _aware(row[3]), row[4]) for row in rows])

    def total(self) -> int:
        return sum(row[-1] for row in self.rows)

    def by(self, column: int, games_: frozenset[str] | None = None) -> dict[Any, int]:
        """Rounds per table (0), dealer (1), game (2) or hour (3), of some games only."""
        counted: dict[Any, int] = defaultdict(int)
        for row in self.rows:
            if games_ is None or row[2] in games_:
                counted[row[column]] += row[-1]
        return counted


TABLE, DEALER, GAME, HOUR = range(4)


def section_tables(cells: QuerySet, rounds: RoundCounts) -> list[dict[str, Any]]:
    counted = rounds.by(TABLE)
    rows = (
        cells.values("table_id", "table__code", "table__game")
        .annotate(**cell_sums())
        .order_by("table__code")
    )
    return [
        {
            "key": row["table__code"],
            "label": row["table__code"],
            "game": row["table__game"],
            **figure_line(row, rounds=counted.get(row["table_id"], 0)),
        }
        for row in rows
    ]


def section_dealers(cells: QuerySet, rounds: RoundCounts) -> list[dict[str, Any]]:
    counted = rounds.by(DEALER)
    rows = (
        cells.values("dealer_id", "dealer__username", "dealer__first_name", "dealer__last_name")
        .annotate(**cell_sums())
        .order_by("dealer__username")
    )
    return [
        {
            "key": row["dealer__username"],
            "label": " ".join(filter(None, [row["dealer__first_name"], row["dealer__last_name"]]))
            or row["dealer__username"],
            **figure_line(row, rounds=counted.get(row["dealer_id"], 0)),
        }
        for row in rows
    ]


def section_games(cells: QuerySet, rounds: RoundCounts) -> list[dict[str, Any]]:
    counted = rounds.by(GAME)
    rows = cells.values("game").annotate(**cell_sums()).order_by("game")
    return [
        {
            "key": row["game"],
            "label": _game_name(row["game"]),
            **figure_line(row, rounds=counted.get(row["game"], 0)),
        }
        for row in rows
    ]


def section_bet_types(cells: QuerySet) -> list[dict[str, Any]]:
    """Per game and bet type. Rounds are not given: several boxes of one round may take
    the same bet type, and counting distinct rounds would read every bet again; the
    number of bets (one per box that took the type) says how often it was played."""
    rows = cells.values("game", "bet_type").annotate(**cell_sums()).order_by("game", "bet_type")
    return [
        {
            "key": f"{row['game']}:{row['bet_type']}",
            "label": f"{_game_name(row['game'])} {row['bet_type']}",
            "game": row["game"],
            "bet_type": row["bet_type"],
            **figure_line(row),
        }
        for row in rows
    ]


def section_hours(cells: QuerySet, rounds: RoundCounts, tz: Any) -> list[dict[str, Any]]:
    counted = rounds.by(HOUR)
    rows = cells.values("hour").annotate(**cell_sums()).order_by("hour")
    lines = []
    for row in rows:
        hour = _aware(row["hour"])
        local = hour.astimezone(tz)
        lines.append(
            {
                "key": hour.isoformat(),
                "label": f"{local:%H:%M}",
                "local": local.isoformat(),
                **figure_line(row, rounds=counted.get(hour, 0)),
            }
        )
    return lines


def section_players(cells: QuerySet, shift: Shift) -> list[dict[str, Any]]:
    """Player ratings: rounds, hands, time at the table, average bet, theoretical and
    actual win. Time at the table: from a player's first deal to their last settlement
    at each table session, added up over the sessions."""
    played = {row[0]: row[1:] for row in _player_time(shift)}
    rows = (
        cells.filter(player__isnull=False)
        .values("player_id", "player__membership_number", "player__name")
        .annotate(**cell_sums())
        .order_by("player__membership_number")
    )
    lines = []
    for row in rows:
        rounds, hands, seconds = played.get(row["player_id"], (0, 0, 0))
        line = figure_line(row, rounds=int(rounds))
        bets = line["bets"]
        line.update(
            key=row["player__membership_number"],
            label=row["player__name"],
            hands=int(hands),
            minutes=round(float(seconds or 0) / 60),
            average_bet=(line["handle"] / bets).quantize(CENT) if bets else None,
        )
        lines.append(line)
    lines.sort(
        key=lambda line: (
            -(line["theoretical_win"] if line["theoretical_win"] is not None else ZERO),
            -line["handle"],
            line["key"],
        )
    )
    return lines


def _player_time(shift: Shift) -> list[tuple]:
    """Per player: rounds, hands (boxes) and seconds at the tables, from the seat tallies
    (a round counted once per member and table session, as it settled)."""
    seconds = ExpressionWrapper(
        F("last_settled_at") - F("first_dealt_at"), output_field=DurationField()
    )
    rows = (
        SeatTally.objects.filter(shift=shift, rounds__gt=0)
        .values("player_id")
        .annotate(rounds=Sum("rounds"), hands=Sum("hands"), time=Sum(seconds))
        .order_by()
    )
    return [
        (row["player_id"], row["rounds"], row["hands"], row["time"].total_seconds()) for row in rows
    ]


def section_fee_games(cells: QuerySet, rounds: RoundCounts, fee: frozenset[str]) -> dict:
    """Mau Binh (and any fee game): rounds, volume between players, fees, per table."""
    counted = rounds.by(TABLE, fee)
    fee_cells = cells.filter(game__in=fee)
    rows = (
        fee_cells.values("table_id", "table__code", "game")
        .annotate(t_volume=Sum("volume"), t_fees=Sum("commission"), t_seats=Sum("bets"))
        .order_by("table__code")
    )
    total = fee_cells.aggregate(
        t_volume=Sum("volume"), t_fees=Sum("commission"), t_seats=Sum("bets")
    )

    def line(row: dict[str, Any], rounds: int) -> dict[str, Any]:
        volume, fees = row["t_volume"] or ZERO, row["t_fees"] or ZERO
        return {
            "rounds": rounds,
            "seats": row["t_seats"] or 0,
            "volume": volume,
            "fees": fees,
            "fee_pct": pct(fees, volume),
        }

    return {
        "tables": [
            {
                "key": row["table__code"],
                "label": row["table__code"],
                "game": row["game"],
                **line(row, counted.get(row["table_id"], 0)),
            }
            for row in rows
        ],
        "total": line(total, sum(counted.values())) if fee_cells.exists() else None,
    }


def section_payouts(cells: QuerySet, shift: Shift) -> list[dict[str, Any]]:
    """The largest single payouts (a bet's net win).

    Every one of the largest N bets is at least the N-th largest of the cells' largest
    bets, so only bets above that threshold are read (a filter, not a sort of them all).
    """
    threshold = (
        cells.order_by("-max_net").values_list("max_net", flat=True)[PAYOUTS - 1 : PAYOUTS].first()
    )
    bets = settled_bets(shift.pk).filter(net__gt=0)
    if threshold is not None:
        bets = bets.filter(net__gte=threshold)
    top = bets.select_related(
        "box__player", "box__round__session__table", "box__round__settled_by"
    ).order_by("-net", "pk")[:PAYOUTS]
    return [
        {
            "table": bet.box.round.session.table.code,
            "round": bet.box.round.number,
            "box": bet.box.position,
            "player": bet.box.player.membership_number if bet.box.player else "",
            "player_name": bet.box.player.name if bet.box.player else "",
            "bet_type": bet.bet_type,
            "stake": bet.stake,
            "odds": bet.odds,
            "net": bet.net,
            "settled_at": bet.box.round.settled_at,
            "settled_by": _username(bet.box.round.settled_by),
        }
        for bet in top
    ]


def section_voids(shift: Shift) -> dict[str, Any]:
    """Voided rounds (who asked, who approved), void requests not approved, voided slips."""
    voided = Round.objects.filter(session__shift=shift, status=RoundStatus.VOIDED)
    summary = voided.aggregate(count=Count("pk"), house_net=Sum("house_net"))
    handle = Bet.objects.filter(box__round__in=voided).aggregate(total=Sum("stake"))["total"]
    listed = (
        voided.select_related("session__table", "void_requested_by", "voided_by")
        .annotate(handle=Sum("boxes__bets__stake"))
        .order_by("voided_at", "pk")[:LIST_LIMIT]
    )
    requested = (
        Round.objects.filter(session__shift=shift, void_requested_by__isnull=False)
        .exclude(status=RoundStatus.VOIDED)
        .select_related("session__table", "void_requested_by")
        .order_by("void_requested_at", "pk")[:LIST_LIMIT]
    )
    slips = (
        Slip.objects.filter(session__shift=shift, status=SlipStatus.VOID)
        .select_related("session__table", "requested_by", "voided_by")
        .order_by("voided_at", "pk")[:LIST_LIMIT]
    )
    return {
        "count": summary["count"],
        "unlisted": max(0, summary["count"] - LIST_LIMIT),
        "handle": handle or ZERO,
        "house_net_reversed": summary["house_net"] or ZERO,
        "listed": [
            {
                "table": r.session.table.code,
                "round": r.number,
                "was_settled": r.settled_at is not None,
                "handle": r.handle or ZERO,
                "house_net": r.house_net,
                "reason": r.void_reason,
                "requested_by": _username(r.void_requested_by),
                "requested_at": r.void_requested_at,
                "approved_by": _username(r.voided_by),
                "approved_at": r.voided_at,
            }
            for r in listed
        ],
        "requests_not_approved": [
            {
                "table": r.session.table.code,
                "round": r.number,
                "status": r.status,
                "reason": r.void_reason,
                "requested_by": _username(r.void_requested_by),
                "requested_at": r.void_requested_at,
            }
            for r in requested
        ],
        "voided_slips": [
            {
                "table": s.session.table.code,
                "slip": f"{s.year}-{s.number:06d}",
                "kind": s.kind,
                "amount": s.amount,
                "reason": s.void_reason,
                "requested_by": _username(s.requested_by),
                "voided_by": _username(s.voided_by),
                "voided_at": s.voided_at,
            }
            for s in slips
        ],
    }


def section_sessions(shift: Shift) -> dict[str, Any]:
    """Per table session: fills, credits, drop, win by count against win by ledger.

    A closed session's figures were fixed when it closed; an open one's are summed now
    (it has no count yet, so no variance). A variance other than zero is flagged.
    """
    sessions = list(
        TableSession.objects.filter(shift=shift)
        .select_related("table", "dealer", "opened_by", "closed_by")
        .order_by("table__code", "opened_at", "pk")
    )
    open_ids = [s.pk for s in sessions if s.status == TableSession.Status.OPEN]
    live: dict[int, dict[str, Decimal]] = defaultdict(dict)
    if open_ids:
        for session_id, kind, total in (
            Slip.objects.filter(session_id__in=open_ids, status=SlipStatus.VERIFIED)
            .values_list("session_id", "kind")
            .annotate(total=Sum("amount"))
            .order_by()
        ):
            live[session_id]["fills" if kind == Slip.Kind.FILL else "credits"] = total
        for session_id, total in (
            Drop.objects.filter(session_id__in=open_ids)
            .values_list("session_id")
            .annotate(total=Sum("amount"))
            .order_by()
        ):
            live[session_id]["drop"] = total
        for session_id, total in (
            LedgerEntry.objects.filter(
                session_id__in=open_ids, round__isnull=False, account=Account.HOUSE
            )
            .values_list("session_id")
            .annotate(total=Sum("amount"))
            .order_by()
        ):
            live[session_id]["win_by_ledger"] = total
    lines = []
    for s in sessions:
        is_open = s.status == TableSession.Status.OPEN
        now = live.get(s.pk, {})
        lines.append(
            {
                "table": s.table.code,
                "session": s.pk,
                "status": s.status,
                "dealer": _username(s.dealer),
                "opened_at": s.opened_at,
                "opened_by": _username(s.opened_by),
                "closed_at": s.closed_at,
                "closed_by": _username(s.closed_by),
                "opening": s.opening_total,
                "closing": s.closing_total,
                "fills": now.get("fills", ZERO) if is_open else s.fills_total,
                "credits": now.get("credits", ZERO) if is_open else s.credits_total,
                "drop": now.get("drop", ZERO) if is_open else s.drop_total,
                "win_by_count": None if is_open else s.win_by_count,
                "win_by_ledger": now.get("win_by_ledger", ZERO) if is_open else s.win_by_ledger,
                "variance": None if is_open else s.variance,
                "flagged": bool(s.variance) if not is_open else None,
            }
        )
    closed = TableSession.objects.filter(shift=shift).exclude(status=TableSession.Status.OPEN)
    totals = closed.aggregate(
        fills=Sum("fills_total"),
        credits=Sum("credits_total"),
        drop=Sum("drop_total"),
        win_by_count=Sum("win_by_count"),
        win_by_ledger=Sum("win_by_ledger"),
        variance=Sum("variance"),
    )
    slips = (
        Slip.objects.filter(session__shift=shift, status=SlipStatus.VERIFIED)
        .select_related("session__table", "requested_by", "issued_by", "verified_by")
        .order_by("verified_at", "pk")[:LIST_LIMIT]
    )
    return {
        "sessions": lines,
        "closed_totals": {k: v if v is not None else ZERO for k, v in totals.items()},
        "open": len(open_ids),
        "flagged_sessions": sum(1 for line in lines if line["flagged"]),
        "slips": [
            {
                "table": s.session.table.code,
                "slip": f"{s.year}-{s.number:06d}",
                "kind": s.kind,
                "amount": s.amount,
                "requested_by": _username(s.requested_by),
                "issued_by": _username(s.issued_by),
                "verified_by": _username(s.verified_by),
                "verified_at": s.verified_at,
            }
            for s in slips
        ],
    }


# The whole report


def shift_figures(report: ShiftReport, *, progress: Progress | None = None) -> dict[str, Any]:
    """Build the report's cells and return all its figures (JSON-ready: strings, not
    decimals). The same rows give the same figures: nothing here depends on when it runs."""
    with connection.cursor() as cursor, _settings_for_sums(cursor):
        return _shift_figures(report, progress or (lambda _percent, _step: None))


def _shift_figures(report: ShiftReport, step: Progress) -> dict[str, Any]:
    shift = Shift.objects.select_related("venue").get(pk=report.shift_id)
    venue = shift.venue
    tz = zoneinfo.ZoneInfo(venue.timezone)
    fee = fee_games()

    step(5, "summing the shift's bets")
    cells_build(report, shift)
    step(35, "applying each ruleset version's house edge")
    rates = version_rates(report)
    cells_rate(report, rates, fee)
    cells = ShiftReportCell.objects.filter(report=report)
    rounds = RoundCounts.of(shift)

    step(40, "tables, dealers and games")
    total = figure_line(cells.aggregate(**cell_sums()), rounds=rounds.total())
    tables = section_tables(cells, rounds)
    dealers = section_dealers(cells, rounds)
    games_ = section_games(cells, rounds)
    step(50, "bet types and hours")
    bet_types = section_bet_types(cells)
    hours = section_hours(cells, rounds, tz)
    step(60, "player ratings")
    players = section_players(cells, shift)
    anonymous = figure_line(cells.filter(player__isnull=True).aggregate(**cell_sums()))
    step(65, "voids, payouts and the count")
    figures = {
        "layout": LAYOUT,
        "shift": {
            "id": shift.pk,
            "venue": venue.code,
            "venue_name": venue.name,
            "currency": venue.currency,
            "timezone": venue.timezone,
            "gaming_date": shift.gaming_date.isoformat(),
            "name": shift.name,
            "starts_at": shift.starts_at.astimezone(tz).isoformat(),
            "ends_at": shift.ends_at.astimezone(tz).isoformat(),
        },
        "notes": _notes(rates, fee, cells),
        "total": total,
        "tables": tables,
        "dealers": dealers,
        "games": games_,
        "bet_types": bet_types,
        "hours": hours,
        "players": players,
        "anonymous": anonymous,
        "fee_games": section_fee_games(cells, rounds, fee),
        "payouts": section_payouts(cells, shift),
        "voids": section_voids(shift),
        "count": section_sessions(shift),
    }
    return jsonable(figures, tz)


def _notes(rates: list[VersionRates], fee: frozenset[str], cells: QuerySet) -> list[str]:
    """Why a theoretical figure reads n/a: the versions whose figures are missing."""
    played = set(cells.values_list("game", "ruleset_version_id", "bet_type").distinct())
    notes = []
    for rate in rates:
        if rate.game in fee:
            continue
        missing = sorted(
            b
            for g, v, b in played
            if (g, v) == (rate.game, rate.version_id) and b not in rate.edges
        )
        if missing:
            notes.append(
                f"n/a (house edge not computed for ruleset {rate.label}): "
                f"theoretical win is unavailable for {', '.join(missing)} bets"
            )
        no_sd = sorted(
            b
            for g, v, b in played
            if (g, v) == (rate.game, rate.version_id) and b in rate.edges and b not in rate.sds
        )
        if no_sd:
            notes.append(
                f"n/a (SD not computed for ruleset {rate.label}): no fluctuation range for "
                f"{', '.join(no_sd)} bets"
            )
    return notes


def theoretical_note(figures: dict[str, Any]) -> str:
    """The text shown in place of a theoretical figure that is unavailable."""
    for note in figures.get("notes", []):
        if note.startswith("n/a (house edge"):
            return note.split(":", 1)[0]
    return "n/a"


def jsonable(value: Any, tz: Any) -> Any:
    """Decimals as strings, datetimes as ISO text in the venue's time zone."""
    if isinstance(value, dict):
        return {k: jsonable(v, tz) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v, tz) for v in value]
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        return _aware(value).astimezone(tz).isoformat()
    return value


def _aware(value: datetime | str) -> datetime:
    if isinstance(value, str):  # SQLite hands back text for a truncated time
        value = datetime.fromisoformat(value)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _username(user: Any) -> str:
    return user.username if user is not None else ""


def _game_name(code: str) -> str:
    try:
        return games.get(code).name
    except LookupError:
        return {"maubinh": "Mau Binh"}.get(code, code)
