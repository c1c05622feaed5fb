from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NiuniuConfig(AppConfig):
    name = "niuniu"
    verbose_name = _("Niu Niu")

    def ready(self) -> None:
        from casino import games
        from niuniu.adapter import NiuNiuAdapter

        games.register(NiuNiuAdapter())
