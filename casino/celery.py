"""The Celery application; tasks live in each app's ``tasks.py``."""

import os

from celery import Celery
from celery.signals import worker_init

from casino.kernel.logs import connect_celery_signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# A task's lines carry its id as their request id (casino/kernel/logs.py).
connect_celery_signals()


@worker_init.connect
def _load_for_integrity_runs(**_kwargs) -> None:
    """The integrity statistics' libraries, loaded once in the worker's main process, before
    it forks its children (``casino.integrity.statistics.load_for_runs``): a run does not pay
    for them, and web processes never load them."""
    from casino.integrity.statistics import load_for_runs

    load_for_runs()
