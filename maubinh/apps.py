from django.apps import AppConfig


class MaubinhConfig(AppConfig):
    name = "maubinh"
    verbose_name = "Mau Binh"

    def ready(self) -> None:
        from casino import games
        from maubinh.adapter import MauBinhAdapter

        games.register(MauBinhAdapter())
