"""The audit trail."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.models.venues import Venue


class AuditEvent(models.Model):
    """Who did what to which object, with the state before and after. Never edited: on
    PostgreSQL triggers refuse UPDATE, DELETE and TRUNCATE (migration 0010)."""

    at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("when"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("user"),
    )
    venue = models.ForeignKey(
        Venue,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("venue"),
    )
    action = models.CharField(max_length=64, db_index=True, verbose_name=_("action"))
    object_type = models.CharField(max_length=64, verbose_name=_("object type"))
    object_id = models.CharField(max_length=64, verbose_name=_("object ID"))
    summary = models.CharField(max_length=255, blank=True, verbose_name=_("summary"))
    before = models.JSONField(null=True, blank=True, verbose_name=_("state before"))
    after = models.JSONField(null=True, blank=True, verbose_name=_("state after"))

    class Meta:
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["object_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type}#{self.object_id}"
