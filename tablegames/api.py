"""Rated table games' part of the API: a ruleset version with its rules, and the
supervisor's rating of a player's play entered at a session (``rating_enter``, the service
the console's ratings page calls: the same rules, the same audit trail)."""

from __future__ import annotations

from django.urls import URLPattern, path
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors, id_field, not_found
from casino.api.serializers.fields import MoneyField, RateField
from casino.api.views.common import found, parse
from casino.floor import selectors
from casino.kernel.timezones import venue_zone
from casino.reports.api.day_serializers import RatingSerializer
from casino.rulesets.api.serializers import RulesetVersionSerializer
from casino.staff.policy import Capability
from tablegames.models import Rating
from tablegames.services import rating_enter


class TableGameRulesetVersionSerializer(RulesetVersionSerializer):
    """A rated table game's version: the game played, its house edge and decisions per
    hour, which rate the players' play."""

    game_name = serializers.CharField()
    house_edge_rate = RateField()
    decisions_per_hour = serializers.IntegerField()


class RatingInputSerializer(serializers.Serializer):
    player = id_field(help_text="A player of the table's venue.")
    average_bet = MoneyField(help_text="Within the table's limits.")
    started_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="Time in, within the session."
    )
    ended_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="Time out, after the time in, not after now."
    )
    actual_win = MoneyField(
        signed=True,
        required=False,
        allow_null=True,
        help_text="The house's win from the player (negative: the player won), if known.",
    )
    replaces = id_field(
        required=False, allow_null=True, help_text="A rating of the session this one corrects."
    )
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=1000, help_text="Why, for a correction."
    )


class EnteredRatingSerializer(RatingSerializer):
    id = serializers.IntegerField()
    table_code = serializers.CharField(source="session.table.code")
    game = serializers.CharField(source="version.game_name")
    replaces = serializers.IntegerField(source="replaces_id", allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    entered_by = serializers.CharField(source="entered_by.username")


class SessionRatingView(ApiView):
    write_capability = Capability.SUPERVISE_TABLES

    @extend_schema(
        tags=["players"],
        summary="Rate a player's play at a rated table game's session (supervisors)",
        description="The theoretical win is worked out with the house edge and pace of the "
        "version in force: average bet x decisions x house edge. A correction names the "
        "rating it replaces, with a reason: the new one is in force, the old one stays on "
        "record. A barred player's play is not rated (403).",
        request=RatingInputSerializer,
        responses={201: EnteredRatingSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        data = parse(RatingInputSerializer, request)
        replaces = None
        if data.get("replaces") is not None:
            replaces = Rating.objects.filter(pk=data["replaces"], session=session).first()
            if replaces is None:
                not_found("rating", data["replaces"], field="replaces")
        rating = rating_enter(
            session=session,
            user=request.user,
            player=data["player"],
            average_bet=data["average_bet"],
            started_at=data.get("started_at"),
            ended_at=data.get("ended_at"),
            actual_win=data.get("actual_win"),
            replaces=replaces,
            reason=data.get("reason", ""),
        )
        entered = Rating.objects.select_related(
            "session__table__venue", "version", "entered_by"
        ).get(pk=rating.pk)
        with timezone.override(venue_zone(entered.session.table.venue)):
            data = EnteredRatingSerializer(entered).data
        return Response(data, status=status.HTTP_201_CREATED)


class TableGamesApi:
    version_serializer = TableGameRulesetVersionSerializer
    cards_help = "Rated table games deal no rounds on the system."
    dealer_cards_help = "Rated table games deal no rounds on the system."
    evaluation_help = "Rated table games deal no rounds on the system."

    def urls(self) -> list[URLPattern]:
        return [
            path(
                "sessions/<int:pk>/ratings/",
                SessionRatingView.as_view(),
                name="tablegames-session-rating",
            ),
        ]


API = TableGamesApi()
