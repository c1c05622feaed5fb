"""Two managers switch a table's ruleset in the admin: one asks, the other approves.

The table's form turns the change of ruleset into a request; the other manager finds it in
the list of requests and approves it with the row's button (named for screen readers by
the table and the ruleset), which applies it only once the table is closed.
"""

from __future__ import annotations

import pytest

from casino.floor.services.closing import session_close
from casino.floor.services.sessions import session_open
from casino.rulesets.models import Ruleset
from casino.staff.roles import MANAGER
from casino.venues.models import Table, TableRulesetChange
from tests.browser.conftest import PASSWORD, VIEWPORT, second_factor_step, shot
from tests.factories import staff
from tests.second_factor import code_for

pytestmark = pytest.mark.django_db(transaction=True)


def admin_log_in(page, username: str) -> None:
    page.goto("/admin/login/?next=/admin/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    code = code_for(username)
    page.click("input[type=submit]")
    second_factor_step(page, code)
    page.wait_for_url("**/admin/")


def test_a_ruleset_change_is_asked_by_one_manager_and_approved_by_another(
    browser, live_server, page, floor
):
    macau = Ruleset.objects.create(venue=floor.venue, game="niuniu", code="macau-001", name="Macau")
    second = staff("second-manager", MANAGER, floor.venue)
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 10},
    )

    # the first manager changes the ruleset on the table's page: a request, nothing applied
    admin_log_in(page, "floor-manager")
    page.goto(f"/admin/venues/table/{floor.table.pk}/change/")
    page.get_by_label("Ruleset:", exact=True).select_option(label=str(macau))
    page.get_by_label("Why change the ruleset").fill("the Macau sheet for the VIP room")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_selector("text=Requested the change of ruleset to macau-001")
    shot(page, "admin-01-ruleset-change-requested")
    assert Table.objects.get(pk=floor.table.pk).ruleset_id != macau.pk
    change = TableRulesetChange.objects.get()

    # a seat count while the table is open comes back on the form, in the service's words
    page.goto(f"/admin/venues/table/{floor.table.pk}/change/")
    page.get_by_label("Seats:", exact=True).fill("2")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_selector(".errornote")
    assert "its seats can change once it is closed" in page.text_content("#content-main")
    assert Table.objects.get(pk=floor.table.pk).seats == 5

    # the other manager approves it from the list: refused while the table is open
    context = browser.new_context(viewport=VIEWPORT, base_url=live_server.url)
    other = context.new_page()
    admin_log_in(other, "second-manager")
    other.goto("/admin/venues/tablerulesetchange/")
    shot(other, "admin-02-ruleset-change-pending")
    approve = other.get_by_role("button", name="Approve the change of NN1 to macau-001")
    approve.click()
    other.wait_for_selector(".messagelist .error")
    assert "close the table first" in other.text_content(".messagelist")
    change.refresh_from_db()
    assert change.status == "pending"

    # once the table is closed, the same button applies it
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 10},
    )
    other.get_by_role("button", name="Approve the change of NN1 to macau-001").click()
    other.wait_for_selector(".messagelist .success")
    assert "table NN1 now plays macau-001" in other.text_content(".messagelist")
    shot(other, "admin-03-ruleset-change-approved")
    change.refresh_from_db()
    assert (change.status, change.decided_by) == ("applied", second)
    assert Table.objects.get(pk=floor.table.pk).ruleset_id == macau.pk
    context.close()
