from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CountConfig(AppConfig):
    name = "casino.count"
    label = "count"
    verbose_name = _("Count")

    def ready(self) -> None:
        from casino.count import (
            receivers,  # noqa: F401  (connects the signal receivers)
            selectors,
        )
        from casino.floor import answers

        answers.box_counted.register(selectors.box_counted)  # whether a session's box is counted
