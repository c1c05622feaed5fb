"""In the browser: two tabs on one table preview the same deal; the first Confirm records
it, the second is refused with the reason, and the table has one round."""

from __future__ import annotations

import pytest

from casino.floor.models import Round
from tests.browser.conftest import log_in, shot
from tests.browser.test_round_screen import a_round_typed, open_session

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_second_tabs_confirm_of_a_deal_already_recorded_is_refused_with_the_reason(page, floor):
    # The deal as the round screen's tests type it: amounts written 1.000.000.
    floor.venue.language, floor.venue.amount_grouping = "en", "dot"
    floor.venue.save(update_fields=["language", "amount_grouping"])
    session = open_session(floor)
    log_in(page, "dealer")
    other = page.context.new_page()
    for tab in (page, other):
        tab.goto(f"/console/sessions/{session.pk}/")
        a_round_typed(tab)

    page.get_by_role("button", name="Confirm and settle").click()
    page.get_by_text("Round 1 settled").first.wait_for()
    other.get_by_role("button", name="Confirm and settle").click()

    refusal = other.get_by_text("Table NN1 moved on after this preview")
    refusal.wait_for()
    assert "round 1 was recorded there since" in refusal.inner_text()
    assert "preview the round again" in refusal.inner_text()
    assert Round.objects.filter(session=session).count() == 1
    shot(other, "round-table-moved-on")
