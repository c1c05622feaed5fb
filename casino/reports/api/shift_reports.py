"""A shift's report through the API: a manager asks for it to be built (or built again),
the venue's report readers read it. The request is the service the report's page calls
(``casino.reports.services.report_request``): it queues the build, audited; the figures
are those the page and its files show."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors, not_found
from casino.kernel.timezones import venue_zone
from casino.reports import selectors
from casino.reports.api.shift_report_serializers import ShiftReportSerializer
from casino.reports.models import ShiftReport
from casino.reports.services import report_request
from casino.staff.policy import Capability
from casino.staff.roles import can, venue_ids
from casino.venues.models import Shift
from casino.venues.selectors import REPORT_READ


def _answer(report: ShiftReport, code: int = status.HTTP_200_OK) -> Response:
    with timezone.override(venue_zone(report.venue)):
        return Response(ShiftReportSerializer(report).data, status=code)


class ShiftReportRequestView(ApiView):
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        tags=["reports"],
        summary="Build a shift's report, or build it again (managers)",
        description="Queues the build (202): read the report until its status is done. A "
        "report built before the day's count says the drop is not counted yet; the count's "
        "close asks for it again, and a manager may at any time.",
        request=None,
        responses={202: ShiftReportSerializer, **errors(401, 403, 404)},
    )
    def post(self, request: Request, pk: int) -> Response:
        shift = Shift.objects.filter(pk=pk, venue_id__in=venue_ids(request.user)).first()
        if shift is None:
            not_found("shift", pk)
        report = report_request(shift_id=shift.pk, user=request.user)
        found = selectors.report_get(pk=report.pk)
        return _answer(found, status.HTTP_202_ACCEPTED)


class ShiftReportDetailView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        tags=["reports"],
        summary="A shift report: its build's state and its figures (supervisors, managers, "
        "auditors)",
        responses={200: ShiftReportSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        report = selectors.report_get(pk=pk)
        if report is None or report.venue_id not in venue_ids(request.user):
            not_found("shift report", pk)
        if not can(request.user, REPORT_READ, report.venue_id):
            raise PermissionDenied("only the venue's supervisors, managers and auditors")
        return _answer(report)
