from django.apps import AppConfig


class NiuniuConfig(AppConfig):
    name = "niuniu"
    verbose_name = "Niu Niu"

    def ready(self) -> None:
        from casino import games
        from niuniu.adapter import NiuNiuAdapter

        games.register(NiuNiuAdapter())
