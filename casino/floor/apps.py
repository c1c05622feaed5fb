from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FloorConfig(AppConfig):
    name = "casino.floor"
    label = "floor"
    verbose_name = _("Tables in play")

    def ready(self) -> None:
        from casino.floor.selectors import open_session_id
        from casino.venues import hooks

        # The venues and the rulesets ask which tables are open; the floor answers.
        hooks.open_session.register(open_session_id)
