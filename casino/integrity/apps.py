from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IntegrityConfig(AppConfig):
    name = "casino.integrity"
    label = "integrity"
    verbose_name = _("Integrity")
