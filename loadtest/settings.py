"""``casino.settings`` with the changes these runs try, each switched on by the environment.

- ``LOADTEST_WITHOUT_FIX=1``: the settings before the fault run's findings, for comparison:
  without ``casino.api.unavailable.DatabaseUnavailableMiddleware`` (a dropped database
  answers a 500 page, not 503 JSON) and with ``CONN_HEALTH_CHECKS = False`` (a persistent
  connection that died with the server fails the next request on it);
- ``LOADTEST_UNAVAILABLE=1``: add the middleware unless already there;
- ``LOADTEST_HEALTH_CHECKS=1``: ``CONN_HEALTH_CHECKS = True``;

Nothing else differs, so a run with none of them set measures the settings as they are,
but for the API's rate limit on writes, which is off: it allows a dealer at a real table a
round every second or so, and the load run's dealers settle as fast as the server answers
(``LOADTEST_WRITE_RATE``, e.g. ``120/minute``, puts one back).
"""

import os

from casino.settings import *  # noqa: F403
from casino.settings import DATABASES, MIDDLEWARE, REST_FRAMEWORK, env_bool

UNAVAILABLE = "casino.api.unavailable.DatabaseUnavailableMiddleware"

if env_bool("LOADTEST_WITHOUT_FIX"):
    MIDDLEWARE = [name for name in MIDDLEWARE if name != UNAVAILABLE]
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False

if env_bool("LOADTEST_UNAVAILABLE") and UNAVAILABLE not in MIDDLEWARE:
    # Right after SecurityMiddleware: outside the middleware that read the session, so
    # a failure there (the session's table) is answered too.
    MIDDLEWARE = [MIDDLEWARE[0], UNAVAILABLE, *MIDDLEWARE[1:]]

if env_bool("LOADTEST_HEALTH_CHECKS"):
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {
        **REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
        "write": os.environ.get("LOADTEST_WRITE_RATE", "off"),
    },
}

CONN_SETTINGS = {
    key: DATABASES["default"].get(key) for key in ("CONN_MAX_AGE", "CONN_HEALTH_CHECKS")
}
if os.environ.get("LOADTEST_SHOW_SETTINGS"):
    print(f"loadtest settings: {CONN_SETTINGS}, middleware {MIDDLEWARE}")
