from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CountConfig(AppConfig):
    name = "casino.count"
    label = "count"
    verbose_name = _("Count")
