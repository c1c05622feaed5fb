"""Pits: a venue's tables in groups, each run by its supervisors (``casino.venues.models.Pit``).

A manager of the venue creates and edits its pits, puts tables in them and names the
supervisors who run each; every write is audited.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.staff.models import StaffRole
from casino.staff.roles import MANAGE, SUPERVISE, can
from casino.venues.models import Pit, Table, Venue


def _check_manager(user: Any, venue: Venue) -> None:
    if user is not None and not can(user, MANAGE, venue.pk):
        raise Forbidden(_("Only a manager of the venue sets up its pits."))


def _check_supervisors(venue: Venue, supervisors: Iterable[Any]) -> list[Any]:
    people = list(supervisors)
    running = set(
        StaffRole.objects.filter(
            venue=venue, user__in=[p.pk for p in people], role__in=SUPERVISE
        ).values_list("user_id", flat=True)
    )
    for person in people:
        if person.pk not in running:
            raise InvalidInput(
                _("%(user)s is not a supervisor or manager at %(venue)s; give them the role first.")
                % {"user": person.get_username(), "venue": venue.code},
                field="supervisors",
                reason="not_a_supervisor",
            )
    return people


def _check_tables(venue: Venue, tables: Iterable[Table]) -> list[Table]:
    found = list(tables)
    for table in found:
        if table.venue_id != venue.pk:
            raise InvalidInput(
                _("Table %(table)s is not at %(venue)s.") % {"table": table, "venue": venue.code},
                field="tables",
                reason="table_elsewhere",
            )
    return found


def _state(pit: Pit) -> dict[str, Any]:
    return {
        "code": pit.code,
        "name": pit.name,
        "supervisors": sorted(pit.supervisors.values_list("username", flat=True)),
        "tables": sorted(pit.tables.values_list("code", flat=True)),
    }


@transaction.atomic
def pit_create(
    *,
    user: Any,
    venue: Venue,
    code: str,
    name: str,
    supervisors: Iterable[Any] = (),
    tables: Iterable[Table] = (),
) -> Pit:
    """A new pit at ``venue`` with its supervisors and tables (moved from their pit)."""
    _check_manager(user, venue)
    people = _check_supervisors(venue, supervisors)
    found = _check_tables(venue, tables)
    code = (code or "").strip()
    if not code:
        raise InvalidInput(_("Give the pit a code, e.g. P1."), field="code")
    try:
        with transaction.atomic():
            pit = Pit.objects.create(venue=venue, code=code, name=(name or "").strip() or code)
    except IntegrityError:
        raise Conflict(
            _("%(venue)s already has a pit %(code)s; choose another code.")
            % {"venue": venue.code, "code": code},
            reason="pit_code_taken",
        ) from None
    pit.supervisors.set(people)
    Table.objects.filter(pk__in=[t.pk for t in found]).update(pit=pit)
    audit_record(
        user=user,
        action=AuditAction.PIT_CREATE,
        obj=pit,
        venue=venue,
        summary=f"pit {pit} created",
        after=_state(pit),
    )
    return pit


@transaction.atomic
def pit_update(
    *,
    user: Any,
    pit: Pit,
    name: str | None = None,
    supervisors: Iterable[Any] | None = None,
    tables: Iterable[Table] | None = None,
) -> Pit:
    """Rename a pit, name who runs it, or set its tables (others leave it, staying pitless)."""
    pit = Pit.objects.select_for_update(of=("self",)).select_related("venue").get(pk=pit.pk)
    _check_manager(user, pit.venue)
    before = _state(pit)
    if name is not None:
        pit.name = name.strip() or pit.code
        pit.save(update_fields=["name"])
    if supervisors is not None:
        pit.supervisors.set(_check_supervisors(pit.venue, supervisors))
    if tables is not None:
        found = _check_tables(pit.venue, tables)
        pit.tables.exclude(pk__in=[t.pk for t in found]).update(pit=None)
        Table.objects.filter(pk__in=[t.pk for t in found]).update(pit=pit)
    after = _state(pit)
    if after != before:
        audit_record(
            user=user,
            action=AuditAction.PIT_UPDATE,
            obj=pit,
            venue=pit.venue,
            summary=f"pit {pit} changed",
            before=before,
            after=after,
        )
    return pit
