from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    name = "casino.ops"
    label = "ops"
    verbose_name = _("Health and metrics")

    def ready(self) -> None:
        from casino.ops import heartbeats  # noqa: F401  (connects the worker's heartbeat)
