"""Versioning and approval of rulesets, shared by every game.

A game's concrete version model (a subclass of ``casino.models.RulesetVersion``) holds its
rules; the game's adapter (``casino.games.GameAdapter``: ``rules_copy``, ``rules_as_dict``,
``rule_errors``, ``approval_figures``) copies, describes, checks and figures them. Everything
about statuses, numbering, the two-person rule and activation lives here once.

Locking: every function that changes a ruleset's versions first locks the ``Ruleset`` row
(``select_for_update``), so numbering and activation are serialised per ruleset.

Four eyes: the approver is none of the people who made or edited the draft (a save that
changes nothing is not an edit), and approves the rules they were shown: their fingerprint
(:func:`version_content_hash`) is sent with the approval, which is refused when the draft
changed since, and stored on the version. Presets (rulesets without a venue) are read-only
templates: only a superuser writes them; every other write is a manager's at the
ruleset's venue, so every audit event of it names that venue.
"""

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
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from casino import games
from casino.kernel.timezones import venue_time
from casino.ledger.audit import audit_record, object_type
from casino.ledger.models import AuditAction, AuditEvent
from casino.models import TableSession
from casino.rulesets.models import ROUNDING_FIELDS, Ruleset, RulesetVersion, VersionStatus
from casino.staff.policy import approves_own
from casino.staff.roles import MANAGE, can
from casino.venues.models import Table, Venue

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


def _lock_ruleset(ruleset_id: int) -> Ruleset:
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
        games.of_version(version).rules_as_dict(version),
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


def _audit(
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
    ruleset = _lock_ruleset(ruleset.pk)
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
    _audit(
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
    after = games.of_version(version).rules_as_dict(version)
    if before == after:
        return version
    version.last_edited_by = user
    version.last_edited_at = timezone.now()
    version.save(update_fields=["last_edited_by", "last_edited_at"])
    _audit(
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
    ruleset = _lock_ruleset(version.ruleset_id)
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
    games.of_version(version).rules_copy(version, draft)
    _audit(
        draft,
        user=user,
        action=AuditAction.RULESET_CLONE,
        summary=f"cloned v{version.number} to draft v{draft.number}",
        after=games.of_version(draft).rules_as_dict(draft),
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
    _lock_ruleset(version.ruleset_id)
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
    errors = games.of_version(version).rule_errors(version)
    if errors:
        raise ValidationError(errors)
    figures, warnings = games.of_version(version).approval_figures(version)
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
        _audit(
            version,
            user=user,
            action=AuditAction.RULESET_APPROVE_OVERRIDE,
            summary=f"approved v{version.number} over warnings: {override_reason}",
            after={"reason": override_reason, "warnings": warnings},
        )
    _audit(
        version,
        user=user,
        action=AuditAction.RULESET_APPROVE,
        summary=f"approved v{version.number} ({shown[:12]})",
        after={**games.of_version(version).rules_as_dict(version), "content_hash": shown},
    )
    return version


@transaction.atomic
def version_activate(*, version: V, user: Any, effective_from: datetime | None = None) -> V:
    """Put an approved version in force from ``effective_from`` (now when not given).

    The version it replaces is retired from that moment. It reaches every table of the
    ruleset (:func:`version_reach`, recorded in the audit trail) at that table's next round:
    a round keeps the version it was dealt under, so nothing changes inside a round.
    """
    ruleset = _lock_ruleset(version.ruleset_id)
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
        _audit(old, user=user, action=AuditAction.RULESET_RETIRE, summary=f"retired v{old.number}")
    version.status = VersionStatus.ACTIVE
    version.activated_by = user
    version.activated_at = now
    version.effective_from = effective_from
    version.save(update_fields=["status", "activated_by", "activated_at", "effective_from"])
    _audit(
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
        .annotate(
            is_open=Exists(
                TableSession.objects.filter(table=OuterRef("pk"), status=TableSession.Status.OPEN)
            )
        )
        .order_by("code")
    )
    return [TableReach(code=table.code, is_open=table.is_open) for table in tables]


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


# Rulesets themselves, and copies of a version into a venue


def _ruleset_as_dict(ruleset: Ruleset) -> dict[str, Any]:
    return {
        "venue": ruleset.venue.code if ruleset.venue_id else None,
        "game": ruleset.game,
        "code": ruleset.code,
        "name": ruleset.name,
    }


def _save_ruleset(ruleset: Ruleset) -> None:
    try:
        ruleset.full_clean(validate_constraints=False)
        with transaction.atomic():
            ruleset.save()
    except IntegrityError:
        raise ValidationError(
            {
                "code": _("There is already a ruleset %(code)s for this game here.")
                % {"code": ruleset.code}
            }
        ) from None


@transaction.atomic
def ruleset_create(*, venue: Venue | None, game: str, code: str, name: str, user: Any) -> Ruleset:
    """A new ruleset of ``venue`` for ``game``, with no versions yet.

    Without a venue it is a preset, which only a superuser makes.
    """
    ruleset = Ruleset(venue=venue, game=game, code=(code or "").strip(), name=(name or "").strip())
    check_writer(ruleset=ruleset, user=user)
    _save_ruleset(ruleset)
    audit_record(
        user=user,
        action=AuditAction.RULESET_CREATE_RULESET,
        obj=ruleset,
        venue=venue,
        summary=f"created ruleset {ruleset.code}",
        after=_ruleset_as_dict(ruleset),
    )
    return ruleset


@transaction.atomic
def ruleset_rename(*, ruleset: Ruleset, name: str, user: Any) -> Ruleset:
    """Change a ruleset's name (its venue, game and code stay: tables and rounds name it)."""
    ruleset = _lock_ruleset(ruleset.pk)
    check_writer(ruleset=ruleset, user=user)
    before = _ruleset_as_dict(ruleset)
    ruleset.name = (name or "").strip()
    if ruleset.name == before["name"]:
        return ruleset
    _save_ruleset(ruleset)
    audit_record(
        user=user,
        action=AuditAction.RULESET_RENAME,
        obj=ruleset,
        venue=ruleset.venue,
        summary=f"renamed ruleset {ruleset.code}",
        before=before,
        after=_ruleset_as_dict(ruleset),
    )
    return ruleset


@transaction.atomic
def version_copy_to_venue(*, version: V, venue: Venue, user: Any) -> V:
    """A draft of ``venue``'s ruleset of the same code carrying ``version``'s rules.

    How a manager starts from a preset (or another ruleset they may read): the preset stays
    as it is, the copy is the venue's own draft, made by ``user``, who may not approve it.
    The venue's ruleset is made when it has none of that code yet.
    """
    source = version.ruleset
    if source.venue_id not in (None, venue.pk) and not getattr(user, "is_superuser", False):
        raise ValidationError(
            _("Only a preset or a ruleset of %(venue)s can be copied to it.")
            % {"venue": venue.name}
        )
    ruleset = Ruleset.objects.filter(venue=venue, game=source.game, code=source.code).first()
    if ruleset is None:
        ruleset = ruleset_create(
            venue=venue, game=source.game, code=source.code, name=source.name, user=user
        )
    model = type(version)
    draft = version_create_draft(
        model=model,
        ruleset=ruleset,
        user=user,
        notes=_("Copied from %(ruleset)s v%(number)s.")
        % {"ruleset": source.code, "number": version.number},
    )
    games.of_version(version).rules_copy(version, draft)
    draft.cloned_from = version
    if source.venue_id is None:
        # A preset rounds to 1; the venue's copy starts from the venue's chip unit, as
        # ``preset_copy_to_venue`` does, and keeps the preset's mode.
        draft.rounding_unit = starting_rounding_unit(ruleset)
    draft.save(update_fields=["cloned_from", "rounding_unit"])
    _audit(
        draft,
        user=user,
        action=AuditAction.RULESET_COPY,
        summary=f"copied {source.code} v{version.number} to draft v{draft.number}",
        after=games.of_version(draft).rules_as_dict(draft),
    )
    return draft


# Presets: a game's shipped rules, installed as they are or copied to a venue


@transaction.atomic
def preset_install(
    *, model: type[V], game: str, code: str, rules: Any, fill: Callable[[V, Any], None]
) -> V:
    """Install a shipped preset as a venue-less ruleset whose version 1 is active.

    ``rules`` is the game engine's preset and ``fill`` writes it onto a saved, empty
    version; its rounding unit and mode are the preset's (1, up). Presets are the engine's
    own data, so they skip the two-person rule; installing one twice changes nothing.
    """
    ruleset, _created = Ruleset.objects.get_or_create(
        venue=None, game=game, code=code, defaults={"name": rules.name}
    )
    existing = model.objects.filter(ruleset=ruleset).order_by("number").first()
    if existing is not None:
        return existing
    now = timezone.now()
    version = model(
        ruleset=ruleset,
        number=1,
        status=VersionStatus.ACTIVE,
        notes=f"Shipped preset {code}.",
        rounding_unit=rules.rounding_unit,
        rounding_mode=str(rules.rounding_mode),
        approved_at=now,
        activated_at=now,
        effective_from=now,
    )
    version.save()
    fill(version, rules)
    version.figures, _warnings = games.of_version(version).approval_figures(version)
    version.save(update_fields=["figures"])
    audit_record(
        user=None,
        action=AuditAction.RULESET_INSTALL_PRESET,
        obj=version,
        summary=f"installed preset {code}",
        after=games.of_version(version).rules_as_dict(version),
    )
    return version


@transaction.atomic
def preset_copy_to_venue(
    *,
    model: type[V],
    game: str,
    venue: Any,
    preset_code: str,
    rules: Any,
    fill: Callable[[V, Any], None],
    editor: Any,
    approver: Any | None = None,
    code: str | None = None,
    name: str | None = None,
    override_reason: str = "",
) -> V:
    """Give ``venue`` its own ruleset copied from a preset, as a draft by ``editor``.

    The copy rounds in the preset's mode to the venue's chip unit (its starting value; the
    draft may change it). With an ``approver`` (another person) the draft is approved and
    activated at once; ``override_reason`` is needed when the preset's figures warn.
    """
    ruleset, _created = Ruleset.objects.get_or_create(
        venue=venue,
        game=game,
        code=code or preset_code,
        defaults={"name": name or rules.name},
    )
    version = version_create_draft(
        model=model,
        ruleset=ruleset,
        user=editor,
        notes=f"Copied from preset {preset_code}.",
        rounding_unit=venue.rounding_unit,
        rounding_mode=str(rules.rounding_mode),
    )
    fill(version, rules)
    if approver is not None:
        version = version_approve(
            version=version,
            user=approver,
            content_hash=version_content_hash(version),
            override_reason=override_reason,
        )
        version = version_activate(version=version, user=approver)
    return version
