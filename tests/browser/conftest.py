"""Browser tests: Playwright (sync API) driving Debian's Chromium against ``live_server``.

One browser per module; each test gets a fresh 1280x800 context (a tablet's screen) and
logs in through the login form. Screenshots go to ``test-artifacts/`` (git-ignored).
Never a downloaded browser: the tests use ``/usr/bin/chromium`` and skip without it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.second_factor import code_for

#: How long a step waits for the page: generous, as a loaded machine draws slowly.
BROWSER_TIMEOUT_MS = 20_000

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
VIEWPORT = {"width": 1280, "height": 800}
PASSWORD = "pw-for-tests"  # tests.factories.UserFactory


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    # Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
    # between browser steps are still synchronous and safe. Set only while the browser runs:
    # a process started meanwhile (``check --deploy`` in another test) must not inherit it.
    was = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_api.sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=str(CHROMIUM),
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            yield chromium
            chromium.close()
    finally:
        if was is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = was


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport=VIEWPORT, base_url=live_server.url)
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def person(browser, live_server):
    """A browser of their own for each person at the table, the cage or the count:
    ``person(username)`` is a page logged in as them."""
    contexts = []

    def sign_in(username: str):
        context = browser.new_context(viewport=VIEWPORT, base_url=live_server.url)
        context.set_default_timeout(BROWSER_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        log_in(page, username)
        return page

    yield sign_in
    for context in contexts:
        context.close()


def forged_post(page, url: str, data: dict[str, str] | None = None) -> int:
    """POST ``url`` (with ``data``) from the page with its CSRF token, as a hand-made
    request would: what the screen did not offer, refused all the same."""
    return page.evaluate(
        """async ([url, data]) => {
        const token = JSON.parse(document.body.getAttribute('hx-headers') || '{}')['X-CSRFToken'];
        const answer = await fetch(url, {method: 'POST', headers: {'X-CSRFToken': token || ''},
                                         body: new URLSearchParams(data)});
        return answer.status;
    }""",
        [url, data or {}],
    )


def shot(page, name: str) -> Path:
    """Save a screenshot of the page as it is now: ``test-artifacts/<name>.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def second_factor_step(page, code: str | None) -> None:
    """After the password: type the second factor's code of one who needs it (``code_for``,
    asked before the password is sent, so the account has its device when the login page
    sends it on); nothing for the others (None)."""
    if code is None:
        return
    page.wait_for_url("**/accounts/verify/**")
    page.fill("#id_code", code)
    page.click("#second-factor-form button[type=submit]")
    page.wait_for_url(lambda address: "/accounts/verify/" not in address)


def log_in(page, username: str, password: str = PASSWORD) -> None:
    page.goto("/console/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    code = code_for(username)
    page.click("button[type=submit]")
    second_factor_step(page, code)
    page.wait_for_url("**/console/")
