"""The Content-Security-Policy in Chromium: the console (a round dealt and settled, the cage's
self-refreshing lists), the admin and Swagger UI all work under it, and the browser reports
no violation. Chromium writes every refusal to the console ("Refused to ...") and fires
``securitypolicyviolation`` on the document; both are collected and must stay empty."""

from __future__ import annotations

import pytest

from casino.floor.models import Round, RoundStatus
from casino.staff.roles import CAGE
from tests.browser.conftest import BROWSER_TIMEOUT_MS, VIEWPORT, log_in
from tests.browser.test_admin_ruleset_change import admin_log_in
from tests.browser.test_console import open_session, type_cards
from tests.factories import staff

pytestmark = pytest.mark.django_db(transaction=True)

#: Set before any script of a page runs: every violation the document sees, kept per page.
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${where}`);
});
"""


@pytest.fixture
def watched(browser, live_server):
    """A page whose CSP refusals are collected: ``(page, refusals)``; each step checks them."""
    context = browser.new_context(viewport=VIEWPORT, base_url=live_server.url)
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    context.add_init_script(LISTEN)
    page = context.new_page()
    refusals: list[str] = []
    page.on(
        "console",
        lambda message: (
            refusals.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    yield page, refusals
    context.close()


def no_violation(page, refusals: list[str], where: str) -> None:
    refusals.extend(page.evaluate("window.__violations || []"))
    assert refusals == [], f"{where}: {refusals}"


def test_the_console_admin_and_api_docs_work_under_the_policy(watched, floor):
    page, refusals = watched
    session = open_session(floor)

    answer = page.goto("/accounts/login/")
    policy = answer.headers["content-security-policy"]
    assert (
        "script-src 'self'" in policy and "unsafe-inline" not in policy.split("style-src-attr")[0]
    )
    assert "frame-ancestors 'none'" in policy

    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    page.fill("#box-1-single", "100000")
    type_cards(page, "#box-1-cards", "ks qs 5h 4h 10c")
    type_cards(page, "#dealer-cards", "js qh jd ac 7h")
    page.keyboard.press("Enter")
    page.wait_for_selector("#confirm")
    page.click("#confirm")
    page.wait_for_selector(".banner.settled")
    assert Round.objects.get().status == RoundStatus.SETTLED
    no_violation(page, refusals, "the round screen")

    page.goto("/api/docs/")
    page.wait_for_selector(".swagger-ui .information-container")
    page.get_by_text("/api/v1/sessions/").first.wait_for()
    no_violation(page, refusals, "Swagger UI")

    page.context.clear_cookies()
    staff("cashier", CAGE, floor.venue)
    log_in(page, "cashier")
    page.goto(f"/console/cage/{floor.venue.pk}/")
    page.wait_for_selector("#cage-lists")
    no_violation(page, refusals, "the cage")

    page.context.clear_cookies()
    admin_log_in(page, "floor-manager")
    page.goto(f"/admin/venues/table/{floor.table.pk}/change/")
    page.wait_for_selector("#content-main form")
    page.goto("/admin/venues/table/")
    page.wait_for_selector("#result_list")
    # a ruleset version's page: htmx in the admin, and the styles moved out of the page
    version = floor.table.ruleset.niuniu_versions.first()
    page.goto(f"/admin/niuniu/niuniurulesetversion/{version.pk}/change/")
    page.wait_for_selector("#content-main form")
    no_violation(page, refusals, "the admin")

    page.goto("/reports/")
    page.wait_for_selector("main")
    no_violation(page, refusals, "the reports")


def test_the_cage_lists_hold_their_refresh_while_the_focus_is_inside(watched, floor):
    """The pause once written as an htmx filter (script the policy refuses), now console.js's."""
    page, refusals = watched
    staff("cashier", CAGE, floor.venue)
    log_in(page, "cashier")
    refreshes: list[str] = []
    page.on("request", lambda r: refreshes.append(r.url) if "list=1" in r.url else None)
    page.clock.install()
    page.goto(f"/console/cage/{floor.venue.pk}/")
    page.wait_for_selector("#cage-lists")

    page.locator("#cage-lists a").first.focus()
    page.clock.run_for(40_000)
    page.wait_for_timeout(300)
    assert refreshes == []

    page.evaluate("document.activeElement.blur()")
    page.clock.run_for(16_000)
    page.wait_for_timeout(300)
    assert len(refreshes) == 1
    no_violation(page, refusals, "the cage's refresh")
