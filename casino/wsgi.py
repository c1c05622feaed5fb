"""The WSGI application gunicorn's workers serve (``casino.wsgi:application``).

Once the app is loaded, everything it has built so far (modules, settings, the URL map's
imports) lives as long as the worker: it is moved out of the cyclic collector's sight
(``gc.freeze``), and the collector's oldest generation is walked only after 10,000 younger
collections instead of 10. A full collection walks every object a worker holds, 150-200 ms
on this app, five or six times a minute of a busy worker's CPU, each one a request held that
long; the young generations, where a request's garbage is, are collected as before. The
cycles that do reach the oldest generation wait for the worker's restart (gunicorn's
``max_requests``, deploy/gunicorn.conf.py). Measured in docs/BENCHMARKS.md ("The
collector").
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

#: Python's thresholds but the oldest generation's (10 by default).
COLLECTOR_THRESHOLDS = (700, 10, 10_000)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
application = get_wsgi_application()
gc.collect()
gc.freeze()
gc.set_threshold(*COLLECTOR_THRESHOLDS)
