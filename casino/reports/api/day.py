"""What the day's screens read, for another system: a venue's buy-ins and cash-outs, its
cash transaction records and cash alerts, the rated play of games rated by hand, the day's
figures per table, its reconciliation and the report periods. Read only; each reads the
selector its screen reads, so a figure here is the screen's.

Who reads them: the venue's supervisors, managers and auditors (``READ_REPORTS``), as the
cash records page, the player's history, the periods page and the reports read them
(another role at the venue: 403; another venue: 404). Times are ISO 8601 written in the
venue's zone (its offset in each time).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from casino import games
from casino.api.base import ApiView, Pagination, errors, not_found, paginated, parse_query
from casino.cage import selectors as cash_selectors
from casino.cage import serializers as cash_s
from casino.cage.models import CashAlert, CashTransaction
from casino.count import selectors as count_selectors
from casino.kernel.replicas import replica_reads
from casino.kernel.timezones import venue_zone
from casino.reports import periods
from casino.reports.api import day_serializers as s
from casino.reports.reconciliation import reconciliation
from casino.staff.policy import Capability
from casino.staff.roles import can
from casino.venues.models import Venue
from casino.venues.selectors import REPORT_READ
from casino.venues.services.gaming_days import gaming_date_of

DATE = OpenApiParameter(
    "gaming_date", str, OpenApiParameter.PATH, description="The gaming date, YYYY-MM-DD."
)
#: The most gaming dates a list of alerts or ratings covers in one request.
MAX_DAYS = 92


def report_venue(request: Request, pk: int) -> Venue:
    """The venue, if the user works there (404) as one of its report readers (403)."""
    venue = count_selectors.venue_for(user=request.user, pk=pk)
    if venue is None:
        not_found("venue", pk)
    if not can(request.user, REPORT_READ, venue.pk):
        raise PermissionDenied("only the venue's supervisors, managers and auditors")
    return venue


def _range(venue: Venue, filters: dict[str, Any], longest: int = MAX_DAYS) -> tuple[date, date]:
    """The gaming dates asked (the gaming day under way by default), at most ``longest``."""
    date_to = filters.get("date_to") or gaming_date_of(venue, timezone.now())
    date_from = filters.get("date_from") or date_to
    if date_from > date_to:
        raise ValidationError({"date_from": ["date_from is after date_to: swap them."]})
    if (date_to - date_from).days >= longest:
        raise ValidationError({"date_from": [f"at most {longest} gaming dates at once"]})
    return date_from, date_to


def _page(request: Request, view: ApiView, rows: Any, serializer_class: Any, venue: Venue):
    paginator = Pagination()
    found = paginator.paginate_queryset(rows, request, view=view)
    with timezone.override(venue_zone(venue)):
        data = serializer_class(found, many=True).data
    return paginator.get_paginated_response(data)


class CashTransactionListView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        tags=["cash"],
        summary="A venue's buy-ins and cash-outs (supervisors, managers, auditors)",
        description="Newest first, voided ones too (marked). Only the cash instrument "
        "counts toward the thresholds; a buy-in's chips leave the tray and its cash is in "
        "the drop box; a cash-out at the table (other than in chips) buys the chips back "
        "into the tray with the buy-ins' cash, so the drop is less by it (docs/OPERATIONS.md).",
        parameters=[cash_s.CashTransactionParams],
        responses={200: paginated(cash_s.CashTransactionSerializer), **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        filters = parse_query(cash_s.CashTransactionParams, request)
        venue = report_venue(request, pk)
        rows = (
            CashTransaction.objects.filter(venue=venue, **filters)
            .select_related("table", "recorded_by", "voided_by")
            .order_by("-recorded_at", "-id")
        )
        return _page(request, self, rows, cash_s.CashTransactionSerializer, venue)


class CashAlertListView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        tags=["cash"],
        summary="A venue's cash alerts: days a player reached the reporting threshold",
        description="One per player, gaming date and direction, newest first; the gaming "
        f"dates default to the gaming day under way, at most {MAX_DAYS} at once.",
        parameters=[cash_s.CashAlertParams],
        responses={200: paginated(cash_s.CashAlertSerializer), **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        filters = parse_query(cash_s.CashAlertParams, request)
        venue = report_venue(request, pk)
        date_from, date_to = _range(venue, filters)
        rows = CashAlert.objects.filter(
            venue=venue, gaming_date__gte=date_from, gaming_date__lte=date_to
        )
        if "player" in filters:
            rows = rows.filter(player_id=filters["player"])
        rows = rows.select_related("player", "unknown_patron").order_by("-raised_at", "-id")
        return _page(request, self, rows, cash_s.CashAlertSerializer, venue)


class CashReportView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        tags=["cash"],
        summary="A venue's cash transaction records: the log and the report candidates",
        description="What the cash records page shows (``cash_selectors.cash_report``), read "
        "from the multiple transaction log: per person (a member or an unknown patron) and "
        "gaming day, the cash in and the cash out added up apart from every movement at the "
        "tables and the cage (voids left out, reversals netted, what the venue's law counts), "
        "judged by the thresholds in force when the day ended. The gaming "
        f"dates default to the gaming day under way, at most {cash_selectors.MAX_REPORT_DAYS}.",
        parameters=[cash_s.CashReportParams],
        responses={200: cash_s.CashReportSerializer, **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        filters = parse_query(cash_s.CashReportParams, request)
        venue = report_venue(request, pk)
        date_from, date_to = _range(venue, filters, longest=cash_selectors.MAX_REPORT_DAYS)
        with replica_reads():
            report = cash_selectors.cash_report(venue=venue, date_from=date_from, date_to=date_to)
        with timezone.override(venue_zone(venue)):
            return Response(cash_s.CashReportSerializer(report).data)


def rated_play(venue: Venue, date_from: date, date_to: date) -> list[Any]:
    """The rated play at the venue's tables of the gaming dates, from each game rated by
    hand (``GameReports.rated_play``), in order of time in."""
    found = []
    for game in games.all_games():
        found.extend(
            game.reports.rated_play(
                player_ids=None, date_from=date_from, date_to=date_to, venue_id=venue.pk
            )
        )
    return sorted(found, key=lambda line: (line.started_at, line.session_id, line.player_id))


class RatingListView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        tags=["players"],
        summary="Rated play at a venue's tables of games rated by hand",
        description="The supervisors' ratings in force (a corrected one is left out), in "
        "order of time in; the gaming dates default to the gaming day under way, at most "
        f"{MAX_DAYS}.",
        parameters=[s.RatingParams],
        responses={200: paginated(s.RatingSerializer), **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        filters = parse_query(s.RatingParams, request)
        venue = report_venue(request, pk)
        date_from, date_to = _range(venue, filters)
        with replica_reads():
            lines = rated_play(venue, date_from, date_to)
        if "player" in filters:
            lines = [line for line in lines if line.player_id == filters["player"]]
        if "session" in filters:
            lines = [line for line in lines if line.session_id == filters["session"]]
        return _page(request, self, lines, s.RatingSerializer, venue)


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        not_found("gaming date", text)


class DayFiguresView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        tags=["reports"],
        summary="The day's figures per table: drop, win by count, win by ledger, hold",
        description="The count's figures (``count_selectors.win_figures``, as the count "
        "pages show them): win by count = closer - opener + credits - fills + drop; win by "
        "ledger = what the settled rounds moved to the house; hold = win by ledger / "
        "handle; win/drop = win by count / drop. Until the day's count is closed a box may "
        "be uncounted, its drop not in the figures (count_closed).",
        parameters=[DATE],
        responses={200: s.DayFiguresSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int, gaming_date: str) -> Response:
        venue = report_venue(request, pk)
        return Response(day_figures(venue, _date(gaming_date)))


def day_figures(venue: Venue, day: date) -> dict[str, Any]:
    """What ``DayFiguresView`` answers for ``venue``'s gaming ``day`` (the reconciliation
    page reads it to show the API's figures beside the others)."""
    with replica_reads():
        figures = count_selectors.win_figures(venue, day)
        closed = count_selectors.count_day(venue, day)["closed"]
    data = {"venue": venue.pk, "gaming_date": day, "count_closed": closed, **figures}
    return s.DayFiguresSerializer(data).data


class ReconciliationView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        tags=["reports"],
        summary="The reconciliation of a gaming day: win by ledger against win by count",
        description="What the reconciliation page shows (``casino.reports.reconciliation``): "
        "per table, the win by ledger and the win by count side by side, their difference "
        "and whether it reconciles (no difference, every session closed, every box "
        "counted), and per session what explains it: the variance at close and its reason, "
        "the count's drop posted since, the voided rounds, the entries made after the "
        "close. An accounting-only table settles no rounds: it has no win by ledger.",
        parameters=[DATE],
        responses={200: s.DayReconciliationSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int, gaming_date: str) -> Response:
        venue = report_venue(request, pk)
        day = _date(gaming_date)
        with replica_reads():
            found = reconciliation(venue, day)
        return Response(s.DayReconciliationSerializer(found).data)


class PeriodView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        tags=["reports"],
        summary="A venue's figures over a period by dimension, beside the previous period",
        description="What the periods page shows (``casino.reports.periods``): a gaming "
        "day, week, month or year to date, or a range of gaming dates (at most "
        f"{periods.MAX_DAYS}), each line beside the same line of the previous period. "
        "The settled bets' lines (handle, house win, hold) and, apart, the accounting-only "
        "tables' lines (drop, win by count, win/drop), as the page and its CSV show them.",
        parameters=[s.PeriodParams],
        responses={200: s.PeriodSerializer, **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        params = s.PeriodParams(data=request.query_params)
        params.is_valid(raise_exception=True)
        asked = params.validated_data
        venue = report_venue(request, pk)
        day = asked.get("day") or gaming_date_of(venue, timezone.now())
        period = periods.period_of(asked["kind"], day, asked.get("to"))
        if period.days > periods.MAX_DAYS:
            raise ValidationError({"to": [f"at most {periods.MAX_DAYS} gaming dates at once"]})
        figures = periods.period_figures(venue=venue, period=period, dimension=asked["dimension"])
        data = {
            "venue": venue.pk,
            "kind": period.kind,
            "start": period.start,
            "end": period.end,
            "previous_start": period.previous_start,
            "previous_end": period.previous_end,
            "dimension": figures.dimension.code,
            "total": figures.total,
            "lines": figures.lines,
            "notes": figures.notes,
            "accounting_dimension": periods.accounting_dimension(figures.dimension.code).code,
            "accounting": figures.accounting,
            "accounting_total": figures.accounting_total,
        }
        return Response(s.PeriodSerializer(data).data)


__all__ = [
    "CashAlertListView",
    "CashReportView",
    "CashTransactionListView",
    "DayFiguresView",
    "PeriodView",
    "RatingListView",
    "ReconciliationView",
]
