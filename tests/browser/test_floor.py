"""In the browser: a supervisor's floor view follows the pit live. While the page polls,
a round is dealt and settled at one of its tables (through the services, as another
terminal would) and the table's card shows it without a reload."""

from __future__ import annotations

import pytest

from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.venues.services.pits import pit_create
from tests.browser.conftest import shot
from tests.casino.services.test_rounds import NIU_9, box, deal

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_floor_view_shows_a_round_settled_elsewhere_without_a_reload(person, floor):
    from playwright.sync_api import expect

    floor.venue.language = "en"
    floor.venue.save()
    pit = pit_create(
        user=floor.manager,
        venue=floor.venue,
        code="P1",
        name="Main pit",
        supervisors=[floor.supervisor],
        tables=[floor.table],
    )
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    page = person("supervisor")
    page.get_by_role("link", name="Floor view of my pits").click()
    page.get_by_role("link", name="Main pit").click()
    card = page.get_by_role("article", name="Table NN1")
    expect(card.locator("[data-rounds]")).to_have_text("0")
    page.evaluate("window.__floorMark = 'still this page'")

    round_, _result = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_settle(round_=round_, user=floor.dealer, key="browser-1")

    expect(card.locator("[data-rounds]")).to_have_text("1", timeout=15_000)
    expect(card.locator("[data-win]")).to_have_text("-95,000")
    assert page.evaluate("window.__floorMark") == "still this page", "the page reloaded"
    assert page.url.endswith(f"/console/pits/{pit.pk}/")
    shot(page, "floor-view")
