"""Front money through the API: a member's balance and movements, a deposit and a return at
the cage, a draw at an open session, a manager's reversal, and the venue's balances. Each
write calls the service the screens call (``casino.cage.services.front_money``), so the
rules (who may, never below 0, the eligibility asked) and the audit trail are the same."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors
from casino.api.serializers.fields import MoneyField, person
from casino.api.views.common import found, parse
from casino.cage import selectors as cash_selectors
from casino.cage.cash_log import document_shown
from casino.cage.models import FrontMoney
from casino.cage.serializers import IdDocumentInputSerializer
from casino.cage.services.front_money import (
    front_money_deposit,
    front_money_draw,
    front_money_return,
    front_money_reverse,
)
from casino.floor import selectors as floor_selectors
from casino.players import selectors as player_selectors
from casino.players.models import Player
from casino.staff.policy import Capability, allows
from casino.staff.roles import venue_ids
from casino.venues import selectors as venue_selectors


class FrontMoneyMovementSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="deposit, draw, return or reversal")
    amount = MoneyField(help_text="Signed: + into the member's balance, - out of it.")
    session = serializers.IntegerField(source="session_id", allow_null=True)
    reverses = serializers.IntegerField(source="reverses_id", allow_null=True)
    gaming_date = serializers.DateField()
    recorded_by = person("recorded_by")
    recorded_at = serializers.DateTimeField()
    note = serializers.CharField()
    id_document = serializers.SerializerMethodField(
        help_text="The identity document seen (type and masked number) where the cash "
        'thresholds asked for one; "" otherwise.'
    )

    def get_id_document(self, movement: Any) -> str:
        return document_shown(movement)


class FrontMoneySerializer(serializers.Serializer):
    player = serializers.IntegerField()
    balance = MoneyField(help_text="The sum of the movements; never below 0.")
    movements = FrontMoneyMovementSerializer(many=True, help_text="Newest first.")


class FrontMoneyDrawInputSerializer(serializers.Serializer):
    amount = MoneyField(min_value=0, help_text="Above 0, in the venue's rounding unit.")
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)
    player = serializers.IntegerField(help_text="A member of the session's venue.")


class FrontMoneyInputSerializer(IdDocumentInputSerializer):
    amount = MoneyField(min_value=0, help_text="Above 0, in the venue's rounding unit.")
    notes = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        required=False,
        help_text='The bank notes counted, e.g. {"500000": 20}, worth the amount; without '
        "them, the amount in the fewest of the venue's notes.",
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)


class FrontMoneyReverseInputSerializer(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True, max_length=1000, help_text="Required.")


class FrontMoneyBalanceSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk")
    membership_number = serializers.CharField(source="player.membership_number")
    balance = MoneyField()
    last_movement = serializers.DateTimeField()


class FrontMoneyBalancesSerializer(serializers.Serializer):
    venue = serializers.IntegerField()
    total = MoneyField(help_text="The balances' sum: what the cage holds for its members.")
    balances = FrontMoneyBalanceSerializer(many=True)


def _answer(player: Player, code: int = status.HTTP_200_OK) -> Response:
    data = {
        "player": player.pk,
        "balance": cash_selectors.front_money_balance(player),
        "movements": cash_selectors.front_money_movements(player),
    }
    return Response(FrontMoneySerializer(data).data, status=code)


def _player(request: Request, pk: Any, *, field: str | None = None) -> Player:
    return found(player_selectors.player_get(user=request.user, pk=pk), "player", pk, field=field)


class PlayerFrontMoneyView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        tags=["front money"],
        summary="A member's front money: the balance and the movements",
        responses={200: FrontMoneySerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        return _answer(_player(request, pk))


class _AtTheCageView(ApiView):
    write_capability = Capability.CAGE
    service: Any

    def move(self, request: Request, pk: int) -> Response:
        player = _player(request, pk)
        data = parse(FrontMoneyInputSerializer, request)
        self.service(
            venue=player.venue,
            player=player,
            user=request.user,
            amount=data["amount"],
            notes=data.get("notes"),
            note=data.get("note", ""),
            id_document_type=data.get("id_document_type", ""),
            id_document_number=data.get("id_document_number", ""),
        )
        return _answer(player, status.HTTP_201_CREATED)


class FrontMoneyDepositView(_AtTheCageView):
    service = staticmethod(front_money_deposit)

    @extend_schema(
        tags=["front money"],
        summary="The cage's cashier takes a member's money into safekeeping",
        description="A barred or self-excluded member's deposit is refused (403).",
        request=FrontMoneyInputSerializer,
        responses={201: FrontMoneySerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.move(request, pk)


class FrontMoneyReturnView(_AtTheCageView):
    service = staticmethod(front_money_return)

    @extend_schema(
        tags=["front money"],
        summary="The cage's cashier pays a member's front money back",
        description="More than the balance is refused (409) with the balance.",
        request=FrontMoneyInputSerializer,
        responses={201: FrontMoneySerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.move(request, pk)


class SessionFrontMoneyDrawView(ApiView):
    write_capability = Capability.PLAY_ROUND

    @extend_schema(
        tags=["front money"],
        summary="A member takes chips at an open session against their front money",
        description="Two draws at once are served one after the other; one that the balance "
        "does not cover is refused (409) with the balance.",
        request=FrontMoneyDrawInputSerializer,
        responses={201: FrontMoneySerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = found(floor_selectors.session_get(user=request.user, pk=pk), "session", pk)
        data = parse(FrontMoneyDrawInputSerializer, request)
        player = _player(request, data["player"], field="player")
        front_money_draw(
            session=session,
            player=player,
            user=request.user,
            amount=data["amount"],
            note=data.get("note", ""),
        )
        return _answer(player, status.HTTP_201_CREATED)


class FrontMoneyReverseView(ApiView):
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        tags=["front money"],
        summary="A manager reverses a movement entered by mistake, with a reason",
        request=FrontMoneyReverseInputSerializer,
        responses={201: FrontMoneySerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        movement = FrontMoney.objects.filter(pk=pk, venue_id__in=venue_ids(request.user)).first()
        movement = found(movement, "front money movement", pk)
        data = parse(FrontMoneyReverseInputSerializer, request)
        front_money_reverse(movement=movement, user=request.user, reason=data["reason"])
        return _answer(movement.player, status.HTTP_201_CREATED)


class VenueFrontMoneyView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        tags=["front money"],
        summary="The members holding front money at a venue, and the total held",
        responses={200: FrontMoneyBalancesSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        venue = found(venue_selectors.venue_get(user=request.user, pk=pk), "venue", pk)
        if not allows(request.user, Capability.READ_REPORTS, venue.pk):
            raise PermissionDenied("only the venue's supervisors, managers and auditors")
        lines = cash_selectors.front_money_balances(venue=venue)
        data = {
            "venue": venue.pk,
            "total": cash_selectors.front_money_held(lines),
            "balances": lines,
        }
        return Response(FrontMoneyBalancesSerializer(data).data)
