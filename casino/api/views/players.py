"""A player's detail with identity and barring, and their rated play (the player page's
history): read by the venue's supervisors, managers and auditors."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino import selectors
from casino.api.base import ApiView, errors, parse_query
from casino.api.serializers import players as ps
from casino.api.views.common import found
from casino.cash_selectors import player_cash
from casino.kernel.replicas import replica_reads
from casino.kernel.timezones import venue_today
from casino.models import Player, Venue
from casino.reports.players import player_history
from casino.reports.selectors import REPORT_READ
from casino.services.eligibility import Activity, player_eligibility
from casino.services.players import identity_of
from casino.staff.policy import Capability
from casino.staff.roles import MANAGE, can

HISTORY_DAYS = 90


def player_detail_data(player: Player, user: Any) -> dict[str, Any]:
    answer = player_eligibility(
        player=player, venue=Venue.objects.get(pk=player.venue_id), activity=Activity.PLAY
    )
    data = dict(ps.PlayerSerializer(player).data)
    data.update(
        barred=answer.barred,
        barring=ps.BarringSerializer(answer.barring).data if answer.barring else None,
        identity=identity_of(player, full=can(user, MANAGE, player.venue_id)),
    )
    return data


class PlayerHistoryView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        operation_id="players_history",
        tags=["players"],
        summary="A player's rated play (supervisors, managers, auditors)",
        parameters=[ps.HistoryParams],
        responses={200: ps.PlayerHistorySerializer, **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        filters = parse_query(ps.HistoryParams, request)
        player = found(selectors.player_get(user=request.user, pk=pk), "player", pk)
        if not can(request.user, REPORT_READ, player.venue_id):
            raise PermissionDenied("only the venue's supervisors, managers and auditors")
        venue = Venue.objects.get(pk=player.venue_id)
        date_to = filters.get("date_to") or venue_today(venue)
        date_from = filters.get("date_from") or date_to - timedelta(days=HISTORY_DAYS - 1)
        with replica_reads():
            history = player_history(player=player, date_from=date_from, date_to=date_to)
            cash = [
                line
                for line in player_cash(player=player)
                if date_from <= line.gaming_date <= date_to
            ]
        return Response(
            ps.PlayerHistorySerializer(
                {
                    "player": player.pk,
                    "date_from": history.date_from,
                    "date_to": history.date_to,
                    "lines": history.lines,
                    "totals": history.totals,
                    "cash": cash,
                }
            ).data
        )
