from django.apps import AppConfig


class TablegamesConfig(AppConfig):
    name = "tablegames"
    verbose_name = "Rated table games"

    def ready(self) -> None:
        from casino import games
        from tablegames.adapter import TableGamesAdapter

        games.register(TableGamesAdapter())
