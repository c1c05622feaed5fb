"""The cage's inventory through the API (``casino.cage.services.inventory``, the cage book's
``cage_move``), each write calling the service the cage screen calls, so the rules and the
audit trail are the same:

- ``GET /api/v1/venues/<id>/cage/``: what the cage should hold, its open shift, a count
  waiting for its second signature (its cashiers, supervisors, managers and auditors);
- ``GET /api/v1/venues/<id>/cage/movements/``: the cage book, newest first;
- ``POST /api/v1/venues/<id>/cage/counts/``: count the cage to open or close a shift (a
  cashier or a manager); ``POST /api/v1/cage-counts/<id>/sign/``: a second person signs;
- ``POST /api/v1/venues/<id>/cage/purchases/`` and ``…/redemptions/``: chips bought or
  cashed in at the window, ``…/vault-transfers/``: to or from the vault (the cashier);
- ``GET /api/v1/venues/<id>/cage/chip-liability/``: the chips in patrons' hands (report
  readers).

Another venue is not found (404); a role without the capability is refused before any
lookup (403).

Its own module beside ``api.py`` (cash and slips) so that neither outgrows a readable unit.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors, not_found, page, paginated
from casino.api.views.common import found, parse
from casino.cage import inventory_selectors as inventory
from casino.cage import inventory_serializers as s
from casino.cage.models import HOUSE_CHIPS, CageCount, CageMovement, MovementKind
from casino.cage.services.cage_identification import document_posted
from casino.cage.services.inventory import (
    cage_count_record,
    cage_count_sign,
    chip_purchase,
    chip_redemption,
    vault_transfer,
)
from casino.cage.services.patrons import window_patron_named
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, allows
from casino.staff.roles import venue_ids
from casino.venues.models import Venue


def _venue(request: Request, pk: int, capability: Capability) -> Venue:
    """The venue ``pk`` where the caller works (404 otherwise) and holds ``capability``."""
    venue = Venue.objects.filter(pk=pk, pk__in=venue_ids(request.user)).first()
    if venue is None:
        not_found("venue", pk)
    if not allows(request.user, capability, venue.pk):
        raise PermissionDenied(f"you may not {capability.value} at this venue")
    return venue


def _answer(serializer: Any, obj: Any, venue: Venue, code: int = status.HTTP_200_OK) -> Response:
    with timezone.override(venue_zone(venue)):
        return Response(serializer(obj).data, status=code)


def _movement(movement: CageMovement, venue: Venue) -> Response:
    movement = (
        CageMovement.objects.select_related("recorded_by")
        .prefetch_related("lines")
        .get(pk=movement.pk)
    )
    return _answer(s.CageMovementSerializer, movement, venue, status.HTTP_201_CREATED)


class CageInventoryView(ApiView):
    read_capability = Capability.READ_CAGE

    @extend_schema(
        tags=["cage"],
        summary="What the cage should hold, by denomination, and its open shift",
        responses={200: s.CageInventorySerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        venue = _venue(request, pk, Capability.READ_CAGE)
        shift = inventory.open_shift(venue)
        data = {
            "venue": venue.pk,
            "currency": venue.currency,
            "chip_set": HOUSE_CHIPS,
            "expected": inventory.cage_inventory(venue),
            "shift": shift.pk if shift else None,
            "pending_count": inventory.pending_count(venue),
        }
        return _answer(s.CageInventorySerializer, data, venue)


class CageMovementListView(ApiView):
    read_capability = Capability.READ_CAGE

    @extend_schema(
        tags=["cage"],
        summary="The cage book's movements with their lines, newest first",
        responses={200: paginated(s.CageMovementSerializer), **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        venue = _venue(request, pk, Capability.READ_CAGE)
        movements = (
            CageMovement.objects.filter(venue=venue)
            .select_related("recorded_by")
            .prefetch_related("lines")
            .order_by("-recorded_at", "-id")
        )
        with timezone.override(venue_zone(venue)):
            return page(
                queryset=movements,
                serializer_class=s.CageMovementSerializer,
                request=request,
                view=self,
            )


class CageCountView(ApiView):
    write_capability = Capability.COUNT_CAGE

    @extend_schema(
        tags=["cage"],
        summary="Count the cage to open a shift or close the open one (a cashier or a manager)",
        description="The count waits for a second person's signature. One that differs "
        "from what the cage should hold needs a reason (400 naming reason).",
        request=s.CageCountInputSerializer,
        responses={201: s.CageCountSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        venue = _venue(request, pk, Capability.COUNT_CAGE)
        data = parse(s.CageCountInputSerializer, request)
        count = cage_count_record(
            venue=venue,
            user=request.user,
            kind=data["kind"],
            counted=dict(data["counted"]),
            reason=data.get("reason", ""),
        )
        return _answer(s.CageCountSerializer, count, venue, status.HTTP_201_CREATED)


class CageCountSignView(ApiView):
    write_capability = Capability.COUNT_CAGE

    @extend_schema(
        tags=["cage"],
        summary="Sign a count as the second person: it opens or closes the shift",
        description="Not its counter (403). A difference is posted against over/short and "
        "opens an investigation; a cage that moved since the count is refused (409).",
        request=None,
        responses={200: s.CageCountSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        count = found(
            CageCount.objects.filter(pk=pk, venue_id__in=venue_ids(request.user)).first(),
            "cage count",
            pk,
        )
        count = cage_count_sign(count=count, user=request.user)
        return _answer(s.CageCountSerializer, count, count.venue)


class _ExchangeView(ApiView):
    write_capability = Capability.CAGE
    kind = ""

    def exchange(self, request: Request, pk: int) -> Response:
        venue = _venue(request, pk, Capability.CAGE)
        data = parse(s.ChipExchangeInputSerializer, request)
        service = chip_purchase if self.kind == MovementKind.CHIP_PURCHASE else chip_redemption
        patron = window_patron_named(
            venue, data.get("player", ""), data.get("patron_description", ""), document_posted(data)
        )
        movement = service(
            venue=venue,
            user=request.user,
            chips=data["chips"],
            notes=data["notes"],
            note=data.get("note", ""),
            patron=patron,
        )
        return _movement(movement, venue)


class ChipPurchaseView(_ExchangeView):
    kind = MovementKind.CHIP_PURCHASE

    @extend_schema(
        tags=["cage"],
        summary="A patron buys chips at the cage window with notes of the same value",
        request=s.ChipExchangeInputSerializer,
        responses={201: s.CageMovementSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.exchange(request, pk)


class ChipRedemptionView(_ExchangeView):
    kind = MovementKind.CHIP_REDEMPTION

    @extend_schema(
        tags=["cage"],
        summary="A patron cashes chips in at the cage window for notes of the same value",
        request=s.ChipExchangeInputSerializer,
        responses={201: s.CageMovementSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.exchange(request, pk)


class VaultTransferView(ApiView):
    write_capability = Capability.CAGE

    @extend_schema(
        tags=["cage"],
        summary="Notes and chips carried from the cage to the vault, or from the vault",
        request=s.VaultTransferInputSerializer,
        responses={201: s.CageMovementSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        venue = _venue(request, pk, Capability.CAGE)
        data = parse(s.VaultTransferInputSerializer, request)
        movement = vault_transfer(
            venue=venue,
            user=request.user,
            kind=data["kind"],
            moved=dict(data["moved"]),
            note=data.get("note", ""),
            reference=data.get("reference", ""),
        )
        return _movement(movement, venue)


class ChipLiabilityView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        tags=["cage"],
        summary="The chip liability: chips in patrons' hands, by denomination",
        responses={200: s.ChipLiabilitySerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        venue = _venue(request, pk, Capability.READ_REPORTS)
        return _answer(s.ChipLiabilitySerializer, inventory.chip_liability(venue=venue), venue)
