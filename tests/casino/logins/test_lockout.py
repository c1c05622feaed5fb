"""The login lockout (casino/staff/throttling.py), in-process on the real Redis: attempts are
counted before the password is checked; per username and address, and per address across
usernames; failures and lockouts stored and logged, never a password."""

from __future__ import annotations

import logging

import pytest
import redis
from django.conf import settings as django_settings
from django.contrib.auth import authenticate
from django.test import Client, RequestFactory

from casino.staff import throttling
from casino.staff.models import LoginAttempt
from tests.casino.logins.conftest import redis_url
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests"
GUESS = "Guess-0f-the-day"
Outcome = LoginAttempt.Outcome


@pytest.fixture
def limits(settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 5
    settings.LOGIN_LOCKOUT_MINUTES = 15
    return settings


def log_in(username: str, password: str, address: str = "10.0.0.1") -> bool:
    """The login page, from ``address``: whether it logged in."""
    client = Client(REMOTE_ADDR=address, HTTP_USER_AGENT="Tablet/1.0")
    client.post(django_settings.LOGIN_URL, {"username": username, "password": password})
    return "_auth_user_id" in client.session


def outcomes(username: str | None = None) -> list[str]:
    rows = LoginAttempt.objects.order_by("id")
    if username is not None:
        rows = rows.filter(username=username)
    return list(rows.values_list("outcome", flat=True))


def test_failed_logins_lock_the_username_at_that_address(limits, caplog):
    UserFactory(username="throttled")
    assert log_in("throttled", PASSWORD)
    caplog.set_level(logging.INFO, logger="casino.security")

    for _n in range(3):
        assert not log_in("throttled", GUESS)
    # locked: the right password is refused too, from this address only
    assert not log_in("throttled", PASSWORD)
    assert not log_in("throttled", PASSWORD)
    assert log_in("throttled", PASSWORD, address="10.0.0.2")

    # stored: the failures, the lockout once (not each refusal after it)
    assert outcomes("throttled") == [
        Outcome.SUCCEEDED,
        Outcome.FAILED,
        Outcome.FAILED,
        Outcome.FAILED,
        Outcome.LOCKED_OUT,
        Outcome.SUCCEEDED,
    ]
    locked = LoginAttempt.objects.get(outcome=Outcome.LOCKED_OUT)
    assert (locked.address, locked.user_agent, locked.entry_point) == (
        "10.0.0.1",
        "Tablet/1.0",
        LoginAttempt.EntryPoint.PAGE,
    )
    assert locked.user.username == "throttled"
    # logged: one line per failure and one for the lockout, on casino.security
    lines = [r.getMessage() for r in caplog.records if r.name == "casino.security"]
    assert len(lines) == 4
    assert all("username='throttled'" in line and "10.0.0.1" in line for line in lines)
    assert [line.split(":")[0] for line in lines] == ["login failed"] * 3 + ["login locked_out"]
    assert all(r.levelno == logging.WARNING for r in caplog.records if r.name == "casino.security")
    # never a password
    assert not any(GUESS in line or PASSWORD in line for line in lines)
    assert not LoginAttempt.objects.filter(username__contains="Guess").exists()


def test_the_window_is_set_in_redis_and_a_lock_runs_out_with_it(limits):
    UserFactory(username="throttled")
    for _n in range(4):
        assert not log_in("throttled", GUESS)
    assert throttling.attempts(username="throttled", address="10.0.0.1") == (4, 3)
    # every count has the window's expiry: none outlives it
    client = redis.Redis.from_url(redis_url())
    keys = list(client.scan_iter(f"{django_settings.CACHES['default']['KEY_PREFIX']}*"))
    assert len(keys) == 2
    for key in keys:
        assert 14 * 60 < client.ttl(key) <= 15 * 60
    # when the window runs out, the username may try again
    client.delete(*keys)
    assert log_in("throttled", PASSWORD)


def test_a_successful_login_clears_the_username_count(limits):
    UserFactory(username="throttled")
    for _n in range(2):
        assert not log_in("throttled", GUESS)
    assert log_in("throttled", PASSWORD)
    for _n in range(2):
        assert not log_in("throttled", GUESS)
    assert log_in("throttled", PASSWORD)  # 4 failures, never 3 in a row
    assert Outcome.LOCKED_OUT not in outcomes()


def test_an_address_trying_many_usernames_is_locked_out_whatever_the_username(limits, caplog):
    UserFactory(username="target")
    caplog.set_level(logging.INFO, logger="casino.security")
    # one guess for each of five usernames (none reaches its own limit of 3)
    for n in range(5):
        assert not log_in(f"staff{n}", GUESS)
    # the sixth attempt from that address is refused without a check, right password or not
    assert not log_in("target", PASSWORD)
    assert not log_in("target", PASSWORD)
    # from another address the account is fine
    assert log_in("target", PASSWORD, address="10.0.0.2")
    assert outcomes() == [Outcome.FAILED] * 5 + [Outcome.ADDRESS_LOCKED_OUT, Outcome.SUCCEEDED]
    lines = [r.getMessage() for r in caplog.records if r.name == "casino.security"]
    assert lines[-1].startswith("login address_locked_out: username='target' address=10.0.0.1")


def test_logins_that_succeed_do_not_add_up_at_an_address(limits):
    # a floor behind one address: many logins, a few typos, no lockout
    for n in range(8):
        UserFactory(username=f"dealer{n}")
        assert log_in(f"dealer{n}", PASSWORD)
    for n in range(4):
        assert not log_in(f"dealer{n}", GUESS)
    assert log_in("dealer7", PASSWORD)
    assert throttling.attempts(username="dealer7", address="10.0.0.1") == (0, 4)


def test_a_username_is_counted_whatever_its_case_and_spaces(limits):
    UserFactory(username="throttled")
    for spelling in ("throttled", "THROTTLED", " Throttled "):
        assert not log_in(spelling, GUESS)
    assert not log_in("throttled", PASSWORD)


def test_the_console_supervisor_approval_is_locked_out_too(limits, floor):
    request = RequestFactory().post("/console/sessions/1/close/", REMOTE_ADDR="10.0.0.9")
    for _n in range(3):
        assert authenticate(request, username="supervisor", password="nope") is None
    refusal = throttling.LoginRefusal()
    assert authenticate(request, username="supervisor", password=PASSWORD, refusal=refusal) is None
    assert refusal.outcome == Outcome.LOCKED_OUT
    assert set(LoginAttempt.objects.values_list("entry_point", flat=True)) == {
        LoginAttempt.EntryPoint.APPROVAL
    }


def test_behind_a_proxy_the_address_is_the_proxys_header(limits, settings):
    settings.LOGIN_CLIENT_IP_HEADER = "HTTP_X_REAL_IP"
    UserFactory(username="throttled")
    for n in range(3):
        client = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP="203.0.113.7")
        client.post(django_settings.LOGIN_URL, {"username": "throttled", "password": f"g{n}"})
    assert set(LoginAttempt.objects.values_list("address", flat=True)) == {"203.0.113.7"}
    assert throttling.attempts(username="throttled", address="203.0.113.7") == (3, 3)
    assert throttling.attempts(username="throttled", address="127.0.0.1") == (0, 0)


def test_the_settings_use_the_lockout_backend_and_nothing_beside_it():
    # Another backend checking passwords would not be behind the lockout.
    assert django_settings.AUTHENTICATION_BACKENDS == ["casino.staff.throttling.LockoutBackend"]


def test_the_login_page_says_when_the_lockout_refused_the_login(limits):
    UserFactory(username="throttled")
    client = Client(REMOTE_ADDR="10.0.0.1")
    wrong = client.post(django_settings.LOGIN_URL, {"username": "throttled", "password": "x"})
    assert "Wrong username or password." in wrong.content.decode()
    for _n in range(2):
        client.post(django_settings.LOGIN_URL, {"username": "throttled", "password": "x"})

    locked = client.post(django_settings.LOGIN_URL, {"username": "throttled", "password": PASSWORD})

    text = locked.content.decode()
    assert 'role="alert">Too many failed logins for this username from your address' in text
    assert "up to 15 minutes" in text
    assert "Wrong username or password." not in text
