"""Token authentication: django-rest-knox's, on ``casino.ApiToken``.

``Authorization: Token <key>`` as before; the key is looked up by its first characters
and compared by its SHA-512 digest (only the digest is stored). An expired token is
deleted when it is presented and refused like an unknown one. Unlike knox's own class,
presenting a token does not sweep the user's other expired tokens on every request (one
query less; they are refused when presented and left out of the lists), and it notes the
token's last use at most every few minutes. On PostgreSQL one statement reads the token,
its user and the user's roles and venues (the access checks of the request need no query
of their own).
"""

from __future__ import annotations

import binascii
from functools import lru_cache
from hmac import compare_digest
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS
from rest_framework import exceptions

from casino.staff.logins import token_touch
from casino.staff.models import ApiToken
from casino.staff.roles import access_selects, remember_access

INVALID = _(
    "The token is unknown, expired or revoked: log in again (POST /api/v1/auth/login/) "
    "for a new one."
)


@lru_cache(maxsize=1)  # one statement: it takes no argument
def _token_statement() -> tuple[str, list[str], list[str]]:
    """The SQL reading the tokens of a key's first characters with their users, roles and
    venues, and the attribute names of the token's and the user's columns, in order."""
    user_model = get_user_model()
    token_fields = ApiToken._meta.concrete_fields
    user_fields = user_model._meta.concrete_fields
    roles, venues = access_selects("u.id")
    columns = [f"t.{connection.ops.quote_name(field.column)}" for field in token_fields]
    columns += [f"u.{connection.ops.quote_name(field.column)}" for field in user_fields]
    sql = (
        f"SELECT {', '.join(columns)}, ARRAY({roles}), ARRAY({venues}) "  # noqa: S608
        f"FROM {ApiToken._meta.db_table} t "
        f"JOIN {user_model._meta.db_table} u ON u.id = t.user_id WHERE t.token_key = %s"
    )
    return sql, [field.attname for field in token_fields], [field.attname for field in user_fields]


def tokens_of_key(key_start: str) -> list[ApiToken]:
    """The tokens whose key starts with ``key_start``, each with its user, whose roles and
    venues are kept on it (``casino.staff.roles.remember_access``): one statement (PostgreSQL)."""
    sql, token_names, user_names = _token_statement()
    with connection.cursor() as cursor:
        cursor.execute(sql, [key_start])
        rows = cursor.fetchall()
    user_model = get_user_model()
    tokens = []
    for row in rows:
        token = ApiToken.from_db(connection.alias, token_names, row[: len(token_names)])
        user = user_model.from_db(connection.alias, user_names, row[len(token_names) : -2])
        remember_access(user, roles=row[-2], venue_ids=row[-1])
        token.user = user
        tokens.append(token)
    return tokens


class ApiTokenAuthentication(TokenAuthentication):
    def _find(self, token: bytes) -> tuple[Any, Any]:
        """knox's look-up, in one statement with the user's access where it can."""
        if connection.vendor != "postgresql":
            return super().authenticate_credentials(token)
        key = token.decode("utf-8")
        try:
            digest = hash_token(key)
        except (TypeError, binascii.Error):
            raise exceptions.AuthenticationFailed(INVALID) from None
        for auth_token in tokens_of_key(key[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            if compare_digest(digest, auth_token.digest):
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed(INVALID)

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        try:
            user, auth_token = self._find(token)
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
