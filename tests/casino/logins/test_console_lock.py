"""A shared terminal: how long a login lasts (the venue's ``session_hours``), console PINs,
and the lock screen's unlock, which takes the console over when another member signs in,
all behind the login lockout."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.kernel.errors import Forbidden, InvalidInput
from casino.staff.models import LoginAttempt, StaffPin
from casino.staff.pins import pin_set
from casino.venues.services.venues import venue_update

pytestmark = pytest.mark.django_db

UNLOCK = "/console/unlock/"


@pytest.fixture
def dealer(client, floor):
    client.force_login(floor.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


# How long a login lasts


def test_a_login_lasts_the_venues_session_hours(client, floor):
    venue_update(venue=floor.venue, user=floor.manager, session_hours=3)
    client.post(settings.LOGIN_URL, {"username": "dealer", "password": "pw-for-tests"})
    assert client.session.get_expiry_age() == 3 * 3600
    event = AuditEvent.objects.get(action="venue.update")
    assert event.before["session_hours"] == "12" and event.after["session_hours"] == "3"


@pytest.mark.parametrize("hours", [0, 25, "twelve", ""])
def test_a_session_length_out_of_bounds_is_refused(floor, hours):
    with pytest.raises(InvalidInput, match="a login lasts from 1 to 24 hours") as refused:
        venue_update(venue=floor.venue, user=floor.manager, session_hours=hours)
    assert refused.value.field == "session_hours"


def test_only_a_manager_sets_the_session_length(floor):
    with pytest.raises(Forbidden):
        venue_update(venue=floor.venue, user=floor.supervisor, session_hours=8)


# PINs


def test_a_member_sets_their_own_pin_which_is_stored_hashed_and_audited(floor):
    record = pin_set(user=floor.dealer, member=floor.dealer, pin="2580")
    assert "2580" not in record.pin_hash and record.pin_hash.startswith(("pbkdf2", "md5", "argon"))
    event = AuditEvent.objects.get(action="pin.set")
    assert "2580" not in str(event.after) and event.after["member"] == "dealer"


@pytest.mark.parametrize("pin", ["123", "123456789", "12a4", "1111", "1234", "9876", "٣٤٥٦"])
def test_a_pin_too_short_long_easy_or_not_digits_is_refused(floor, pin):
    with pytest.raises(InvalidInput) as refused:
        pin_set(user=floor.dealer, member=floor.dealer, pin=pin)
    assert refused.value.field == "pin"
    assert not StaffPin.objects.exists()


def test_another_dealer_cannot_set_a_pin_but_a_manager_of_the_venue_can(floor):
    with pytest.raises(Forbidden):
        pin_set(user=floor.other_dealer, member=floor.dealer, pin="2580")
    with pytest.raises(Forbidden):
        pin_set(user=floor.supervisor, member=floor.dealer, pin="2580")
    pin_set(user=floor.manager, member=floor.dealer, pin="2580")
    assert StaffPin.objects.get(user=floor.dealer).set_by == floor.manager


def test_the_pin_page_sets_a_pin_after_the_password(dealer, floor):
    page = dealer.get(reverse("console:pin"))
    assert page.status_code == 200 and 'for="pin-new"' in page.content.decode()
    wrong = dealer.post(
        reverse("console:pin"), {"password": "nope", "pin": "2580", "pin_again": "2580"}
    )
    assert wrong.status_code == 422 and "That is not your password" in wrong.content.decode()
    differ = dealer.post(
        reverse("console:pin"), {"password": "pw-for-tests", "pin": "2580", "pin_again": "2581"}
    )
    assert differ.status_code == 422 and "The two PINs differ" in differ.content.decode()
    done = dealer.post(
        reverse("console:pin"), {"password": "pw-for-tests", "pin": "2580", "pin_again": "2580"}
    )
    assert done.status_code == 200 and "Your PIN is set." in done.content.decode()
    assert StaffPin.objects.filter(user=floor.dealer).exists()


# The lock screen


def test_the_dealer_unlocks_with_their_pin_or_password(dealer, floor):
    pin_set(user=floor.dealer, member=floor.dealer, pin="2580")
    session_key = dealer.session.session_key
    for secret in ("2580", "pw-for-tests"):
        answer = dealer.post(UNLOCK, {"username": "dealer", "secret": secret})
        assert answer.status_code == 200 and answer.json()["user"] == "dealer"
        assert answer.json()["csrf"]
    assert dealer.session.session_key == session_key  # the same login goes on
    assert not AuditEvent.objects.filter(action="console.takeover").exists()
    recorded = LoginAttempt.objects.filter(entry_point=LoginAttempt.EntryPoint.LOCK)
    assert list(recorded.values_list("outcome", flat=True)) == ["succeeded", "succeeded"]


def test_a_wrong_pin_is_refused_and_the_lockout_stops_guessing(dealer, floor):
    pin_set(user=floor.dealer, member=floor.dealer, pin="2580")
    for guess in ("1357", "2468", "3579", "4680", "5791"):
        wrong = dealer.post(UNLOCK, {"username": "dealer", "secret": guess})
        assert (
            wrong.status_code == 403 and "Wrong username, PIN or password" in wrong.json()["error"]
        )
    # the right PIN does not help now
    locked = dealer.post(UNLOCK, {"username": "dealer", "secret": "2580"})
    assert locked.status_code == 403 and "Too many failed logins" in locked.json()["error"]
    outcomes = LoginAttempt.objects.filter(entry_point=LoginAttempt.EntryPoint.LOCK)
    assert outcomes.filter(outcome="failed").count() == 5
    assert outcomes.filter(outcome="locked_out").count() == 1


def test_another_dealer_takes_the_console_over_with_their_pin(dealer, floor):
    pin_set(user=floor.supervisor, member=floor.supervisor, pin="7391")
    answer = dealer.post(UNLOCK, {"username": "supervisor", "secret": "7391"})
    assert answer.status_code == 200 and answer.json()["user"] == "supervisor"
    assert dealer.session[SESSION_KEY] == str(floor.supervisor.pk)
    event = AuditEvent.objects.get(action="console.takeover")
    assert event.user == floor.supervisor and event.before == {"user": "dealer"}


def test_a_login_that_ran_out_signs_in_again_on_the_lock_screen(client, floor):
    # the console's htmx requests are answered 401 (the page keeps what was typed)
    partial = client.get(reverse("console:home"), HTTP_HX_REQUEST="true")
    assert partial.status_code == 401
    answer = client.post(UNLOCK, {"username": "dealer", "secret": "pw-for-tests"})
    assert answer.status_code == 200
    assert client.session[SESSION_KEY] == str(floor.dealer.pk)
    assert client.session.get_expiry_age() == 12 * 3600
    assert not AuditEvent.objects.filter(action="console.takeover").exists()  # the same person
    assert client.get(reverse("console:home"), HTTP_HX_REQUEST="true").status_code == 200


def test_an_empty_unlock_says_what_to_type(dealer):
    answer = dealer.post(UNLOCK, {"username": "dealer", "secret": ""})
    assert answer.status_code == 422 and "Type a username" in answer.json()["error"]
    assert dealer.get(UNLOCK).status_code == 405


def test_a_manager_sets_a_members_pin_from_the_command_line(floor, monkeypatch):
    from io import StringIO

    from django.core.management import CommandError, call_command

    monkeypatch.setattr("sys.stdin", StringIO("4826\n"))
    out = StringIO()
    call_command("pin_set", "dealer", "--by", "floor-manager", "--stdin", stdout=out)
    assert "console PIN of dealer set by floor-manager" in out.getvalue()
    assert StaffPin.objects.get(user=floor.dealer).set_by == floor.manager
    monkeypatch.setattr("sys.stdin", StringIO("4826\n"))
    with pytest.raises(CommandError, match="Only the member"):
        call_command("pin_set", "dealer", "--by", "other-dealer", "--stdin")
