"""What the screens, the API, the reports and the services read of markers (casino credit).

Each figure is added up here once:

- a marker's **balance** = its amount - its payments (a reversal adds back what it undoes);
- a player's **outstanding** = the sum of their markers' amounts - the sum of their payments;
- the **available credit** = the credit limit in force - the outstanding (never below 0 as
  a figure to issue against);
- a marker is **overdue** once the venue's gaming date is past its due date and its balance
  is more than 0; its **days past due** are the days from its due date to that date;
- the **aging** of the outstanding puts each marker's balance in one bucket by its days past
  due: current (not yet due), 1-30, 31-60, 61-90, over 90.

A table's markers in its figures (``session_markers``): those that count in its drop and
those the cage took on its account (the venue's terms when each was issued, kept on the
marker), which ``casino.cage.answers.session_sums`` gives the floor and the count reads for
the box.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from casino.cage.markers import DEFAULT_CREDIT_DROP, DEFAULT_TERM_DAYS
from casino.cage.models import CreditLine, Marker, MarkerPayment, MarkerTerms
from casino.kernel.fields import money_field
from casino.venues.models import Venue

ZERO = Decimal(0)
#: The most rows a player's or the cage's list shows.
LIST_LIMIT = 200


@dataclass(frozen=True)
class Terms:
    """The venue's marker terms in force (the defaults while it has set none)."""

    term_days: int
    credit_drop: bool
    version: MarkerTerms | None = None


def terms_in_force(venue: Venue) -> Terms:
    """The venue's latest marker terms, or the defaults: ``DEFAULT_TERM_DAYS`` days to pay
    and the table's markers in its drop (``DEFAULT_CREDIT_DROP``)."""
    latest = MarkerTerms.objects.filter(venue=venue).order_by("-set_at", "-id").first()
    if latest is None:
        return Terms(term_days=DEFAULT_TERM_DAYS, credit_drop=DEFAULT_CREDIT_DROP)
    return Terms(term_days=latest.term_days, credit_drop=latest.credit_drop, version=latest)


def credit_line_in_force(player: Any) -> CreditLine | None:
    """The player's latest approved credit line, or None (no credit)."""
    return (
        CreditLine.objects.filter(player=player, status=CreditLine.Status.APPROVED)
        .order_by("-approved_at", "-id")
        .first()
    )


def credit_limit(player: Any) -> Decimal:
    """The player's credit limit in force (0 without an approved credit line)."""
    line = credit_line_in_force(player)
    return line.limit if line is not None else ZERO


def credit_lines(player: Any) -> list[CreditLine]:
    """Every version of the player's credit line, newest first."""
    return list(
        CreditLine.objects.filter(player=player)
        .select_related("proposed_by", "approved_by")
        .order_by("-proposed_at", "-id")[:LIST_LIMIT]
    )


def proposed_credit_lines(venue: Venue) -> list[CreditLine]:
    """The venue's credit lines waiting for a second manager, oldest first."""
    return list(
        CreditLine.objects.filter(venue=venue, status=CreditLine.Status.PROPOSED)
        .select_related("player", "proposed_by")
        .order_by("proposed_at", "id")[:LIST_LIMIT]
    )


def _paid() -> Subquery:
    """What the marker (``OuterRef("pk")``) has been paid, reversals taken off."""
    return Subquery(
        MarkerPayment.objects.filter(marker=OuterRef("pk"))
        .order_by()
        .values("marker")
        .annotate(total=Sum("amount"))
        .values("total"),
        output_field=money_field(),
    )


def with_balance(markers: QuerySet[Marker]) -> QuerySet[Marker]:
    """``markers`` annotated with ``paid`` and ``balance`` (amount - paid), in the query."""
    zero = Value(ZERO, output_field=money_field())
    return markers.annotate(paid=Coalesce(_paid(), zero)).annotate(
        balance=Coalesce("amount", zero) - Coalesce(_paid(), zero)
    )


def outstanding(player: Any) -> Decimal:
    """The player's outstanding: their markers less their payments (the one sum)."""
    issued = Marker.objects.filter(player=player).aggregate(t=Sum("amount"))["t"] or ZERO
    paid = MarkerPayment.objects.filter(marker__player=player).aggregate(t=Sum("amount"))["t"]
    return issued - (paid or ZERO)


def available_credit(player: Any) -> tuple[Decimal, Decimal, Decimal]:
    """(limit in force, outstanding, available = limit - outstanding, never below 0)."""
    limit, owed = credit_limit(player), outstanding(player)
    return limit, owed, max(limit - owed, ZERO)


def marker_balance(marker: Marker) -> Decimal:
    paid = MarkerPayment.objects.filter(marker=marker).aggregate(t=Sum("amount"))["t"]
    return marker.amount - (paid or ZERO)


def days_past_due(marker: Marker, today: date) -> int:
    """Days from the marker's due date to ``today`` (0 while not yet past it)."""
    return max((today - marker.due_on).days, 0)


def is_overdue(marker: Any, today: date) -> bool:
    """Past its due date with a balance: the one rule of what is overdue."""
    return marker.due_on < today and marker.balance > 0


def player_markers(player: Any) -> list[Marker]:
    """The player's markers with their balances, newest first."""
    return list(
        with_balance(Marker.objects.filter(player=player))
        .select_related("session__table", "issued_by", "supervisor")
        .order_by("-issued_at", "-id")[:LIST_LIMIT]
    )


def open_markers(venue: Venue, *, player: Any = None) -> list[Marker]:
    """The venue's markers with a balance (of ``player`` where given), oldest due first."""
    markers = Marker.objects.filter(venue=venue)
    if player is not None:
        markers = markers.filter(player=player)
    return list(
        with_balance(markers)
        .filter(balance__gt=0)
        .select_related("player", "session__table")
        .order_by("due_on", "number")[:LIST_LIMIT]
    )


def overdue_markers(venue: Venue, *, today: date) -> list[Marker]:
    """The venue's overdue markers on ``today`` (``is_overdue``), oldest due first."""
    return [m for m in open_markers(venue) if is_overdue(m, today)]


def marker_payments(marker: Marker) -> list[MarkerPayment]:
    return list(
        MarkerPayment.objects.filter(marker=marker)
        .select_related("received_by", "reverses")
        .order_by("-received_at", "-id")
    )


def marker_for(*, venue_ids: Iterable[int], pk: int) -> Marker | None:
    """The marker at one of ``venue_ids`` with its balance, or None."""
    return (
        with_balance(Marker.objects.filter(venue_id__in=list(venue_ids), pk=pk))
        .select_related("venue", "player", "session__table", "issued_by", "supervisor")
        .first()
    )


# A table's markers in its figures


def session_markers(session_ids: Iterable[int]) -> dict[int, dict[str, Decimal]]:
    """Per session that issued any: ``in_drop`` (its markers counted in its drop) and
    ``to_cage`` (those the cage took on its account), one GROUP BY."""
    rows = (
        Marker.objects.filter(session_id__in=list(session_ids))
        .order_by()
        .values("session_id")
        .annotate(
            in_drop_sum=Sum("amount", filter=Q(in_drop=True)),
            to_cage_sum=Sum("amount", filter=Q(in_drop=False)),
        )
    )
    return {
        row["session_id"]: {
            "in_drop": row["in_drop_sum"] or ZERO,
            "to_cage": row["to_cage_sum"] or ZERO,
        }
        for row in rows
    }


def markers_in_drop(session_ids: Iterable[int]) -> list[Marker]:
    """The copies a drop box holds: the markers of its sessions that count in the drop."""
    return list(
        Marker.objects.filter(session_id__in=list(session_ids), in_drop=True)
        .select_related("player")
        .order_by("number")
    )


# The aging report

#: The buckets by days past due: (key, label, first day, last day or None).
BUCKETS: tuple[tuple[str, Any, int, int | None], ...] = (
    ("current", _("Current"), 0, 0),
    ("days_1_30", _("1–30 days"), 1, 30),
    ("days_31_60", _("31–60 days"), 31, 60),
    ("days_61_90", _("61–90 days"), 61, 90),
    ("over_90", _("Over 90 days"), 91, None),
)


def bucket_of(days: int) -> str:
    for key, _label, first, last in BUCKETS:
        if days >= first and (last is None or days <= last):
            return key
    raise AssertionError(days)  # every day count is in one bucket


@dataclass
class AgingLine:
    """One player's outstanding markers by days past due."""

    player: Any
    buckets: dict[str, Decimal] = field(default_factory=lambda: {b[0]: ZERO for b in BUCKETS})
    markers: int = 0
    oldest_due: date | None = None

    @property
    def total(self) -> Decimal:
        return sum(self.buckets.values(), ZERO)

    @property
    def overdue(self) -> Decimal:
        return self.total - self.buckets["current"]


@dataclass
class Aging:
    venue: Venue
    as_of: date
    lines: list[AgingLine]

    @property
    def totals(self) -> dict[str, Decimal]:
        return {b[0]: sum((line.buckets[b[0]] for line in self.lines), ZERO) for b in BUCKETS}

    @property
    def total(self) -> Decimal:
        return sum(self.totals.values(), ZERO)


def marker_aging(*, venue: Venue, as_of: date) -> Aging:
    """The venue's outstanding markers per player on the gaming date ``as_of``, each
    balance in the bucket of its days past due; players by membership number. Balances are
    as they are now (the payments recorded so far)."""
    markers = (
        with_balance(Marker.objects.filter(venue=venue, gaming_date__lte=as_of))
        .filter(balance__gt=0)
        .select_related("player")
        .order_by("player__membership_number", "due_on", "number")
    )
    lines: dict[int, AgingLine] = {}
    for marker in markers:
        line = lines.setdefault(marker.player_id, AgingLine(player=marker.player))
        line.buckets[bucket_of(days_past_due(marker, as_of))] += marker.balance
        line.markers += 1
        line.oldest_due = min(line.oldest_due or marker.due_on, marker.due_on)
    return Aging(venue=venue, as_of=as_of, lines=list(lines.values()))
