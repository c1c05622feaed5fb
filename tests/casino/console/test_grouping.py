"""Every page of the floor writes and reads amounts as the venue does: ``1.000.000`` where
the venue groups with points, ``1,000,000`` where it groups with commas, and the services'
refusals name amounts the same way."""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.cage.services.slips import slip_request
from casino.floor.console.forms import read_chips
from casino.floor.models import Round, TableSession
from casino.floor.services.closing import session_close
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import drop_record, session_open
from casino.games import BoxInput
from casino.kernel.errors import InvalidInput
from tests.niuniu.test_console import NIU_9, preview_then_confirm, round_data

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
GROUPINGS = [("dot", "1.000.000"), ("comma", "1,000,000")]
SIGN = {"supervisor": "supervisor", "password": "pw-for-tests"}


@pytest.fixture
def grouped(floor, request):
    """The floor with its venue writing amounts in the grouping the test is given."""
    floor.venue.amount_grouping = request.param
    floor.venue.save(update_fields=["amount_grouping"])
    return floor


@pytest.fixture
def session(floor):
    return session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"1000000": 5},
    )


def signed_in(client, user):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def url(name, session, *args):
    return reverse(f"console:{name}", args=[session.pk, *args])


def dot(floor):
    floor.venue.amount_grouping = "dot"
    floor.venue.save(update_fields=["amount_grouping"])


@pytest.mark.parametrize(("grouped", "million"), GROUPINGS, indirect=["grouped"])
def test_the_slips_page_writes_amounts_as_the_venue_does(client, grouped, session, million):
    slip_request(session=session, user=grouped.dealer, kind="fill", chips={"100000": 10})
    page = signed_in(client, grouped.dealer).get(url("slips", session)).content.decode()
    row = re.search(r'<table class="slip-table".*?</table>', page, re.S).group(0)
    assert million in row
    assert f'data-grouping="{grouped.venue.amount_grouping}"' in page
    asked = client.post(
        url("slips", session), {"kind": "credit", "chips-1000000": "2", "seen": "1"}, **HX
    )
    assert asked.status_code == 200
    assert f"requested for {million.replace('1', '2', 1)}." in asked.content.decode()


@pytest.mark.parametrize(("grouped", "million"), GROUPINGS, indirect=["grouped"])
def test_closing_and_its_summary_write_amounts_as_the_venue_does(client, grouped, session, million):
    drop_record(session=session, user=grouped.supervisor, amount=D("1000000"))
    page = signed_in(client, grouped.dealer).get(url("close", session)).content.decode()
    five = million.replace("1", "5", 1)
    assert f"Opener</dt><dd>{five}</dd>" in page
    assert f"Drop entered</dt><dd>{million}</dd>" in page
    # The drop is cash in the box: no part of the chips the tray should hold.
    assert f'Tray expected</dt><dd data-figure="tray_expected">{five}</dd>' in page
    assert f'<td class="num">+{million}</td>' in page  # the drop in its list
    session_close(
        session=session,
        counted_by=grouped.dealer,
        confirmed_by=grouped.supervisor,
        closing_chips={"1000000": 4},
    )
    summary = client.get(url("round", session)).content.decode()
    assert f"Opening count</dt><dd>{five}</dd>" in summary
    assert f"Closing count</dt><dd>{million.replace('1', '4', 1)}</dd>" in summary
    assert f"Drop</dt><dd>{million}</dd>" in summary


def test_the_drop_is_typed_in_the_venues_grouping(client, floor, session):
    dot(floor)
    signed_in(client, floor.dealer)
    count = {"chips-1000000": "3", "chips-100000": "5", **SIGN}  # 3.500.000
    refused = client.post(url("close", session), {**count, "drop": "1,500,000"}, **HX)
    html = refused.content.decode()
    assert refused.status_code == 422
    assert "“1,500,000” is not an amount: write 100.000 or 100000, without decimals" in html
    assert 'name="chips-1000000" value="3"' in html  # the count typed is kept
    assert TableSession.objects.get().status == TableSession.Status.OPEN
    done = client.post(url("close", session), {**count, "drop": "1.500.000"}, **HX)
    assert done.headers["HX-Redirect"] == url("round", session)
    session.refresh_from_db()
    assert (session.status, session.drop_total, session.variance) == ("closed", D("1500000"), 0)
    summary = client.get(url("round", session)).content.decode()
    assert "Drop</dt><dd>1.500.000</dd>" in summary


def test_a_refused_close_shows_the_variance_of_a_dot_grouped_drop(client, floor, session):
    dot(floor)
    signed_in(client, floor.dealer)
    count = {"chips-1000000": "3", "drop": "1.000.000", "supervisor": "supervisor"}
    refused = client.post(url("close", session), {**count, "password": "x"}, **HX)
    assert refused.status_code == 422
    html = refused.content.decode()
    assert re.search(r"data-variance>\s*-1.000.000</td>", html)
    # the tray against the tray expected: the drop typed is the box's cash, not the tray's
    assert re.search(r"data-tray-difference>\s*-2.000.000</td>", html)


@pytest.mark.parametrize(("grouped", "million"), GROUPINGS, indirect=["grouped"])
def test_the_pit_and_the_watch_page_write_the_house_as_the_venue_does(
    client, grouped, session, million
):
    signed_in(client, grouped.dealer)
    stake = million.replace("1", "2", 1)
    preview_then_confirm(client, session, round_data(box1=(NIU_9, {"single": stake})))
    house = Round.objects.get().house_net
    shown = f"{house:+,.0f}"
    if grouped.venue.amount_grouping == "dot":
        shown = shown.replace(",", ".")
    pit = signed_in(client, grouped.supervisor).get(reverse("console:home")).content.decode()
    row = re.search(rf'<tr id="pit-session-{session.pk}">.*?</tr>', pit, re.S).group(0)
    assert shown in row
    watch = client.get(url("watch", session)).content.decode()
    assert "House so far</dt><dd class=" in watch and shown in watch


def test_a_stake_refused_by_the_service_names_the_limits_as_the_venue_does(floor, session):
    dot(floor)
    box = BoxInput(position=1, cards="ks qs 5h 4h 10c", stakes={"single": D("20000000")})
    with pytest.raises(InvalidInput) as refused:
        round_create(session=session, user=floor.dealer, dealer_cards="js qh jd ac 7h", boxes=[box])
    assert "the stake 20.000.000 is above the table maximum of 10.000.000" in str(
        refused.value.message
    )


def test_a_variance_refused_without_a_reason_is_written_as_the_venue_does(floor, session):
    dot(floor)
    with pytest.raises(InvalidInput) as refused:
        session_close(
            session=session,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            closing_chips={"100000": 45},
        )
    assert "the count is -500.000 off the ledger" in str(refused.value.message)


def test_a_session_total_past_its_limit_is_written_as_the_venue_does(floor, session):
    dot(floor)
    drop_record(session=session, user=floor.supervisor, amount=D("1"))
    with pytest.raises(InvalidInput) as refused:
        drop_record(session=session, user=floor.supervisor, amount=D("999999999999999"))
    message = str(refused.value.message)
    assert "with 999.999.999.999.999 the drop of this session would come to" in message
    assert "stays below 1.000.000.000.000.000" in message


@pytest.mark.parametrize(("grouped", "million"), GROUPINGS, indirect=["grouped"])
def test_the_admins_records_write_amounts_as_the_venue_does(client, grouped, session, million):
    slip_request(session=session, user=grouped.dealer, kind="fill", chips={"100000": 10})
    drop_record(session=session, user=grouped.supervisor, amount=D("1000000"))
    client.force_login(grouped.supervisor)
    slips = client.get("/admin/cage/slip/").content.decode()
    assert f'<td class="field-amount_shown">{million}</td>' in slips
    ledger = client.get("/admin/ledger/ledgerentry/").content.decode()
    amounts = re.findall(r'<td class="field-amount_shown">([^<]*)</td>', ledger)
    assert sorted(amounts) == [f"+{million}", f"-{million}"]  # the drop's two entries


def test_a_chip_count_is_grouped_as_the_venue_groups_amounts():
    denominations = ["1000", "100"]
    data = {"chips-1000": "1.200", "chips-100": "12,5"}
    chips, errors = read_chips(data, denominations, grouping="dot")
    assert chips == {"1000": 1200}
    assert errors == {"chips-100": "Count the chips as a whole number, 0 or more"}
    assert read_chips({"chips-1000": "1,200"}, denominations) == ({"1000": 1200}, {})
    _chips, errors = read_chips({"chips-1000": "100.000"}, denominations, grouping="dot")
    assert errors == {"chips-1000": "At most 99.999 chips of one value"}
