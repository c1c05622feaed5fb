"""A shared terminal held by the server (``casino/floor/console/terminal.py``): a locked console
is refused in every tab until unlocked, and after the idle minutes without the page's help;
a PIN opens a floor member's console only (never the admin, the reports, the API or an
approval, never from nothing, never a manager's); a takeover at a table records the relief,
so the rounds after it are the newcomer's."""

from __future__ import annotations

import time
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.test import Client
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.floor.console.terminal import BEAT_SECONDS, SEEN, idle_seconds
from casino.floor.models import Round
from casino.floor.services.rounds import round_create
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.kernel.errors import Forbidden
from casino.rulesets.models import VersionStatus
from casino.staff.models import StaffPin
from casino.staff.pins import pin_set
from casino.staff.roles import DEALER, MANAGER, grant
from casino.venues.models import DealerSpell
from niuniu.services import venue_ruleset_from_preset
from tests.factories import staff

pytestmark = pytest.mark.django_db

UNLOCK, LOCK, ACTIVE = "/console/unlock/", "/console/lock/", "/console/active/"
HX = {"HTTP_HX_REQUEST": "true"}
NIU_9 = "KS QS 5H 4H TC"
NIU_8 = "JS QH JD AC 7H"


@pytest.fixture
def dealer2(floor):
    """A second dealer at the floor's venue, with a PIN: the relief."""
    member = staff("dealer2", DEALER, floor.venue)
    pin_set(user=member, member=member, pin="7391")
    return member


@pytest.fixture
def at_table(dealer, floor, session):
    """The dealer's console at their table, with their PIN, in use."""
    pin_set(user=floor.dealer, member=floor.dealer, pin="2580")
    assert dealer.get(screen(session)).status_code == 200
    return dealer


def screen(session) -> str:
    return reverse("console:round", args=[session.pk])


def another_tab(client: Client) -> Client:
    """The same browser's login in a second tab: the same session cookie."""
    tab = Client()
    tab.cookies[settings.SESSION_COOKIE_NAME] = client.cookies[settings.SESSION_COOKIE_NAME].value
    tab.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return tab


def stored_pin(member, pin: str) -> None:
    """A PIN stored before the rule that keeps it to the floor (``pin_set`` refuses it now)."""
    StaffPin.objects.create(user=member, pin_hash=make_password(pin), set_by=member)


def deal(session, user, key: str) -> Round:
    round_, _result = round_create(
        session=session,
        user=user,
        dealer_cards=NIU_8,
        boxes=[BoxInput(position=1, cards=NIU_9, stakes={"single": D("100000")})],
    )
    round_settle(round_=round_, user=user, key=key)
    return round_


# The lock is the server's


def test_a_locked_console_is_refused_in_every_tab_until_unlocked(at_table, floor, session):
    # given the page locked itself (idle), which it tells the server
    assert at_table.post(LOCK, {"reason": "idle"}).status_code == 204
    tab = another_tab(at_table)

    # then every request of the login is refused, in this tab and in a new one
    page = tab.get(screen(session))
    assert page.status_code == 423
    html = page.content.decode()
    assert 'id="lock"' in html and "data-locked" in html and "Console locked" in html
    assert "Box 1" not in html  # the round screen is not behind it
    partial = at_table.get(reverse("console:history", args=[session.pk]), **HX)
    assert partial.status_code == 423 and "This console is locked" in partial.content.decode()
    cash = tab.post(reverse("console:cash", args=[session.pk]), {"amount": "100.000"}, **HX)
    assert cash.status_code == 423
    assert tab.post(ACTIVE).status_code == 423
    api = tab.get("/api/v1/sessions/")
    assert api.status_code == 423 and api.json()["error"] == "console_locked"
    assert tab.get(reverse("reports:dashboard")).status_code == 423

    # when the dealer unlocks with their PIN in the new tab, every tab is open again
    answer = tab.post(UNLOCK, {"username": "dealer", "secret": "2580"})
    assert answer.status_code == 200 and answer.json()["user"] == "dealer"
    assert at_table.get(screen(session)).status_code == 200
    assert tab.get(reverse("console:history", args=[session.pk]), **HX).status_code == 200
    lock, unlock = AuditEvent.objects.filter(
        action__in=["console.lock", "console.unlock"]
    ).order_by("pk")
    assert (lock.action, lock.after, lock.user) == (
        "console.lock",
        {"reason": "idle"},
        floor.dealer,
    )
    assert (unlock.action, unlock.after) == ("console.unlock", {"by": "pin"})


def test_a_second_lock_records_nothing_more(at_table):
    assert at_table.post(LOCK, {"reason": "manual"}).status_code == 204
    assert at_table.post(LOCK, {"reason": "idle"}).status_code == 204
    assert AuditEvent.objects.filter(action="console.lock").count() == 1


def test_a_reload_after_the_idle_minutes_is_locked_without_the_page(at_table, session):
    # given the console was last used longer ago than the idle minutes (the page was closed)
    stale = at_table.session
    stale[SEEN] = time.time() - idle_seconds() - BEAT_SECONDS - 1
    stale.save()

    # then the next request, a reload, is the lock screen
    reload = at_table.get(screen(session))
    assert reload.status_code == 423 and "data-locked" in reload.content.decode()
    event = AuditEvent.objects.get(action="console.lock")
    assert event.after == {"reason": "idle"}
    # and it holds until unlocked
    assert at_table.get(screen(session)).status_code == 423
    assert at_table.post(UNLOCK, {"username": "dealer", "secret": "2580"}).status_code == 200
    assert at_table.get(screen(session)).status_code == 200


def test_the_pages_polls_do_not_keep_an_idle_console_awake_but_its_beat_does(at_table, session):
    # a poll (an htmx GET) is not a person: the idle minutes run on
    before = time.time() - idle_seconds()
    stale = at_table.session
    stale[SEEN] = before
    stale.save()
    assert at_table.get(reverse("console:history", args=[session.pk]), **HX).status_code == 200
    assert at_table.session[SEEN] == before
    # the page's beat (a key or a click on it) is
    assert at_table.post(ACTIVE).status_code == 204
    assert at_table.session[SEEN] > before + 60


# What a PIN opens


def test_an_anonymous_pin_unlock_signs_nobody_in(client, floor):
    # a manager's PIN (stored before PINs were kept to the floor) and a dealer's
    stored_pin(floor.manager, "4826")
    pin_set(user=floor.dealer, member=floor.dealer, pin="2580")
    draft = venue_ruleset_from_preset(
        venue=floor.venue, preset_code="vn-kr-004", editor=staff("editor", MANAGER, floor.venue)
    )
    for username, pin in (("floor-manager", "4826"), ("dealer", "2580")):
        answer = client.post(UNLOCK, {"username": username, "secret": pin})
        assert answer.status_code == 403
        assert SESSION_KEY not in client.session
    assert "sign in with your password" in answer.json()["error"]

    # nothing of the admin opens, and no draft is approved
    admin = client.get(reverse("admin:index"))
    assert admin.status_code == 302 and "/admin/login/" in admin["Location"]
    approve = reverse("admin:niuniu_niuniurulesetversion_approve", args=[draft.pk])
    client.post(approve, {"content_hash": "x"})
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT and draft.approved_by is None


def test_a_managers_pin_opens_nothing_and_a_manager_gets_no_new_one(at_table, floor):
    stored_pin(floor.manager, "4826")
    at_table.post(LOCK, {"reason": "manual"})
    answer = at_table.post(UNLOCK, {"username": "floor-manager", "secret": "4826"})
    assert answer.status_code == 403
    assert "A PIN is for dealers and supervisors only" in answer.json()["error"]
    assert at_table.session[SESSION_KEY] == str(floor.dealer.pk)  # still the dealer's, locked
    assert at_table.get(reverse("console:home")).status_code == 423
    assert not AuditEvent.objects.filter(action="console.takeover").exists()

    with pytest.raises(Forbidden) as refused:
        pin_set(user=floor.manager, member=floor.manager, pin="4826")
    assert refused.value.reason == "password_only"
    # a dealer who also holds a manager's role somewhere keeps their password too
    dual = staff("dual", DEALER, floor.venue)
    pin_set(user=dual, member=dual, pin="1470")
    grant(dual, floor.other_venue, MANAGER)
    at_table.post(LOCK, {"reason": "manual"})
    assert at_table.post(UNLOCK, {"username": "dual", "secret": "1470"}).status_code == 403


def test_a_pin_opens_the_console_only_and_a_password_makes_the_login_whole(at_table, floor):
    # given the supervisor (admin and reports by password) takes the console over with a PIN
    pin_set(user=floor.supervisor, member=floor.supervisor, pin="7391")
    at_table.post(LOCK, {"reason": "manual"})
    answer = at_table.post(UNLOCK, {"username": "supervisor", "secret": "7391"})
    assert answer.status_code == 200 and answer.json()["user"] == "supervisor"

    # then the console opens, and nothing else does: each asks for a password login
    home = at_table.get(reverse("console:home"))
    assert home.status_code == 200
    assert 'href="/admin/"' not in home.content.decode()  # the bar offers neither
    admin = at_table.get(reverse("admin:index"))
    assert admin.status_code == 302 and "/admin/login/" in admin["Location"]
    assert at_table.get(reverse("admin:venues_table_changelist")).status_code == 302
    reports = at_table.get(reverse("reports:dashboard"))
    assert reports.status_code == 302 and reports["Location"].startswith(settings.LOGIN_URL)
    assert at_table.get("/api/v1/auth/me/").status_code in (401, 403)
    login_page = at_table.get(settings.LOGIN_URL)
    assert login_page.status_code == 200  # not sent back to the console: it asks

    # when they sign in with their password, the admin opens
    signed = at_table.post(
        settings.LOGIN_URL, {"username": "supervisor", "password": "pw-for-tests"}
    )
    assert signed.status_code == 302
    assert at_table.get(reverse("admin:index")).status_code == 200


# A takeover at a table is a relief


def test_a_takeover_puts_the_relief_on_duty_and_credits_them_the_rounds(
    at_table, floor, session, dealer2
):
    first = deal(session, floor.dealer, "r1")
    at_table.post(LOCK, {"reason": "manual"})

    answer = at_table.post(UNLOCK, {"username": "dealer2", "secret": "7391"})
    assert answer.status_code == 200
    assert answer.json() | {"csrf": ""} == {
        "user": "dealer2",
        "on_duty": "Dealer on duty: dealer2",
        "csrf": "",
    }
    session.refresh_from_db()
    assert session.dealer == dealer2
    spells = list(DealerSpell.objects.filter(session=session).order_by("started_at", "pk"))
    assert [(s.dealer, s.ended_reason, s.relieved_by, s.recorded_by) for s in spells] == [
        (floor.dealer, DealerSpell.End.BREAK, dealer2, floor.dealer),
        (dealer2, "", None, dealer2),
    ]
    relief = AuditEvent.objects.get(action="session.relieve")
    assert relief.user == dealer2 and relief.after["by"] == "console"
    takeover = AuditEvent.objects.get(action="console.takeover")
    assert takeover.after == {"user": "dealer2", "by": "pin", "session": session.pk}

    # the screen names the relief, and the next round is theirs
    assert "Dealer on duty: dealer2" in at_table.get(screen(session)).content.decode()
    second = deal(session, dealer2, "r2")
    assert (first.dealer, second.dealer) == (floor.dealer, dealer2)


def test_a_takeover_by_password_is_a_relief_too(at_table, floor, session, dealer2):
    at_table.post(LOCK, {"reason": "manual"})
    answer = at_table.post(UNLOCK, {"username": "dealer2", "secret": "pw-for-tests"})
    assert answer.status_code == 200 and answer.json()["on_duty"] == "Dealer on duty: dealer2"
    session.refresh_from_db()
    assert session.dealer == dealer2
    # a password's login is whole
    assert at_table.get(reverse("console:pin")).status_code == 200


def test_a_takeover_the_table_refuses_leaves_the_console_to_its_dealer(
    at_table, floor, session, dealer2
):
    # given a round dealt and not settled: it is the dealer's to finish
    round_create(
        session=session,
        user=floor.dealer,
        dealer_cards=NIU_8,
        boxes=[BoxInput(position=1, cards=NIU_9, stakes={"single": D("100000")})],
    )
    at_table.post(LOCK, {"reason": "manual"})
    answer = at_table.post(UNLOCK, {"username": "dealer2", "secret": "7391"})
    assert answer.status_code == 409 and "is dealt and not settled" in answer.json()["error"]
    session.refresh_from_db()
    assert session.dealer == floor.dealer
    assert at_table.session[SESSION_KEY] == str(floor.dealer.pk)
    assert at_table.get(screen(session)).status_code == 423  # still locked
    assert not AuditEvent.objects.filter(action__in=["console.takeover", "session.relieve"])
