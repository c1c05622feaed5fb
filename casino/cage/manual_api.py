"""When the system is down, through the API: a table's manual series issued (a manager or
the cage's cashier) and read, its papers entered afterwards by a supervisor (a fill or
credit slip, a round sheet) or recorded as spoiled, and a gaming day's late entries, gaps
and paper reconciliation. Each write calls the service the console's screens call
(``casino.cage.services.manual``), so the rules, the late-entry flag and the audit trail
are the same. Another venue's series, table or session is not found (404)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors, not_found
from casino.api.views.common import found, parse
from casino.cage import manual_selectors, slip_selectors
from casino.cage import manual_serializers as s
from casino.cage.manual import ManualPaper, ManualSeries
from casino.cage.services.manual import (
    manual_paper_spoil,
    manual_round_enter,
    manual_series_issue,
    manual_slip_enter,
)
from casino.floor import selectors
from casino.games import BoxInput
from casino.kernel.errors import InvalidInput
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, allows
from casino.venues.models import Table, Venue

DATE = OpenApiParameter(
    "gaming_date", str, OpenApiParameter.PATH, description="The gaming date, YYYY-MM-DD."
)
TABLE = OpenApiParameter("table", int, OpenApiParameter.QUERY, required=False)


def _series(request: Request, pk: int) -> ManualSeries:
    return found(manual_selectors.series_for(user=request.user, pk=pk), "manual series", pk)


def _series_answer(series: ManualSeries, code: int = status.HTTP_200_OK) -> Response:
    papers = ManualPaper.objects.select_related("series", "recorded_by", "slip", "round")
    series = (
        ManualSeries.objects.select_related("venue", "table", "issued_by")
        .prefetch_related(Prefetch("papers", queryset=papers.order_by("number")))
        .get(pk=series.pk)
    )
    with timezone.override(venue_zone(series.venue)):
        return Response(
            s.SeriesDetailSerializer(manual_selectors.series_line(series)).data, status=code
        )


class SeriesListView(ApiView):
    read_capability = Capability.READ_SLIP_REPORT
    write_capability = Capability.MANUAL_SERIES

    @extend_schema(
        operation_id="manual_series_list",
        tags=["manual"],
        summary="The manual series of a venue's tables, with their use and gaps",
        parameters=[
            OpenApiParameter("venue", int, OpenApiParameter.QUERY, required=True),
            TABLE,
        ],
        responses={200: s.SeriesSerializer(many=True), **errors(401, 403, 404)},
    )
    def get(self, request: Request) -> Response:
        venue_id = request.query_params.get("venue", "")
        venue = slip_selectors.venue_for(
            user=request.user, pk=int(venue_id) if venue_id.isdecimal() else 0
        )
        if venue is None:
            not_found("venue", venue_id, field="venue")
        if not allows(request.user, Capability.READ_SLIP_REPORT, venue.pk):
            raise PermissionDenied("manual series are read by the cage, the pit and auditors")
        table = request.query_params.get("table", "")
        lines = manual_selectors.series_lines(
            venue=venue, table_id=int(table) if table.isdecimal() else None
        )
        return Response(s.SeriesSerializer(lines, many=True).data)

    @extend_schema(
        tags=["manual"],
        summary="Issue a manual series for a table (a manager or the cage's cashier)",
        description="Pre-numbered paper forms of one kind for one table, printed in advance "
        "(the console's print page or PDF); the prefix names one series at the venue (409 "
        "when taken).",
        request=s.SeriesIssueInputSerializer,
        responses={201: s.SeriesDetailSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request) -> Response:
        data = parse(s.SeriesIssueInputSerializer, request)
        table = Table.objects.filter(pk=data["table"]).select_related("venue").first()
        if table is None:
            not_found("table", data["table"], field="table")
        series = manual_series_issue(
            table=table,
            user=request.user,
            kind=data["kind"],
            prefix=data["prefix"],
            first=data["first"],
            last=data["last"],
        )
        return _series_answer(series, status.HTTP_201_CREATED)


class SeriesDetailView(ApiView):
    read_capability = Capability.READ_SLIP_REPORT

    @extend_schema(
        tags=["manual"],
        summary="A manual series with its papers (entered late or spoiled) and gaps",
        responses={200: s.SeriesDetailSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        series = _series(request, pk)
        if not allows(request.user, Capability.READ_SLIP_REPORT, series.venue_id):
            raise PermissionDenied("manual series are read by the cage, the pit and auditors")
        return _series_answer(series)


def _session(request: Request, pk: int) -> Any:
    return found(selectors.session_get(user=request.user, pk=pk), "session", pk, field="session")


def _signer(venue: Venue, username: str, field: str) -> Any:
    user = get_user_model().objects.filter(username=username, venue_roles__venue=venue).first()
    if user is None:
        raise InvalidInput(
            _("%(user)s holds no role at this venue") % {"user": username},
            field=field,
            reason="paper_signer",
        )
    return user


class PaperSlipView(ApiView):
    write_capability = Capability.ENTER_PAPER

    @extend_schema(
        tags=["manual"],
        summary="Enter a paper fill or credit slip afterwards (a supervisor): a late entry",
        description="The slip as written: its chips, the time on it and its three signers "
        "(the cage's cashier, the dealer, a supervisor: three people, none of them the caller "
        "as cashier). Requested, signed at the paper's time and posted to the ledger in one "
        "step, in the open session of the series' table; flagged late. A number used already "
        "(entered or spoiled) is 409.",
        request=s.PaperSlipInputSerializer,
        responses={201: s.SeriesDetailSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        series = _series(request, pk)
        data = parse(s.PaperSlipInputSerializer, request)
        venue = series.venue
        manual_slip_enter(
            series=series,
            user=request.user,
            number=data["number"],
            session=_session(request, data["session"]),
            chips=data["chips"],
            written_at=data["written_at"],
            cashier=_signer(venue, data["cashier"], "cashier"),
            dealer=_signer(venue, data["dealer"], "dealer"),
            supervisor=_signer(venue, data["supervisor"], "supervisor"),
        )
        return _series_answer(series, status.HTTP_201_CREATED)


class PaperRoundView(ApiView):
    write_capability = Capability.ENTER_PAPER

    @extend_schema(
        tags=["manual"],
        summary="Enter a round sheet afterwards (a supervisor): a late entry",
        description="The round as written (cards, boxes, bets), dealt and settled through the "
        "same services as a live round, so its bets, ledger entries and figures are a live "
        "round's; the session's next round, flagged late with the paper's number and time.",
        request=s.PaperRoundInputSerializer,
        responses={201: s.SeriesDetailSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        series = _series(request, pk)
        data = parse(s.PaperRoundInputSerializer, request)
        boxes = [
            BoxInput(
                position=box["position"],
                cards=box["cards"],
                stakes=box["bets"],
                deposits=box.get("deposits") or {},
                player_id=box.get("player"),
                quit=box.get("quit", False),
                declared=box.get("declared"),
            )
            for box in data["boxes"]
        ]
        manual_round_enter(
            series=series,
            user=request.user,
            number=data["number"],
            session=_session(request, data["session"]),
            dealer_cards=data["dealer_cards"],
            boxes=boxes,
            written_at=data["written_at"],
        )
        return _series_answer(series, status.HTTP_201_CREATED)


class PaperSpoilView(ApiView):
    write_capability = Capability.ENTER_PAPER

    @extend_schema(
        tags=["manual"],
        summary="Record a paper as spoiled, with the reason (a supervisor)",
        request=s.PaperSpoilInputSerializer,
        responses={201: s.SeriesDetailSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        series = _series(request, pk)
        data = parse(s.PaperSpoilInputSerializer, request)
        manual_paper_spoil(
            series=series, user=request.user, number=data["number"], reason=data["reason"]
        )
        return _series_answer(series, status.HTTP_201_CREATED)


class ManualDayView(ApiView):
    read_capability = Capability.READ_SLIP_REPORT

    @extend_schema(
        tags=["manual"],
        summary="A gaming day's late entries, its tables' series gaps, and the paper "
        "against the count",
        parameters=[DATE],
        responses={200: s.ManualDaySerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int, gaming_date: str) -> Response:
        venue = slip_selectors.venue_for(user=request.user, pk=pk)
        if venue is None:
            not_found("venue", pk)
        if not allows(request.user, Capability.READ_SLIP_REPORT, venue.pk):
            raise PermissionDenied("manual series are read by the cage, the pit and auditors")
        try:
            day = date.fromisoformat(gaming_date)
        except ValueError:
            not_found("gaming date", gaming_date)
        with timezone.override(venue_zone(venue)):
            return Response(
                s.ManualDaySerializer(
                    {
                        "gaming_date": day,
                        "late_entries": manual_selectors.late_entries(venue=venue, gaming_date=day),
                        "gaps": manual_selectors.day_gaps(venue=venue, gaming_date=day),
                        "reconciliation": manual_selectors.paper_reconciliation(
                            venue=venue, gaming_date=day
                        ),
                    }
                ).data
            )
