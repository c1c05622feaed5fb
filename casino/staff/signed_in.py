"""The signed-in user and everything a request asks of their access, read in one statement.

Every request of a login reads its user (Django's ``AuthenticationMiddleware``), then the
roles the user holds at each venue, the venues they are staff of (``casino.staff.roles``)
and their roles at operating groups (answered by ``casino.group``). Four statements, each
compiled by the ORM, were most of a console partial's cost, asked on every card a dealer
types (docs/BENCHMARKS.md "floor"). Here they are one SELECT, written once: the user's row
joined to their grants, one grant a row. Nothing is cached: a role taken away, or an account
deactivated, holds on the very next request.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection

from casino.staff import roles

#: The kinds of grant the statement reads, one a row beside the user's columns.
ROLE, VENUE, GROUP_ROLE = "r", "v", "g"


def _grants_select() -> str:
    """The user's grants (``%s`` their id, three times): each row a kind and its value."""
    venue_roles, venues = roles.access_selects("%s")
    group_roles = roles.group_roles_select("%s")
    return (
        f"SELECT '{ROLE}' AS kind, r.held AS held FROM ({venue_roles}) r "  # noqa: S608
        f"UNION ALL SELECT '{VENUE}', CAST(v.venue_id AS TEXT) FROM ({venues}) v "
        f"UNION ALL SELECT '{GROUP_ROLE}', g.held FROM ({group_roles}) g"
    )


@cache  # one statement: written once for the process's database
def _statement(vendor: str) -> tuple[str, list[str]]:
    """The SELECT of a user and their grants (``%s`` their id, four times); the user's
    fields in the order it reads them."""
    user_model = get_user_model()
    fields = [field.attname for field in user_model._meta.concrete_fields]
    columns = ", ".join(
        f"u.{connection.ops.quote_name(user_model._meta.get_field(name).column)}" for name in fields
    )
    table = connection.ops.quote_name(user_model._meta.db_table)
    pk = connection.ops.quote_name(user_model._meta.pk.column)
    sql = (
        f"SELECT {columns}, a.kind, a.held FROM {table} u "  # noqa: S608
        f"LEFT JOIN ({_grants_select()}) a ON 1 = 1 WHERE u.{pk} = %s"
    )
    return sql, fields


def signed_in_user(user_id: Any) -> Any:
    """The user ``user_id`` with their roles, venues and group roles kept on the object for
    the request (as ``casino.staff.roles`` keeps them), or None if there is no such user."""
    user_model = get_user_model()
    try:
        pk = user_model._meta.pk.to_python(user_id)
    except ValidationError:  # a session naming no valid id has no user
        return None
    sql, fields = _statement(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk, pk, pk, pk])
        rows = cursor.fetchall()
    if not rows:
        return None
    width = len(fields)
    user = user_model.from_db(connection.alias, fields, rows[0][:width])
    grants: dict[str, list[str]] = {ROLE: [], VENUE: [], GROUP_ROLE: []}
    for row in rows:
        if row[width] is not None:
            grants[row[width]].append(row[width + 1])
    roles.remember_access(
        user, roles=grants[ROLE], venue_ids=[int(venue) for venue in grants[VENUE]]
    )
    roles.remember_group_roles(user, grants[GROUP_ROLE])
    return user
