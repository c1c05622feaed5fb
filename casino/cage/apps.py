from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CageConfig(AppConfig):
    name = "casino.cage"
    label = "cage"
    verbose_name = _("Cage")

    def ready(self) -> None:
        from casino.cage import answers
        from casino.floor import answers as asked

        # a session's slips and cash, as the floor asks them
        asked.pending_slips.register(answers.pending_slips)
        asked.session_sums.register(answers.session_sums)
        asked.slips_waiting.register(answers.slips_waiting)
        asked.slips_waiting_by_session.register(answers.slips_waiting_by_session)
        asked.cash_reported_by_session.register(answers.cash_reported_by_session)
        asked.crossings.register(answers.crossings)
        asked.late_rounds.register(answers.late_rounds)
