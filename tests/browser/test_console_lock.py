"""A shared terminal in the browser: the console locks itself when idle without leaving
the page, so the round typed is still there; the dealer's PIN unlocks it and the round
goes on; another dealer takes over with their PIN and is the dealer on duty from then on;
a lock holds in every tab (the server's), and a tab opened while locked is the lock screen
until unlocked; a login that ran out on the server is signed in again on the same screen,
the round kept.

The page's clock is Playwright's (``page.clock``): the idle minutes pass at once.
"""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session

from casino.floor.models import Round, TableSession
from casino.floor.services.sessions import session_open
from casino.staff.pins import pin_set
from tests.browser.conftest import log_in, shot

pytestmark = pytest.mark.django_db(transaction=True)

IDLE = 6 * 60 * 1000  # past the default five idle minutes


@pytest.fixture
def session(floor) -> TableSession:
    pin_set(user=floor.dealer, member=floor.dealer, pin="2580")
    pin_set(user=floor.supervisor, member=floor.supervisor, pin="7391")
    return session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )


def english(page, live_server) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])


def type_round(page) -> None:
    page.get_by_label("Box 1: Single").fill("100000")
    page.get_by_label("Box 1: cards").fill("ks qs 5h 4h 10c")
    page.get_by_label("Dealer: cards").fill("js qh jd ac 7h")
    page.wait_for_selector("#hand-dealer .category")


def preview_and_confirm(page, number: int) -> None:
    page.get_by_role("button", name="Preview").click()
    page.wait_for_selector("#preview:not(.stale) #confirm:not([disabled])")
    page.get_by_role("button", name="Confirm and settle").click()
    page.wait_for_selector(f".banner.settled[data-round='{number}']")


def unlock(page, username: str, secret: str) -> None:
    lock = page.get_by_role("dialog", name="Console locked")
    lock.get_by_label("Username").fill(username)
    lock.get_by_label("PIN or password").fill(secret)
    lock.get_by_role("button", name="Unlock").click()


def test_the_idle_lock_keeps_the_typed_round_and_the_pin_continues_it(
    page, live_server, floor, session
):
    page.clock.install()
    english(page, live_server)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    type_round(page)
    screen = page.url

    # idle past the minutes: the lock covers the page, which stays where it was
    page.clock.run_for(IDLE)
    lock = page.get_by_role("dialog", name="Console locked")
    lock.wait_for()
    assert page.url == screen
    assert "What was typed is kept" in lock.text_content()
    assert page.get_by_label("Box 1: Single").input_value() == "100000"
    assert page.get_by_label("Dealer: cards").input_value() == "js qh jd ac 7h"
    # nothing behind it takes a key: Ctrl+Enter confirms nothing
    page.keyboard.press("Control+Enter")
    assert not Round.objects.exists()
    shot(page, "lock-01-locked")

    # a wrong PIN is refused on the lock screen, the right one opens it
    unlock(page, "dealer", "1357")
    page.get_by_role("alert").filter(has_text="Wrong username, PIN or password").wait_for()
    lock.get_by_label("PIN or password").fill("2580")
    lock.get_by_label("PIN or password").press("Enter")  # a PIN and Enter, as on a keypad
    lock.wait_for(state="hidden")
    assert page.get_by_label("Box 1: cards").input_value() == "ks qs 5h 4h 10c"
    preview_and_confirm(page, 1)
    assert Round.objects.get(number=1).settled_by == floor.dealer

    # another dealer takes over with their PIN, and the next round is theirs
    page.get_by_role("button", name="Lock or switch dealer").click()
    unlock(page, "supervisor", "7391")
    lock.wait_for(state="hidden")
    page.get_by_role("navigation", name="Back office").get_by_text("supervisor").wait_for()
    page.get_by_text("Dealer on duty: supervisor").wait_for()  # the relief is on duty
    page.get_by_label("Box 1: cards").fill("ks qs 5h 4h 10c")
    page.get_by_label("Dealer: cards").fill("js qh jd ac 7h")
    preview_and_confirm(page, 2)
    second = Round.objects.get(number=2)
    assert (second.settled_by, second.dealer) == (floor.supervisor, floor.supervisor)
    assert Round.objects.get(number=1).dealer == floor.dealer
    shot(page, "lock-02-taken-over")


def test_a_lock_holds_in_every_tab_until_unlocked(page, live_server, floor, session):
    english(page, live_server)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    type_round(page)
    other = page.context.new_page()  # a second tab of the same terminal
    other.goto(f"/console/sessions/{session.pk}/")

    # the second tab is locked by hand: the first, still open on the page, is refused next
    other.get_by_role("button", name="Lock or switch dealer").click()
    other.get_by_role("dialog", name="Console locked").wait_for()
    page.get_by_role("button", name="Preview").click()
    lock = page.get_by_role("dialog", name="Console locked")
    lock.wait_for()
    assert "This console is locked" in lock.text_content()
    assert page.get_by_label("Box 1: Single").input_value() == "100000"  # kept behind it
    assert not Round.objects.exists()

    # a tab opened now is the lock screen, and nothing of the table is behind it
    third = page.context.new_page()
    third.goto(f"/console/sessions/{session.pk}/")
    locked = third.get_by_role("dialog", name="Console locked")
    locked.wait_for()
    assert third.get_by_label("Box 1: Single").count() == 0
    shot(third, "lock-03-new-tab-locked")

    # unlocked there with the PIN, that tab shows the table, and the first goes on
    unlock(third, "dealer", "2580")
    third.get_by_label("Box 1: Single").wait_for()
    unlock(page, "dealer", "2580")
    lock.wait_for(state="hidden")
    preview_and_confirm(page, 1)
    assert Round.objects.get().dealer == floor.dealer


def test_a_login_that_ran_out_is_signed_in_again_without_losing_the_round(
    page, live_server, floor, session
):
    english(page, live_server)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    type_round(page)
    screen = page.url
    Session.objects.all().delete()  # the login ran out on the server

    page.get_by_role("button", name="Preview").click()
    lock = page.get_by_role("dialog", name="Console locked")
    lock.wait_for()
    assert "Your login ran out" in lock.text_content()
    assert page.url == screen
    assert page.get_by_label("Box 1: Single").input_value() == "100000"
    shot(page, "lock-04-login-ran-out")
    unlock(page, "dealer", "pw-for-tests")
    lock.wait_for(state="hidden")
    preview_and_confirm(page, 1)
    assert Round.objects.get().settled_by == floor.dealer
