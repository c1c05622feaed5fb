from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ComplianceConfig(AppConfig):
    name = "casino.compliance"
    label = "compliance"
    verbose_name = _("Compliance")
