from django.apps import AppConfig


class BaccaratConfig(AppConfig):
    name = "baccarat"
    verbose_name = "Baccarat"

    def ready(self) -> None:
        from baccarat.adapter import BaccaratAdapter
        from casino import games

        games.register(BaccaratAdapter())
