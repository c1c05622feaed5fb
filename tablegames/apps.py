from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablegamesConfig(AppConfig):
    name = "tablegames"
    verbose_name = _("Rated table games")

    def ready(self) -> None:
        from casino import games
        from tablegames.adapter import TableGamesAdapter

        games.register(TableGamesAdapter())
