"""The count: a gaming day's drop boxes with their counts, a box's count, closing the
day's count, and the win per table of the day (casino.count.services,
casino.count.selectors).

Reading the count and its figures is for the count team and the venue's supervisors,
managers and auditors (403 to the other roles at the venue); counting and closing are the
count team's (``COUNT_TEAM``). Another venue is not found (404).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors, not_found
from casino.api.views.common import parse
from casino.count import selectors
from casino.count import serializers as s
from casino.count.models import DropBox
from casino.count.reopening import count_reopen
from casino.count.services import count_close, count_record
from casino.floor.api.sessions import co_signer
from casino.staff.policy import Capability
from casino.staff.roles import COUNT_FIGURES, COUNT_TEAM, can, venue_ids
from casino.venues.models import Venue

DATE = OpenApiParameter(
    "gaming_date", str, OpenApiParameter.PATH, description="The gaming date, YYYY-MM-DD."
)


def _venue(request: Request, pk: int, *, capability: frozenset[str] = COUNT_FIGURES) -> Venue:
    venue = selectors.venue_for(user=request.user, pk=pk)
    if venue is None:
        not_found("venue", pk)
    if not can(request.user, capability, venue.pk):
        raise PermissionDenied(
            "only the count team counts the drop boxes"
            if capability == COUNT_TEAM
            else "the count is read by the count team, supervisors, managers and auditors"
        )
    return venue


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        not_found("gaming date", text)


def _box_data(line: Any) -> dict[str, Any]:
    box = line.box
    return {
        "id": box.pk,
        "label": box.label,
        "table": box.table,
        "gaming_date": box.gaming_date,
        "number": box.number,
        "per_session": box.per_session,
        "status": box.status,
        "sessions": [session.pk for session in line.sessions],
        "ready": line.ready,
        "counts": [count for count in (line.first, line.second) if count is not None],
        "total": box.total,
        "counted_at": box.counted_at,
    }


def _day_data(venue: Venue, day: date) -> dict[str, Any]:
    listing = selectors.count_day(venue, day)
    count_day = listing["day"]
    return {
        "venue": venue.pk,
        "gaming_date": day,
        "status": count_day.status if count_day else "open",
        "closed_by": count_day.closed_by.username if count_day and count_day.closed_by else None,
        "closed_at": count_day.closed_at if count_day else None,
        "boxes": [_box_data(line) for line in listing["boxes"]],
    }


class CountDayView(ApiView):
    read_capability = Capability.READ_COUNT_FIGURES

    @extend_schema(
        tags=["count"],
        summary="A gaming day's drop boxes and their counts",
        parameters=[DATE],
        responses={200: s.CountDaySerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int, gaming_date: str) -> Response:
        venue = _venue(request, pk)
        return Response(s.CountDaySerializer(_day_data(venue, _date(gaming_date))).data)


class CountCloseView(ApiView):
    write_capability = Capability.COUNT_BOX

    @extend_schema(
        tags=["count"],
        summary="Close the gaming day's count (the count team)",
        description="Once the gaming day has ended, no table of the day is still open and "
        "every box of the day is counted, and no manual series of the day's tables has a gap "
        "(409 otherwise, saying when or naming them); a "
        "second member of the count team confirms it (403 if they are the caller or not of "
        "the count team); a closed count takes no more counts.",
        parameters=[DATE],
        request=s.CountCloseInputSerializer,
        responses={200: s.CountDaySerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int, gaming_date: str) -> Response:
        venue = _venue(request, pk, capability=COUNT_TEAM)
        day = _date(gaming_date)
        data = parse(s.CountCloseInputSerializer, request)
        second = co_signer(request, data["confirmed_by"], field="confirmed_by")
        count_close(venue=venue, gaming_date=day, user=request.user, confirmed_by=second)
        return Response(s.CountDaySerializer(_day_data(venue, day)).data)


class CountReopenView(ApiView):
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        tags=["count"],
        summary="Reopen a closed count that left a box uncounted (a manager)",
        description="Only while a box of the day is not counted (409 otherwise: a count "
        "whose every box is counted is final); the reason is audited with who closed it.",
        parameters=[DATE],
        request=s.CountReopenInputSerializer,
        responses={200: s.CountDaySerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int, gaming_date: str) -> Response:
        venue = _venue(request, pk)
        day = _date(gaming_date)
        data = parse(s.CountReopenInputSerializer, request)
        count_reopen(venue=venue, gaming_date=day, user=request.user, reason=data["reason"])
        return Response(s.CountDaySerializer(_day_data(venue, day)).data)


class CountFiguresView(ApiView):
    read_capability = Capability.READ_COUNT_FIGURES

    @extend_schema(
        tags=["count"],
        summary="Win, hold and win/drop per table of a gaming day",
        description="win = closer - opener + credits - fills + drop (the count's drops and "
        "the pit's); hold = the house's settled win over the handle; win/drop = win over drop.",
        parameters=[DATE],
        responses={200: s.WinFiguresSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int, gaming_date: str) -> Response:
        venue = _venue(request, pk)
        day = _date(gaming_date)
        figures = selectors.win_figures(venue, day)
        data = {
            "venue": venue.pk,
            "gaming_date": day,
            "count_closed": selectors.count_day(venue, day)["closed"],
            **figures,
        }
        return Response(s.WinFiguresSerializer(data).data)


class BoxCountView(ApiView):
    write_capability = Capability.COUNT_BOX

    @extend_schema(
        tags=["count"],
        summary="Record a count of a drop box (the count team)",
        description="The first count removes the box from its table; the second, by another "
        "counter, is the verification count: when it differs from the first it needs a "
        "reason (400 on reason), and its total is posted as the box's drop. Refused (403) to "
        "a counter who supervises at the venue or worked at the table that gaming day, and "
        "(409) while a session of the box is open or once the day's count is closed.",
        request=s.CountInputSerializer,
        responses={201: s.BoxCountSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        box = DropBox.objects.filter(pk=pk, venue_id__in=venue_ids(request.user)).first()
        if box is None:
            not_found("drop box", pk)
        data = parse(s.CountInputSerializer, request)
        count = count_record(
            box=box,
            user=request.user,
            notes=data.get("notes"),
            chips=data.get("chips"),
            others=data.get("others"),
            reason=data.get("reason", ""),
        )
        return Response(s.BoxCountSerializer(count).data, status=status.HTTP_201_CREATED)
