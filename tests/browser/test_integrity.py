"""In the browser: the integrity page flags a table dealt from a deck missing a card, its
chart and evidence found by their accessible names, one dealer picked by the name the page
lists, and the alert's investigation one link away."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from casino.integrity.runs import integrity_run
from tests.browser.conftest import shot
from tests.casino.integrity.simulated import Manipulation, deal
from tests.casino.integrity.test_runs import open_tables

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_page_flags_a_table_dealt_from_a_deck_missing_a_card(person, floor):
    floor.venue.language = "en"
    floor.venue.save()
    sessions = open_tables(floor, 2)
    deal(sessions[0], 30, seed=31, crooked=Manipulation(missing=("AS",)))
    deal(sessions[1], 30, seed=32)
    date = sessions[0].shift.gaming_date
    run = integrity_run(venue=floor.venue, date_from=date, date_to=date)
    assert run.alerts >= 1
    code = sessions[0].table.code

    manager = person("floor-manager")
    manager.goto(f"/reports/integrity/?venue={floor.venue.code}")
    # The chart of the first alert (the table's cards, or its dealer's: the same cards).
    chart = manager.get_by_role(
        "img", name="Observed against expected, with the 95% band of a fair game"
    )
    chart.wait_for()
    results = manager.get_by_role("table", name="Every test of the run, alerts first")
    flagged = (
        results.get_by_role("row").filter(has_text=f"Table {code}").filter(has_text="Cards dealt")
    )
    flagged.get_by_role("link", name="Alert: investigation").wait_for()
    manager.get_by_role("button", name="Run now").wait_for()
    shot(manager, "integrity-flagged-table")

    # One dealer picked by the name the list shows: only their results are left.
    other = sessions[1].dealer.username
    filters = manager.get_by_role("form", name="Choose the run and the results")
    filters.get_by_label("Dealer", exact=True).select_option(label=other)
    filters.get_by_role("button", name="Show").press("Enter")
    manager.wait_for_url(f"**dealer={sessions[1].dealer_id}**")
    rows = results.get_by_role("row").filter(has_text="Dealer ")
    expect(rows).to_have_count(run.results.filter(dealer=sessions[1].dealer).count())
    for subject in rows.get_by_role("rowheader").all_inner_texts():
        assert subject == f"Dealer {other}"
    expect(filters.get_by_label("Dealer", exact=True)).to_have_value(str(sessions[1].dealer_id))
    manager.go_back()

    link = (
        results.get_by_role("row")
        .filter(has_text=f"Table {code}")
        .filter(has_text="Cards dealt")
        .get_by_role("link", name="Alert: investigation")
    )
    link.click()
    evidence = manager.get_by_role(
        "table",
        name="Observed against expected, with the range a fair game stays in 95% of the time",
    )
    assert "AS (too few)" in evidence.inner_text()


#: Where the results' headings are once their box has scrolled its rows: the heading's top
#: against the box's, and what a reader sees at the heading's middle.
HEADINGS = """(table) => {
    const box = table.closest('.scroll');
    box.scrollIntoView();
    box.scrollTop = 200;
    const heading = table.querySelector('thead th');
    const h = heading.getBoundingClientRect(), b = box.getBoundingClientRect();
    const seen = document.elementFromPoint(h.left + h.width / 2, h.top + h.height / 2);
    return {scrolled: box.scrollTop, offset: Math.round(h.top - b.top),
            seen: Boolean(seen && seen.closest('thead'))};
}"""


def test_a_long_results_table_keeps_its_headings_in_view_as_its_rows_scroll(person, floor):
    floor.venue.language = "en"
    floor.venue.save()
    sessions = open_tables(floor, 2)
    deal(sessions[0], 30, seed=41)
    deal(sessions[1], 30, seed=42)
    date = sessions[0].shift.gaming_date
    integrity_run(venue=floor.venue, date_from=date, date_to=date)

    manager = person("floor-manager")
    manager.set_viewport_size({"width": 768, "height": 600})
    manager.goto(f"/reports/integrity/?venue={floor.venue.code}")
    results = manager.get_by_role("table", name="Every test of the run, alerts first")
    results.wait_for()
    where = results.evaluate(HEADINGS)
    # the rows moved under the headings, which stayed at the top of the box, in sight
    assert where["scrolled"] > 0
    assert abs(where["offset"]) <= 1 and where["seen"], where
