from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CageConfig(AppConfig):
    name = "casino.cage"
    label = "cage"
    verbose_name = _("Cage")

    def ready(self) -> None:
        from casino.cage import answers
        from casino.floor.answers import answered_by

        answered_by(cage=answers)  # a session's slips and cash, as the floor asks them
