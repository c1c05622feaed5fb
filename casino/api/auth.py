"""Logging in to the API: a device trades a username and password for a token, lists and
revokes its user's tokens, and logs out.

- ``POST auth/login/`` (anyone; ``login`` rate per address): username, password and the
  device's name; through ``authenticate()``, so the login lockout applies. Answers the
  token's key once, with its id and expiry. A second login from the same device replaces
  that device's token (one token per user and device). One who needs a second factor
  (``casino.staff.policy.needs_second_factor``) gives its ``code`` too, checked behind the
  same lockout: no token without it. Enrolment is on the site's login page only.
- ``POST auth/logout/``: revokes the token the request carries.
- ``POST auth/logout-all/``: revokes every token of the user (every device logs in again).
- ``GET auth/tokens/``: the user's tokens (device, created, expiry, last use; never a key).
- ``DELETE auth/tokens/{id}/``: revokes one of them (another user's is not found).
- ``GET auth/me/``: who the caller is and the roles they hold at each venue, so that a
  device offers at each table only what its user may do there.

These need an account, not a floor role (a role's rights are the other endpoints').
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import MAX_ID, ApiView, errors, not_found
from casino.api.errors import ErrorSerializer, LockedOut, SecondFactorRequired
from casino.api.throttles import LoginRateThrottle
from casino.api.views.common import parse
from casino.floor import selectors
from casino.staff.logins import DEVICE_MAX_LENGTH, token_issue, token_revoke, token_revoke_all
from casino.staff.models import ApiToken
from casino.staff.policy import Capability, needs_second_factor
from casino.staff.roles import ROLES, venue_roles
from casino.staff.second_factor import has_second_factor, second_factor_verify
from casino.staff.throttling import LoginRefusal, refusal_message
from casino.venues import selectors as venue_selectors

TAGS = ["auth"]


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, trim_whitespace=False)
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, style={"input_type": "password"}
    )
    device = serializers.CharField(
        max_length=DEVICE_MAX_LENGTH,
        help_text="The device the token is for, e.g. NN1-tablet; its earlier token is revoked.",
    )
    code = serializers.CharField(
        max_length=32,
        required=False,
        default="",
        help_text="The second factor's code (authenticator or recovery code), for the roles "
        "that need one: managers, auditors, the cage, the count, superusers.",
    )


class TokenSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ["id", "device", "created", "expiry", "last_used"]


class IssuedTokenSerializer(TokenSerializer):
    token = serializers.CharField(
        help_text="The key, for 'Authorization: Token <key>'. Shown only this once."
    )

    class Meta(TokenSerializer.Meta):
        fields = ["token", *TokenSerializer.Meta.fields]


class RevokedSerializer(serializers.Serializer):
    revoked = serializers.IntegerField(help_text="How many tokens were revoked.")


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


THROTTLED = _error("Too many requests: wait for Retry-After seconds.")


class AuthView(ApiView):
    """Any account (no floor role needed)."""

    read_capability = write_capability = Capability.SIGNED_IN
    permission_classes = [IsAuthenticated]


class LoginView(ApiView):
    """Username, password and the device's name for a token; behind the login lockout
    and a rate limit per address. The key is in this answer only."""

    # No authentication: a login is not refused for a stale token it happens to carry.
    authentication_classes: list = []
    write_capability = Capability.PUBLIC
    permission_classes = [AllowAny]
    throttle_classes = [LoginRateThrottle]

    def get_authenticate_header(self, request: Request) -> str:
        return "Token"  # a wrong password is a 401 like any refused credential

    @extend_schema(
        operation_id="auth_login",
        tags=TAGS,
        summary="Log a device in: a token for 'Authorization: Token <key>'",
        request=LoginSerializer,
        responses={
            201: IssuedTokenSerializer,
            400: _error("Bad input: the field names the input."),
            401: _error("Wrong username or password, or a wrong or missing code."),
            403: _error(
                "Locked out: too many failed logins (error 'locked_out'); or a second factor "
                "is needed and not enrolled yet (error 'second_factor_required')."
            ),
            429: THROTTLED,
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = parse(LoginSerializer, request)
        http_request = request._request
        refusal = LoginRefusal()
        user = authenticate(
            http_request, username=data["username"], password=data["password"], refusal=refusal
        )
        if user is None:
            locked = refusal_message(refusal)
            if locked is not None:
                raise LockedOut(locked, field="username")
            raise AuthenticationFailed(
                _("Wrong username or password (or the account is disabled).")
            )
        if needs_second_factor(user):
            self._second_factor(http_request, user, data["code"])
        token, key = token_issue(user=user, device=data["device"])
        # Django's own bookkeeping of a login (User.last_login).
        user_logged_in.send(sender=user.__class__, request=http_request, user=user)
        # The key is the service's answer, not the token's: it is stored nowhere.
        body = {"token": key, **TokenSerializer(token).data}
        return Response(body, status=status.HTTP_201_CREATED)

    def _second_factor(self, http_request: Any, user: Any, code: str) -> None:
        """Refuse the login unless ``code`` is the user's second factor's."""
        if not has_second_factor(user):
            raise SecondFactorRequired(
                _("Your role needs a second factor: log in on the site first to set it up."),
                field="code",
            )
        if not code:
            raise AuthenticationFailed(_("Give your second factor's code."))
        refusal = LoginRefusal()
        try:
            device = second_factor_verify(
                request=http_request, user=user, code=code, refusal=refusal
            )
        except PermissionDenied as refused:
            raise LockedOut(refusal_message(refusal), field="code") from refused
        if device is None:
            raise AuthenticationFailed(_("Wrong code."))


class LogoutView(AuthView):
    @extend_schema(
        operation_id="auth_logout",
        tags=TAGS,
        summary="Revoke the token this request carries",
        request=None,
        responses={204: None, **errors(400, 401), 429: THROTTLED},
    )
    def post(self, request: Request) -> Response:
        if not isinstance(request.auth, ApiToken):
            raise serializers.ValidationError(
                _("This request carries no API token to revoke (it is logged in another way).")
            )
        token_revoke(token=request.auth, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllView(AuthView):
    @extend_schema(
        operation_id="auth_logout_all",
        tags=TAGS,
        summary="Revoke every token of yours: every device logs in again",
        request=None,
        responses={200: RevokedSerializer, **errors(401), 429: THROTTLED},
    )
    def post(self, request: Request) -> Response:
        return Response({"revoked": token_revoke_all(user=request.user)})


class TokenListView(AuthView):
    @extend_schema(
        operation_id="auth_tokens_list",
        tags=TAGS,
        summary="Your tokens still valid, one per device, newest first (never a key)",
        responses={200: TokenSerializer(many=True), **errors(401)},
    )
    def get(self, request: Request) -> Response:
        tokens = selectors.api_token_list(user=request.user)
        return Response(TokenSerializer(tokens, many=True).data)


class TokenDetailView(AuthView):
    @extend_schema(
        operation_id="auth_tokens_revoke",
        tags=TAGS,
        summary="Revoke one of your tokens (a lost device)",
        responses={204: None, **errors(401, 404), 429: THROTTLED},
    )
    def delete(self, request: Request, pk: int) -> Response:
        token = selectors.api_token_get(user=request.user, pk=pk) if pk <= MAX_ID else None
        if token is None:
            not_found("API token of yours", pk)
        token_revoke(token=token, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class VenueRolesSerializer(serializers.Serializer):
    venue = serializers.IntegerField(help_text="The venue's id.")
    code = serializers.CharField(help_text="The venue's code.")
    roles = serializers.ListField(
        child=serializers.ChoiceField(choices=ROLES),
        help_text="The roles held at this venue, in the order dealer, supervisor, manager, "
        "auditor, cage, count.",
    )


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    venues = VenueRolesSerializer(many=True)


class MeView(AuthView):
    @extend_schema(
        operation_id="auth_me",
        tags=TAGS,
        summary="You, and the roles you hold at each venue you work at",
        responses={200: MeSerializer, **errors(401)},
    )
    def get(self, request: Request) -> Response:
        held = venue_roles(request.user)
        venues = [
            {
                "venue": venue.pk,
                "code": venue.code,
                "roles": [role for role in ROLES if role in held.get(venue.pk, ())],
            }
            for venue in venue_selectors.venue_list(user=request.user)
        ]
        return Response(MeSerializer({"username": request.user.username, "venues": venues}).data)
