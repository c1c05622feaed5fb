"""What the cage tells the floor of a session's slips and cash (``casino.floor.answers``,
registered when the cage is ready): the floor, below the cage, closes a session, works out
its figures and tray and shows its tables from these answers without knowing the slips."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, IntegerField, Min, OuterRef, Q, Subquery, Sum

from casino.cage.marker_selectors import session_markers
from casino.cage.models import (
    CashInstrument,
    CashKind,
    CashLevel,
    CashTransaction,
    ManualPaper,
    Slip,
    SlipStatus,
    slip_label,
)
from casino.cage.selectors import session_crossings
from casino.floor.answers import CageSums, SlipsWaiting
from casino.floor.figures import ZERO
from casino.floor.models import TableSession

#: Slips the cage has yet to verify: requested, or issued and on their way.
PENDING_SLIPS = (SlipStatus.REQUESTED, SlipStatus.ISSUED)


def pending_slips(session: TableSession) -> list[str]:
    """The session's slips neither verified nor voided, by the number the screens show."""
    pending = Slip.objects.filter(session=session, status__in=PENDING_SLIPS).order_by(
        "year", "number"
    )
    return [slip_label(year, number) for year, number in pending.values_list("year", "number")]


def session_sums(session: TableSession) -> CageSums:
    """Its verified fills and credits, and the chips the table sold and bought back
    (buy-ins and cash-outs not voided, paid other than in chips), with its markers as the
    venue's terms counted them when each was issued (``session_markers``, docs/MARKERS.md):
    one whose copy counts in the drop gave chips as a buy-in does (chips sold), one the cage
    took on the table's account as a credit's chips (credits)."""
    slips = dict(
        Slip.objects.filter(session=session, status=SlipStatus.VERIFIED)
        .values_list("kind")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    cash = (
        CashTransaction.objects.filter(session=session, voided_at__isnull=True)
        .exclude(instrument=CashInstrument.CHIPS)
        .aggregate(
            sold=Sum("amount", filter=Q(kind=CashKind.BUY_IN)),
            bought=Sum("amount", filter=Q(kind=CashKind.CASH_OUT)),
        )
    )
    markers = session_markers([session.pk]).get(session.pk, {"in_drop": ZERO, "to_cage": ZERO})
    return {
        "fills": slips.get(Slip.Kind.FILL, ZERO),
        "credits": slips.get(Slip.Kind.CREDIT, ZERO) + markers["to_cage"],
        "chips_sold": (cash["sold"] or ZERO) + markers["in_drop"],
        "chips_bought_back": cash["bought"] or ZERO,
    }


def slips_waiting() -> Subquery:
    """How many slips of the session (``OuterRef("pk")``) wait for the cage."""
    waiting = (
        Slip.objects.filter(session=OuterRef("pk"), status__in=PENDING_SLIPS)
        .order_by()
        .values("session")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Subquery(waiting, output_field=IntegerField())


def slips_waiting_by_session(session_ids: Iterable[int]) -> dict[int, SlipsWaiting]:
    """The waiting fills and credits of each session that has any, and the oldest (one
    GROUP BY)."""
    return {
        row.pop("session_id"): row
        for row in Slip.objects.filter(session_id__in=list(session_ids), status__in=PENDING_SLIPS)
        .order_by()
        .values("session_id")
        .annotate(
            fills=Count("pk", filter=Q(kind=Slip.Kind.FILL)),
            credits=Count("pk", filter=Q(kind=Slip.Kind.CREDIT)),
            oldest=Min("requested_at"),
        )
    }


def cash_reported_by_session(session_ids: Iterable[int]) -> dict[int, int]:
    """How many buy-ins and cash-outs of each session reached the reporting threshold, voids
    left out (one GROUP BY)."""
    return dict(
        CashTransaction.objects.filter(
            session_id__in=list(session_ids),
            threshold=CashLevel.REPORTING,
            voided_at__isnull=True,
        )
        .order_by()
        .values("session_id")
        .annotate(count=Count("pk"))
        .values_list("session_id", "count")
    )


def crossings(session: TableSession) -> list[CashTransaction]:
    """The session's cash transactions that reached a threshold, newest first."""
    return session_crossings(session=session)


def late_rounds(session: TableSession) -> dict[int, str]:
    """The session's rounds entered late from a round sheet: round id -> the paper's number
    (``casino.cage.manual``)."""
    papers = ManualPaper.objects.filter(round__session=session).select_related("series")
    return {paper.round_id: paper.label for paper in papers}
