from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GroupConfig(AppConfig):
    name = "casino.group"
    label = "group"
    verbose_name = _("Operating group")

    def ready(self) -> None:
        from casino.group.selectors import group_roles_held
        from casino.staff.roles import held_group_roles

        held_group_roles.register(group_roles_held)
