"""The cage's screen of the day's unknown patrons (casino.cage.views.patrons): the cage
records one from a description, the list shows each with their cash of the day as the cash
log counts it, and a supervisor links one to a member by membership number, through the
link service (audited; the member's day judged again: an alert where the patron's cash
takes the member over the reporting threshold), on the screen and on the patron's admin
page, which changes nothing else. Who may not is refused, with why.

The day (logging threshold 30,000,000, reporting 100,000,000, tests/casino/services/
conftest.py): a patron nobody knows buys in 60,000,000 at NN1 and cashes out 5,000,000;
member M-10 buys in 50,000,000 at NN2.
"""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino.audit.models import AuditAction, AuditEvent
from casino.cage.cash_log import Source
from casino.cage.models import CashAlert, UnknownPatron
from casino.cage.patron_selectors import patrons_of_day
from casino.cage.services.cash import cash_record
from casino.cage.services.patrons import unknown_patron_create
from casino.floor.services.sessions import session_open
from casino.staff.roles import COUNT
from tests.factories import PlayerFactory, niuniu_table, staff

pytestmark = pytest.mark.django_db

M = D("1000000")


def _client(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def day(floor, thresholds):
    """The patron's and the member's cash at two tables, each under the reporting
    threshold."""
    nn1, nn2 = (
        session_open(
            table=table, counted_by=floor.dealer, confirmed_by=floor.supervisor, opening_chips={}
        )
        for table in (floor.table, niuniu_table(floor.venue, code="NN2"))
    )
    bought = cash_record(
        session=nn1, user=floor.dealer, amount=60 * M, patron_description="a man, grey coat"
    )
    patron = bought.unknown_patron
    cash_record(
        session=nn1, user=floor.dealer, amount=5 * M, kind="cash_out", unknown_patron=patron
    )
    member = PlayerFactory(
        venue=floor.venue, membership_number="M-10", name="Le Thi B", id_document_number="C78"
    )
    cash_record(session=nn2, user=floor.dealer, player=member, amount=50 * M)
    assert not CashAlert.objects.exists()
    return patron, member


def _page(floor, user):
    return _client(user).get(reverse("console:cage-unknown-patrons", args=[floor.venue.pk]))


def _link(floor, user, patron, member):
    url = reverse("console:cage-unknown-patron-link", args=[floor.venue.pk, patron.pk])
    return _client(user).post(url, {"member": member})


def test_the_list_shows_each_patron_with_the_days_cash_of_the_log(floor, day, cashier):
    patron, _member = day
    answer = _page(floor, cashier)
    assert answer.status_code == 200
    page = answer.content.decode()
    row = re.search(rf'<tr id="unknown-patron-{patron.pk}">(.*?)</tr>', page, re.S).group(1)
    assert patron.code in row and "a man, grey coat" in row and "dealer" in row
    # in 60,000,000, out 5,000,000: the cash log's rows of the patron
    assert re.findall(r'<td class="num">([^<]*)</td>', row) == ["60,000,000", "5,000,000"]
    # the cashier records, but a supervisor or a manager links
    assert "Record an unknown patron" in page
    assert "Link to the member" not in page
    assert "A supervisor or a manager links an unknown patron to a member." in page


def test_every_control_has_a_label(floor, day):
    page = _page(floor, floor.supervisor).content.decode()
    page = page[page.index('<section id="unknown-patrons">') :]
    controls = re.findall(
        r'<(?:input|select|textarea)(?![^>]*type="hidden")[^>]*\bid="([^"]+)"', page
    )
    assert f"unknown-patron-member-{day[0].pk}" in controls
    assert "unknown-patron-description" in controls
    for control in controls:
        assert f'<label for="{control}"' in page, control


def test_the_cage_records_an_unknown_patron(floor, day, cashier):
    url = reverse("console:cage-unknown-patron-record", args=[floor.venue.pk])
    answer = _client(cashier).post(url, {"description": "a woman about 30, red scarf"})
    assert answer.status_code == 200, answer.content.decode()[:1000]
    patron = UnknownPatron.objects.get(description="a woman about 30, red scarf")
    assert (patron.created_by, patron.number) == (cashier, 2)
    page = answer.content.decode()
    assert f"Recorded as {patron.code}" in page and f'id="unknown-patron-{patron.pk}"' in page
    event = AuditEvent.objects.get(action=AuditAction.CASH_UNKNOWN_PATRON, object_id=str(patron.pk))
    assert event.user == cashier
    # with no description, nothing is recorded and the form says what to give
    empty = _client(cashier).post(url, {"description": "  "})
    assert empty.status_code == 422
    assert "Describe the patron" in empty.content.decode()
    assert UnknownPatron.objects.count() == 2


def test_a_supervisor_links_a_patron_and_the_member_reaches_the_threshold(floor, day):
    patron, member = day
    answer = _link(floor, floor.supervisor, patron, "m-10")
    assert answer.status_code == 200, answer.content.decode()[:1000]
    assert f"{patron.code} is member M-10" in answer.content.decode()
    patron.refresh_from_db()
    assert (patron.member, patron.linked_by) == (member, floor.supervisor)
    assert AuditEvent.objects.filter(
        action=AuditAction.CASH_UNKNOWN_PATRON_LINK, object_id=str(patron.pk), user=floor.supervisor
    ).exists()
    # 60,000,000 + 50,000,000 in: the member's alert, raised by the link
    alert = CashAlert.objects.get()
    assert (alert.player, alert.total, alert.direction) == (member, 110 * M, "buy_in")
    assert (alert.source, alert.source_id) == (Source.PATRON_LINK, patron.pk)
    # the list says whom they are now; the same member again changes nothing
    page = _page(floor, floor.supervisor).content.decode()
    assert "M-10 Le Thi B" in page and "linked by supervisor" in page
    again = _link(floor, floor.manager, patron, "M-10")
    assert again.status_code == 200
    assert f"{patron.code} is already linked to member M-10." in again.content.decode()
    assert CashAlert.objects.count() == 1


def test_a_link_to_nobody_or_another_member_is_refused_with_why(floor, day):
    patron, member = day
    nobody = _link(floor, floor.supervisor, patron, "NOPE-1")
    assert nobody.status_code == 422
    assert "No player with membership number NOPE-1 at this venue." in nobody.content.decode()
    elsewhere = PlayerFactory(venue=floor.other_venue, membership_number="SE-1")
    abroad = _link(floor, floor.supervisor, patron, elsewhere.membership_number)
    assert abroad.status_code == 422
    assert "No player with membership number SE-1 at this venue." in abroad.content.decode()
    empty = _link(floor, floor.supervisor, patron, " ")
    assert "Give the member&#x27;s membership number." in empty.content.decode()
    patron.refresh_from_db()
    assert patron.member is None
    _link(floor, floor.supervisor, patron, "M-10")
    other = PlayerFactory(venue=floor.venue, membership_number="M-11")
    taken = _link(floor, floor.manager, patron, other.membership_number)
    assert taken.status_code == 422
    assert f"{patron.code} is already linked to another member." in taken.content.decode(), (
        re.findall(r'class="error"[^>]*>([^<]*)<', taken.content.decode())
    )
    patron.refresh_from_db()
    assert patron.member == member


def test_who_may_not_is_refused_and_nothing_is_written(floor, day, cashier):
    patron, _member = day
    counter = staff("counter", COUNT, floor.venue)
    for user in (floor.dealer, counter):
        assert _page(floor, user).status_code == 403
    record = reverse("console:cage-unknown-patron-record", args=[floor.venue.pk])
    for user in (floor.dealer, floor.auditor, counter):
        refused = _client(user).post(record, {"description": "a man in a hat"})
        assert refused.status_code == 403
    assert "a dealer records one at the table" in refused.content.decode()
    for user in (cashier, floor.dealer, floor.auditor):
        refused = _link(floor, user, patron, "M-10")
        assert refused.status_code == 403
    assert "Only a supervisor or a manager links" in refused.content.decode()
    # another venue's patron is not found
    abroad = unknown_patron_create(
        venue=floor.other_venue, user=floor.other_supervisor, description="a man abroad"
    )
    assert _link(floor, floor.supervisor, abroad, "M-10").status_code == 404
    patron.refresh_from_db()
    assert patron.member is None and UnknownPatron.objects.count() == 2
    assert not CashAlert.objects.exists()


def test_the_admin_shows_a_patron_and_a_supervisor_links_them_there(floor, day):
    patron, member = day
    page_url = reverse("admin:cage_unknownpatron_change", args=[patron.pk])
    link_url = reverse("admin:cage_unknownpatron_link", args=[patron.pk])
    supervisor, auditor = _client(floor.supervisor), _client(floor.auditor)
    page = supervisor.get(page_url).content.decode()
    assert patron.code in page and link_url in page
    assert '<label for="unknown-patron-member">Membership number of' in page
    # read only: no field is editable, nothing is saved by the change form
    assert 'name="description"' not in page
    # an auditor reads it, with no link
    read = auditor.get(page_url)
    assert read.status_code == 200 and link_url not in read.content.decode()
    assert auditor.post(link_url, {"member": "M-10"}).status_code == 403
    nobody = supervisor.post(link_url, {"member": "NOPE-1"}, follow=True)
    assert "No player with membership number NOPE-1 at this venue." in nobody.content.decode()
    linked = supervisor.post(link_url, {"member": "M-10"})
    assert (linked.status_code, linked["Location"]) == (302, page_url)
    patron.refresh_from_db()
    assert (patron.member, patron.linked_by) == (member, floor.supervisor)
    alert = CashAlert.objects.get()
    assert (alert.player, alert.total, alert.source) == (member, 110 * M, Source.PATRON_LINK)
    assert link_url not in supervisor.get(page_url).content.decode()


def test_the_admin_changes_nothing_but_through_the_link(floor, day):
    patron, _member = day
    client = _client(floor.manager)
    change = reverse("admin:cage_unknownpatron_change", args=[patron.pk])
    client.post(change, {"description": "edited", "member": ""})
    assert client.get(reverse("admin:cage_unknownpatron_add")).status_code == 403
    delete = reverse("admin:cage_unknownpatron_delete", args=[patron.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    patron.refresh_from_db()
    assert patron.description == "a man, grey coat" and patron.member is None


def test_the_list_reads_the_log_once_however_many_patrons(floor, day, cashier):
    patron, _member = day
    with CaptureQueriesContext(connection) as one:
        assert len(patrons_of_day(venue=floor.venue, gaming_date=patron.gaming_date)) == 1
    for n in range(3):
        unknown_patron_create(venue=floor.venue, user=cashier, description=f"patron {n}")
    with CaptureQueriesContext(connection) as four:
        rows = patrons_of_day(venue=floor.venue, gaming_date=patron.gaming_date)
    assert [row.patron.number for row in rows] == [1, 2, 3, 4]
    assert [row.cash_in for row in rows] == [60 * M, 0, 0, 0]
    assert len(four.captured_queries) == len(one.captured_queries)
