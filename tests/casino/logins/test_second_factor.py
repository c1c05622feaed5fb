"""The second factor (casino/staff/second_factor.py, the gate in casino/staff/middleware.py):
who needs it, enrolment with a first code and ten recovery codes, a code at every later
login, a recovery code once, wrong codes in the login lockout, the API's token only after
the code, and a superuser's audited reset. PostgreSQL and the real Redis."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.audit.models import AuditAction, AuditEvent
from casino.kernel.errors import Forbidden
from casino.staff.models import ApiToken, LoginAttempt
from casino.staff.policy import SECOND_FACTOR_ROLES, needs_second_factor
from casino.staff.roles import (
    AUDITOR,
    CAGE,
    COMPLIANCE,
    COUNT,
    DEALER,
    MANAGER,
    ROLES,
    SUPERVISOR,
)
from casino.staff.second_factor import RECOVERY_CODES, second_factor_reset
from tests.factories import UserFactory, VenueFactory, staff
from tests.second_factor import code_from_secret, totp_code, verified_device

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests"
VERIFY = "/accounts/verify/"
ENROL = "/accounts/enrol/"
API_LOGIN = "/api/v1/auth/login/"


@pytest.fixture
def limits(settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 10
    return settings


def password_login(username: str, next_page: str = "/console/") -> Client:
    client = Client(REMOTE_ADDR="10.0.0.7", HTTP_USER_AGENT="Tablet/1.0")
    answer = client.post(
        f"{django_settings.LOGIN_URL}?next={next_page}",
        {"username": username, "password": PASSWORD, "next": next_page},
    )
    assert answer.status_code == 302
    return client


def enrol(client: Client) -> tuple[TOTPDevice, list[str]]:
    """Through the enrolment page: the secret shown, its code typed, the recovery codes."""
    page = client.get(ENROL)
    assert page.status_code == 200
    secret = page.context["secret"]
    assert "<svg" in page.content.decode()
    assert secret in page.content.decode()
    answer = client.post(ENROL, {"code": code_from_secret(secret), "next": "/console/"})
    assert answer.status_code == 302
    assert answer.url.startswith(reverse("second-factor-recovery-codes"))
    shown = client.get(answer.url)
    codes = shown.context["codes"]
    # Shown once only.
    again = client.get(reverse("second-factor-recovery-codes"))
    assert again.status_code == 302
    device = TOTPDevice.objects.get(user=shown.wsgi_request.user, confirmed=True)
    return device, codes


def test_the_roles_that_approve_or_handle_money_need_a_second_factor(db):
    venue = VenueFactory()
    # compliance reads the suspicious-activity cases: a code too
    assert {MANAGER, AUDITOR, CAGE, COUNT, COMPLIANCE} == SECOND_FACTOR_ROLES
    for role in ROLES:
        member = staff(f"member-{role}", role, venue)
        assert needs_second_factor(member) is (role not in (DEALER, SUPERVISOR)), role
    boss = UserFactory(username="boss", is_superuser=True)
    assert needs_second_factor(boss)
    assert not needs_second_factor(UserFactory(username="no-role"))


def test_a_manager_enrols_on_the_first_login_then_reaches_the_console(limits):
    staff("enrolling", MANAGER, VenueFactory())
    client = password_login("enrolling")
    # The password alone opens nothing: every page leads to enrolment.
    answer = client.get("/console/")
    assert answer.status_code == 302 and answer.url.startswith(ENROL)
    assert client.get(VERIFY).url.startswith(ENROL)

    device, codes = enrol(client)

    assert len(codes) == RECOVERY_CODES == len(set(codes))
    assert client.get("/console/").status_code == 200
    static = StaticDevice.objects.get(user=device.user)
    assert sorted(static.token_set.values_list("token", flat=True)) == sorted(codes)
    event = AuditEvent.objects.get(action=AuditAction.SECOND_FACTOR_ENROL)
    assert event.user_id == device.user_id
    assert event.after == {"device": "authenticator", "recovery_codes": RECOVERY_CODES}
    # Neither the secret nor a code is in the trail.
    assert all(code not in str(event.after) + event.summary for code in codes)


def test_a_wrong_first_code_does_not_enrol(limits):
    staff("slow-thumbs", CAGE, VenueFactory())
    client = password_login("slow-thumbs")
    client.get(ENROL)
    client.get(ENROL)  # shown again: the same secret, not another
    started = AuditEvent.objects.get(action=AuditAction.SECOND_FACTOR_ENROL_START)
    assert started.after == {"device": "authenticator", "confirmed": False}
    assert TOTPDevice.objects.filter(user__username="slow-thumbs").count() == 1
    answer = client.post(ENROL, {"code": "000000"})
    assert answer.status_code == 200
    assert "Wrong code" in answer.context["error"]
    assert not TOTPDevice.objects.filter(confirmed=True).exists()
    assert client.get("/console/").status_code == 302


def test_a_later_login_asks_the_code_and_a_recovery_code_works_once(limits):
    member = staff("returning", AUDITOR, VenueFactory())
    device, codes = enrol(password_login("returning"))
    device.refresh_from_db()

    client = password_login("returning", next_page="/reports/")
    assert client.get("/reports/").url.startswith(VERIFY)
    answer = client.post(VERIFY, {"code": totp_code(device, ahead=1), "next": "/reports/"})
    assert answer.status_code == 302 and answer.url == "/reports/"
    assert client.get("/console/").status_code == 200

    recovery = codes[0]
    client = password_login("returning")
    assert client.post(VERIFY, {"code": recovery.upper(), "next": "/console/"}).status_code == 302
    assert client.get("/console/").status_code == 200
    used = AuditEvent.objects.get(action=AuditAction.SECOND_FACTOR_RECOVERY_USED)
    assert used.user_id == member.pk
    assert used.after == {"recovery_codes_left": RECOVERY_CODES - 1}
    assert not StaticToken.objects.filter(token=recovery).exists()

    # The same recovery code a second time is a wrong code.
    client = password_login("returning")
    refused = client.post(VERIFY, {"code": recovery, "next": "/console/"})
    assert refused.status_code == 200 and "Wrong code" in refused.context["error"]
    assert client.get("/console/").status_code == 302


def test_wrong_codes_count_in_the_login_lockout(limits):
    staff("guesser", COUNT, VenueFactory())
    device, _codes = enrol(password_login("guesser"))
    device.refresh_from_db()
    # The right password counts until the right code follows it: 1 of 3.
    client = password_login("guesser")
    for _n in range(2):
        answer = client.post(VERIFY, {"code": "123456"})
        assert "Wrong code" in answer.context["error"]
    # Past the limit even the right code is refused, and the page says why.
    answer = client.post(VERIFY, {"code": totp_code(device, ahead=1)})
    assert "Too many failed logins" in answer.context["error"]
    assert client.get("/console/").status_code == 302
    # And so is the password: one count for both.
    fresh = Client(REMOTE_ADDR="10.0.0.7")
    fresh.post(django_settings.LOGIN_URL, {"username": "guesser", "password": PASSWORD})
    assert "_auth_user_id" not in fresh.session
    rows = LoginAttempt.objects.filter(username="guesser", entry_point="code")
    outcomes = list(rows.order_by("id").values_list("outcome", flat=True))
    assert outcomes == ["succeeded", "failed", "failed", "locked_out"]


def test_a_right_password_does_not_clear_the_wrong_codes_before_it(limits):
    member = staff("alternating", MANAGER, VenueFactory())
    device = verified_device(member)
    client = password_login("alternating")  # 1
    assert "Wrong code" in client.post(VERIFY, {"code": "111111"}).context["error"]  # 2
    client = password_login("alternating")  # 3
    # The fourth check is refused: password, code, password, code are one count.
    answer = client.post(VERIFY, {"code": totp_code(device)})
    assert "Too many failed logins" in answer.context["error"]


def test_a_dealer_logs_in_with_the_password_alone(limits):
    staff("dealer-only", DEALER, VenueFactory())
    client = password_login("dealer-only")
    assert client.get("/console/").status_code == 200
    assert not TOTPDevice.objects.exists()


def test_the_admin_login_leads_to_the_code_too(limits):
    UserFactory(username="root", is_superuser=True, is_staff=True)
    client = Client()
    answer = client.post(
        "/admin/login/?next=/admin/",
        {"username": "root", "password": PASSWORD, "next": "/admin/"},
    )
    assert answer.status_code == 302
    assert client.get("/admin/").url.startswith(ENROL)


def test_an_unverified_session_gets_a_403_from_the_api(limits):
    staff("api-session", MANAGER, VenueFactory())
    client = password_login("api-session")
    answer = client.get("/api/v1/auth/me/")
    assert answer.status_code == 403
    assert answer.json()["error"] == "second_factor_required"


def test_the_api_issues_a_token_only_after_the_code(limits):
    member = staff("api-manager", MANAGER, VenueFactory())
    body = {"username": "api-manager", "password": PASSWORD, "device": "NN1-tablet"}

    def login(address: str, **extra: str):
        return Client(REMOTE_ADDR=address).post(
            API_LOGIN, {**body, **extra}, content_type="application/json"
        )

    not_enrolled = login("10.0.1.1")
    assert not_enrolled.status_code == 403
    assert not_enrolled.json()["error"] == "second_factor_required"

    device = verified_device(member)
    assert login("10.0.1.2").status_code == 401  # no code
    assert login("10.0.1.3", code="999999").status_code == 401
    assert not ApiToken.objects.exists()
    answer = login("10.0.1.4", code=totp_code(device))
    assert answer.status_code == 201 and answer.json()["token"]

    # Wrong codes lock the API login as wrong passwords do (3 checks: password, code, password).
    assert login("10.0.1.5", code="999999").status_code == 401
    locked = login("10.0.1.5", code="999999")
    assert locked.status_code == 403 and locked.json()["error"] == "locked_out"


def test_the_api_asks_no_code_of_a_dealer(limits):
    staff("api-dealer", DEALER, VenueFactory())
    body = {"username": "api-dealer", "password": PASSWORD, "device": "NN1-tablet"}
    answer = Client().post(API_LOGIN, body, content_type="application/json")
    assert answer.status_code == 201


def test_a_superuser_resets_a_second_factor_audited(limits):
    member = staff("lost-phone", MANAGER, VenueFactory())
    enrol(password_login("lost-phone"))
    boss = UserFactory(username="boss", is_superuser=True, is_staff=True)
    other_manager = staff("other-manager", MANAGER, VenueFactory())
    with pytest.raises(Forbidden):
        second_factor_reset(member=member, user=other_manager)

    admin_client = Client()
    admin_client.force_login(boss)
    changelist = reverse(f"admin:{member._meta.app_label}_{member._meta.model_name}_changelist")
    answer = admin_client.post(
        changelist, {"action": "reset_second_factor", "_selected_action": [member.pk]}
    )
    assert answer.status_code == 302
    assert not TOTPDevice.objects.filter(user=member).exists()
    assert not StaticDevice.objects.filter(user=member).exists()
    event = AuditEvent.objects.get(action=AuditAction.SECOND_FACTOR_RESET)
    assert event.user_id == boss.pk
    assert event.before == {"devices": ["authenticator", "recovery codes"]}
    # Enrolment again at the next login.
    assert password_login("lost-phone").get("/console/").url.startswith(ENROL)


def test_the_reset_is_offered_to_superusers_only(rf):
    model_admin = admin.site._registry[get_user_model()]
    request = rf.get("/admin/")
    request.user = UserFactory(username="plain-staff", is_staff=True)
    assert "reset_second_factor" not in model_admin.get_actions(request)
    request.user = UserFactory(username="root-2", is_superuser=True, is_staff=True)
    assert "reset_second_factor" in model_admin.get_actions(request)
    assert not admin.site.is_registered(TOTPDevice)
    assert not admin.site.is_registered(StaticDevice)
