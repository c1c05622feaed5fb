from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CountConfig(AppConfig):
    name = "casino.count"
    label = "count"
    verbose_name = _("Count")

    def ready(self) -> None:
        from casino.count import receivers  # noqa: F401  (connects the signal receivers)
        from casino.count.selectors import box_counted
        from casino.floor.figures import box_counted_by

        box_counted_by(box_counted)  # what the floor's figures ask of a session's box
