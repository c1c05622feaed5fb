"""A player's detail with identity and barring, and their rated play (the player page's
history): read by the venue's supervisors, managers and auditors."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors, page, paginated, parse_query
from casino.api.serializers.fields import VenueRefSerializer
from casino.api.views.common import found, parse
from casino.cage.selectors import player_cash
from casino.kernel.replicas import replica_reads
from casino.kernel.timezones import venue_today
from casino.players import selectors
from casino.players import serializers as ps
from casino.players.eligibility import Activity, player_eligibility
from casino.players.models import Player
from casino.players.services import (
    identity_of,
    player_create,
    player_link,
    player_unlink,
    player_update,
)
from casino.reports.ratings import player_history
from casino.staff.policy import Capability
from casino.staff.roles import MANAGE, can
from casino.venues import selectors as venue_selectors
from casino.venues.models import Venue
from casino.venues.selectors import REPORT_READ

HISTORY_DAYS = 90


def player_detail_data(player: Player, user: Any) -> dict[str, Any]:
    answer = player_eligibility(
        player=player, venue=Venue.objects.get(pk=player.venue_id), activity=Activity.PLAY
    )
    data = dict(ps.PlayerSerializer(player).data)
    shown = answer.barring_shown
    elsewhere = answer.elsewhere.membership.venue if answer.elsewhere else None
    data.update(
        barred=answer.barred,
        barring=ps.BarringSerializer(shown).data if shown else None,
        barred_at=VenueRefSerializer(elsewhere).data if elsewhere else None,
        person=player.person_id,
        identity=identity_of(player, full=can(user, MANAGE, player.venue_id)),
    )
    return data


class PlayerDuplicatesView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        operation_id="players_duplicates",
        tags=["players"],
        summary="Possible duplicates across the venues whose players you read, and why",
        parameters=[ps.DuplicateParams],
        responses={200: ps.CandidateSerializer(many=True), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        asked = parse_query(ps.DuplicateParams, request)
        with replica_reads():
            candidates = selectors.duplicate_candidates(user=request.user, **asked)
        return Response(ps.CandidateSerializer(candidates, many=True).data)


class PlayerLinkView(ApiView):
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        tags=["players"],
        summary="Link a membership to another venue's as one person (managers of both)",
        request=ps.LinkInputSerializer,
        responses={200: ps.PlayerDetailSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        player = found(selectors.player_get(user=request.user, pk=pk), "player", pk)
        data = parse(ps.LinkInputSerializer, request)
        other = found(
            selectors.player_get(user=request.user, pk=data["other"]),
            "player",
            data["other"],
            field="other",
        )
        player_link(player=player, other=other, user=request.user, reason=data["reason"])
        player.refresh_from_db()
        return Response(player_detail_data(player, request.user))


class PlayerUnlinkView(ApiView):
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        tags=["players"],
        summary="Take a membership out of its person (a manager of its venue)",
        request=ps.UnlinkInputSerializer,
        responses={200: ps.PlayerDetailSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        player = found(selectors.player_get(user=request.user, pk=pk), "player", pk)
        data = parse(ps.UnlinkInputSerializer, request)
        player = player_unlink(player=player, user=request.user, reason=data["reason"])
        return Response(player_detail_data(player, request.user))


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


class PlayerListView(ApiView):
    read_capability = Capability.READ_FLOOR
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        operation_id="players_list",
        tags=["players"],
        summary="Players at your venues",
        parameters=[ps.PlayerListParams],
        responses={200: paginated(ps.PlayerSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(ps.PlayerListParams, request)
        players = selectors.player_list(
            user=request.user,
            venue_id=filters.get("venue"),
            search=filters.get("search"),
            membership_number=filters.get("membership_number"),
            status=filters.get("status"),
        )
        return page(
            queryset=players, serializer_class=ps.PlayerSerializer, request=request, view=self
        )

    @extend_schema(
        tags=["players"],
        summary="Register a player (managers)",
        request=ps.PlayerInputSerializer,
        responses={201: ps.PlayerSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request) -> Response:
        data = parse(ps.PlayerInputSerializer, request)
        venue_id = data.pop("venue")
        venue = found(
            venue_selectors.venue_get(user=request.user, pk=venue_id),
            "venue",
            venue_id,
            field="venue",
        )
        player = player_create(venue=venue, user=request.user, **data)
        return Response(ps.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(ApiView):
    read_capability = Capability.READ_FLOOR
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        tags=["players"],
        summary="A player, with barring and identity (masked but to managers)",
        responses={200: ps.PlayerDetailSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        player = found(selectors.player_get(user=request.user, pk=pk), "player", pk)
        return Response(player_detail_data(player, request.user))

    @extend_schema(
        tags=["players"],
        summary="Change a player (managers)",
        request=ps.PlayerInputSerializer,
        responses={200: ps.PlayerSerializer, **errors(400, 401, 403, 404)},
    )
    def patch(self, request: Request, pk: int) -> Response:
        player = found(selectors.player_get(user=request.user, pk=pk), "player", pk)
        changes = parse(ps.PlayerInputSerializer, request, partial=True)
        player = player_update(player=player, user=request.user, **changes)
        player = selectors.player_get(user=request.user, pk=player.pk)
        return Response(ps.PlayerSerializer(player).data)
