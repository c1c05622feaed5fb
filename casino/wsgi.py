"""The WSGI application gunicorn's workers serve (``casino.wsgi:application``).

Once the app is loaded, what it has built so far (Django, the settings, every app's models
and admin) lives as long as the worker: it is moved out of the cyclic collector's sight
(``gc.freeze``), and the collector's oldest generation is walked only after 10,000 younger
collections instead of 10. A full collection walks every object a worker holds: 150-200 ms
on this app, five or six in 20 s of a busy worker's CPU, each holding a request that long.
The young generations, where a request's garbage is, are collected as before; the cycles
that do reach the oldest generation wait for the worker's restart (gunicorn's
``max_requests``, deploy/gunicorn.conf.py). Measured in docs/BENCHMARKS.md ("The collector
waits").
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
