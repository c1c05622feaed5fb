from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BaccaratConfig(AppConfig):
    name = "baccarat"
    verbose_name = _("Baccarat")

    def ready(self) -> None:
        from baccarat.adapter import BaccaratAdapter
        from casino import games

        games.register(BaccaratAdapter())
