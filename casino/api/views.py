"""The API's views: each parses its input, calls one service or selector, and renders.

Access: any floor role reads its venues' objects; a write needs the view's
``write_capability`` (``casino.roles``), checked before anything is looked up (403), then
the object is looked up among the user's venues (404 when at another venue, the same as
when it does not exist), then the service checks the role at that venue again.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from casino import games, selectors
from casino.api import serializers as s
from casino.api.base import ApiView, errors, not_found, page, paginated, parse_query
from casino.errors import InvalidInput
from casino.games import BoxInput
from casino.roles import MANAGE, PLAY, SUPERVISE
from casino.services.players import player_create, player_update
from casino.services.rounds import (
    round_create,
    round_settle,
    round_void_approve,
    round_void_request,
)
from casino.services.sessions import (
    drop_record,
    drop_reverse,
    session_close,
    session_open,
    session_reconcile,
)
from casino.services.slips import slip_issue, slip_request, slip_verify, slip_void
from casino.services.table_rulesets import (
    ruleset_change_approve,
    ruleset_change_refuse,
    ruleset_change_request,
)
from casino.services.tables import table_create, table_update


def parse(
    serializer_class: type[serializers.Serializer], request: Request, *, partial: bool = False
) -> dict[str, Any]:
    """The request body, validated (a 400 naming the first bad field otherwise)."""
    serializer = serializer_class(data=request.data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _found(obj: Any, what: str, pk: Any, *, field: str | None = None) -> Any:
    if obj is None:
        not_found(what, pk, field=field)
    return obj


# Venues


class VenueListView(ApiView):
    @extend_schema(
        operation_id="venues_list",
        tags=["venues"],
        summary="The venues you work at",
        parameters=[s.ListParams],
        responses={200: paginated(s.VenueSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        parse_query(s.ListParams, request)
        venues = selectors.venue_list(user=request.user)
        return page(queryset=venues, serializer_class=s.VenueSerializer, request=request, view=self)


class VenueDetailView(ApiView):
    @extend_schema(
        tags=["venues"],
        summary="A venue",
        responses={200: s.VenueSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        venue = _found(selectors.venue_get(user=request.user, pk=pk), "venue", pk)
        return Response(s.VenueSerializer(venue).data)


# Tables


class TableListView(ApiView):
    write_capability = MANAGE

    @extend_schema(
        operation_id="tables_list",
        tags=["tables"],
        summary="Tables at your venues",
        parameters=[s.TableListParams],
        responses={200: paginated(s.TableSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.TableListParams, request)
        tables = selectors.table_list(
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
        venue = _found(
            selectors.venue_get(user=request.user, pk=data["venue"]),
            "venue",
            data["venue"],
            field="venue",
        )
        ruleset_id = data.pop("ruleset")
        ruleset = selectors.ruleset_get(user=request.user, pk=ruleset_id)
        if ruleset is None:
            raise InvalidInput(f"there is no ruleset {ruleset_id} at your venues", field="ruleset")
        data.pop("venue")
        table = table_create(venue=venue, user=request.user, ruleset=ruleset, **data)
        table = selectors.table_get(user=request.user, pk=table.pk)
        return Response(s.TableSerializer(table).data, status=status.HTTP_201_CREATED)


class TableDetailView(ApiView):
    write_capability = MANAGE

    @extend_schema(
        tags=["tables"],
        summary="A table with its limits",
        responses={200: s.TableSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        table = _found(selectors.table_get(user=request.user, pk=pk), "table", pk)
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
        table = _found(selectors.table_get(user=request.user, pk=pk), "table", pk)
        changes = parse(s.TableInputSerializer, request, partial=True)
        if "ruleset" in changes:
            ruleset = selectors.ruleset_get(user=request.user, pk=changes["ruleset"])
            if ruleset is None:
                raise InvalidInput(
                    f"there is no ruleset {changes['ruleset']} at your venues", field="ruleset"
                )
            changes["ruleset"] = ruleset
        table = table_update(table=table, user=request.user, **changes)
        table = selectors.table_get(user=request.user, pk=table.pk)
        return Response(s.TableSerializer(table).data)


# Changes of a table's ruleset


class TableRulesetChangeListView(ApiView):
    write_capability = MANAGE

    @extend_schema(
        operation_id="table_ruleset_changes_list",
        tags=["tables"],
        summary="Requests to change a table's ruleset, newest first",
        parameters=[s.TableRulesetChangeListParams],
        responses={200: paginated(s.TableRulesetChangeSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.TableRulesetChangeListParams, request)
        changes = selectors.ruleset_change_list(
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
        table = _found(
            selectors.table_get(user=request.user, pk=data["table"]),
            "table",
            data["table"],
            field="table",
        )
        ruleset = selectors.ruleset_get(user=request.user, pk=data["ruleset"])
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
        change = selectors.ruleset_change_get(user=request.user, pk=change.pk)
        return Response(s.TableRulesetChangeSerializer(change).data, status=status.HTTP_201_CREATED)


class TableRulesetChangeDetailView(ApiView):
    @extend_schema(
        tags=["tables"],
        summary="A request to change a table's ruleset",
        responses={200: s.TableRulesetChangeSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        change = _found(
            selectors.ruleset_change_get(user=request.user, pk=pk), "ruleset change", pk
        )
        return Response(s.TableRulesetChangeSerializer(change).data)


class TableRulesetChangeApproveView(ApiView):
    write_capability = MANAGE

    @extend_schema(
        tags=["tables"],
        summary="Approve a change of ruleset and apply it (another manager)",
        description="The requester cannot approve it (403). It applies at once, and only "
        "while no session is open at the table (409: close the table first).",
        request=None,
        responses={200: s.TableRulesetChangeSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        change = _found(
            selectors.ruleset_change_get(user=request.user, pk=pk), "ruleset change", pk
        )
        ruleset_change_approve(change=change, user=request.user)
        change = selectors.ruleset_change_get(user=request.user, pk=pk)
        return Response(s.TableRulesetChangeSerializer(change).data)


class TableRulesetChangeRefuseView(ApiView):
    write_capability = MANAGE

    @extend_schema(
        tags=["tables"],
        summary="Refuse a change of ruleset (another manager), or withdraw one's own",
        request=s.TableRulesetChangeRefuseInputSerializer,
        responses={200: s.TableRulesetChangeSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        change = _found(
            selectors.ruleset_change_get(user=request.user, pk=pk), "ruleset change", pk
        )
        data = parse(s.TableRulesetChangeRefuseInputSerializer, request)
        ruleset_change_refuse(change=change, user=request.user, note=data.get("note", ""))
        change = selectors.ruleset_change_get(user=request.user, pk=pk)
        return Response(s.TableRulesetChangeSerializer(change).data)


# Players


class PlayerListView(ApiView):
    write_capability = MANAGE

    @extend_schema(
        operation_id="players_list",
        tags=["players"],
        summary="Players at your venues",
        parameters=[s.PlayerListParams],
        responses={200: paginated(s.PlayerSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.PlayerListParams, request)
        players = selectors.player_list(
            user=request.user,
            venue_id=filters.get("venue"),
            search=filters.get("search"),
            membership_number=filters.get("membership_number"),
            status=filters.get("status"),
        )
        return page(
            queryset=players, serializer_class=s.PlayerSerializer, request=request, view=self
        )

    @extend_schema(
        tags=["players"],
        summary="Register a player (managers)",
        request=s.PlayerInputSerializer,
        responses={201: s.PlayerSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request) -> Response:
        data = parse(s.PlayerInputSerializer, request)
        venue_id = data.pop("venue")
        venue = _found(
            selectors.venue_get(user=request.user, pk=venue_id), "venue", venue_id, field="venue"
        )
        player = player_create(venue=venue, user=request.user, **data)
        return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(ApiView):
    write_capability = MANAGE

    @extend_schema(
        tags=["players"],
        summary="A player",
        responses={200: s.PlayerSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        player = _found(selectors.player_get(user=request.user, pk=pk), "player", pk)
        return Response(s.PlayerSerializer(player).data)

    @extend_schema(
        tags=["players"],
        summary="Change a player (managers)",
        request=s.PlayerInputSerializer,
        responses={200: s.PlayerSerializer, **errors(400, 401, 403, 404)},
    )
    def patch(self, request: Request, pk: int) -> Response:
        player = _found(selectors.player_get(user=request.user, pk=pk), "player", pk)
        changes = parse(s.PlayerInputSerializer, request, partial=True)
        player = player_update(player=player, user=request.user, **changes)
        player = selectors.player_get(user=request.user, pk=player.pk)
        return Response(s.PlayerSerializer(player).data)


# Rulesets


class RulesetListView(ApiView):
    @extend_schema(
        operation_id="rulesets_list",
        tags=["rulesets"],
        summary="Rulesets of your venues",
        parameters=[s.RulesetListParams],
        responses={200: paginated(s.RulesetSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.RulesetListParams, request)
        rulesets = selectors.ruleset_list(
            user=request.user, venue_id=filters.get("venue"), game=filters.get("game")
        )
        return page(
            queryset=rulesets, serializer_class=s.RulesetSerializer, request=request, view=self
        )


class RulesetDetailView(ApiView):
    @extend_schema(
        tags=["rulesets"],
        summary="A ruleset with its versions",
        responses={200: s.RulesetDetailSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        ruleset = _found(selectors.ruleset_get(user=request.user, pk=pk), "ruleset", pk)
        ruleset.versions = selectors.ruleset_versions(ruleset=ruleset)
        return Response(s.RulesetDetailSerializer(ruleset).data)


def _version_serializers() -> PolymorphicProxySerializer:
    """Each installed game's version serializer, told apart by the ruleset's game."""
    return PolymorphicProxySerializer(
        component_name="RulesetVersionDetail",
        serializers=[game.api.version_serializer for game in games.all_games()],
        resource_type_field_name=None,
    )


class RulesetVersionDetailView(ApiView):
    @extend_schema(
        tags=["rulesets"],
        summary="A ruleset version with its rules (each game's: a paytable, bonus lines, ...)",
        responses={200: _version_serializers(), **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        ruleset = _found(selectors.ruleset_get(user=request.user, pk=pk), "ruleset", pk)
        version = selectors.ruleset_version_get(ruleset=ruleset, number=number)
        if version is None:
            raise NotFound(f"ruleset {ruleset.code} has no version {number}")
        serializer = games.get(ruleset.game).api.version_serializer
        return Response(serializer(version).data)


# Sessions


class SessionListView(ApiView):
    write_capability = PLAY

    @extend_schema(
        operation_id="sessions_list",
        tags=["sessions"],
        summary="Table sessions at your venues",
        parameters=[s.SessionListParams],
        responses={200: paginated(s.SessionSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.SessionListParams, request)
        sessions = selectors.session_list(
            user=request.user,
            table_id=filters.get("table"),
            venue_id=filters.get("venue"),
            status=filters.get("status"),
        )
        return page(
            queryset=sessions, serializer_class=s.SessionSerializer, request=request, view=self
        )

    @extend_schema(
        tags=["sessions"],
        summary="Open a table with the opening chip count",
        request=s.SessionOpenInputSerializer,
        responses={201: s.SessionSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request) -> Response:
        data = parse(s.SessionOpenInputSerializer, request)
        table = _found(
            selectors.table_get(user=request.user, pk=data["table"]),
            "table",
            data["table"],
            field="table",
        )
        dealer = None
        if data.get("dealer"):
            dealer = selectors.staff_get(user=request.user, username=data["dealer"])
            if dealer is None:
                raise InvalidInput(
                    f"there is no staff member {data['dealer']!r} at your venues", field="dealer"
                )
        session = session_open(
            table=table, user=request.user, opening_chips=data["opening_chips"], dealer=dealer
        )
        session = selectors.session_get(user=request.user, pk=session.pk)
        return Response(s.SessionSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailView(ApiView):
    @extend_schema(
        tags=["sessions"],
        summary="A table session (with its reconciliation once closed)",
        responses={200: s.SessionSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        session = _found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        return Response(s.SessionSerializer(session).data)


class SessionCloseView(ApiView):
    write_capability = SUPERVISE

    @extend_schema(
        tags=["sessions"],
        summary="Close a table with the closing count (supervisors)",
        description="Answers the session with its reconciliation: win by count = closing - "
        "opening + credits - fills + drop; win by ledger = what the settled rounds moved "
        "to the house; variance = count - ledger.",
        request=s.SessionCloseInputSerializer,
        responses={200: s.SessionSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = _found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        data = parse(s.SessionCloseInputSerializer, request)
        drop = data.get("drop") or None  # an empty drop box is no drop
        session_close(
            session=session, user=request.user, closing_chips=data["closing_chips"], drop=drop
        )
        session = selectors.session_get(user=request.user, pk=pk)
        return Response(s.SessionSerializer(session).data)


class SessionReconcileView(ApiView):
    write_capability = SUPERVISE

    @extend_schema(
        tags=["sessions"],
        summary="Mark a closed session as reviewed (supervisors)",
        request=None,
        responses={200: s.SessionSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = _found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        session_reconcile(session=session, user=request.user)
        session = selectors.session_get(user=request.user, pk=pk)
        return Response(s.SessionSerializer(session).data)


class SessionDropView(ApiView):
    write_capability = SUPERVISE

    @extend_schema(
        operation_id="sessions_drop_list",
        tags=["sessions"],
        summary="The session's drops and their reversals",
        parameters=[s.ListParams],
        responses={200: paginated(s.DropSerializer), **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        parse_query(s.ListParams, request)
        session = _found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        drops = selectors.session_drops(session=session)
        return page(queryset=drops, serializer_class=s.DropSerializer, request=request, view=self)

    @extend_schema(
        tags=["sessions"],
        summary="Enter the cash counted in the drop box (supervisors)",
        description="Refused (400) when it would take the session's drop to "
        "1,000,000,000,000,000 or more, so that the session can always be closed.",
        request=s.DropInputSerializer,
        responses={201: s.DropSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = _found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        data = parse(s.DropInputSerializer, request)
        drop = drop_record(session=session, user=request.user, amount=data["amount"])
        return Response(s.DropSerializer(drop).data, status=status.HTTP_201_CREATED)


class SessionDropReverseView(ApiView):
    write_capability = SUPERVISE

    @extend_schema(
        tags=["sessions"],
        summary="Reverse a drop entered by mistake (supervisors, with a reason)",
        description="Answers the reversal: a drop of the opposite amount naming the reversed "
        "one, with reversing ledger entries. Nothing is deleted; the session's drop is the "
        "sum of both. Only while the session is open; a drop is reversed once.",
        request=s.DropReverseInputSerializer,
        responses={201: s.DropSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int, drop_id: int) -> Response:
        session = _found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        drop = _found(selectors.session_drop_get(session=session, pk=drop_id), "drop", drop_id)
        data = parse(s.DropReverseInputSerializer, request)
        reversal = drop_reverse(drop=drop, user=request.user, reason=data["reason"])
        return Response(s.DropSerializer(reversal).data, status=status.HTTP_201_CREATED)


# Rounds


class RoundListView(ApiView):
    write_capability = PLAY

    @extend_schema(
        operation_id="rounds_list",
        tags=["rounds"],
        summary="Rounds at your venues",
        parameters=[s.RoundListParams],
        responses={200: paginated(s.RoundSummarySerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.RoundListParams, request)
        rounds = selectors.round_list(
            user=request.user, session_id=filters.get("session"), status=filters.get("status")
        )
        return page(
            queryset=rounds, serializer_class=s.RoundSummarySerializer, request=request, view=self
        )

    @extend_schema(
        tags=["rounds"],
        summary="Deal a round: bets and cards, checked together",
        description="Answers every hand's evaluation, the deal and payment order and the "
        "settlement each bet will get (a preview until the round is settled).",
        request=s.RoundCreateInputSerializer,
        responses={201: s.RoundSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request) -> Response:
        data = parse(s.RoundCreateInputSerializer, request)
        session = _found(
            selectors.session_get(user=request.user, pk=data["session"]),
            "session",
            data["session"],
            field="session",
        )
        boxes = [
            BoxInput(
                position=box["position"],
                cards=box["cards"],
                stakes=box["bets"],
                deposits=box.get("deposits") or {},
                player_id=box.get("player"),
                quit=box.get("quit", False),
            )
            for box in data["boxes"]
        ]
        round_, result = round_create(
            session=session,
            user=request.user,
            dealer_cards=data["dealer_cards"],
            boxes=boxes,
            create_key=data.get("create_key"),
        )
        view = selectors.round_view(round_id=round_.pk, result=result)
        return Response(s.RoundSerializer(view).data, status=status.HTTP_201_CREATED)


class RoundDetailView(ApiView):
    @extend_schema(
        tags=["rounds"],
        summary="A round with its hands and settlement",
        responses={200: s.RoundSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        round_ = _found(selectors.round_get(user=request.user, pk=pk), "round", pk)
        return Response(s.RoundSerializer(selectors.round_view(round_id=round_.pk)).data)


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="1 to 64 characters; the same key again answers the same settlement.",
)


class RoundSettleView(ApiView):
    write_capability = PLAY

    @extend_schema(
        tags=["rounds"],
        summary="Settle a dealt round once",
        description="Posts the bets' results to the ledger. The same Idempotency-Key again "
        "answers the same settlement (200, nothing posted twice); another key on a settled "
        "round, or settling a voided round, is a conflict (409).",
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.RoundSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _found(selectors.round_get(user=request.user, pk=pk), "round", pk)
        round_, result = round_settle(
            round_=round_, user=request.user, key=request.headers.get("Idempotency-Key")
        )
        view = selectors.round_view(round_id=round_.pk, result=result)
        return Response(s.RoundSerializer(view).data)


class RoundVoidView(ApiView):
    write_capability = PLAY

    @extend_schema(
        tags=["rounds"],
        summary="Request a void, or approve the one requested",
        description="The first call records the request with its reason (202: the round is "
        "still dealt or settled, with void_requested_by). A call by a supervisor other than "
        "the requester approves it (200: voided; a settled round's entries are reversed, "
        "never deleted).",
        request=s.RoundVoidInputSerializer,
        responses={
            200: OpenApiResponse(s.RoundSerializer, description="Voided."),
            202: OpenApiResponse(s.RoundSerializer, description="Void requested."),
            **errors(400, 401, 403, 404, 409),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _found(selectors.round_get(user=request.user, pk=pk), "round", pk)
        data = parse(s.RoundVoidInputSerializer, request)
        if round_.void_requested_by_id is None:
            round_void_request(round_=round_, user=request.user, reason=data.get("reason", ""))
            answer = status.HTTP_202_ACCEPTED
        else:
            round_void_approve(round_=round_, user=request.user)
            answer = status.HTTP_200_OK
        view = selectors.round_view(round_id=round_.pk)
        return Response(s.RoundSerializer(view).data, status=answer)


class RoundLedgerView(ApiView):
    @extend_schema(
        tags=["rounds"],
        summary="A round's ledger entries and their sum",
        responses={200: s.LedgerSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        round_ = _found(selectors.round_get(user=request.user, pk=pk), "round", pk)
        return Response(s.LedgerSerializer(selectors.round_ledger(round_=round_)).data)


# Slips


class SlipListView(ApiView):
    write_capability = PLAY

    @extend_schema(
        operation_id="slips_list",
        tags=["slips"],
        summary="Fill and credit slips at your venues",
        parameters=[s.SlipListParams],
        responses={200: paginated(s.SlipSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.SlipListParams, request)
        slips = selectors.slip_list(
            user=request.user,
            session_id=filters.get("session"),
            kind=filters.get("kind"),
            status=filters.get("status"),
        )
        return page(queryset=slips, serializer_class=s.SlipSerializer, request=request, view=self)

    @extend_schema(
        tags=["slips"],
        summary="Request a fill or a credit (the dealer or a supervisor)",
        request=s.SlipRequestInputSerializer,
        responses={201: s.SlipSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request) -> Response:
        data = parse(s.SlipRequestInputSerializer, request)
        session = _found(
            selectors.session_get(user=request.user, pk=data["session"]),
            "session",
            data["session"],
            field="session",
        )
        slip = slip_request(
            session=session, user=request.user, kind=data["kind"], chips=data["chips"]
        )
        slip = selectors.slip_get(user=request.user, pk=slip.pk)
        return Response(s.SlipSerializer(slip).data, status=status.HTTP_201_CREATED)


class SlipDetailView(ApiView):
    @extend_schema(
        tags=["slips"],
        summary="A slip",
        responses={200: s.SlipSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        slip = _found(selectors.slip_get(user=request.user, pk=pk), "slip", pk)
        return Response(s.SlipSerializer(slip).data)


class _SlipStepView(ApiView):
    """Issue or verify: a step on a slip with no input."""

    write_capability = SUPERVISE

    def step(self, request: Request, pk: int) -> Response:
        slip = _found(selectors.slip_get(user=request.user, pk=pk), "slip", pk)
        self.service(slip=slip, user=request.user)
        slip = selectors.slip_get(user=request.user, pk=pk)
        return Response(s.SlipSerializer(slip).data)


class SlipIssueView(_SlipStepView):
    service = staticmethod(slip_issue)

    @extend_schema(
        tags=["slips"],
        summary="The cage issues a requested slip (supervisors)",
        request=None,
        responses={200: s.SlipSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.step(request, pk)


class SlipVerifyView(_SlipStepView):
    service = staticmethod(slip_verify)

    @extend_schema(
        tags=["slips"],
        summary="Verify an issued slip; posts it to the ledger (a second supervisor)",
        request=None,
        responses={200: s.SlipSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.step(request, pk)


class SlipVoidView(ApiView):
    write_capability = SUPERVISE

    @extend_schema(
        tags=["slips"],
        summary="Void a slip that is not verified (supervisors)",
        request=s.SlipVoidInputSerializer,
        responses={200: s.SlipSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        slip = _found(selectors.slip_get(user=request.user, pk=pk), "slip", pk)
        data = parse(s.SlipVoidInputSerializer, request)
        slip_void(slip=slip, user=request.user, reason=data.get("reason", ""))
        slip = selectors.slip_get(user=request.user, pk=pk)
        return Response(s.SlipSerializer(slip).data)


class SlipLedgerView(ApiView):
    @extend_schema(
        tags=["slips"],
        summary="A slip's ledger entries and their sum",
        responses={200: s.LedgerSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        slip = _found(selectors.slip_get(user=request.user, pk=pk), "slip", pk)
        return Response(s.LedgerSerializer(selectors.slip_ledger(slip=slip)).data)


# The audit trail


class AuditEventListView(ApiView):
    @extend_schema(
        operation_id="audit_list",
        tags=["audit"],
        summary="The audit trail of your venues, newest first",
        parameters=[s.AuditEventListParams],
        responses={200: paginated(s.AuditEventSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.AuditEventListParams, request)
        events = selectors.audit_event_list(
            user=request.user,
            venue_id=filters.get("venue"),
            action=filters.get("action"),
            object_type=filters.get("object_type"),
            object_id=filters.get("object_id"),
            username=filters.get("user"),
        )
        return page(
            queryset=events, serializer_class=s.AuditEventSerializer, request=request, view=self
        )


class AuditEventDetailView(ApiView):
    @extend_schema(
        tags=["audit"],
        summary="An audit event",
        responses={200: s.AuditEventSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = _found(selectors.audit_event_get(user=request.user, pk=pk), "audit event", pk)
        return Response(s.AuditEventSerializer(event).data)


# Anything else under /api/v1/


@extend_schema(exclude=True)
class NoSuchEndpointView(ApiView):
    """A JSON 404 for any path under the API that matches no route, whatever the method."""

    authentication_classes: list = []
    permission_classes: list = []

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        raise NotFound(f"there is no endpoint {request.path}")
