"""Logging in to the API (casino/api/auth.py): tokens hashed at rest, expiring, one per
device; logout, logout-all, the list of one's tokens and revoking one; the lockout and the
rate limits, every error in the API's shape."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from knox.crypto import hash_token
from rest_framework.test import APIClient

from casino.audit.models import AuditEvent
from casino.staff.models import ApiToken, LoginAttempt
from tests.casino.api import client_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests"
LOGIN = "/api/v1/auth/login/"


def log_in(username: str = "dealer", password: str = PASSWORD, device: str = "NN1-tablet"):
    return APIClient().post(
        LOGIN,
        {"username": username, "password": password, "device": device},
        format="json",
        HTTP_USER_AGENT="CasinoTablet/2.1",
    )


def with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_login_answers_the_key_once_and_stores_only_its_hash(floor):
    answer = log_in()

    assert answer.status_code == 201
    body = answer.json()
    assert set(body) == {"token", "id", "device", "created", "expiry", "last_used"}
    key = body["token"]
    token = ApiToken.objects.get()
    assert (token.pk, token.user, token.device) == (body["id"], floor.dealer, "NN1-tablet")
    # the stored value is not the key: its SHA-512, and the key's first 15 characters
    assert len(key) == 64
    assert token.digest == hash_token(key) != key
    assert key not in token.digest
    assert token.token_key == key[:15]
    stored = " ".join(str(value) for value in ApiToken.objects.values().get().values())
    assert key not in stored
    # it expires 12 hours on (REST_KNOX's TOKEN_TTL), and it works
    assert timedelta(hours=11, minutes=59) < token.expiry - timezone.now() <= timedelta(hours=12)
    assert with_token(key).get("/api/v1/tables/").status_code == 200
    # the login is on record, with the device's user agent; the issue in the audit trail
    attempt = LoginAttempt.objects.get()
    assert (attempt.outcome, attempt.entry_point, attempt.user_agent) == (
        LoginAttempt.Outcome.SUCCEEDED,
        LoginAttempt.EntryPoint.API,
        "CasinoTablet/2.1",
    )
    event = AuditEvent.objects.get(action="token.issue")
    assert (event.user, event.object_id) == (floor.dealer, str(token.pk))
    assert key not in str(event.after) and key not in event.summary
    floor.dealer.refresh_from_db()
    assert floor.dealer.last_login is not None


def test_an_expired_token_is_refused(floor):
    key = log_in().json()["token"]
    ApiToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))

    refused = with_token(key).get("/api/v1/tables/")

    assert refused.status_code == 401
    assert refused.json() == {
        "error": "authentication_failed",
        "detail": "The token is unknown, expired or revoked: log in again "
        "(POST /api/v1/auth/login/) for a new one.",
        "field": None,
    }
    assert refused["WWW-Authenticate"] == "Token"
    assert not ApiToken.objects.exists()  # gone once seen expired


def test_a_second_login_from_the_same_device_replaces_its_token(floor):
    first = log_in().json()["token"]
    second = log_in().json()["token"]
    other_device = log_in(device="cage-pc").json()["token"]

    assert with_token(first).get("/api/v1/tables/").status_code == 401
    assert with_token(second).get("/api/v1/tables/").status_code == 200
    assert with_token(other_device).get("/api/v1/tables/").status_code == 200
    assert sorted(ApiToken.objects.values_list("device", flat=True)) == ["NN1-tablet", "cage-pc"]
    replaced = AuditEvent.objects.filter(action="token.issue").order_by("pk")[1]
    assert "replacing token" in replaced.summary


def test_logout_revokes_the_token_it_is_sent_with(floor):
    tablet = log_in().json()["token"]
    pc = log_in(device="cage-pc").json()["token"]

    answer = with_token(tablet).post("/api/v1/auth/logout/")

    assert answer.status_code == 204
    assert with_token(tablet).get("/api/v1/tables/").status_code == 401
    assert with_token(pc).get("/api/v1/tables/").status_code == 200
    assert AuditEvent.objects.filter(action="token.revoke", user=floor.dealer).count() == 1


def test_logout_all_revokes_every_token_of_the_user_only(floor):
    mine = [log_in(device=f"device-{n}").json()["token"] for n in range(3)]
    theirs = log_in(username="supervisor").json()["token"]

    answer = with_token(mine[0]).post("/api/v1/auth/logout-all/")

    assert answer.status_code == 200 and answer.json() == {"revoked": 3}
    assert all(with_token(key).get("/api/v1/tables/").status_code == 401 for key in mine)
    assert with_token(theirs).get("/api/v1/tables/").status_code == 200


def test_my_tokens_are_listed_without_keys_and_one_is_revoked_by_id(floor):
    tablet = log_in().json()
    pc = log_in(device="cage-pc").json()
    theirs = log_in(username="supervisor").json()
    client = with_token(tablet["token"])

    listed = client.get("/api/v1/auth/tokens/").json()

    assert [t["device"] for t in listed] == ["cage-pc", "NN1-tablet"]
    assert all(set(t) == {"id", "device", "created", "expiry", "last_used"} for t in listed)
    assert all(t["last_used"] for t in listed)
    # another user's token is not found (and stays); one's own lost device is revoked
    refused = client.delete(f"/api/v1/auth/tokens/{theirs['id']}/")
    assert refused.status_code == 404
    assert refused.json()["error"] == "not_found"
    assert client.delete(f"/api/v1/auth/tokens/{pc['id']}/").status_code == 204
    assert with_token(pc["token"]).get("/api/v1/tables/").status_code == 401
    assert [t["device"] for t in client.get("/api/v1/auth/tokens/").json()] == ["NN1-tablet"]
    assert with_token(theirs["token"]).get("/api/v1/tables/").status_code == 200


def test_the_last_use_is_written_at_most_every_few_minutes(floor):
    key = log_in().json()["token"]
    long_ago = timezone.now() - timedelta(hours=1)
    ApiToken.objects.update(last_used=long_ago)

    with_token(key).get("/api/v1/tables/")
    first = ApiToken.objects.get().last_used
    with_token(key).get("/api/v1/tables/")

    assert first > long_ago
    assert ApiToken.objects.get().last_used == first


def test_a_wrong_password_and_bad_input_are_answered_in_the_error_shape(floor):
    wrong = log_in(password="nope")
    assert wrong.status_code == 401
    assert wrong.json() == {
        "error": "authentication_failed",
        "detail": "Wrong username or password (or the account is disabled).",
        "field": None,
    }
    no_device = APIClient().post(LOGIN, {"username": "dealer", "password": PASSWORD})
    assert no_device.status_code == 400
    assert no_device.json()["field"] == "device"
    blank_device = log_in(device="   ")
    assert (blank_device.status_code, blank_device.json()["field"]) == (400, "device")
    assert not ApiToken.objects.exists()


def test_the_login_honours_the_lockout(floor, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    for _n in range(3):
        assert log_in(password="nope").status_code == 401

    locked = log_in()  # the right password, not checked

    assert locked.status_code == 403
    body = locked.json()
    assert (body["error"], body["field"]) == ("locked_out", "username")
    assert "Too many failed logins for this username" in body["detail"]
    assert "15 minutes" in body["detail"]
    assert not ApiToken.objects.exists()
    assert list(LoginAttempt.objects.order_by("pk").values_list("outcome", flat=True)) == [
        "failed",
        "failed",
        "failed",
        "locked_out",
    ]


def test_a_disabled_account_gets_no_token(floor):
    UserFactory(username="gone", is_active=False)
    assert log_in(username="gone").status_code == 401
    assert not ApiToken.objects.exists()


def test_the_login_endpoint_is_rate_limited_per_address(floor, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login": "3/minute", "write": "120/minute"},
    }
    answers = [log_in(password="nope") for _n in range(3)]
    assert {a.status_code for a in answers} == {401}

    throttled = log_in()

    assert throttled.status_code == 429
    body = throttled.json()
    assert (body["error"], body["field"]) == ("throttled", None)
    assert "throttled" in body["detail"].lower()
    assert 1 <= int(throttled["Retry-After"]) <= 60
    # refused before any password is looked at or any record written
    assert LoginAttempt.objects.count() == 3


def test_writes_are_rate_limited_per_user_and_reads_are_not(floor, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login": "30/minute", "write": "2/minute"},
    }
    dealer, supervisor = client_for(floor.dealer), client_for(floor.supervisor)
    body = {
        "table": floor.table.pk,
        "opening_chips": {"100000": 50},
        "confirmed_by": {"username": "supervisor", "password": "pw-for-tests"},
    }
    assert dealer.post("/api/v1/sessions/", body, format="json").status_code == 201
    assert dealer.post("/api/v1/sessions/", body, format="json").status_code == 409  # open

    throttled = dealer.post("/api/v1/sessions/", body, format="json")

    assert throttled.status_code == 429
    assert throttled.json()["error"] == "throttled"
    assert int(throttled["Retry-After"]) >= 1
    # reads go on; another user's writes are counted apart
    assert all(dealer.get("/api/v1/tables/").status_code == 200 for _n in range(5))
    assert supervisor.post("/api/v1/auth/logout-all/").status_code == 200


def test_the_errors_are_in_the_callers_language(floor):
    answer = APIClient().post(
        LOGIN,
        {"username": "dealer", "password": "nope", "device": "NN1-tablet"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="vi",
    )
    assert answer.status_code == 401
    assert answer.json()["detail"] == (
        "Sai tên đăng nhập hoặc mật khẩu (hoặc tài khoản đã bị vô hiệu hóa)."
    )
