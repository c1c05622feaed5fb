"""What each middleware costs a console request: the request asked in-process with the whole
stack and with each middleware left out in turn, alternately, the median CPU of each.

    DJANGO_SETTINGS_MODULE=loadtest.settings .venv/bin/python -m loadtest.floor_middleware \\
        [--kind hand] [--turns 40]

The session, the login and the htmx middleware stay in every variant (the console's views
need them, and django-otp's needs the login's); "only the needed" leaves out all the others
at once. Works on its own fresh database (``casino_floormiddleware``) and the shared cache
of ``loadtest.floor_profile``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from loadtest.common import database_name, emit, fresh_database, use_database, use_shared_cache
from loadtest.floor_profile import CACHE, client_for, cookie_of, requests

DATABASE = database_name("floormiddleware")
#: What a console view cannot go without.
NEEDED = (
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
)
#: Left out together: django-otp's wrapper and the gate that reads it.
SECOND_FACTOR = (
    "django_otp.middleware.OTPMiddleware",
    "casino.staff.middleware.SecondFactorMiddleware",
)


def variants(full: list[str]) -> dict[str, list[str]]:
    found = {"the whole stack": full, "only the needed": [m for m in full if m in NEEDED]}
    found["without the second factor"] = [m for m in full if m not in SECOND_FACTOR]
    for middleware in full:
        if middleware not in NEEDED:
            found[f"without {middleware.rsplit('.', 1)[1]}"] = [m for m in full if m != middleware]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--kind", default="hand")
    parser.add_argument("--turns", type=int, default=40)
    options = parser.parse_args()

    use_shared_cache(CACHE)
    use_database(DATABASE)
    fresh_database(DATABASE)
    from django.conf import settings
    from django.test import override_settings

    from loadtest.floor_setup import build_big_floor, round_forms

    floor = build_big_floor(tables=2, pit_size=2, code="mw")
    floor.forms = round_forms(floor.desks[0].session_id, count=2, seed=1)
    method, path, data = requests(floor)[options.kind]
    cookie = cookie_of(floor, options.kind)
    clients = {}
    for name, stack in variants(list(settings.MIDDLEWARE)).items():
        with override_settings(MIDDLEWARE=stack):
            client = client_for(cookie)  # its handler loads the stack on its first request
            call = client.get if method == "GET" else client.post
            for _n in range(5):
                answer = call(path, data, HTTP_HX_REQUEST="true")
                assert answer.status_code == 200, (name, answer.status_code)
            clients[name] = (call, stack)
    cpu: dict[str, list[float]] = {name: [] for name in clients}
    for _turn in range(options.turns):
        for name, (call, stack) in clients.items():
            with override_settings(MIDDLEWARE=stack):
                for _n in range(10):
                    started = time.process_time()
                    call(path, data, HTTP_HX_REQUEST="true")
                    cpu[name].append((time.process_time() - started) * 1000)
    whole = statistics.median(cpu["the whole stack"])
    print(f"{options.kind}, in-process CPU, medians of {options.turns * 10}:")
    for name, values in cpu.items():
        median = statistics.median(values)
        print(f"  {name:45s} {median:6.3f} ms  ({whole - median:+.3f} ms against the whole)")
        emit("floor-middleware", name.replace(" ", "_"), round(median, 3), "ms")


if __name__ == "__main__":
    main()
