"""The second factor in Chromium: a manager enrols on the first login (the code computed
from the secret the page shows, as an authenticator app would), logs in again with a code,
then with a recovery code, and is locked out after wrong codes; a dealer logs in with the
password alone."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.staff.roles import DEALER, MANAGER
from tests.browser.conftest import PASSWORD, VIEWPORT, shot
from tests.factories import staff
from tests.second_factor import code_from_secret, totp_code

pytestmark = pytest.mark.django_db(transaction=True)


def password(page, username: str) -> None:
    page.goto("/console/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def fresh_page(browser, live_server):
    context = browser.new_context(viewport=VIEWPORT, base_url=live_server.url)
    return context, context.new_page()


@override_settings(LOGIN_FAILURE_LIMIT=4)
def test_a_manager_enrols_logs_in_with_codes_and_is_locked_out_after_wrong_ones(
    browser, live_server, page, floor
):
    staff("second-manager", MANAGER, floor.venue)

    # First login: the password, then enrolment.
    password(page, "second-manager")
    page.wait_for_url("**/accounts/enrol/**")
    assert page.locator("figure.qr svg").count() == 1
    secret = page.locator("#otp-secret").inner_text()
    shot(page, "second-factor-enrol")
    page.get_by_label("First code").fill(code_from_secret(secret))
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url("**/accounts/recovery-codes/**")
    codes = page.locator("#recovery-codes code").all_inner_texts()
    assert len(codes) == 10
    page.get_by_role("link", name="Continue").click()
    page.wait_for_url("**/console/")

    # Again, with the recovery code (the app's code of this time step was just used).
    context, again = fresh_page(browser, live_server)
    password(again, "second-manager")
    again.wait_for_url("**/accounts/verify/**")
    again.get_by_label("Code").fill(codes[0])
    again.get_by_role("button", name="Verify").click()
    again.wait_for_url("**/console/")
    context.close()

    # Again, with a code of the app (its next step, which the device's tolerance takes).
    device = TOTPDevice.objects.get(user__username="second-manager", confirmed=True)
    context, third = fresh_page(browser, live_server)
    password(third, "second-manager")
    third.wait_for_url("**/accounts/verify/**")
    third.get_by_label("Code").fill(totp_code(device, ahead=1))
    third.get_by_role("button", name="Verify").click()
    third.wait_for_url("**/console/")
    context.close()

    # Wrong codes: the same lockout as wrong passwords (4 checks, the password among them).
    context, guessing = fresh_page(browser, live_server)
    password(guessing, "second-manager")
    guessing.wait_for_url("**/accounts/verify/**")
    for _n in range(3):
        guessing.get_by_label("Code").fill("000000")
        guessing.get_by_role("button", name="Verify").click()
        guessing.wait_for_load_state()
        assert "Wrong code" in guessing.get_by_role("alert").inner_text()
    # Past the limit a recovery code that is left is refused too, and the console stays shut.
    guessing.get_by_label("Code").fill(codes[1])
    guessing.get_by_role("button", name="Verify").click()
    guessing.wait_for_load_state()
    assert "Too many failed logins" in guessing.get_by_role("alert").inner_text()
    shot(guessing, "second-factor-locked-out")
    guessing.goto("/console/")
    assert "/accounts/verify/" in guessing.url
    context.close()


def test_a_dealer_logs_in_without_a_second_factor(browser, live_server, page, floor):
    staff("table-dealer", DEALER, floor.venue)
    password(page, "table-dealer")
    page.wait_for_url("**/console/")
    assert "/accounts/" not in page.url
