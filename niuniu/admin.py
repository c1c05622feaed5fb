"""Niu Niu rulesets in the admin: a version with its paytable rows and bonus lines inline."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin

from casino.admin import RulesetVersionAdmin
from niuniu.models import BonusLine, NiuNiuRulesetVersion, PaytableRow
from niuniu.services import version_save_draft
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


@admin.register(NiuNiuRulesetVersion)
class NiuNiuRulesetVersionAdmin(RulesetVersionAdmin):
    inlines = [PaytableRowInline, BonusLineInline]
    save_draft = staticmethod(version_save_draft)
    fieldsets = [
        (None, {"fields": ["ruleset", "notes"]}),
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

    def get_fieldsets(self, request: Any, obj: Any = None) -> list[Any]:
        return self.fieldsets if obj is not None else self.fieldsets[:-1]

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
