"""A table's change of ruleset: one manager asks, another approves, then it applies.

A ruleset is the table's paytable, so assigning another one is approved by a second
person like a paytable is; it applies when it is approved, and only while no session is
open at the table. Requests are never deleted: they end applied, refused or withdrawn.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino.models.floor import Table
from casino.models.rulesets import Ruleset
from casino.models.venues import game_choices


class TableRulesetChange(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("ruleset change", "Pending")
        APPLIED = "applied", pgettext_lazy("ruleset change", "Approved and applied")
        REFUSED = "refused", pgettext_lazy("ruleset change", "Refused")
        WITHDRAWN = "withdrawn", pgettext_lazy("ruleset change", "Withdrawn")

    table = models.ForeignKey(
        Table,
        on_delete=models.PROTECT,
        related_name="ruleset_changes",
        verbose_name=pgettext_lazy("ruleset change", "table"),
    )
    from_ruleset = models.ForeignKey(
        Ruleset,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=pgettext_lazy("ruleset change", "from ruleset"),
    )
    to_ruleset = models.ForeignKey(
        Ruleset,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=pgettext_lazy("ruleset change", "to ruleset"),
    )
    # The games are kept as they were asked: a change of ruleset may change the game.
    from_game = models.CharField(
        pgettext_lazy("ruleset change", "from game"), max_length=16, choices=game_choices
    )
    to_game = models.CharField(
        pgettext_lazy("ruleset change", "to game"), max_length=16, choices=game_choices
    )
    reason = models.TextField(pgettext_lazy("ruleset change", "reason"))
    status = models.CharField(
        pgettext_lazy("ruleset change", "status"),
        max_length=16,
        choices=Status.choices,
        default=Status.PENDING,
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=pgettext_lazy("ruleset change", "requested by"),
    )
    requested_at = models.DateTimeField(pgettext_lazy("ruleset change", "requested at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=pgettext_lazy("ruleset change", "decided by"),
    )
    decided_at = models.DateTimeField(
        pgettext_lazy("ruleset change", "decided at"), null=True, blank=True
    )
    decision_note = models.TextField(pgettext_lazy("ruleset change", "decision note"), blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        verbose_name = _("table ruleset change")
        verbose_name_plural = _("table ruleset changes")
        permissions = [
            ("decide_tablerulesetchange", "Can approve or refuse a table's change of ruleset"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(status="pending"),
                name="one_pending_ruleset_change_per_table",
            ),
            models.CheckConstraint(
                condition=~models.Q(to_ruleset=models.F("from_ruleset")),
                name="ruleset_change_changes_the_ruleset",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(status="pending", decided_by__isnull=True, decided_at__isnull=True)
                    | (
                        ~models.Q(status="pending")
                        & models.Q(decided_by__isnull=False, decided_at__isnull=False)
                    )
                ),
                name="ruleset_change_decided_unless_pending",
            ),
        ]

    def __str__(self) -> str:
        return _("%(table)s: %(from)s to %(to)s (%(status)s)") % {
            "table": self.table,
            "from": self.from_ruleset.code,
            "to": self.to_ruleset.code,
            "status": self.get_status_display(),
        }
