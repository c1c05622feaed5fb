from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GroupConfig(AppConfig):
    name = "casino.group"
    label = "group"
    verbose_name = _("Operating group")

    def ready(self) -> None:
        from casino.group.selectors import group_roles_select, operator_venue_ids
        from casino.players import hooks as players_hooks
        from casino.staff.roles import group_roles_select as group_roles_select_hook

        group_roles_select_hook.register(group_roles_select)
        players_hooks.operator_venue_ids.register(operator_venue_ids)
