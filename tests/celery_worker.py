"""A Celery worker for the tests: ``python tests/celery_worker.py [worker options]``.

tests/casino/reports/test_worker.py starts it as a subprocess with the test database in
``DATABASE_URL`` and the test broker in ``CELERY_BROKER_URL``, like ``celery -A casino
worker``, plus two knobs for the tests:

- ``REPORTS_TEST_QUEUE``: the queue the worker's own tasks are sent to (the test's queue,
  so nothing is left on a queue no test worker reads);
- ``REPORTS_TEST_PAUSE``: once a report build passes this percent, it stops there (it
  sleeps), so the test can kill the worker in the middle of a report.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

import django

django.setup()

from casino.celery import app  # noqa: E402
from casino.reports import services  # noqa: E402

if queue := os.environ.get("REPORTS_TEST_QUEUE"):
    app.conf.task_default_queue = queue

if pause := os.environ.get("REPORTS_TEST_PAUSE"):
    progress = services._progress

    def progress_then_stop(report_id: int, percent: int, step: str) -> None:
        progress(report_id, percent, step)
        if percent >= int(pause):
            time.sleep(3600)  # until the test kills the worker

    services._progress = progress_then_stop

if __name__ == "__main__":
    app.worker_main(["worker", *sys.argv[1:]])
