"""A gaming day's reconciliation: per table, the win by ledger and the win by count side by
side, and what explains their difference (each session's closing variance and its reason,
the boxes not counted yet, the voided rounds, the entries recorded after a session closed).

Every figure is read from where it is defined: the count's figures per table
(``casino.count.selectors.win_figures``), the session's close and count
(``casino.floor.figures``); this module only gathers what explains them.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Count, F, Q, Sum

from casino import games
from casino.audit.models import AuditAction, AuditEvent
from casino.audit.services import object_type
from casino.cage.models import CashTransaction
from casino.count.selectors import win_figures
from casino.floor import figures
from casino.floor.models import Bet, Round, RoundStatus, TableSession
from casino.ledger.models import Account, LedgerEntry
from casino.venues.models import Venue

ZERO = Decimal(0)

#: The definitions the page names for its figures.
SHOWN = ("win_by_ledger", "win_by_count", "variance", "drop")


def _reasons(sessions: list[TableSession]) -> dict[int, str]:
    """The reason each session's close gave for its variance (kept in its close's audit)."""
    rows = AuditEvent.objects.filter(
        action=AuditAction.SESSION_CLOSE,
        object_type=object_type(TableSession),
        object_id__in=[str(s.pk) for s in sessions],
    ).values_list("object_id", "after")
    return {int(pk): (after or {}).get("variance_reason", "") for pk, after in rows}


def _voids(ids: list[int]) -> dict[int, dict[str, Any]]:
    """Per session: the rounds voided and the stakes they carried."""
    rounds = dict(
        Round.objects.filter(session_id__in=ids, status=RoundStatus.VOIDED)
        .values_list("session_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    stakes = dict(
        Bet.objects.filter(box__round__session_id__in=ids, box__round__status=RoundStatus.VOIDED)
        .values_list("box__round__session_id")
        .annotate(total=Sum("stake"))
        .order_by()
    )
    return {pk: {"rounds": n, "stakes": stakes.get(pk) or ZERO} for pk, n in rounds.items()}


def _late(ids: list[int]) -> dict[int, dict[str, Any]]:
    """Per closed session: the ledger entries and cash records entered after its close
    (the count's drops, which the count posts after every close, are its counted drop)."""
    entries = {
        row["session_id"]: row
        for row in LedgerEntry.objects.filter(
            session_id__in=ids, created_at__gt=F("session__closed_at")
        )
        .exclude(drop__drop_box__isnull=False)
        .values("session_id")
        .annotate(n=Count("pk"), house=Sum("amount", filter=Q(account=Account.HOUSE)))
        .order_by()
    }
    cash = dict(
        CashTransaction.objects.filter(session_id__in=ids, recorded_at__gt=F("session__closed_at"))
        .values_list("session_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return {
        pk: {
            "entries": entries.get(pk, {}).get("n", 0),
            "house": entries.get(pk, {}).get("house") or ZERO,
            "cash": cash.get(pk, 0),
        }
        for pk in set(entries) | set(cash)
    }


def reconciliation(venue: Venue, day: date) -> dict[str, Any]:
    """Per table of ``venue``'s gaming ``day``: the count's figures, the win by ledger,
    their difference, whether it reconciles, and the lines that explain it; a total."""
    figured = win_figures(venue, day)
    sessions = list(
        TableSession.objects.filter(table__venue=venue, shift__gaming_date=day)
        .select_related("table")
        .order_by("table__code", "opened_at", "pk")
    )
    ids = [s.pk for s in sessions]
    counted = figures.sessions_counted(sessions)
    reasons = _reasons(sessions)
    voids = _voids(ids)
    late = _late(ids)
    by_table: dict[int, list[TableSession]] = defaultdict(list)
    for session in sessions:
        by_table[session.table_id].append(session)

    rows = []
    difference_total = ZERO
    all_reconcile = True
    for row in figured["rows"]:
        table = row["table"]
        settles = games.get(table.game).settles_rounds
        lines = []
        for session in by_table[table.pk]:
            with_count = counted[session.pk]
            lines.append(
                {
                    "session": session,
                    "open": with_count is None,
                    "variance": session.variance,
                    "reason": reasons.get(session.pk, ""),
                    "counted": with_count,
                    "voids": voids.get(session.pk),
                    "late": late.get(session.pk),
                }
            )
        uncounted = sum(1 for line in lines if line["counted"] and not line["counted"].counted)
        still_open = sum(1 for line in lines if line["open"])
        difference = (
            figures.variance(win_by_count=row["win"], win_by_ledger=row["house_win"])
            if settles and row["win"] is not None
            else None
        )
        reconciles = settles and difference == ZERO and not uncounted and not still_open
        if settles:
            all_reconcile = all_reconcile and reconciles
            difference_total += difference or ZERO
        rows.append(
            {
                **row,
                "settles": settles,
                "win_by_ledger": row["house_win"] if settles else None,
                "difference": difference,
                "reconciles": reconciles,
                "uncounted": uncounted,
                "still_open": still_open,
                "lines": lines,
            }
        )
    total = figured["total"]
    return {
        "venue": venue,
        "day": day,
        "rows": rows,
        "total": {
            "win": total["win"],
            "win_by_ledger": total["house_win"],
            "drop": total["drop"],
            "difference": difference_total if total["win"] is not None else None,
            "reconciles": bool(rows) and all_reconcile and total["win"] is not None,
        },
    }
