"""Mau Binh rulesets in the admin: a version with its row bonuses and instant wins inline."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace
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
from maubinh.figures import (
    figures_claim,
    figures_row,
    figures_rows_for_display,
    figures_summary,
    figures_warnings,
    house_take_deals,
)
from maubinh.models import InstantWinAmount, MauBinhRulesetVersion, RowBonus, RulesFigures
from maubinh.services import version_save_draft
from maubinh.tasks import maubinh_house_take_task
from maubinh.validation import (
    MAX_SEAT_CHI,
    OPPONENTS,
    instant_win_errors,
    row_bonus_errors,
    worst_case_chi,
)


def _rows_of(formset: forms.BaseInlineFormSet, *names: str) -> list[SimpleNamespace]:
    """The formset's rows as the form has them (deleted ones left out)."""
    return [
        SimpleNamespace(**{name: form.cleaned_data.get(name) for name in names})
        for form in formset.forms
        if form.cleaned_data and not form.cleaned_data.get("DELETE")
    ]


class _RulesFormSet(forms.BaseInlineFormSet):
    """Checks its rows with the shared validation, and the largest result a seat can have
    with the other inline's rows as stored."""

    def own_errors(self) -> tuple[list[str], list[Any], list[Any]]:
        """What each formset adds: the errors of its own rows, then the row bonuses and
        instant wins to check together (its rows as typed, the other inline's as stored).
        Each subclass below gives it; this class is never used on its own."""
        raise NotImplementedError(f"{type(self).__name__} names its rows' errors")

    def validate_unique(self) -> None:
        """Two rows for one row and hand (or one instant win) are named by the shared
        validation in ``clean``, in the admin's words, instead of Django's generic message."""

    def clean(self) -> None:
        super().clean()
        if any(form.errors for form in self.forms):
            return  # each field error is shown beside its field first
        errors, bonuses, wins = self.own_errors()
        if not errors:
            worst = worst_case_chi(self.instance, bonuses, wins) * OPPONENTS
            if worst > MAX_SEAT_CHI:
                errors.append(
                    f"A player could win or lose {worst} chi in one round (against {OPPONENTS} "
                    f"opponents); rounds record at most {MAX_SEAT_CHI}: lower the largest amounts."
                )
        if errors:
            raise forms.ValidationError(errors)


class RowBonusFormSet(_RulesFormSet):
    def own_errors(self) -> tuple[list[str], list[Any], list[Any]]:
        bonuses = _rows_of(self, "row", "category", "chi")
        wins = list(self.instance.instant_wins.all()) if self.instance.pk else []
        return row_bonus_errors(bonuses), bonuses, wins


class InstantWinFormSet(_RulesFormSet):
    def own_errors(self) -> tuple[list[str], list[Any], list[Any]]:
        wins = _rows_of(self, "kind", "chi")
        bonuses = list(self.instance.row_bonuses.all()) if self.instance.pk else []
        return instant_win_errors(wins), bonuses, wins


class RowBonusInline(admin.TabularInline):
    model = RowBonus
    formset = RowBonusFormSet
    extra = 0
    fields = ["row", "category", "chi"]
    verbose_name_plural = "Row bonuses (a winning row not listed scores 1 chi)"

    def _editable(self, obj: Any) -> bool:
        return obj is None or obj.is_editable

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return self._editable(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return self._editable(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return self._editable(obj) and super().has_delete_permission(request, obj)


class InstantWinInline(RowBonusInline):
    model = InstantWinAmount
    formset = InstantWinFormSet
    fields = ["kind", "chi"]
    max_num = len(InstantWinAmount._meta.get_field("kind").choices)
    verbose_name_plural = "Instant wins (chi from each other player; 0: not paid)"


def _compared_with(version: MauBinhRulesetVersion) -> tuple[dict | None, str]:
    """The figures of the version in force for the same ruleset, when it is another one."""
    in_force = version_in_force(model=MauBinhRulesetVersion, ruleset=version.ruleset)
    if in_force is None or in_force.pk == version.pk:
        return None, ""
    figures = in_force.figures
    if figures is None:
        row = figures_row(in_force)
        done = row.status == RulesFigures.Status.DONE
        figures = figures_summary(row, fee_rate=in_force.fee_rate) if done else None
    return figures, f"v{in_force.number} (in force)" if figures else ""


@admin.register(MauBinhRulesetVersion)
class MauBinhRulesetVersionAdmin(RulesetVersionAdmin):
    change_form_template = "admin/maubinh/ruleset_version_change_form.html"
    inlines = [RowBonusInline, InstantWinInline]
    save_draft = staticmethod(version_save_draft)
    fieldsets = [
        (None, {"fields": ["ruleset", "notes"]}),
        ("Scoring", {"fields": ["scoop_multiplier", "foul_counts_as_scoop", "wheel_is_lowest"]}),
        ("Instant wins", {"fields": ["dragon_flush_counts_as_dragon"]}),
        ("Money", {"fields": ["fee_rate", "quit_penalty"]}),
        (_("Fee rounding"), {"fields": list(ROUNDING_FIELDS)}),
        ("Status", {"fields": RulesetVersionAdmin.readonly_status_fields}),
    ]

    def figures_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The house take panel: simulated by a Celery task, polled until it is ready."""
        version = get_object_or_404(self.get_queryset(request), pk=pk)
        if not self.has_view_permission(request, version):
            raise PermissionDenied
        template = "admin/maubinh/figures.html#figures"
        errors = version.rule_errors()
        if errors:
            context = {"state": "invalid", "errors": errors}
            return TemplateResponse(request, template, context)
        row = figures_row(version)
        if figures_claim(row):
            # Without a broker (quick start) the task runs here; with one, a worker
            # simulates and this panel polls until it is done.
            maubinh_house_take_task.delay_on_commit(version.pk)
            row.refresh_from_db()
        if row.status == RulesFigures.Status.DONE:
            summary = figures_summary(row, fee_rate=version.fee_rate)
            compared, compared_label = _compared_with(version)
            context = {
                "state": "ready",
                "version": version,
                "summary": summary,
                "warnings": figures_warnings(version),
                "rows": figures_rows_for_display(summary, compared),
                "compared_label": compared_label,
                "scoop_percent": Decimal(summary["scoops_per_pair"]) * 100,
                "instant_win_percent": Decimal(summary["instant_wins_per_hand"]) * 100,
            }
        elif row.status == RulesFigures.Status.FAILED:
            context = {"state": "failed", "error": row.error}
        else:
            context = {
                "state": "waiting",
                "progress": row.progress,
                "deals": house_take_deals(),
                "figures_url": request.path,
            }
        return TemplateResponse(request, template, context)

    def get_fieldsets(self, request: Any, obj: Any = None) -> list[Any]:
        if obj is not None:
            return self.fieldsets
        # A new draft rounds up to its venue's chip unit (version_create_draft), to be
        # changed on the draft like its standard rows; it has no status yet.
        return [f for f in self.fieldsets[:-1] if f[1]["fields"] != list(ROUNDING_FIELDS)]

    def formfield_for_foreignkey(self, db_field: Any, request: Any, **kwargs: Any) -> Any:
        if db_field.name == "ruleset":
            from casino.models import Ruleset

            kwargs["queryset"] = Ruleset.objects.filter(game="maubinh").select_related("venue")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_queryset(self, request: Any) -> Any:
        return (
            super()
            .get_queryset(request)
            .select_related("ruleset__venue", "last_edited_by", "approved_by")
        )
