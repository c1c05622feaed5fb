"""Mau Binh rulesets in the admin: a version with its row bonuses and instant wins inline, and
the hooks of the shared version admin and house-take panel (``ADMIN``)."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from casino import games
from casino.rulesets.admin import RulesetVersionAdmin
from casino.rulesets.models import ROUNDING_FIELDS
from maubinh.engine.rules import Declaring
from maubinh.house_take import (
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
    shared_amount_errors,
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
        errors += shared_amount_errors(self.instance, wins)
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
    verbose_name_plural = _("Row bonuses (a winning row not listed scores 1 chi)")

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
    verbose_name_plural = _("Instant wins (chi from each other player; 0: not paid)")


@admin.register(MauBinhRulesetVersion)
class MauBinhRulesetVersionAdmin(RulesetVersionAdmin):
    change_form_template = "admin/maubinh/ruleset_version_change_form.html"
    inlines = [RowBonusInline, InstantWinInline]
    save_draft = staticmethod(version_save_draft)
    fieldsets = [
        (None, {"fields": ["ruleset", "notes"]}),
        (
            _("Scoring"),
            {
                "fields": [
                    "scoop_multiplier",
                    "foul_counts_as_scoop",
                    "foul_pays_row_bonuses",
                    "wheel_is_lowest",
                ]
            },
        ),
        (
            _("Instant wins"),
            {
                "fields": [
                    "dragon_flush_counts_as_dragon",
                    "declaring",
                    "tied_instant_wins",
                    "instant_win_when_fouled",
                ]
            },
        ),
        (_("Money"), {"fields": ["fee_rate", "fee_basis", "quit_penalty"]}),
        (_("Fee rounding"), {"fields": list(ROUNDING_FIELDS)}),
        (_("Status"), {"fields": RulesetVersionAdmin.readonly_status_fields}),
    ]


class MauBinhAdmin:
    """The admin's hooks for Mau Binh: its permissions and the house-take panel (the fee the
    house can expect, simulated by a task)."""

    house_edge_template = "admin/maubinh/house_take.html"
    manager_permissions = (
        ("maubinh", "view_maubinhrulesetversion"),
        ("maubinh", "add_maubinhrulesetversion"),
        ("maubinh", "change_maubinhrulesetversion"),
        ("maubinh", "approve_maubinhrulesetversion"),
        ("maubinh", "view_rowbonus"),
        ("maubinh", "add_rowbonus"),
        ("maubinh", "change_rowbonus"),
        ("maubinh", "delete_rowbonus"),
        ("maubinh", "view_instantwinamount"),
        ("maubinh", "add_instantwinamount"),
        ("maubinh", "change_instantwinamount"),
        ("maubinh", "delete_instantwinamount"),
    )
    viewer_permissions = (
        ("maubinh", "view_maubinhrulesetversion"),
        ("maubinh", "view_rowbonus"),
        ("maubinh", "view_instantwinamount"),
    )

    def house_edge_refusal(self, version: MauBinhRulesetVersion) -> dict[str, object] | None:
        errors = games.of_version(version).rule_errors(version)
        return {"state": "invalid", "errors": errors} if errors else None

    def house_edge_row(self, version: MauBinhRulesetVersion) -> RulesFigures:
        row = figures_row(version)
        if figures_claim(row):
            # Without a broker (quick start) the task runs here; with one, a worker
            # simulates and the panel polls until it is done.
            maubinh_house_take_task.delay_on_commit(version.pk)
            row.refresh_from_db()
        return row

    def house_edge_summary(
        self, version: MauBinhRulesetVersion, row: RulesFigures
    ) -> dict[str, Any]:
        return figures_summary(row, fee_rate=version.fee_rate, fee_basis=version.fee_basis)

    def house_edge_ready(
        self,
        version: MauBinhRulesetVersion,
        summary: dict[str, Any],
        compared: dict[str, Any] | None,
    ) -> dict[str, object]:
        return {
            "summary": summary,
            "warnings": figures_warnings(version),
            "rows": figures_rows_for_display(summary, compared),
            "fee_basis_label": version.get_fee_basis_display(),
            "declaring_optional": version.declaring == Declaring.OPTIONAL,
            "scoop_percent": Decimal(summary["scoops_per_pair"]) * 100,
            "instant_win_percent": Decimal(summary["instant_wins_per_hand"]) * 100,
        }

    def house_edge_waiting(self, version: MauBinhRulesetVersion) -> dict[str, object]:
        waiting = _("Simulating %(deals)s deals with every player auto-arranging…")
        return {"waiting": waiting % {"deals": house_take_deals()}, "poll_seconds": 2}


ADMIN = MauBinhAdmin()
