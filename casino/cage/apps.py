from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CageConfig(AppConfig):
    name = "casino.cage"
    label = "cage"
    verbose_name = _("Cage")
