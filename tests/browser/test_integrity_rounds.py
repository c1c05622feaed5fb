"""In the browser: from an integrity result's evidence, "Rounds involved" opens the rounds
it counted, a table named by its caption with each round's cards drawn as the console
draws them."""

from __future__ import annotations

import pytest

from casino.integrity.runs import integrity_run
from tests.browser.conftest import shot
from tests.casino.reports.test_integrity_rounds_views import settled

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_evidence_leads_to_the_rounds_counted(person, floor, session):
    floor.venue.language = "en"
    floor.venue.save()
    for key in ("r1", "r2", "r3"):
        settled(session, floor.dealer, key)
    date = session.shift.gaming_date
    integrity_run(venue=floor.venue, date_from=date, date_to=date)

    manager = person("floor-manager")
    # The dealers' results: the chart's (the first in order) names its session and links on.
    manager.goto(f"/reports/integrity/?venue={floor.venue.code}&scope=dealer")
    assert (
        f"{floor.table.code} {date.isoformat()}"
        in manager.locator(".integrity-evidence").inner_text()
    )
    manager.get_by_role("link", name="Rounds involved").click()
    rounds = manager.get_by_role("table", name=f": {floor.dealer.username}, 3 rounds")
    rounds.wait_for()
    rows = rounds.locator(":scope > tbody > tr")
    assert rows.count() == 3
    assert rows.first.get_by_role("rowheader").inner_text() == "3"
    # The cards are drawn with their suits, as on the console.
    first_card = rows.first.locator(".card").first
    assert first_card.locator("svg use").get_attribute("href").startswith("#suit-")
    assert manager.locator("#suit-S").count() == 1
    assert first_card.bounding_box()["width"] > 10
    shot(manager, "integrity-rounds")
