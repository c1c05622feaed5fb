"""Niu Niu rulesets in the admin: a version with its paytable rows and bonus lines inline."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from casino.admin import RulesetVersionAdmin
from casino.models.rulesets import ROUNDING_FIELDS
from casino.rules import version_in_force
from niuniu.figures import (
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


def _compared_with(version: NiuNiuRulesetVersion) -> tuple[dict | None, str]:
    """The figures of the version in force for the same ruleset, when it is another one."""
    in_force = version_in_force(model=NiuNiuRulesetVersion, ruleset=version.ruleset)
    if in_force is None or in_force.pk == version.pk:
        return None, ""
    figures = in_force.figures
    if figures is None:
        row = figures_row(in_force)
        figures = figures_summary(row) if row.status == RulesFigures.Status.DONE else None
    return figures, f"v{in_force.number} (in force)" if figures else ""


@admin.register(NiuNiuRulesetVersion)
class NiuNiuRulesetVersionAdmin(RulesetVersionAdmin):
    inlines = [PaytableRowInline, BonusLineInline]
    save_draft = staticmethod(version_save_draft)
    fieldsets = [
        (None, {"fields": ["ruleset", "notes"]}),
        (_("Commission rounding"), {"fields": list(ROUNDING_FIELDS)}),
        (
            "Bets offered and deposits",
            {
                "fields": [
                    "offers_double",
                    "double_deposit_multiple",
                    "offers_super",
                    "super_deposit_multiple",
                ],
            },
        ),
        ("Special hands", {"fields": ["five_small", "four_of_a_kind", "five_face"]}),
        ("Status", {"fields": RulesetVersionAdmin.readonly_status_fields}),
    ]

    def figures_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The house edge panel: computed by a Celery task, polled until it is ready."""
        version = get_object_or_404(self.get_queryset(request), pk=pk)
        if not self.has_view_permission(request, version):
            raise PermissionDenied
        if version.rule_errors():
            context = {"state": "failed", "error": "the paytable is incomplete; see the errors."}
            return TemplateResponse(request, "admin/niuniu/figures.html#figures", context)
        row = figures_row(version)
        if row.status == RulesFigures.Status.PENDING:
            # Without a broker (quick start) the task runs here; with one, a worker
            # computes it and this panel polls until it is done.
            ruleset_figures_task.delay_on_commit(version.pk)
            row.refresh_from_db()
        if row.status == RulesFigures.Status.DONE:
            summary = figures_summary(row)
            compared, compared_label = _compared_with(version)
            context = {
                "state": "ready",
                "version": version,
                "warnings": figures_warnings(summary),
                "rows": figures_rows_for_display(summary, compared),
                "compared_label": compared_label,
            }
        elif row.status == RulesFigures.Status.FAILED:
            context = {"state": "failed", "error": row.error}
        else:
            context = {
                "state": "waiting",
                "progress": row.progress,
                "figures_url": request.path,
            }
        return TemplateResponse(request, "admin/niuniu/figures.html#figures", context)

    def get_fieldsets(self, request: Any, obj: Any = None) -> list[Any]:
        if obj is not None:
            return self.fieldsets
        # A new draft rounds up to its venue's chip unit (version_create_draft), to be
        # changed on the draft like its default rows; it has no status yet.
        return [f for f in self.fieldsets[:-1] if f[1]["fields"] != list(ROUNDING_FIELDS)]

    def formfield_for_foreignkey(self, db_field: Any, request: Any, **kwargs: Any) -> Any:
        if db_field.name == "ruleset":
            from casino.models import Ruleset

            kwargs["queryset"] = Ruleset.objects.filter(game="niuniu").select_related("venue")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_queryset(self, request: Any) -> Any:
        return (
            super()
            .get_queryset(request)
            .select_related("ruleset__venue", "last_edited_by", "approved_by")
        )
