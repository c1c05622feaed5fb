from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class VenuesConfig(AppConfig):
    name = "casino.venues"
    label = "venues"
    verbose_name = _("Venues and tables")
