from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MaubinhConfig(AppConfig):
    name = "maubinh"
    verbose_name = _("Mau Binh")

    def ready(self) -> None:
        from casino import games
        from maubinh.adapter import MauBinhAdapter

        games.register(MauBinhAdapter())
