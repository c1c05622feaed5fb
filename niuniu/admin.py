"""Niu Niu rulesets in the admin: a version with its paytable rows and bonus lines inline, and
the hooks of the shared version admin and house-edge panel (``ADMIN``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from casino import games
from casino.rulesets.admin import RulesetVersionAdmin
from casino.rulesets.models import ROUNDING_FIELDS
from niuniu.house_edge import (
    figures_lack_rounding,
    figures_row,
    figures_rows_for_display,
    figures_summary,
    figures_warnings,
)
from niuniu.models import BonusLine, NiuNiuRulesetVersion, PaytableRow, RulesFigures
from niuniu.services import version_save_draft
from niuniu.tasks import ruleset_figures_task
from niuniu.validation import paytable_errors


class _Row:
    """A paytable row as the form has it, for the shared validation."""

    def __init__(self, data: dict) -> None:
        self.bet_type = data.get("bet_type")
        self.category = data.get("category")
        self.win_odds = data.get("win_odds")
        self.commission_rate = data.get("commission_rate")
        self.loss_multiple = data.get("loss_multiple")


class PaytableFormSet(forms.BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        if any(form.errors for form in self.forms):
            return  # each field error is shown beside its field first
        rows = [
            _Row(form.cleaned_data)
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]
        errors = paytable_errors(self.instance, rows)
        if errors:
            raise forms.ValidationError(errors)


class PaytableRowInline(admin.TabularInline):
    model = PaytableRow
    formset = PaytableFormSet
    extra = 0
    fields = ["bet_type", "category", "win_odds", "commission_rate", "loss_multiple"]
    # Each row's bet and hand are its first fields: no label line repeats them above it.
    classes = ["compact-rows"]

    class Media:
        css = {"all": ["css/admin-rows.css"]}

    def _editable(self, obj: Any) -> bool:
        return obj is None or obj.is_editable

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return self._editable(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return self._editable(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return self._editable(obj) and super().has_delete_permission(request, obj)


class BonusLineInline(PaytableRowInline):
    model = BonusLine
    formset = forms.BaseInlineFormSet
    fields = ["position", "name", "predicate", "odds"]


@admin.register(NiuNiuRulesetVersion)
class NiuNiuRulesetVersionAdmin(RulesetVersionAdmin):
    inlines = [PaytableRowInline, BonusLineInline]
    save_draft = staticmethod(version_save_draft)
    fieldsets = [
        (None, {"fields": ["ruleset", "notes"]}),
        (_("Commission rounding"), {"fields": list(ROUNDING_FIELDS)}),
        (
            _("Bets offered and deposits"),
            {
                "fields": [
                    "offers_double",
                    "double_deposit_multiple",
                    "offers_super",
                    "super_deposit_multiple",
                    "double_deposit_basis",
                    "super_deposit_basis",
                ],
            },
        ),
        (
            _("Special hands"),
            {
                "fields": [
                    "five_small",
                    "five_small_rank",
                    "four_of_a_kind",
                    "four_of_a_kind_rank",
                    "five_face",
                    "five_face_rank",
                ]
            },
        ),
        (_("Boxes"), {"fields": ["max_boxes"]}),
        (_("Status"), {"fields": RulesetVersionAdmin.readonly_status_fields}),
    ]


class NiuNiuAdmin:
    """The admin's hooks for Niu Niu: its permissions and the house-edge panel (the exact
    odds of a paytable, computed by a task)."""

    house_edge_template = "admin/niuniu/house_edge.html"
    manager_permissions = (
        ("niuniu", "view_niuniurulesetversion"),
        ("niuniu", "add_niuniurulesetversion"),
        ("niuniu", "change_niuniurulesetversion"),
        ("niuniu", "approve_niuniurulesetversion"),
        ("niuniu", "view_paytablerow"),
        ("niuniu", "add_paytablerow"),
        ("niuniu", "change_paytablerow"),
        ("niuniu", "delete_paytablerow"),
        ("niuniu", "view_bonusline"),
        ("niuniu", "add_bonusline"),
        ("niuniu", "change_bonusline"),
        ("niuniu", "delete_bonusline"),
    )
    viewer_permissions = (
        ("niuniu", "view_niuniurulesetversion"),
        ("niuniu", "view_paytablerow"),
        ("niuniu", "view_bonusline"),
    )

    def house_edge_refusal(self, version: NiuNiuRulesetVersion) -> dict[str, object] | None:
        if games.of_version(version).rule_errors(version):
            return {"state": "failed", "error": "the paytable is incomplete; see the errors."}
        return None

    def house_edge_row(self, version: NiuNiuRulesetVersion) -> RulesFigures:
        row = figures_row(version)
        if row.status == RulesFigures.Status.PENDING:
            # Without a broker (quick start) the task runs here; with one, a worker
            # computes it and the panel polls until it is done.
            ruleset_figures_task.delay_on_commit(version.pk)
            row.refresh_from_db()
        elif figures_lack_rounding(version, row):
            # The same rules rounded otherwise (or stored before rounded edges were): the
            # edges under this version's rounding are added, the panel shows the rest now.
            ruleset_figures_task.delay_on_commit(version.pk)
        return row

    def house_edge_summary(
        self, version: NiuNiuRulesetVersion, row: RulesFigures
    ) -> dict[str, Any]:
        return figures_summary(row, version)

    def house_edge_ready(
        self,
        version: NiuNiuRulesetVersion,
        summary: dict[str, Any],
        compared: dict[str, Any] | None,
    ) -> dict[str, object]:
        return {
            "warnings": figures_warnings(summary),
            "rows": figures_rows_for_display(summary, compared, version.ruleset.venue),
        }

    def house_edge_waiting(self, version: NiuNiuRulesetVersion) -> dict[str, object]:
        return {"waiting": _("Computing the exact odds…"), "poll_seconds": 1}


ADMIN = NiuNiuAdmin()
