from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IntegrityConfig(AppConfig):
    name = "casino.integrity"
    label = "integrity"
    verbose_name = _("Integrity")

    def ready(self) -> None:
        from casino.integrity import receivers  # noqa: F401  (connects the signal receivers)
