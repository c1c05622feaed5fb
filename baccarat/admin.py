"""Baccarat rulesets in the admin: a version's rules are its own fields; the hooks of the
shared version admin and house-edge panel (``ADMIN``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from baccarat.house_edge import (
    figures_row,
    figures_rows_for_display,
    figures_summary,
    figures_warnings,
)
from baccarat.models import BaccaratRulesetVersion, CommissionCollection, RulesFigures, Shoe
from baccarat.services import version_save_draft
from baccarat.tasks import ruleset_figures_task
from baccarat.validation import ruleset_errors
from casino import games
from casino.admin import ReadOnlyAdmin
from casino.kernel.amounts import model_formfield
from casino.rulesets.admin import RulesetVersionAdmin
from casino.rulesets.models import ROUNDING_FIELDS


class VersionForm(forms.ModelForm):
    """The version's rules checked together before the draft is saved."""

    class Meta:
        model = BaccaratRulesetVersion
        fields = "__all__"  # noqa: DJ007 (the fieldsets choose what is shown)
        formfield_callback = model_formfield

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors:
            for name, value in data.items():
                setattr(self.instance, name, value)
            errors = ruleset_errors(self.instance)
            if errors:
                raise forms.ValidationError(errors)
        return data


@admin.register(BaccaratRulesetVersion)
class BaccaratRulesetVersionAdmin(RulesetVersionAdmin):
    form = VersionForm
    save_draft = staticmethod(version_save_draft)
    fieldsets = [
        (None, {"fields": ["ruleset", "notes"]}),
        (_("Commission rounding"), {"fields": list(ROUNDING_FIELDS)}),
        (
            _("The shoe and the variant"),
            {"fields": ["decks", "variant", "banker_commission", "banker_six_odds", "collection"]},
        ),
        (
            _("Side bets offered and their payouts"),
            {
                "fields": [
                    "offers_tie",
                    "tie_odds",
                    "offers_player_pair",
                    "offers_banker_pair",
                    "pair_odds",
                    "offers_super6",
                    "super6_two_card_odds",
                    "super6_three_card_odds",
                ]
            },
        ),
        (_("Status"), {"fields": RulesetVersionAdmin.readonly_status_fields}),
    ]


@admin.register(Shoe)
class ShoeAdmin(ReadOnlyAdmin):
    venue_path = "session__table__venue"
    list_display = ["__str__", "session", "number", "started_at", "started_by"]


@admin.register(CommissionCollection)
class CommissionCollectionAdmin(ReadOnlyAdmin):
    venue_path = "session__table__venue"
    list_display = ["__str__", "session", "position", "player", "amount", "collected_at"]


class BaccaratAdmin:
    """The admin's hooks for Baccarat: its permissions and the house-edge panel (the exact
    odds of every bet over the shoe, counted by a task)."""

    house_edge_template = "baccarat/admin/house_edge.html"
    manager_permissions = (
        ("baccarat", "view_baccaratrulesetversion"),
        ("baccarat", "add_baccaratrulesetversion"),
        ("baccarat", "change_baccaratrulesetversion"),
        ("baccarat", "approve_baccaratrulesetversion"),
    )
    viewer_permissions = (("baccarat", "view_baccaratrulesetversion"),)

    def house_edge_refusal(self, version: BaccaratRulesetVersion) -> dict[str, object] | None:
        errors = games.of_version(version).rule_errors(version)
        if errors:
            return {"state": "invalid", "errors": errors}
        return None

    def house_edge_row(self, version: BaccaratRulesetVersion) -> RulesFigures:
        row = figures_row(version)
        if row.status == RulesFigures.Status.PENDING:
            # Without a broker (quick start) the task runs here; with one, a worker
            # computes it and the panel polls until it is done.
            ruleset_figures_task.delay_on_commit(version.pk)
            row.refresh_from_db()
        return row

    def house_edge_summary(
        self, version: BaccaratRulesetVersion, row: RulesFigures
    ) -> dict[str, Any]:
        return figures_summary(row, version)

    def house_edge_ready(
        self,
        version: BaccaratRulesetVersion,
        summary: dict[str, Any],
        compared: dict[str, Any] | None,
    ) -> dict[str, object]:
        return {
            "warnings": figures_warnings(summary),
            "rows": figures_rows_for_display(summary, compared),
        }

    def house_edge_waiting(self, version: BaccaratRulesetVersion) -> dict[str, object]:
        return {"waiting": _("Counting the exact odds over the shoe…"), "poll_seconds": 1}


ADMIN = BaccaratAdmin()
