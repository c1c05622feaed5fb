from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesetsConfig(AppConfig):
    name = "casino.rulesets"
    label = "rulesets"
    verbose_name = _("Rulesets")
