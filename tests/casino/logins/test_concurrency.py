"""The lockout holds under concurrency: 50 logins at once for one user, against a real
gunicorn with 5 sync workers sharing the lockout's counts in Redis, check at most
``LOGIN_FAILURE_LIMIT`` (5) passwords.

The checks are counted for real: the server runs with a password hasher that increments a
Redis counter each time it verifies a password and takes as long as a production hash
(``hashers.py``, wired by ``counting_settings.py``, which only this test's server uses).
"""

from __future__ import annotations

import os
import re
import threading
from collections import Counter
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
import redis
from django.conf import settings
from django.db import connection

from casino.staff.models import ApiToken, LoginAttempt
from loadtest.common import Server
from tests.casino.logins.conftest import redis_url
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

Outcome = LoginAttempt.Outcome
ATTEMPTS = 50
LIMIT = 5
WORKERS = 5


def _test_database_url() -> str:
    """The URL of the database this test runs in (pytest-django's ``test_...``)."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path=f"/{connection.settings_dict['NAME']}"))


@pytest.fixture
def server(redis_prefix):
    env = {
        "DATABASE_URL": _test_database_url(),
        "CACHE_URL": redis_url(),
        "CACHE_KEY_PREFIX": redis_prefix,
        "PASSWORD_CHECKS_REDIS": redis_url(),
        "PASSWORD_CHECKS_KEY": f"{redis_prefix}-password-checks",
        "LOGIN_FAILURE_LIMIT": str(LIMIT),
        # The login endpoint's own rate limit would answer 429 before any password is
        # looked at; this test is about the lockout behind it.
        "API_LOGIN_RATE": "10000/minute",
        "CONN_MAX_AGE": "0",
    }
    with Server(
        workers=WORKERS, settings_module="tests.casino.logins.counting_settings", extra_env=env
    ) as running:
        running.checks_key = env["PASSWORD_CHECKS_KEY"]
        yield running


def _checks(server) -> int:
    return int(redis.Redis.from_url(redis_url()).get(server.checks_key) or 0)


def _all_at_once(send) -> list[int]:
    """``send(client)`` from ``ATTEMPTS`` threads released together; their statuses."""
    barrier = threading.Barrier(ATTEMPTS)
    statuses: list[int] = [0] * ATTEMPTS

    def run(index: int) -> None:
        with httpx.Client(timeout=60) as client:
            prepared = send.prepare(client)  # the page's CSRF token
            barrier.wait(timeout=60)
            statuses[index] = send(client, prepared).status_code

    threads = [threading.Thread(target=run, args=(i,)) for i in range(ATTEMPTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return statuses


class PageLogin:
    """The login page: a GET for the CSRF cookie and token, then the POST."""

    def __init__(self, server, username: str, password: str) -> None:
        self.url = f"{server.url}{settings.LOGIN_URL}"
        self.username, self.password = username, password

    def prepare(self, client: httpx.Client) -> str:
        page = client.get(self.url)
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]

    def __call__(self, client: httpx.Client, token: str) -> httpx.Response:
        return client.post(
            self.url,
            data={
                "username": self.username,
                "password": self.password,
                "csrfmiddlewaretoken": token,
            },
        )


class ApiLogin:
    """The API's token login."""

    def __init__(self, server, username: str, password: str) -> None:
        self.url = f"{server.url}/api/v1/auth/login/"
        self.body = {"username": username, "password": password, "device": "tablet"}

    def prepare(self, client: httpx.Client) -> None:
        return None

    def __call__(self, client: httpx.Client, prepared: None) -> httpx.Response:
        return client.post(self.url, json=self.body)


def _records(username: str) -> Counter:
    return Counter(LoginAttempt.objects.filter(username=username).values_list("outcome", flat=True))


def test_fifty_logins_at_once_check_at_most_five_passwords_on_the_page(server):
    UserFactory(username="target")

    statuses = _all_at_once(PageLogin(server, "target", "guess"))

    assert set(statuses) == {200}, statuses  # the form again, with its error
    checks = _checks(server)
    assert 1 <= checks <= LIMIT, f"{checks} passwords checked for {ATTEMPTS} attempts"
    # each check is a stored failure; the lockout is stored once
    assert _records("target") == {Outcome.FAILED: checks, Outcome.LOCKED_OUT: 1}
    # and the lock holds for the right password, which is not even checked
    with httpx.Client(timeout=60) as client:
        page = PageLogin(server, "target", "pw-for-tests")
        assert page(client, page.prepare(client)).status_code == 200
    assert _checks(server) == checks


def test_fifty_token_logins_at_once_check_at_most_five_passwords(server):
    UserFactory(username="target")

    statuses = Counter(_all_at_once(ApiLogin(server, "target", "guess")))

    checks = _checks(server)
    assert 1 <= checks <= LIMIT, f"{checks} passwords checked for {ATTEMPTS} attempts"
    # 401 for each password checked and wrong, 403 locked_out for the others
    assert statuses == {401: checks, 403: ATTEMPTS - checks}
    assert _records("target") == {Outcome.FAILED: checks, Outcome.LOCKED_OUT: 1}
    assert not ApiToken.objects.exists()
