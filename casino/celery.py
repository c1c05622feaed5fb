"""The Celery application; tasks live in each app's ``tasks.py``."""

import os

from celery import Celery

from casino.logs import connect_celery_signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# A task's lines carry its id as their request id (casino/logs.py).
connect_celery_signals()
