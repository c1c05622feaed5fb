"""Venues, their tables, the changes of a table's ruleset (asked, approved, refused) and
players."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, ListParams, errors, page, paginated, parse_query
from casino.api.views.common import found, parse
from casino.kernel.errors import InvalidInput
from casino.staff.policy import Capability
from casino.venues import hooks
from casino.venues import selectors as venue_selectors
from casino.venues.api import serializers as s
from casino.venues.plans import plan_of, plan_shown, written_time
from casino.venues.services.gaming_days import gaming_day_set
from casino.venues.services.table_rulesets import (
    ruleset_change_approve,
    ruleset_change_refuse,
    ruleset_change_request,
)
from casino.venues.services.tables import table_create, table_update

# Venues


class VenueListView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        operation_id="venues_list",
        tags=["venues"],
        summary="The venues you work at",
        parameters=[ListParams],
        responses={200: paginated(s.VenueSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        parse_query(ListParams, request)
        venues = venue_selectors.venue_list(user=request.user)
        return page(queryset=venues, serializer_class=s.VenueSerializer, request=request, view=self)


class VenueDetailView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        tags=["venues"],
        summary="A venue",
        responses={200: s.VenueSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        venue = found(venue_selectors.venue_get(user=request.user, pk=pk), "venue", pk)
        return Response(s.VenueSerializer(venue).data)


class VenueGamingDayView(ApiView):
    read_capability = Capability.READ_FLOOR
    write_capability = Capability.MANAGE_VENUE

    @staticmethod
    def shown(venue: Any) -> dict[str, Any]:
        return s.GamingDaySerializer(
            {
                "venue": venue,
                "gaming_day_starts": written_time(venue.gaming_day_starts),
                "shifts": plan_shown(plan_of(venue)),
            }
        ).data

    @extend_schema(
        operation_id="venues_gaming_day_retrieve",
        tags=["venues"],
        summary="When the venue's gaming day starts and its shifts",
        responses={200: s.GamingDaySerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        venue = found(venue_selectors.venue_get(user=request.user, pk=pk), "venue", pk)
        return Response(self.shown(venue))

    @extend_schema(
        operation_id="venues_gaming_day_update",
        tags=["venues"],
        summary="Set the venue's gaming day and shifts (managers)",
        description="Replaces the plan: the time the gaming day starts and its shifts in "
        "order, each a name and the time it starts (the first at the day's start; each ends "
        "when the next starts, the last when the next gaming day starts; an empty list is one "
        'shift named "day"). The gaming days already begun keep the plan they began with; '
        "the change applies from the next one. The start cannot change while a table of the "
        "venue is open (409).",
        request=s.GamingDayInputSerializer,
        responses={200: s.GamingDaySerializer, **errors(400, 401, 403, 404, 409)},
    )
    def put(self, request: Request, pk: int) -> Response:
        venue = found(venue_selectors.venue_get(user=request.user, pk=pk), "venue", pk)
        data = parse(s.GamingDayInputSerializer, request)
        venue = gaming_day_set(
            venue=venue,
            user=request.user,
            gaming_day_starts=data["gaming_day_starts"],
            shifts=[dict(shift) for shift in data["shifts"]],
        )
        return Response(self.shown(venue))


# Tables


class TableListView(ApiView):
    read_capability = Capability.READ_FLOOR
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        operation_id="tables_list",
        tags=["tables"],
        summary="Tables at your venues",
        parameters=[s.TableListParams],
        responses={200: paginated(s.TableSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.TableListParams, request)
        tables = venue_selectors.table_list(
            user=request.user,
            venue_id=filters.get("venue"),
            game=filters.get("game"),
            status=filters.get("status"),
        )
        return page(queryset=tables, serializer_class=s.TableSerializer, request=request, view=self)

    @extend_schema(
        tags=["tables"],
        summary="Set up a table (managers)",
        request=s.TableInputSerializer,
        responses={201: s.TableSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request) -> Response:
        data = parse(s.TableInputSerializer, request)
        venue = found(
            venue_selectors.venue_get(user=request.user, pk=data["venue"]),
            "venue",
            data["venue"],
            field="venue",
        )
        ruleset_id = data.pop("ruleset")
        ruleset = hooks.ruleset_get(user=request.user, pk=ruleset_id)
        if ruleset is None:
            raise InvalidInput(f"there is no ruleset {ruleset_id} at your venues", field="ruleset")
        data.pop("venue")
        table = table_create(venue=venue, user=request.user, ruleset=ruleset, **data)
        table = venue_selectors.table_get(user=request.user, pk=table.pk)
        return Response(s.TableSerializer(table).data, status=status.HTTP_201_CREATED)


class TableDetailView(ApiView):
    read_capability = Capability.READ_FLOOR
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        tags=["tables"],
        summary="A table with its limits",
        responses={200: s.TableSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        table = found(venue_selectors.table_get(user=request.user, pk=pk), "table", pk)
        return Response(s.TableSerializer(table).data)

    @extend_schema(
        tags=["tables"],
        summary="Change a table (managers)",
        description="``limits`` replaces all of the table's limits. The boxes and chips "
        "cannot change while a session is open at the table (409). The ruleset and the game "
        "are not changed here (400 if they differ): request the change at "
        "``/api/v1/table-ruleset-changes/``, and another manager approves it.",
        request=s.TableInputSerializer,
        responses={200: s.TableSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def patch(self, request: Request, pk: int) -> Response:
        table = found(venue_selectors.table_get(user=request.user, pk=pk), "table", pk)
        changes = parse(s.TableInputSerializer, request, partial=True)
        if "ruleset" in changes:
            ruleset = hooks.ruleset_get(user=request.user, pk=changes["ruleset"])
            if ruleset is None:
                raise InvalidInput(
                    f"there is no ruleset {changes['ruleset']} at your venues", field="ruleset"
                )
            changes["ruleset"] = ruleset
        table = table_update(table=table, user=request.user, **changes)
        table = venue_selectors.table_get(user=request.user, pk=table.pk)
        return Response(s.TableSerializer(table).data)


# Changes of a table's ruleset


class TableRulesetChangeListView(ApiView):
    read_capability = Capability.READ_FLOOR
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        operation_id="table_ruleset_changes_list",
        tags=["tables"],
        summary="Requests to change a table's ruleset, newest first",
        parameters=[s.TableRulesetChangeListParams],
        responses={200: paginated(s.TableRulesetChangeSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.TableRulesetChangeListParams, request)
        changes = venue_selectors.ruleset_change_list(
            user=request.user,
            table_id=filters.get("table"),
            venue_id=filters.get("venue"),
            status=filters.get("status"),
        )
        return page(
            queryset=changes,
            serializer_class=s.TableRulesetChangeSerializer,
            request=request,
            view=self,
        )

    @extend_schema(
        tags=["tables"],
        summary="Request a change of a table's ruleset (managers)",
        description="Nothing changes until another manager of the venue approves it. A "
        "ruleset of another game changes the table's game with it: give that ``game``. One "
        "request per table waits at a time (409).",
        request=s.TableRulesetChangeInputSerializer,
        responses={201: s.TableRulesetChangeSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request) -> Response:
        data = parse(s.TableRulesetChangeInputSerializer, request)
        table = found(
            venue_selectors.table_get(user=request.user, pk=data["table"]),
            "table",
            data["table"],
            field="table",
        )
        ruleset = hooks.ruleset_get(user=request.user, pk=data["ruleset"])
        if ruleset is None:
            raise InvalidInput(
                f"there is no ruleset {data['ruleset']} at your venues", field="ruleset"
            )
        change = ruleset_change_request(
            table=table,
            user=request.user,
            ruleset=ruleset,
            game=data.get("game"),
            reason=data["reason"],
        )
        change = venue_selectors.ruleset_change_get(user=request.user, pk=change.pk)
        return Response(s.TableRulesetChangeSerializer(change).data, status=status.HTTP_201_CREATED)


class TableRulesetChangeDetailView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        tags=["tables"],
        summary="A request to change a table's ruleset",
        responses={200: s.TableRulesetChangeSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        change = found(
            venue_selectors.ruleset_change_get(user=request.user, pk=pk), "ruleset change", pk
        )
        return Response(s.TableRulesetChangeSerializer(change).data)


class TableRulesetChangeApproveView(ApiView):
    write_capability = Capability.APPROVE

    @extend_schema(
        tags=["tables"],
        summary="Approve a change of ruleset and apply it (another manager)",
        description="The requester cannot approve it (403). It applies at once, and only "
        "while no session is open at the table (409: close the table first).",
        request=None,
        responses={200: s.TableRulesetChangeSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        change = found(
            venue_selectors.ruleset_change_get(user=request.user, pk=pk), "ruleset change", pk
        )
        ruleset_change_approve(change=change, user=request.user)
        change = venue_selectors.ruleset_change_get(user=request.user, pk=pk)
        return Response(s.TableRulesetChangeSerializer(change).data)


class TableRulesetChangeRefuseView(ApiView):
    write_capability = Capability.APPROVE

    @extend_schema(
        tags=["tables"],
        summary="Refuse a change of ruleset (another manager), or withdraw one's own",
        request=s.TableRulesetChangeRefuseInputSerializer,
        responses={200: s.TableRulesetChangeSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        change = found(
            venue_selectors.ruleset_change_get(user=request.user, pk=pk), "ruleset change", pk
        )
        data = parse(s.TableRulesetChangeRefuseInputSerializer, request)
        ruleset_change_refuse(change=change, user=request.user, note=data.get("note", ""))
        change = venue_selectors.ruleset_change_get(user=request.user, pk=pk)
        return Response(s.TableRulesetChangeSerializer(change).data)
