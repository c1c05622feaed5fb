"""A report's wide table on a tablet: it scrolls in its own box, never the page, and its
column headings stay in view while its rows scroll under them (the box is where they
stick: static/css/reports.css). The shift report and the periods page, on the demo's
Hà Nội floor, in a window shorter than the tables.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from casino.management.commands.demo import password_of
from casino.reports.models import ShiftReport
from tests.browser.conftest import BROWSER_TIMEOUT_MS, second_factor_step
from tests.maubinh.conftest import TEST_DEALS
from tests.second_factor import code_for

pytestmark = pytest.mark.django_db(transaction=True)

#: A tablet's width, and a window shorter than the report's longest tables.
TABLET = {"width": 768, "height": 420}

#: Where a table's headings are against its box and the window: the heading over the box's
#: middle (a table scrolled sideways has moved its first ones out of sight), and what a
#: reader sees at that heading's middle.
HEADINGS = """(box) => {
    const b = box.getBoundingClientRect();
    const middle = b.left + b.width / 2;
    const heading = [...box.querySelectorAll('table.figures thead th')].find((th) => {
        const r = th.getBoundingClientRect();
        return r.left <= middle && r.right >= middle;
    });
    const h = heading.getBoundingClientRect();
    const seen = document.elementFromPoint(middle, h.top + h.height / 2);
    return {
        top: box.scrollTop, left: box.scrollLeft,
        tall: box.scrollHeight > box.clientHeight + 1,
        wide: box.scrollWidth > box.clientWidth + 1,
        offset: Math.round(h.top - b.top),
        // within a pixel: a box at a fractional place scrolls to a whole one
        inWindow: h.top >= -1 && h.bottom <= window.innerHeight + 1,
        heading: [Math.round(h.top), Math.round(h.bottom), window.innerHeight],
        seen: Boolean(seen && seen.closest('thead')),
        pageScrollsSideways: document.documentElement.scrollWidth
            > document.documentElement.clientWidth + 1,
    };
}"""


#: Resolves once the box and the page have stopped scrolling (the same offsets three frames
#: running): a wheel scrolls over several frames.
SETTLED = """(box) => new Promise((done) => {
    let last = null, same = 0;
    const frame = () => {
        const now = [box.scrollTop, box.scrollLeft, window.scrollY, window.scrollX].join();
        same = now === last ? same + 1 : 0;
        last = now;
        if (same >= 3) done(now); else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
})"""


@pytest.fixture
def manager(browser, live_server, settings):
    """The demo's floor, and its manager signed in on a tablet, reading English."""
    settings.MAUBINH_HOUSE_TAKE_DEALS = TEST_DEALS
    call_command("demo", "--rounds", "12", stdout=io.StringIO())
    context = browser.new_context(viewport=TABLET, base_url=live_server.url)
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("manager")
    page.get_by_label("Password").fill(password_of("manager"))
    code = code_for("manager")
    page.get_by_role("button", name="Log in").click()
    second_factor_step(page, code)
    page.wait_for_url(lambda address: "/accounts/login/" not in address)
    yield page
    context.close()


def scroll_rows_under_the_headings(page, box) -> dict:
    """Bring the box into view and turn the wheel over its rows, down then sideways, as a
    reader scrolls a table; where the headings then are."""
    box.evaluate("(box) => box.scrollIntoView({block: 'start'})")
    first = box.evaluate(HEADINGS)
    assert first["tall"], f"the window is not shorter than the table: {first}"
    middle = box.bounding_box()
    page.mouse.move(middle["x"] + middle["width"] / 2, middle["y"] + middle["height"] * 0.75)
    page.mouse.wheel(0, 400)
    if first["wide"]:
        page.mouse.wheel(240, 0)
    page.wait_for_function("(box) => box.scrollTop > 0", arg=box.element_handle())
    box.evaluate(SETTLED)
    return {"before": first, "after": box.evaluate(HEADINGS)}


def assert_headings_in_view(measured: dict) -> None:
    before, after = measured["before"], measured["after"]
    where = json.dumps(measured)  # whole, where pytest would cut a dict short
    # the rows moved under the headings, past where the headings began (and sideways,
    # where the table is wider than its box)
    assert after["top"] > before["offset"], where
    assert after["left"] > 0 or not before["wide"], where
    # the headings stayed at the top of the box, in the window, not covered by a row
    assert abs(after["offset"]) <= 1, where
    assert after["inWindow"] and after["seen"], where
    assert not after["pageScrollsSideways"], where


def test_the_shift_reports_table_keeps_its_headings_in_view_as_it_scrolls(manager):
    report = ShiftReport.objects.filter(shift__venue__code="hanoi", status="done").first()
    manager.goto(f"/reports/shift/{report.pk}/")
    section = manager.locator("section.report-section").filter(
        has=manager.get_by_role("heading", name="Win by count against win by ledger")
    )
    assert_headings_in_view(scroll_rows_under_the_headings(manager, section))


@pytest.mark.slow
def test_the_periods_table_keeps_its_headings_in_view_as_it_scrolls(manager):
    manager.goto("/reports/periods/?venue=hanoi&dimension=player")
    lines = manager.get_by_role("region", name="By player, beside the previous period")
    assert_headings_in_view(scroll_rows_under_the_headings(manager, lines.locator(".scroll")))
