"""Token authentication: django-rest-knox's, on ``casino.ApiToken``.

``Authorization: Token <key>`` as before; the key is looked up by its first characters
and compared by its SHA-512 digest (only the digest is stored). An expired token is
deleted when it is presented and refused like an unknown one. Unlike knox's own class,
presenting a token does not sweep the user's other expired tokens on every request (one
query less; they are refused when presented and left out of the lists), and it notes the
token's last use at most every few minutes.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.auth import TokenAuthentication
from rest_framework import exceptions

from casino.services.logins import token_touch

INVALID = _(
    "The token is unknown, expired or revoked: log in again (POST /api/v1/auth/login/) "
    "for a new one."
)


class ApiTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        try:
            user, auth_token = super().authenticate_credentials(token)
        except exceptions.AuthenticationFailed as failed:
            if failed.detail == str(_("User inactive or deleted.")):
                raise
            raise exceptions.AuthenticationFailed(INVALID) from None
        token_touch(auth_token)
        return user, auth_token

    def _cleanup_token(self, auth_token: Any) -> bool:
        """Whether the token presented has expired (then it is deleted)."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """The schema's security scheme: ``Authorization: Token <key>``."""

    target_class = "casino.api.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.authenticate_header(None)
        )
