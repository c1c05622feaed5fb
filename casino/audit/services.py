"""The audit trail: one function writes it, nothing edits it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import models

from casino.audit.models import AuditAction, AuditEvent

if TYPE_CHECKING:
    from casino.venues.models import Venue


def object_type(model: type[models.Model] | models.Model) -> str:
    """The trail's name for a model: ``app.model`` as its table was first named. A model
    that moves to another app keeps its table (``Meta.db_table``), so its events keep the
    name they were written under, before the move and after."""
    return model._meta.db_table.replace("_", ".", 1)


def audit_record(
    *,
    user: Any,
    action: AuditAction | models.TextChoices,
    obj: models.Model,
    venue: Venue | None = None,
    summary: str = "",
    before: Any = None,
    after: Any = None,
) -> AuditEvent:
    """Append one audit event. ``user`` may be anonymous or None for system actions.

    ``action`` is a member of ``AuditAction`` or of a game's own audit actions
    (``casino.audit.models.audit_action_choices``), never a string written at the call.

    ``summary`` is for people: a time in it is written on the venue's clocks with the
    zone's name (``casino.kernel.timezones.venue_time``: ``2026-12-02 13:05 (Asia/Seoul)``);
    ``before`` and ``after`` stay machine-readable (ISO 8601 instants)."""
    (event,) = AuditEvent.objects.bulk_create(
        [
            AuditEvent(
                user=user if getattr(user, "is_authenticated", False) else None,
                venue=venue,
                action=action,
                object_type=object_type(obj),
                object_id=str(obj.pk),
                summary=summary[:255],
                before=before,
                after=after,
            )
        ]
    )
    return event
