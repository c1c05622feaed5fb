"""What every API view shares: JSON in and out, the role check, pagination, not found."""

from __future__ import annotations

import codecs
from functools import lru_cache
from typing import Any, NoReturn

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import JSONParser, get_encoding
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.utils import json
from rest_framework.views import APIView

from casino.api.errors import ErrorSerializer, NotFoundAt
from casino.api.permissions import RolePermission

#: The largest id a path or body may name (PostgreSQL's bigint).
MAX_ID = 2**63 - 1


class JsonNumber(str):
    """A JSON number with a fraction or an exponent, kept as the text the client wrote
    (``100.5``, ``1e5``), so that an amount is read from what was sent, not from a float
    (which cannot tell ``1e5`` from ``100000.0``, nor hold ``0.1``)."""

    __slots__ = ()


class SafeJSONParser(JSONParser):
    """DRF's JSON parser, keeping each non-integral number's text (``JsonNumber``), also
    refusing JSON nested too deeply to parse (not a 500)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        encoding = get_encoding(parser_context or {})
        try:
            text = codecs.getreader(encoding)(stream).read()
            return json.loads(text, parse_float=JsonNumber)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from None


class ApiView(APIView):
    """JSON only; a GET needs the view's ``read_capability``, a write its
    ``write_capability`` (``casino.staff.policy``): each view declares its own, none is inherited
    from here."""

    parser_classes = [SafeJSONParser]
    renderer_classes = [JSONRenderer]
    permission_classes = [RolePermission]


def not_found(what: str, pk: Any, *, field: str | None = None) -> NoReturn:
    """Answer 404 for an object that does not exist or is at another venue (the same)."""
    raise NotFoundAt(f"there is no {what} {pk} at your venues", field=field)


class Pagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 500


class ListParams(serializers.Serializer):
    """Query parameters every list takes; a list's filters extend it."""

    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=Pagination.max_limit, help_text="Rows per page."
    )
    offset = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_ID, help_text="Rows to skip."
    )


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def parse_query(params_class: type[serializers.Serializer], request: Any) -> dict[str, Any]:
    """The list's query parameters, validated (a bad filter is a 400 naming it)."""
    params = params_class(data=request.query_params)
    params.is_valid(raise_exception=True)
    data = dict(params.validated_data)
    data.pop("limit", None)
    data.pop("offset", None)
    return data


# One per list endpoint's serializer (about 15 today): 64 keeps them all with room to grow.
@lru_cache(maxsize=64)
def paginated(serializer_class: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """The page serializer wrapping ``serializer_class`` (for the schema)."""
    name = serializer_class.__name__.removesuffix("Serializer")
    return type(
        f"Paginated{name}List",
        (serializers.Serializer,),
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": serializer_class(many=True),
            "__module__": serializer_class.__module__,
        },
    )


def page(
    *,
    queryset: QuerySet,
    serializer_class: type[serializers.Serializer],
    request: Any,
    view: APIView,
) -> Response:
    paginator = Pagination()
    rows = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response(serializer_class(rows, many=True).data)


# One per serializer class answered without context (under 100 today, the games' with the
# floor's): 256 keeps them all.
@lru_cache(maxsize=256)
def _shared(serializer_class: type[serializers.Serializer]) -> serializers.Serializer:
    """One instance of a serializer class that takes no context, its fields bound."""
    serializer = serializer_class()
    _bind(serializer)
    return serializer


def _bind(serializer: serializers.BaseSerializer) -> None:
    """Build a serializer's fields, and its nested serializers', now: once, not per answer."""
    if isinstance(serializer, serializers.ListSerializer):
        _bind(serializer.child)
    elif isinstance(serializer, serializers.Serializer):
        for field in serializer.fields.values():
            _bind(field)


def rendered(serializer_class: type[serializers.Serializer], instance: Any) -> dict[str, Any]:
    """``serializer_class(instance).data`` without building the serializer again.

    DRF copies every declared field, nested ones included, for each serializer it makes;
    for a round of five boxes that costs more than the rest of the answer. A serializer
    that takes no context holds nothing of a request once its fields are bound, so one
    instance per class renders every answer (``tests/casino/api/test_rendered.py``
    compares the two).
    """
    return _shared(serializer_class).to_representation(instance)


def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """``serializer_class(data=data)``'s validated data, by the shared instance (see
    ``rendered``); input it refuses is validated again the usual way, so the error
    answered is DRF's own, to the letter."""
    try:
        return dict(_shared(serializer_class).run_validation(data))
    except serializers.ValidationError:
        serializer = serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
        raise


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """The error responses of an operation, for the schema."""
    described = {
        400: "Bad input: the field names the input.",
        401: "Not authenticated.",
        403: "The role may not do this.",
        404: "Not found (or at a venue you do not work at).",
        409: "The object's state does not allow it.",
    }
    return {
        code: OpenApiResponse(ErrorSerializer, description=described[code]) for code in statuses
    }
