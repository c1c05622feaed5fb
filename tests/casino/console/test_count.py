"""The count's screens: the venues, a day's boxes, a box's two counts (the second showing
its difference and asking why), closing the count, and the win per table."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.count.models import BoxCount, CountDay, DropBox
from casino.floor.services.closing import session_close
from casino.floor.services.sessions import session_open
from casino.ledger.models import Drop
from casino.staff.roles import COUNT
from tests.casino.charts import chart_of
from tests.casino.days import end_gaming_day
from tests.factories import staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def box(floor):
    floor.venue.note_denominations = ["500000", "100000"]
    floor.venue.amount_grouping = "dot"
    floor.venue.save()
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
    )
    return DropBox.objects.get(box_sessions__session=session)


def client_of(client, user):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def urls(box):
    day = box.gaming_date.isoformat()
    return {
        "day": reverse("console:count-day", args=[box.venue_id, day]),
        "box": reverse("console:count-box", args=[box.venue_id, day, box.pk]),
        "close": reverse("console:count-close", args=[box.venue_id, day]),
        "figures": reverse("console:count-figures", args=[box.venue_id, day]),
    }


def test_a_counter_counts_a_box_twice_and_closes_the_day(client, floor, box):
    first, second = staff("counter", COUNT, floor.venue), staff("counter2", COUNT, floor.venue)
    url = urls(box)
    home = client_of(client, first).get(reverse("console:count-home"))
    assert home.status_code == 200
    assert url["day"] in home.content.decode()
    day = client.get(url["day"]).content.decode()
    assert box.label in day and "First count" in day
    form = client.get(url["box"]).content.decode()
    assert 'for="notes-500000"' in form and "Notes of 500.000" in form  # the venue's grouping
    posted = client.post(
        url["box"],
        {
            "notes-500000": "2",
            "chips-10000": "3",
            "other-1-what": "cheque",
            "other-1-amount": "20.000",
        },
    )
    assert posted.status_code == 303 and posted["Location"] == f"{url['day']}?box={box.pk}"
    day = client.get(posted["Location"]).content.decode()
    assert "First count of box" in day and "1.050.000" in day
    # The same counter is not offered the second count.
    assert "another counter makes the second" in day

    client_of(client, second)
    differs = client.post(url["box"], {"notes-500000": "2", "chips-10000": "2"})
    assert differs.status_code == 422
    page = differs.content.decode()
    assert "Difference from the first count" in page and "-1" in page and "-20.000" in page
    assert not BoxCount.objects.filter(ordinal=2).exists()
    posted = client.post(
        url["box"],
        {"notes-500000": "2", "chips-10000": "2", "reason": "a chip and a cheque were missed"},
    )
    assert posted.status_code == 303
    day = client.get(posted["Location"]).content.decode()
    assert "posted as its drop" in day and "Close the count" in day
    assert Drop.objects.get(drop_box=box).amount == D("1020000")
    # The day is still being played: the page says from when its count closes.
    assert "The gaming day is still being played: the count closes once it ends, from" in day

    end_gaming_day(floor.venue, box.gaming_date)
    assert "the count closes once it ends" not in client.get(url["day"]).content.decode()
    # Closing asks first: the confirmation says what it posts, and a second counter signs.
    asked = client.get(url["day"] + "?close=1", headers={"HX-Request": "true"}).content.decode()
    assert "Confirm the close of the count" in asked and "1 box, a drop of 1.020.000" in asked
    assert not CountDay.objects.filter(status="closed").exists()
    alone = client.post(url["close"], {"counter": "counter2", "password": "pw-for-tests"})
    assert alone.status_code == 422  # the closing counter cannot confirm their own close
    assert "another member of the count team confirms it" in alone.content.decode()
    wrong = client.post(url["close"], {"counter": "counter", "password": "nope"})
    assert wrong.status_code == 422 and "Wrong username or password" in wrong.content.decode()
    closed = client.post(
        url["close"],
        {"counter": "counter", "password": "pw-for-tests"},
        headers={"HX-Request": "true"},
    )
    assert closed.status_code == 200
    assert "The count is closed" in closed.content.decode()
    # Every box counted: the count is final, and the page says why and whom to tell.
    assert "The count is final: two counters signed it" in closed.content.decode()
    assert "to a manager of the venue (floor-manager" in closed.content.decode()
    assert CountDay.objects.get().status == "closed"
    event = AuditEvent.objects.get(action="count.close")
    assert (event.user, event.after["confirmed_by"]) == (second, "counter")

    figures = client.get(url["figures"]).content.decode()
    assert "1.020.000" in figures and "Win/drop %" in figures
    # the win per table drawn too, a bar for the one table counted
    svg = chart_of(figures, "count-win-chart")
    assert "Win by count per table" in svg


def test_open_tables_blocking_the_close_are_named_with_who_closes_them(client, floor):
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    client_of(client, staff("counter", COUNT, floor.venue))
    day = session.shift.gaming_date.isoformat()
    page = client.get(reverse("console:count-day", args=[floor.venue.pk, day])).content.decode()
    assert "Tables still open" in page
    assert f"{floor.table.code}, dealt by {floor.dealer.get_username()}" in page
    assert floor.supervisor.get_username() in page.split("Ask a supervisor or manager")[1]
    assert "Close the count" not in page


def test_a_manager_reopens_a_count_closed_before_a_box_was_counted(client, floor, box):
    """Old data: the count closed with a box uncounted. The count's page names the box and
    the managers who reopen; a manager's figures page reopens it, saying why (audited)."""
    CountDay.objects.create(venue=floor.venue, gaming_date=box.gaming_date, status="closed")
    url = urls(box)
    reopen = reverse("console:count-reopen", args=[box.venue_id, box.gaming_date.isoformat()])
    client_of(client, staff("counter", COUNT, floor.venue))
    day = client.get(url["day"]).content.decode()
    assert f"The count was closed before these boxes were counted: {box.label}." in day
    assert "A manager of the venue (floor-manager" in day
    assert "The count is final" not in day
    # the count team reads the figures but does not reopen: the page names who does
    figures = client.get(url["figures"]).content.decode()
    assert "Reopen the count" not in figures
    assert "A manager of the venue (floor-manager" in figures
    assert "Reopen the count" not in client.get(url["figures"] + "?reopen=1").content.decode()
    assert client.post(reopen, {"reason": "box left out"}).status_code == 403

    client_of(client, floor.manager)
    figures = client.get(url["figures"]).content.decode()
    assert "Boxes left out of the closed count" in figures and box.label in figures
    assert "Reopen the count" in figures and "Why the count is reopened" not in figures
    # the button asks for the reason and a confirmation before anything changes
    confirming = client.get(url["figures"] + "?reopen=1").content.decode()
    assert "Confirm the reopening of the count" in confirming
    assert "Why the count is reopened" in confirming
    assert "Confirm and reopen the count" in confirming
    assert CountDay.objects.get().status == "closed"
    unsaid = client.post(reopen, {"reason": " "})
    unsaid_page = unsaid.content.decode()
    assert unsaid.status_code == 422 and "say why the count is reopened" in unsaid_page
    assert "Confirm and reopen the count" in unsaid_page
    assert CountDay.objects.get().status == "closed"
    done = client.post(reopen, {"reason": "the late table's box was left out"})
    assert done.status_code == 200 and "The count is reopened" in done.content.decode()
    assert CountDay.objects.get().status == "open"
    event = AuditEvent.objects.get(action="count.reopen")
    assert (event.user, event.after["boxes"]) == (floor.manager, [box.label])


def test_the_count_is_the_count_teams_and_another_venue_is_not_found(client, floor, box):
    url = urls(box)
    client_of(client, floor.supervisor)
    for name in ("day", "box"):
        assert client.get(url[name]).status_code == 403
    assert client.post(url["close"]).status_code == 403
    assert client.get(url["figures"]).status_code == 200
    client_of(client, floor.dealer)
    assert client.get(url["figures"]).status_code == 403
    outsider = staff("outsider", COUNT, floor.other_venue)
    client_of(client, outsider)
    for name in ("day", "box", "figures"):
        assert client.get(url[name]).status_code == 404
    assert (
        client.get(reverse("console:count-day", args=[floor.venue.pk, "not-a-date"])).status_code
        == 404
    )


def test_a_supervisor_on_the_count_team_is_told_why_not(client, floor, box):
    both = staff("both", COUNT, floor.venue)
    staff("both", "supervisor", floor.venue)
    client_of(client, both)
    day = client.get(urls(box)["day"]).content.decode()
    assert "you do not count their drop boxes" in day
    refused = client.post(urls(box)["box"], {"notes-500000": "1"})
    assert refused.status_code == 403
    assert not BoxCount.objects.exists()


def test_a_bad_count_is_shown_again_with_the_field_marked(client, floor, box):
    client_of(client, staff("counter", COUNT, floor.venue))
    page = client.post(urls(box)["box"], {"notes-500000": "two", "other-1-amount": "5"})
    assert page.status_code == 422
    text = page.content.decode()
    assert 'aria-invalid="true"' in text and "Say what it is" in text
    assert not BoxCount.objects.exists()


def test_a_manager_sets_the_venues_notes_and_drop_in_the_admin(client, floor):
    from tests.casino.test_admin_writes import edit_venue, errors_of

    client.force_login(floor.manager)
    refused = edit_venue(client, floor.venue, note_denominations='["500000", "500000"]')
    assert any("given twice" in message for message in errors_of(refused))
    saved = edit_venue(
        client, floor.venue, note_denominations='["100000", "500000"]', drop_each_close="on"
    )
    assert saved.status_code == 302
    floor.venue.refresh_from_db()
    assert (floor.venue.note_denominations, floor.venue.drop_each_close) == (
        ["500000", "100000"],
        True,
    )
    event = AuditEvent.objects.get(action="venue.update")
    assert event.after["note_denominations"] == "500000, 100000"
    assert event.user == floor.manager


def test_the_count_speaks_the_venues_language(client, floor, box):
    client.force_login(staff("counter", COUNT, floor.venue))  # no language cookie: Vietnamese
    page = client.get(urls(box)["day"]).content.decode()
    assert "Các hộp tiền ngày" in page and "Lần đếm thứ nhất" in page
