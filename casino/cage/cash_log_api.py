"""The multiple transaction log and unknown patrons through the API:

- ``GET /api/v1/venues/<id>/cash-log/?date=&person=``: every cash movement of a gaming day
  (the current one unless given) at the tables and the cage, in the log's row shape
  (``casino.cage.cash_log.CashMovement``), and each person's totals in and out; ``person``
  (a membership number or an unknown patron's identifier) keeps that person's rows (the
  cage, supervisors, managers and auditors: ``Capability.READ_CAGE``);
- ``POST /api/v1/unknown-patrons/<id>/link/`` ``{"member": "<membership number>"}``: a
  supervisor or a manager links an unknown patron to the member they are, once
  (``casino.cage.services.patrons.unknown_patron_link``).

Another venue is not found (404); a role without the capability is refused before any
lookup (403).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors, not_found, parse_query
from casino.api.serializers.fields import MoneyField
from casino.api.views.common import parse
from casino.cage.cash_log import cash_log, person_named, person_totals
from casino.cage.models import UnknownPatron
from casino.cage.services.cash import player_of
from casino.cage.services.patrons import unknown_patron_link
from casino.cage.services.thresholds import gaming_date_at
from casino.kernel.errors import InvalidInput
from casino.kernel.replicas import replica_reads
from casino.staff.policy import Capability, allows
from casino.staff.roles import venue_ids
from casino.venues.models import Venue


class CashLogParams(serializers.Serializer):
    date = serializers.DateField(required=False, help_text="The gaming date (the current one).")
    person = serializers.CharField(
        required=False, max_length=64, help_text="A membership number or an unknown patron."
    )


class CashLogRowSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    gaming_date = serializers.DateField()
    table = serializers.CharField(help_text='The table\'s code; "" at the cage.')
    kind = serializers.CharField(
        help_text="buy_in, cash_out, chip_purchase, chip_redemption, front_money_deposit, "
        "front_money_return or marker_payment"
    )
    direction = serializers.CharField(help_text="buy_in (cash in) or cash_out (cash out)")
    instrument = serializers.CharField(help_text="cash, chips, marker or other")
    amount = MoneyField(signed=True, help_text="Signed: a reversal nets what it undoes.")
    counts = serializers.BooleanField(help_text="In the day's totals (cash only).")
    membership_number = serializers.CharField(source="player.membership_number", allow_null=True)
    unknown_patron = serializers.CharField(source="unknown_patron.code", allow_null=True)
    id_document = serializers.CharField(
        help_text="The identity document seen when it was recorded (its type and number, "
        'the number masked), where a threshold asked for one; "" otherwise.'
    )
    recorded_by = serializers.CharField(source="recorded_by.username")
    source = serializers.CharField(
        help_text="cash_transaction, cage_movement, front_money or marker_payment"
    )
    source_id = serializers.IntegerField()


class CashPersonTotalSerializer(serializers.Serializer):
    person = serializers.CharField()
    cash_in = MoneyField()
    cash_out = MoneyField()


class CashDayLogSerializer(serializers.Serializer):
    gaming_date = serializers.DateField()
    rows = CashLogRowSerializer(many=True)
    totals = CashPersonTotalSerializer(many=True)


def _venue(request: Request, pk: int, capability: Capability) -> Venue:
    venue = Venue.objects.filter(pk=pk, pk__in=venue_ids(request.user)).first()
    if venue is None:
        not_found("venue", pk)
    if not allows(request.user, capability, venue.pk):
        raise PermissionDenied(f"you may not {capability.value} at this venue")
    return venue


class CashLogView(ApiView):
    read_capability = Capability.READ_CAGE

    @extend_schema(
        tags=["cash"],
        summary="Every cash movement of a gaming day at the tables and the cage",
        parameters=[CashLogParams],
        responses={200: CashDayLogSerializer, **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        venue = _venue(request, pk, Capability.READ_CAGE)
        asked = parse_query(CashLogParams, request)
        day = asked.get("date") or gaming_date_at(venue, timezone.now())
        people = None
        with replica_reads():
            if asked.get("person"):
                people = person_named(venue, asked["person"])
                if people is None:
                    raise InvalidInput(f"nobody at this venue is {asked['person']}", field="person")
            rows = cash_log(gaming_date=day, venue=venue, people=people)
            answer: dict[str, Any] = {
                "gaming_date": day,
                "rows": rows,
                "totals": person_totals(rows),
            }
            return Response(CashDayLogSerializer(answer).data)


class PatronLinkInputSerializer(serializers.Serializer):
    member = serializers.CharField(max_length=64, help_text="The member's membership number.")


class UnknownPatronSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    description = serializers.CharField()
    gaming_date = serializers.DateField()
    member = serializers.CharField(source="member.membership_number", allow_null=True)
    linked_at = serializers.DateTimeField(allow_null=True)


class UnknownPatronLinkView(ApiView):
    write_capability = Capability.SUPERVISE_TABLES

    @extend_schema(
        tags=["cash"],
        summary="Link an unknown patron to the member they are (a supervisor or a manager)",
        request=PatronLinkInputSerializer,
        responses={200: UnknownPatronSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        patron = (
            UnknownPatron.objects.filter(pk=pk, venue_id__in=venue_ids(request.user))
            .select_related("venue")
            .first()
        )
        if patron is None:
            not_found("unknown patron", pk)
        data = parse(PatronLinkInputSerializer, request)
        member = player_of(patron.venue, data["member"])
        if member is None:
            raise InvalidInput("give the member's membership number", field="member")
        patron = unknown_patron_link(patron=patron, member=member, user=request.user)
        return Response(UnknownPatronSerializer(patron).data)
