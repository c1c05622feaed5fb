from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesetsConfig(AppConfig):
    name = "casino.rulesets"
    label = "rulesets"
    verbose_name = _("Rulesets")

    def ready(self) -> None:
        from casino.rulesets.selectors import ruleset_get
        from casino.venues import hooks

        # The venues' API gives a table the ruleset a user names; the rulesets find it.
        hooks.ruleset_get.register(ruleset_get)
