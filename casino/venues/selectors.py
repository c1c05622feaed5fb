"""What the venues' surfaces read: the venues, tables and table ruleset changes at the
venues a user works at, and the venues whose reports they read. A ``*_get`` answers
``None`` for another venue's object as for one that does not exist."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from casino.staff.policy import Capability
from casino.staff.roles import can, venue_ids
from casino.venues.limits import with_limits_in_force
from casino.venues.models import Table, TableLimit, TableRulesetChange, Venue

#: Who reads reports: the venue's supervisors, managers and auditors (``casino.staff.policy``).
REPORT_READ = Capability.READ_REPORTS.roles


def report_venues(*, user: Any) -> QuerySet[Venue]:
    """The venues whose reports the user reads."""
    ids = [venue_id for venue_id in venue_ids(user) if can(user, REPORT_READ, venue_id)]
    return Venue.objects.filter(pk__in=ids).order_by("code")


def report_access(*, user: Any, venue_id: int) -> int:
    """200 if the user reads the venue's reports, 403 if they work there in another role,
    404 if they do not work there."""
    if venue_id not in venue_ids(user):
        return 404
    return 200 if can(user, REPORT_READ, venue_id) else 403


def venue_list(*, user: Any) -> QuerySet[Venue]:
    return Venue.objects.filter(pk__in=venue_ids(user)).order_by("code")


def venue_get(*, user: Any, pk: int) -> Venue | None:
    return venue_list(user=user).filter(pk=pk).first()


def table_list(
    *,
    user: Any,
    venue_id: int | None = None,
    game: str | None = None,
    status: str | None = None,
) -> QuerySet[Table]:
    tables = (
        Table.objects.filter(venue_id__in=venue_ids(user))
        .select_related("venue", "ruleset")
        # Each limit row with the limits in force now (a scheduled change that took effect).
        .prefetch_related(
            Prefetch(
                "limits", queryset=with_limits_in_force(TableLimit.objects.all(), timezone.now())
            )
        )
        .order_by("venue__code", "code")
    )
    if venue_id is not None:
        tables = tables.filter(venue_id=venue_id)
    if game:
        tables = tables.filter(game=game)
    if status:
        tables = tables.filter(status=status)
    return tables


def table_get(*, user: Any, pk: int) -> Table | None:
    return table_list(user=user).filter(pk=pk).first()


def ruleset_change_list(
    *,
    user: Any,
    table_id: int | None = None,
    venue_id: int | None = None,
    status: str | None = None,
) -> QuerySet[TableRulesetChange]:
    """Requests to change a table's ruleset at the user's venues, newest first."""
    changes = TableRulesetChange.objects.filter(table__venue_id__in=venue_ids(user)).select_related(
        "table__venue", "from_ruleset", "to_ruleset", "requested_by", "decided_by"
    )
    if table_id is not None:
        changes = changes.filter(table_id=table_id)
    if venue_id is not None:
        changes = changes.filter(table__venue_id=venue_id)
    if status:
        changes = changes.filter(status=status)
    return changes.order_by("-requested_at", "-pk")


def ruleset_change_get(*, user: Any, pk: int) -> TableRulesetChange | None:
    return ruleset_change_list(user=user).filter(pk=pk).first()
