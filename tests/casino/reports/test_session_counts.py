"""The shift report's sessions: who counted and who confirmed each count, and an opener's
difference from the table's inventory with its reason."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.template.loader import render_to_string

from casino.floor.services.closing import session_close
from casino.floor.services.sessions import session_open
from casino.reports.columns import SESSION_COLUMNS
from casino.reports.listings import section_sessions
from casino.reports.outputs import present

pytestmark = pytest.mark.django_db


def test_the_sessions_show_the_opening_difference_and_both_people_of_each_count(floor):
    # given a table closed with 50 x 100,000, opened again one chip short, with a reason
    first = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    session_close(
        session=first,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor2,
        closing_chips={"100000": 50},
    )
    second = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 49},
        discrepancy_reason="a chip taken to the cage",
    )
    # when the shift's sessions are listed
    listed = section_sessions(first.shift)
    lines = {line["session"]: line for line in listed["sessions"]}
    # then
    assert (lines[first.pk]["opening_difference"], lines[first.pk]["opening_reason"]) == (None, "")
    assert (lines[first.pk]["closing_counted_by"], lines[first.pk]["closed_by"]) == (
        "dealer",
        "supervisor2",
    )
    again = lines[second.pk]
    assert (again["opened_by"], again["opening_confirmed_by"]) == ("dealer", "supervisor")
    assert again["opening_difference"] == D("-100000")
    assert again["opening_difference_chips"] == [{"denomination": D("100000"), "chips": -1}]
    assert again["opening_reason"] == "a chip taken to the cage"
    assert ("opening_difference", "Opening difference") in SESSION_COLUMNS
    # and the report's page shows them
    shown = present({"count": listed, "shift": {"currency": "VND", "grouping": "comma"}})
    html = render_to_string("reports/sections.html#count", {"f": shown})
    assert '<th scope="col">Opening difference</th>' in html
    assert "-100,000</span>: -1 × 100,000" in html
    assert "Reason: “a chip taken to the cage”" in html
    assert "Opener: dealer · supervisor" in html and "Closer: dealer · supervisor2" in html
