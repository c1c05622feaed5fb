"""A marker issued at a table in the table's figures, as the venue's terms count it
(docs/MARKERS.md, "Drop and win").

Worked by hand: the table opens with 50 chips of 100,000 (5,000,000), issues one marker of
1,000,000 to a member and nothing else happens; it closes with 40 chips (4,000,000).

    in the drop (the default, Nevada's credit drop)
        tray expected = 5,000,000 - 1,000,000 chips sold           = 4,000,000
        at the close:   4,000,000 - 5,000,000 + 0 - 0 + drop 0     = -1,000,000
        the count finds the copy: drop 1,000,000
        counted:        -1,000,000 + 1,000,000                     = 0,   drop 1,000,000
    not in the drop (the cage's credit)
        tray expected = 5,000,000 - 1,000,000 credited             = 4,000,000
        at the close:   4,000,000 - 5,000,000 + 1,000,000 - 0 + 0  = 0,   drop 0
        the count finds cash only (none here): nothing more

A marker issued at the cage is none of the table's figures.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.cage.services.credit_lines import (
    credit_line_approve,
    credit_line_propose,
    marker_terms_set,
)
from casino.cage.services.markers import marker_issue_at_cage, marker_issue_at_table
from casino.count.models import BoxCount, DropBox
from casino.count.selectors import win_figures
from casino.count.services import count_record
from casino.floor.figures import session_counted, tray_expected
from casino.floor.services.closing import session_close, session_figures
from casino.floor.services.sessions import session_open
from casino.staff.roles import CAGE, COUNT
from tests.factories import PlayerFactory, staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(floor, approver):
    """An open table and a member with a credit limit of 10,000,000."""
    floor.member = PlayerFactory(venue=floor.venue, membership_number="CR-9")
    line = credit_line_propose(
        venue=floor.venue, player=floor.member, user=floor.manager, limit="10000000"
    )
    credit_line_approve(line=line, user=approver)
    floor.session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    return floor


def _marker_and_close(floor):
    marker_issue_at_table(
        session=floor.session,
        player=floor.member,
        user=floor.dealer,
        supervisor=floor.supervisor,
        amount=D("1000000"),
        player_signed=True,
    )
    cashier = staff("cashier", CAGE, floor.venue)
    marker_issue_at_cage(
        venue=floor.venue,
        player=floor.member,
        user=cashier,
        supervisor=floor.supervisor,
        amount=D("2000000"),
        player_signed=True,
    )
    figures = session_figures(floor.session)
    expected = tray_expected(opener=floor.session.opening_total, sums=figures)
    assert expected.total == D("4000000")
    return figures, session_close(
        session=floor.session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 40},
        variance_reason="the marker's copy is in the box",
    )


def _count(floor):
    box = DropBox.objects.get(box_sessions__session=floor.session)
    for username in ("counter", "counter2"):
        count_record(box=box, user=staff(username, COUNT, floor.venue))
    return box


def test_in_the_drop_the_count_adds_the_copy(table):
    figures, closed = _marker_and_close(table)
    assert (figures["chips_sold"], figures["credits"]) == (D("1000000"), 0)
    assert (closed.drop_total, closed.win_by_count) == (0, D("-1000000"))

    box = _count(table)
    second = BoxCount.objects.get(box=box, ordinal=2)
    assert second.others == [{"what": "marker M-000001", "amount": "1000000"}]
    assert second.total == D("1000000") and second.difference == 0
    counted = session_counted(closed)
    assert (counted.drop, counted.win_by_count) == (D("1000000"), 0)
    day = win_figures(table.venue, closed.shift.gaming_date)
    assert (day["total"]["drop"], day["total"]["credits"], day["total"]["win"]) == (
        D("1000000"),
        0,
        0,
    )


def test_not_in_the_drop_the_cage_credits_the_table(table):
    marker_terms_set(venue=table.venue, user=table.manager, term_days=30, credit_drop=False)
    figures, closed = _marker_and_close(table)
    assert (figures["chips_sold"], figures["credits"]) == (0, D("1000000"))
    assert (closed.drop_total, closed.credits_total, closed.win_by_count) == (
        0,
        D("1000000"),
        0,
    )

    box = _count(table)
    assert BoxCount.objects.get(box=box, ordinal=2).others == []
    counted = session_counted(closed)
    assert (counted.drop, counted.win_by_count) == (0, 0)
    day = win_figures(table.venue, closed.shift.gaming_date)
    assert (day["total"]["drop"], day["total"]["credits"], day["total"]["win"]) == (
        0,
        D("1000000"),
        0,
    )


def test_the_count_screen_lists_the_copies_it_adds(table, client):
    """The counter sees which marker copies the box holds (and does not type them); a
    marker not in the drop is not listed."""
    from django.urls import reverse

    _marker_and_close(table)
    box = DropBox.objects.get(box_sessions__session=table.session)
    client.force_login(staff("counter", COUNT, table.venue))
    client.cookies["django_language"] = "en"
    url = reverse("console:count-box", args=[table.venue.pk, box.gaming_date.isoformat(), box.pk])
    page = client.get(url).content.decode()
    assert "Marker copies in this box" in page
    assert "M-000001" in page and "1,000,000" in page
    assert "M-000002" not in page  # issued at the cage: none of the table's
