"""The security headers as production sends them (DEBUG off, not the test suite): read in a
process of its own started with production's environment, whose database does not exist,
so ``/healthz`` is also shown to answer without one."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.casino.test_settings import ROOT

SCRIPT = """
import json, django
django.setup()
from django.test import Client, override_settings
# Production's manifest needs collectstatic; the pages' file names are not under test.
override_settings(STORAGES={
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}).enable()
client = Client(HTTP_HOST="casino.example.com")
answers = {
    "healthz": client.get("/healthz"),
    "healthz_https": client.get("/healthz", secure=True),
    "login": client.get("/accounts/login/"),
    "login_https": client.get("/accounts/login/", secure=True),
}
print(json.dumps({
    name: {"status": a.status_code, "headers": dict(a.headers), "cookies": {
        k: {"secure": bool(m["secure"]), "httponly": bool(m["httponly"])}
        for k, m in a.cookies.items()}}
    for name, a in answers.items()
}))
"""


def production(**env: str) -> dict:
    clean = {"PATH": "/usr/bin:/bin", "LOG_LEVEL": "ERROR"}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "casino.settings",
            "SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
            "ALLOWED_HOSTS": "casino.example.com",
            "DATABASE_URL": "postgres://nobody@127.0.0.1:1/absent",
            **env,
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_sends_the_security_headers_and_probes_answer_over_http():
    answers = production()
    # the probes answer on the app's own port, over plain HTTP, with no database
    assert answers["healthz"]["status"] == 200
    # every other page is sent to HTTPS
    assert answers["login"]["status"] == 301
    assert answers["login"]["headers"]["Location"].startswith("https://casino.example.com/")

    page = answers["login_https"]
    assert page["status"] == 200
    headers = page["headers"]
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    policy = {
        directive.split()[0]: directive.split()[1:]
        for directive in headers["Content-Security-Policy"].split("; ")
    }
    assert policy["default-src"] == policy["script-src"] == policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert page["cookies"]["csrftoken"]["secure"]
    assert "Content-Security-Policy" in answers["healthz_https"]["headers"]
