"""A version's life: a draft made and edited, cloned, approved by a second person, activated;
and the tables a version reaches.

Whether a session is open at a table the version reaches is the floor's to say, and the
floor sits above the rulesets: it is asked through the venues' hook
(``casino.venues.hooks.open_session``), which the floor answers."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit.models import AuditAction, AuditEvent
from casino.audit.services import audit_record, object_type
from casino.kernel import registry
from casino.kernel.timezones import venue_time
from casino.rulesets.models import ROUNDING_FIELDS, Ruleset, RulesetVersion, VersionStatus
from casino.staff.policy import approves_own
from casino.staff.roles import MANAGE, can
from casino.venues import hooks
from casino.venues.models import Table

V = TypeVar("V", bound=RulesetVersion)

#: How far in the past an activation may be dated (a form filled a moment ago).
ACTIVATION_GRACE = timedelta(minutes=5)
#: The rounding unit of a preset's versions, which have no venue.
PRESET_ROUNDING_UNIT = Decimal("1")


def starting_rounding_unit(ruleset: Ruleset) -> Decimal:
    """The rounding unit a new draft of ``ruleset`` starts from: its venue's chip unit (a
    preset's: 1). From then on it is the version's own rule, whatever the venue changes."""
    venue = ruleset.venue
    return venue.rounding_unit if venue is not None else PRESET_ROUNDING_UNIT


#: The audit actions by which a person makes or changes a draft: none of them may approve it.
EDITING_ACTIONS = (
    AuditAction.RULESET_CREATE,
    AuditAction.RULESET_CLONE,
    AuditAction.RULESET_COPY,
    AuditAction.RULESET_EDIT,
)


def lock_ruleset(ruleset_id: int) -> Ruleset:
    return (
        Ruleset.objects.select_for_update(of=("self",)).select_related("venue").get(pk=ruleset_id)
    )


def check_writer(*, ruleset: Ruleset, user: Any) -> None:
    """Refuse ``user`` any write to ``ruleset`` unless they may make it.

    A preset (no venue) is a read-only template that only a superuser changes; a venue's
    ruleset is written by a manager of that venue (or a superuser).
    """
    if getattr(user, "is_superuser", False):
        return
    if ruleset.venue_id is None:
        raise ValidationError(
            _(
                "%(ruleset)s is a shipped preset, a read-only template. Copy it to your venue "
                "and change the copy."
            )
            % {"ruleset": ruleset.code}
        )
    if user is None or not can(user, MANAGE, ruleset.venue_id):
        raise ValidationError(
            _("Only a manager of %(venue)s changes its rulesets.") % {"venue": ruleset.venue.name}
        )


def version_content_hash(version: RulesetVersion) -> str:
    """The fingerprint of a version's rules: SHA-256 of its rules as canonical JSON.

    The approval page shows it and sends it back; :func:`version_approve` refuses when the
    draft's rules no longer have it, so an approval is of the rules the approver saw.
    """
    text = json.dumps(
        registry.of_version(version).rules_as_dict(version),
        sort_keys=True,
        separators=(",", ":"),
        cls=DjangoJSONEncoder,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def version_editors(version: RulesetVersion) -> set[int]:
    """The ids of everyone who made or edited the draft ``version`` (from the audit trail)."""
    people = {version.created_by_id, version.last_edited_by_id}
    people |= set(
        AuditEvent.objects.filter(
            object_type=object_type(version),
            object_id=str(version.pk),
            action__in=EDITING_ACTIONS,
            user__isnull=False,
        ).values_list("user_id", flat=True)
    )
    people.discard(None)
    return people


def _next_number(model: type[V], ruleset: Ruleset) -> int:
    last = (
        model.objects.filter(ruleset=ruleset).order_by("-number").values_list("number", flat=True)
    )
    return (last.first() or 0) + 1


def audit_version(
    version: RulesetVersion, *, user: Any, action: AuditAction, summary: str, **kwargs: Any
) -> None:
    audit_record(
        user=user,
        action=action,
        obj=version,
        venue=version.ruleset.venue,
        summary=summary,
        **kwargs,
    )


@transaction.atomic
def version_create_draft(*, model: type[V], ruleset: Ruleset, user: Any, **fields: Any) -> V:
    """A new, empty draft version of ``ruleset`` numbered after the last one.

    Without a ``rounding_unit`` (or with None) it takes the venue's chip unit.
    """
    ruleset = lock_ruleset(ruleset.pk)
    check_writer(ruleset=ruleset, user=user)
    if fields.get("rounding_unit") is None:
        fields["rounding_unit"] = starting_rounding_unit(ruleset)
    version = model(
        ruleset=ruleset,
        number=_next_number(model, ruleset),
        created_by=user,
        last_edited_by=user,
        last_edited_at=timezone.now(),
        **fields,
    )
    version.full_clean(exclude=["ruleset"])
    version.save()
    audit_version(
        version,
        user=user,
        action=AuditAction.RULESET_CREATE,
        summary=f"created draft v{version.number}",
    )
    return version


@transaction.atomic
def version_record_edit(*, version: V, user: Any, before: dict | None) -> V:
    """Record that ``user`` edited the draft ``version`` (the admin calls this after saving).

    ``before`` is the rules as they were; a save that changed nothing is no edit and is not
    recorded. Whoever edits a draft may not approve it.
    """
    version = (
        type(version)
        .objects.select_for_update(of=("self",))
        .select_related("ruleset__venue")
        .get(pk=version.pk)
    )
    check_writer(ruleset=version.ruleset, user=user)
    if not version.is_editable:
        raise ValidationError(
            f"Version {version.number} is {version.get_status_display().lower()} and cannot be "
            "edited; clone it to a new draft instead."
        )
    after = registry.of_version(version).rules_as_dict(version)
    if before == after:
        return version
    version.last_edited_by = user
    version.last_edited_at = timezone.now()
    version.save(update_fields=["last_edited_by", "last_edited_at"])
    audit_version(
        version,
        user=user,
        action=AuditAction.RULESET_EDIT,
        summary=f"edited draft v{version.number}",
        before=before,
        after=after,
    )
    return version


@transaction.atomic
def version_clone(*, version: V, user: Any) -> V:
    """A new draft carrying a copy of ``version``'s rules; the way to change a used version.

    A preset is not cloned in place (it is read-only): :func:`version_copy_to_venue` copies
    it to a venue.
    """
    ruleset = lock_ruleset(version.ruleset_id)
    check_writer(ruleset=ruleset, user=user)
    model = type(version)
    draft = model(
        ruleset=ruleset,
        number=_next_number(model, ruleset),
        created_by=user,
        last_edited_by=user,
        last_edited_at=timezone.now(),
        cloned_from=version,
        notes=version.notes,
        **{name: getattr(version, name) for name in ROUNDING_FIELDS},
    )
    draft.save()
    registry.of_version(version).rules_copy(version, draft)
    audit_version(
        draft,
        user=user,
        action=AuditAction.RULESET_CLONE,
        summary=f"cloned v{version.number} to draft v{draft.number}",
        after=registry.of_version(draft).rules_as_dict(draft),
    )
    return draft


@transaction.atomic
def version_approve(*, version: V, user: Any, content_hash: str, override_reason: str = "") -> V:
    """Approve a draft: by none of its editors, as shown to the approver, its rules complete.

    ``content_hash`` is the fingerprint of the rules the approver was shown
    (:func:`version_content_hash`); it is refused when the draft changed since, and stored
    on the version. The rules' figures (the house edge of every bet) are stored too.
    Figures that warn (a bet favouring the player, an unusually high edge) need
    ``override_reason``, which goes into the audit trail with the warnings.
    """
    lock_ruleset(version.ruleset_id)
    version = (
        type(version)
        .objects.select_for_update(of=("self",))
        .select_related("ruleset__venue")
        .get(pk=version.pk)
    )
    check_writer(ruleset=version.ruleset, user=user)
    if version.status != VersionStatus.DRAFT:
        raise ValidationError(
            f"Version {version.number} is {version.get_status_display().lower()}; "
            "only a draft can be approved."
        )
    if approves_own(user=user, made_by=version_editors(version)):
        raise ValidationError(
            _("You made or edited this draft, so someone else must approve it (two-person rule).")
        )
    shown = (content_hash or "").strip()
    if shown != version_content_hash(version):
        raise ValidationError(
            _(
                "The draft's rules changed since this page showed them (or the page sent no "
                "fingerprint). Reload it, check the rules again and approve what you see."
            )
        )
    errors = registry.of_version(version).rule_errors(version)
    if errors:
        raise ValidationError(errors)
    figures, warnings = registry.of_version(version).approval_figures(version)
    override_reason = (override_reason or "").strip()
    if warnings and not override_reason:
        raise ValidationError(
            [*warnings, "To approve it anyway, give an override reason; it is audited."]
        )
    version.status = VersionStatus.APPROVED
    version.approved_by = user
    version.approved_at = timezone.now()
    version.approved_content_hash = shown
    version.figures = figures
    version.save(
        update_fields=["status", "approved_by", "approved_at", "approved_content_hash", "figures"]
    )
    if warnings:
        audit_version(
            version,
            user=user,
            action=AuditAction.RULESET_APPROVE_OVERRIDE,
            summary=f"approved v{version.number} over warnings: {override_reason}",
            after={"reason": override_reason, "warnings": warnings},
        )
    audit_version(
        version,
        user=user,
        action=AuditAction.RULESET_APPROVE,
        summary=f"approved v{version.number} ({shown[:12]})",
        after={**registry.of_version(version).rules_as_dict(version), "content_hash": shown},
    )
    return version


@transaction.atomic
def version_activate(*, version: V, user: Any, effective_from: datetime | None = None) -> V:
    """Put an approved version in force from ``effective_from`` (now when not given).

    The version it replaces is retired from that moment. It reaches every table of the
    ruleset (:func:`version_reach`, recorded in the audit trail) at that table's next round:
    a round keeps the version it was dealt under, so nothing changes inside a round.
    """
    ruleset = lock_ruleset(version.ruleset_id)
    check_writer(ruleset=ruleset, user=user)
    model = type(version)
    version = model.objects.select_for_update().get(pk=version.pk)
    now = timezone.now()
    effective_from = effective_from or now
    if version.status != VersionStatus.APPROVED:
        raise ValidationError(
            f"Version {version.number} is {version.get_status_display().lower()}; "
            "only an approved version can be activated."
        )
    if effective_from < now - ACTIVATION_GRACE:
        raise ValidationError(
            {"effective_from": "The effective time is in the past; choose now or a later time."}
        )
    later = model.objects.filter(
        ruleset=ruleset, status=VersionStatus.ACTIVE, effective_from__gte=effective_from
    ).first()
    if later is not None:
        raise ValidationError(
            {
                "effective_from": f"Version {later.number} is already scheduled from "
                f"{venue_time(later.effective_from, ruleset.venue)}; choose a later time."
            }
        )
    replaced = list(
        model.objects.select_for_update()
        .filter(ruleset=ruleset, status=VersionStatus.ACTIVE)
        .order_by("pk")
    )
    for old in replaced:
        old.status = VersionStatus.RETIRED
        old.retired_at = effective_from
        old.save(update_fields=["status", "retired_at"])
        audit_version(
            old, user=user, action=AuditAction.RULESET_RETIRE, summary=f"retired v{old.number}"
        )
    version.status = VersionStatus.ACTIVE
    version.activated_by = user
    version.activated_at = now
    version.effective_from = effective_from
    version.save(update_fields=["status", "activated_by", "activated_at", "effective_from"])
    audit_version(
        version,
        user=user,
        action=AuditAction.RULESET_ACTIVATE,
        summary=f"activated v{version.number} from {venue_time(effective_from, ruleset.venue)}",
        after={
            "effective_from": effective_from.isoformat(),
            "tables": [reach.as_dict() for reach in version_reach(ruleset=ruleset)],
        },
    )
    return version


@dataclass(frozen=True)
class TableReach:
    """A table a ruleset's next version reaches, and whether a session is open there."""

    code: str
    is_open: bool

    def as_dict(self) -> dict[str, Any]:
        return {"table": self.code, "open": self.is_open}


def version_reach(*, ruleset: Ruleset) -> list[TableReach]:
    """The tables that deal under ``ruleset``: a version activated on it governs each of them
    from its next round (an open table's round in progress keeps the version it was dealt
    under)."""
    tables = (
        Table.objects.filter(ruleset=ruleset)
        .annotate(open_session=hooks.open_session())
        .order_by("code")
    )
    return [TableReach(code=table.code, is_open=table.open_session is not None) for table in tables]


@transaction.atomic
def version_save_draft(
    *,
    model: type[V],
    version: V,
    user: Any,
    rule_fields: Iterable[str],
    fill_default_rows: Callable[[V], Any],
) -> V:
    """Save a draft's own fields (the admin form). A new draft gets the next number and
    the game's default rows (``fill_default_rows``), to be edited."""
    if version.pk is None:
        draft = version_create_draft(
            model=model,
            ruleset=version.ruleset,
            user=user,
            notes=version.notes,
            **{name: getattr(version, name) for name in rule_fields},
        )
        version.pk, version.number = draft.pk, draft.number
        version._state.adding = False
        fill_default_rows(draft)
        return draft
    stored = (
        model.objects.select_for_update(of=("self",))
        .select_related("ruleset__venue")
        .get(pk=version.pk)
    )
    check_writer(ruleset=stored.ruleset, user=user)
    if not stored.is_editable:
        raise ValidationError(
            f"Version {stored.number} is {stored.get_status_display().lower()} and read-only; "
            "clone it to a new draft to change it."
        )
    version.full_clean(exclude=["ruleset"])
    version.save()
    return version
