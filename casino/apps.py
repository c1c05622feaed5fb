from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = _("Casino floor")

    def ready(self) -> None:
        # Configure the Celery app when Django starts, so tasks sent from web processes use
        # the broker in settings. Importing it here, not in casino/__init__.py, keeps the
        # pure helpers (casino.kernel.cards, casino.kernel.money) free of Celery and Django.
        # Importing casino.checks registers the checks `check --deploy` adds; casino.signals
        # gives a login the length its venue sets. SQLite (development) is given the local hour
        # reports bucket rounds in (casino.kernel.timezones.LocalHour).
        from django.db.backends.signals import connection_created

        from casino import celery, checks, signals  # noqa: F401
        from casino.kernel.timezones import register_sqlite

        connection_created.connect(register_sqlite, dispatch_uid="casino_local_hour")
