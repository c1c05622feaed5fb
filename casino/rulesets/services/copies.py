"""Rulesets themselves (created, renamed), a version copied into a venue, and the presets: a
game's shipped rules, installed as they are or copied to a venue."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel import registry
from casino.rulesets.models import Ruleset, VersionStatus
from casino.rulesets.services.versions import (
    V,
    audit_version,
    check_writer,
    lock_ruleset,
    starting_rounding_unit,
    version_activate,
    version_approve,
    version_content_hash,
    version_create_draft,
)
from casino.venues.models import Venue

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
    ruleset = lock_ruleset(ruleset.pk)
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
    registry.of_version(version).rules_copy(version, draft)
    draft.cloned_from = version
    if source.venue_id is None:
        # A preset rounds to 1; the venue's copy starts from the venue's chip unit, as
        # ``preset_copy_to_venue`` does, and keeps the preset's mode.
        draft.rounding_unit = starting_rounding_unit(ruleset)
    draft.save(update_fields=["cloned_from", "rounding_unit"])
    audit_version(
        draft,
        user=user,
        action=AuditAction.RULESET_COPY,
        summary=f"copied {source.code} v{version.number} to draft v{draft.number}",
        after=registry.of_version(draft).rules_as_dict(draft),
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
    version.figures, _warnings = registry.of_version(version).approval_figures(version)
    version.save(update_fields=["figures"])
    audit_record(
        user=None,
        action=AuditAction.RULESET_INSTALL_PRESET,
        obj=version,
        summary=f"installed preset {code}",
        after=registry.of_version(version).rules_as_dict(version),
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
