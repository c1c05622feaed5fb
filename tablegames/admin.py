"""Rated table games' rulesets in the admin, and the hooks of the shared version admin and
house-edge panel (``ADMIN``): the figures are the house edge and pace as entered, stored on
approval, so the panel is ready at once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from casino import games
from casino.rulesets.admin import RulesetVersionAdmin
from casino.rulesets.models import ROUNDING_FIELDS
from tablegames.models import TableGameRulesetVersion
from tablegames.services import version_save_draft


@admin.register(TableGameRulesetVersion)
class TableGameRulesetVersionAdmin(RulesetVersionAdmin):
    save_draft = staticmethod(version_save_draft)
    fieldsets = [
        (None, {"fields": ["ruleset", "notes"]}),
        (_("Rating"), {"fields": ["game_name", "house_edge_rate", "decisions_per_hour"]}),
        (_("Rounding"), {"fields": list(ROUNDING_FIELDS)}),
        (_("Status"), {"fields": RulesetVersionAdmin.readonly_status_fields}),
    ]


@dataclass(frozen=True)
class EnteredFigures:
    """The figures of a rated game's rules: what was entered, nothing to compute."""

    status: str = "done"
    progress: int = 100
    error: str = ""


class TableGamesAdmin:
    house_edge_template = "admin/tablegames/figures.html"
    manager_permissions = (
        ("tablegames", "view_tablegamerulesetversion"),
        ("tablegames", "add_tablegamerulesetversion"),
        ("tablegames", "change_tablegamerulesetversion"),
        ("tablegames", "approve_tablegamerulesetversion"),
    )
    viewer_permissions = (("tablegames", "view_tablegamerulesetversion"),)

    def house_edge_refusal(self, version: TableGameRulesetVersion) -> dict[str, object] | None:
        errors = games.of_version(version).rule_errors(version)
        return {"state": "invalid", "errors": errors} if errors else None

    def house_edge_row(self, version: TableGameRulesetVersion) -> EnteredFigures:
        return EnteredFigures()

    def house_edge_summary(
        self, version: TableGameRulesetVersion, row: EnteredFigures
    ) -> dict[str, Any]:
        return version.figures or games.of_version(version).approval_figures(version)[0]

    def house_edge_ready(
        self,
        version: TableGameRulesetVersion,
        summary: dict[str, Any],
        compared: dict[str, Any] | None,
    ) -> dict[str, object]:
        return {
            "summary": summary,
            "warnings": games.of_version(version).approval_figures(version)[1],
            "edge_percent": version.house_edge_rate * 100,
            "compared": compared,
        }

    def house_edge_waiting(self, version: TableGameRulesetVersion) -> dict[str, object]:
        return {"waiting": _("Reading the figures…"), "poll_seconds": 2}


ADMIN = TableGamesAdmin()
