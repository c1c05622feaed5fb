"""Players in the admin: registered and edited through the players' services, as the API
and the console register them (``casino.admin.writes``)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from casino.admin.base import VenueScopedAdmin
from casino.admin.writes import ParseOnlyModelForm, ServiceWrites
from casino.players.models import Player
from casino.players.services import player_create, player_update


class PlayerForm(ParseOnlyModelForm):
    class Meta:
        model = Player
        fields = "__all__"


@admin.register(Player)
class PlayerAdmin(ServiceWrites, VenueScopedAdmin):
    """Players are registered and edited by ``player_create`` / ``player_update``."""

    form = PlayerForm
    list_display = ["membership_number", "name", "venue", "status"]
    list_filter = [("venue", admin.RelatedOnlyFieldListFilter), "status"]
    search_fields = ["membership_number", "name"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [] if obj is None else ["venue"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def write(self, request: HttpRequest, form: Any, formsets: list, change: bool) -> Player:
        data = form.cleaned_data
        if not change:
            return player_create(
                venue=data["venue"],
                user=request.user,
                membership_number=data["membership_number"],
                name=data["name"],
                status=data["status"],
            )
        changes = {
            name: data[name]
            for name in ("membership_number", "name", "status")
            if name in form.changed_data
        }
        if not changes:
            return form.instance
        return player_update(player=form.instance, user=request.user, **changes)
