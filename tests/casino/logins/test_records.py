"""Where failed logins are read: the admin's login attempts (auditors and superusers,
read-only, each auditor the accounts of their venues and the unknown usernames), and the
deployment check that the lockout's counts are shared."""

from __future__ import annotations

import pytest
from django.test import Client

from casino.audit.models import AuditEvent
from casino.staff.logins import login_record, token_issue
from casino.staff.models import ApiToken, LoginAttempt
from tests.casino.test_settings import manage
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/staff/loginattempt/"


def failed(username: str) -> LoginAttempt:
    return login_record(
        username=username,
        address="198.51.100.4",
        user_agent="Tablet",
        entry_point=LoginAttempt.EntryPoint.PAGE,
        outcome=LoginAttempt.Outcome.FAILED,
    )


def admin_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_auditor_lists_the_failed_logins_of_their_venue_and_of_unknown_usernames(floor):
    UserFactory(username="root", is_staff=True, is_superuser=True)
    own = failed("dealer")
    other = failed("other-dealer")
    unknown = failed("dealr")
    superuser = failed("root")

    page = admin_client(floor.auditor).get(CHANGELIST)

    assert page.status_code == 200
    shown = page.context["cl"].result_list
    assert {a.pk for a in shown} == {own.pk, unknown.pk}
    assert other.pk not in {a.pk for a in shown} and superuser.pk not in {a.pk for a in shown}
    text = page.content.decode()
    assert "198.51.100.4" in text and "wrong username or password" in text
    # read-only: nothing to add, change or delete
    assert admin_client(floor.auditor).get(f"{CHANGELIST}add/").status_code == 403
    detail = admin_client(floor.auditor).get(f"{CHANGELIST}{own.pk}/change/")
    assert detail.status_code == 200 and 'name="_save"' not in detail.content.decode()
    assert admin_client(floor.auditor).get(f"{CHANGELIST}{other.pk}/change/").status_code == 302


def test_a_superuser_lists_every_attempt_and_a_manager_none(floor):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    attempts = [failed(name) for name in ("dealer", "other-dealer", "dealr", "root")]

    everything = admin_client(root).get(CHANGELIST)

    assert {a.pk for a in everything.context["cl"].result_list} == {a.pk for a in attempts}
    assert admin_client(floor.manager).get(CHANGELIST).status_code == 403


def test_a_superuser_revokes_a_lost_devices_token_in_the_admin(floor):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    token, _key = token_issue(user=floor.dealer, device="NN1-tablet")
    client = admin_client(root)

    answer = client.post(f"/admin/staff/apitoken/{token.pk}/delete/", {"post": "yes"})

    assert answer.status_code == 302
    assert not ApiToken.objects.exists()
    event = AuditEvent.objects.get(action="token.revoke")
    assert (event.user, event.object_id) == (root, str(token.pk))
    # an auditor does not see the tokens at all
    assert admin_client(floor.auditor).get("/admin/staff/apitoken/").status_code == 403


def test_check_deploy_refuses_a_per_process_cache_for_the_lockout():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY="a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
        ALLOWED_HOSTS="casino.example.com",
        CACHE_URL="",
    )
    assert result.returncode != 0
    assert "casino.W001" in result.stderr + result.stdout
    assert "CACHE_URL" in result.stderr + result.stdout
