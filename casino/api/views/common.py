"""What every view of the API shares: a body parsed, an object found among the user's
venues, and the JSON 404 for anything else under ``/api/v1/``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request

from casino.api.base import ApiView, not_found, validated
from casino.staff.policy import Capability


def parse(
    serializer_class: type[serializers.Serializer], request: Request, *, partial: bool = False
) -> dict[str, Any]:
    """The request body, validated (a 400 naming the first bad field otherwise)."""
    if not partial:
        return validated(serializer_class, request.data)
    serializer = serializer_class(data=request.data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def found(obj: Any, what: str, pk: Any, *, field: str | None = None) -> Any:
    if obj is None:
        not_found(what, pk, field=field)
    return obj


# Anything else under /api/v1/


@extend_schema(exclude=True)
class NoSuchEndpointView(ApiView):
    """A JSON 404 for any path under the API that matches no route, whatever the method."""

    capability = Capability.PUBLIC
    authentication_classes: list = []
    permission_classes: list = []

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        raise NotFound(f"there is no endpoint {request.path}")
