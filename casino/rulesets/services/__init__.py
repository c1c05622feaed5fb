"""Versioning and approval of rulesets, shared by every game.

A game's concrete version model (a subclass of ``casino.rulesets.models.RulesetVersion``)
holds its rules; the game's adapter (``casino.games.GameAdapter``: ``rules_copy``,
``rules_as_dict``, ``rule_errors``, ``approval_figures``) copies, describes, checks and
figures them. Everything about statuses, numbering, the two-person rule and activation lives
here once: ``versions`` (a version's life) and ``copies`` (rulesets, copies into a venue,
presets), both read through this package.
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

from casino.rulesets.services.copies import (
    preset_copy_to_venue,
    preset_install,
    ruleset_create,
    ruleset_rename,
    version_copy_to_venue,
)
from casino.rulesets.services.versions import (
    ACTIVATION_GRACE,
    EDITING_ACTIONS,
    PRESET_ROUNDING_UNIT,
    TableReach,
    check_writer,
    starting_rounding_unit,
    version_activate,
    version_approve,
    version_clone,
    version_content_hash,
    version_create_draft,
    version_editors,
    version_reach,
    version_record_edit,
    version_save_draft,
)

__all__ = [
    "ACTIVATION_GRACE",
    "EDITING_ACTIONS",
    "PRESET_ROUNDING_UNIT",
    "TableReach",
    "check_writer",
    "preset_copy_to_venue",
    "preset_install",
    "ruleset_create",
    "ruleset_rename",
    "starting_rounding_unit",
    "version_activate",
    "version_approve",
    "version_clone",
    "version_content_hash",
    "version_copy_to_venue",
    "version_create_draft",
    "version_editors",
    "version_reach",
    "version_record_edit",
    "version_save_draft",
]
