"""The lists of a shift report: the largest payouts, the voids (rounds, requests not
approved, slips) and the count of each session against its ledger."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any

from django.db.models import Count, Prefetch, QuerySet, Sum

from casino.cage.models import Slip, SlipStatus
from casino.floor.figures import Counted, pct, sessions_counted
from casino.floor.lines import ZERO
from casino.floor.models import Bet, Round, RoundStatus, TableSession
from casino.ledger.models import Account, Drop, LedgerEntry
from casino.reports.cells import settled_bets
from casino.venues.models import DealerSpell, Shift

#: Rows listed one by one (voids, slips); past this they are counted, not listed.
LIST_LIMIT = 200
PAYOUTS = 10


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


#: A session line's figures with the count (``casino.floor.figures.Counted``'s names): None
#: while open or until its box is counted, shown as "drop not counted yet" (never 0).
WITH_COUNT = {
    "counted_drop": "counted_drop",
    "drop_with_count": "drop",
    "win_with_count": "win_by_count",
    "variance_with_count": "variance",
}


def section_sessions(shift: Shift) -> dict[str, Any]:
    """Per table session: fills, credits, drop, win by count against win by ledger; the
    closed sessions' win/drop, with the drops the count posted to them after their close;
    who counted and who confirmed each count, and the opener's difference from the table's
    inventory with its reason.

    A closed session's figures were fixed when it closed; an open one's are summed now
    (it has no count yet, so no variance). A variance other than zero is flagged.
    """
    sessions = _shift_sessions(shift)
    open_ids = [s.pk for s in sessions if s.status == TableSession.Status.OPEN]
    live = _open_sums(open_ids)
    counts = sessions_counted(sessions)
    lines = [_session_line(s, live.get(s.pk, {}), counts[s.pk]) for s in sessions]
    closed = TableSession.objects.filter(shift=shift).exclude(status=TableSession.Status.OPEN)
    totals = closed.aggregate(
        fills=Sum("fills_total"),
        credits=Sum("credits_total"),
        drop=Sum("drop_total"),
        win_by_count=Sum("win_by_count"),
        win_by_ledger=Sum("win_by_ledger"),
        variance=Sum("variance"),
    )
    # The count room's drops, posted to closed sessions after their close (their stored
    # figures do not hold them): the shift's win and drop with them give its win/drop.
    counted = (
        Drop.objects.filter(session__in=closed, drop_box__isnull=False).aggregate(
            total=Sum("amount")
        )["total"]
        or ZERO
    )
    win_with_count = (totals["win_by_count"] or ZERO) + counted
    drop_with_count = (totals["drop"] or ZERO) + counted
    return {
        "sessions": lines,
        "closed_totals": {k: v if v is not None else ZERO for k, v in totals.items()},
        "open": len(open_ids),
        "counted_drop": counted,
        "win_with_count": win_with_count,
        "win_drop_pct": pct(win_with_count, drop_with_count),
        "flagged_sessions": sum(1 for line in lines if line["flagged"]),
        "uncounted_sessions": sum(1 for line in lines if line["counted"] is False),
        "slips": _verified_slips(shift),
    }


def _shift_sessions(shift: Shift) -> list[TableSession]:
    """The shift's sessions by table, with the people each names and its dealers' spells."""
    return list(
        TableSession.objects.filter(shift=shift)
        .select_related(
            "table",
            "dealer",
            "opened_by",
            "opening_confirmed_by",
            "closing_counted_by",
            "closed_by",
        )
        .prefetch_related(
            Prefetch(
                "spells",
                queryset=DealerSpell.objects.select_related("dealer").order_by("started_at", "pk"),
            )
        )
        .order_by("table__code", "opened_at", "pk")
    )


def _open_sums(open_ids: list[int]) -> dict[int, dict[str, Decimal]]:
    """The open sessions' verified fills and credits, drop and win by ledger, summed now (one
    query each, none when no session is open)."""
    live: dict[int, dict[str, Decimal]] = defaultdict(dict)
    if not open_ids:
        return live
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
    return live


def _session_line(
    s: TableSession, now: dict[str, Decimal], counted: Counted | None
) -> dict[str, Any]:
    """One session's line: its people, its opener's difference, its figures (stored when
    closed, ``now`` while open) and its count's (``counted``, None while open)."""
    is_open = s.status == TableSession.Status.OPEN
    return {
        "table": s.table.code,
        "session": s.pk,
        "status": s.status,
        # Every dealer on duty in turn (a relief mid-session names two).
        "dealer": ", ".join(dict.fromkeys(_username(p.dealer) for p in s.spells.all()))
        or _username(s.dealer),
        "opened_at": s.opened_at,
        "opened_by": _username(s.opened_by),
        "opening_confirmed_by": _username(s.opening_confirmed_by),
        # How the opener differed from the table's inventory (None: it matched,
        # or the table had never been closed), each denomination's chips, the reason.
        "opening_difference": s.opening_discrepancy_total if s.opening_discrepancy else None,
        "opening_difference_chips": [
            {"denomination": Decimal(d), "chips": n}
            for d, n in (s.opening_discrepancy or {}).items()
        ],
        "opening_reason": s.opening_discrepancy_reason,
        "closed_at": s.closed_at,
        "closing_counted_by": _username(s.closing_counted_by),
        "closed_by": _username(s.closed_by),
        "opening": s.opening_total,
        "closing": s.closing_total,
        "fills": now.get("fills", ZERO) if is_open else s.fills_total,
        "credits": now.get("credits", ZERO) if is_open else s.credits_total,
        "drop": now.get("drop", ZERO) if is_open else s.drop_total,
        "win_by_count": None if is_open else s.win_by_count,
        "win_by_ledger": now.get("win_by_ledger", ZERO) if is_open else s.win_by_ledger,
        "variance": None if is_open else s.variance,
        # A variance the count has explained is no longer flagged.
        "flagged": None
        if is_open
        else bool(counted.variance if counted and counted.counted else s.variance),
        # The same with the count's drop (casino.floor.figures.with_count); None while
        # open; "counted" False: drop not counted yet.
        "counted": None if counted is None else counted.counted,
        **{
            key: getattr(counted, name) if counted and counted.counted else None
            for key, name in WITH_COUNT.items()
        },
    }


def _verified_slips(shift: Shift) -> list[dict[str, Any]]:
    """The shift's verified slips in the order the cage verified them, up to ``LIST_LIMIT``."""
    slips = (
        Slip.objects.filter(session__shift=shift, status=SlipStatus.VERIFIED)
        .select_related("session__table", "requested_by", "issued_by", "verified_by")
        .order_by("verified_at", "pk")[:LIST_LIMIT]
    )
    return [
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
    ]


# The whole report


def _username(user: Any) -> str:
    return user.username if user is not None else ""
