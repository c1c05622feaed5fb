"""The round screen on a floor: a keyboard dealer's first round, one Confirm however many
keys are pressed, amounts as the venue writes them, a tablet's screen, a quiet console.

The venue is the Vietnamese one of the demo: it writes amounts 1.000.000, and its
console speaks Vietnamese.
"""

from __future__ import annotations

from decimal import Decimal as D
from pathlib import Path

import pytest
from django.db.models import Sum

from casino.floor.models import Round, RoundStatus, TableSession
from casino.floor.services.sessions import session_open
from casino.ledger.models import LedgerEntry
from casino.venues.models import TableLimit
from tests.browser.conftest import log_in, shot
from tests.maubinh.conftest import TEST_DEALS, maubinh_table
from tests.maubinh.test_rounds import SEAT_1, SEAT_2, SEAT_3, SEAT_4

pytestmark = pytest.mark.django_db(transaction=True)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

#: Boxes, controls and result regions of the round screen that must never cover each other.
LAID_OUT = [
    "#round-form input:not([type=hidden])",
    "#round-form button",
    ".grid.head > *",
    ".stake-head > *",
    ".box-row .position",
    ".cell.eval .hand",
    ".note",
    ".picker",
    "#preview",
    ".bar .tabs a",
]

OVERLAPS = """(selectors) => {
    const shown = (e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.height > 0;
    };
    const name = (e) => e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}.${e.className}`;
    const els = selectors.flatMap((s) => Array.from(document.querySelectorAll(s))).filter(shown);
    const found = [];
    els.forEach((a, i) => els.slice(i + 1).forEach((b) => {
        if (a === b || a.contains(b) || b.contains(a)) return;
        const r = a.getBoundingClientRect(), s = b.getBoundingClientRect();
        const x = Math.min(r.right, s.right) - Math.max(r.left, s.left);
        const y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
        if (x > 1 && y > 1) found.push(`${name(a)} / ${name(b)}`);
    }));
    return found;
}"""

CLIPPED = """() => {
    const typed = Array.from(document.querySelectorAll('#round-form input:not([type=hidden])'))
        .filter((i) => i.value && i.scrollWidth > i.clientWidth + 1);
    const beyond = Array.from(document.querySelectorAll('.grid.head .limit')).filter((e) => {
        const text = document.createRange();
        text.selectNodeContents(e);
        const column = e.closest('.stake-head').getBoundingClientRect();
        return text.getBoundingClientRect().right > column.right + 1;
    });
    return [...typed, ...beyond].map((e) => e.id);
}"""


@pytest.fixture
def dot_floor(floor):
    floor.venue.amount_grouping = "dot"
    floor.venue.save(update_fields=["amount_grouping"])
    return floor


@pytest.fixture
def watched(page):
    """The page, with what its console said and every answer that was not a success."""
    said: list[str] = []
    failed: list[str] = []
    page.on("console", lambda m: said.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.said, page.failed = said, failed
    return page


def open_session(floor) -> TableSession:
    return session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )


def key(page, text: str) -> str:
    """Press ``text`` (typed, or a key name in braces) and answer where the focus went."""
    if text.startswith("{"):
        page.keyboard.press(text.strip("{}"))
    else:
        page.keyboard.type(text)
    return page.evaluate("document.activeElement.id")


def a_round_typed(page) -> None:
    page.fill("#box-1-single", "100.000")
    page.fill("#box-1-cards", "ks qs 5h 4h 10c")
    page.fill("#box-2-single", "2.000.000")
    page.fill("#box-2-cards", "kh 8h 4d jh ad")
    page.fill("#dealer-cards", "js qh jd ac 7h")
    page.press("#dealer-cards", "Enter")
    page.wait_for_selector("#preview:not(.stale) #confirm:not([disabled])")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def test_the_first_round_by_keyboard_ends_with_every_stake_and_card_in_its_place(
    watched, dot_floor
):
    page = watched
    session = open_session(dot_floor)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    # a fresh table starts at box 1's stake, not the dealer's cards; one focus ring
    assert page.evaluate("document.activeElement.id") == "box-1-single"
    assert page.locator("input.focused").count() == 0
    # the table's limits are beside the stakes, as the venue writes amounts
    limit = page.locator("#limit-single").text_content()
    assert limit == "10.000–10.000.000"
    assert page.get_by_label("Ô 1: Cược Đơn").get_attribute("aria-describedby") == "limit-single"

    assert key(page, "100.000") == "box-1-single"
    assert key(page, "{Enter}") == "box-1-double"
    assert key(page, "{Enter}") == "box-1-super"
    assert key(page, "{Enter}") == "box-1-cards"
    assert key(page, "ks qs 5h 4h 10c") == "box-1-cards"
    assert page.locator("input.focused").count() == 1  # the picker's target is the focus
    # Enter follows the deal: box 2 (nobody yet), not the dealer's cards
    assert key(page, "{Enter}") == "box-2-single"
    assert page.locator("input.focused").count() == 0
    assert key(page, "200000") == "box-2-single"
    assert key(page, "{Enter}") == "box-2-double"
    assert key(page, "{Enter}") == "box-2-super"
    assert key(page, "{Enter}") == "box-2-cards"
    assert key(page, "kh 8h 4d jh ad") == "box-2-cards"
    assert key(page, "{Enter}") == "box-3-single"
    assert key(page, "{Enter}") == "dealer-cards"  # an empty box: the boxes are done
    assert key(page, "js qh jd ac 7h") == "dealer-cards"
    page.wait_for_selector("#hand-dealer .category:has-text('Niu 8')")
    page.wait_for_selector("#hand-2 .category:has-text('Không Ngầu')")
    assert {
        field: page.input_value(f"#{field}")
        for field in ("box-1-single", "box-1-cards", "box-2-single", "box-2-cards", "dealer-cards")
    } == {
        "box-1-single": "100.000",
        "box-1-cards": "ks qs 5h 4h 10c",
        "box-2-single": "200000",
        "box-2-cards": "kh 8h 4d jh ad",
        "dealer-cards": "js qh jd ac 7h",
    }
    assert page.locator("#stakes-1 .error, #stakes-2 .error").count() == 0
    key(page, "{Enter}")  # previews
    page.wait_for_selector("#preview:not(.stale) #confirm:not([disabled])")
    assert page.text_content("tbody[data-box='2'] tr[data-bet='single'] td.num") == "200.000"

    # two Ctrl+Enter: one round, and nothing but that round is said
    page.keyboard.press("Control+Enter")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(".banner.settled[data-round='1']")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.keyboard.press("Control+Enter")  # the next round, untouched: nothing to confirm
    page.wait_for_timeout(300)
    assert page.locator("#toast").is_hidden()
    assert page.locator("#preview .errors").count() == 0
    # the next round's settlement region waits for its cards: no settled round's preview
    assert page.locator("#preview .settle, #confirm").count() == 0
    (settled,) = Round.objects.filter(session=session)
    assert settled.status == RoundStatus.SETTLED and settled.house_net == D("105000")
    assert LedgerEntry.objects.filter(round=settled).aggregate(s=Sum("amount"))["s"] == 0
    # the next round starts where the deal starts, with the amounts as the venue writes them
    assert page.evaluate("document.activeElement.id") == "box-1-cards"
    assert page.input_value("#box-2-single") == "200.000"
    assert page.said == [] and page.failed == []


def test_two_confirms_sent_at_once_settle_one_round_and_both_say_so(watched, dot_floor):
    page = watched
    session = open_session(dot_floor)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    a_round_typed(page)
    answers = page.evaluate(
        """async () => {
        const form = new FormData(document.getElementById('round-form'));
        form.set('digest', document.getElementById('digest').value);
        const headers = {
            'X-CSRFToken': JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'],
            'HX-Request': 'true',
        };
        const url = document.getElementById('confirm').getAttribute('hx-post');
        const post = () => fetch(url, {method: 'POST', body: form, headers});
        const answers = await Promise.all([post(), post()]);
        return Promise.all(answers.map(async (a) => [a.status, await a.text()]));
    }"""
    )
    assert [status for status, _text in answers] == [200, 200]
    assert all('data-round="1"' in text for _status, text in answers)
    (settled,) = Round.objects.filter(session=session)
    assert settled.status == RoundStatus.SETTLED


def test_an_amount_another_grouping_would_read_otherwise_is_refused_with_how_to_write_it(
    watched, dot_floor
):
    page = watched
    session = open_session(dot_floor)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    page.get_by_label("Ô 1: Cược Đơn").fill("100,000")
    error = page.locator("#stakes-1 .error")
    error.wait_for()
    assert "100.000" in error.text_content() and "100000" in error.text_content()
    page.get_by_label("Ô 1: Cược Đơn").fill("1.500.000")
    page.wait_for_selector("#stakes-1:not(:has(.error))")
    assert page.said == [] and page.failed == []


@pytest.mark.parametrize(
    ("width", "height", "docs"),
    [
        (768, 1024, "console-round-768.png"),
        (1024, 768, None),
        (1280, 800, None),
        (1366, 768, "console-round-1366.png"),
    ],
)
def test_the_round_screen_lays_out_on_a_tablet_without_overlap_or_clipping(
    watched, dot_floor, width, height, docs
):
    page = watched
    page.set_viewport_size({"width": width, "height": height})
    if docs is None:
        # the longest limits a column shows: they wrap within it (the docs show common ones)
        TableLimit.objects.filter(table=dot_floor.table).update(max_stake=D("100000000"))
    session = open_session(dot_floor)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    a_round_typed(page)
    page.click("#box-1-cards")
    assert page.evaluate(OVERLAPS, LAID_OUT) == []
    assert page.evaluate(CLIPPED) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # touch targets: every control of the round at least 36 px high
    heights = page.eval_on_selector_all(
        "#round-form input:not([type=hidden]), #round-form button, #confirm, [data-pick]",
        "els => els.map(e => e.getBoundingClientRect().height)",
    )
    assert min(heights) >= 36
    shot(page, f"round-{width}x{height}")
    if docs:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / docs), full_page=True)
    assert page.said == [] and page.failed == []


def test_two_ctrl_enter_on_mau_binh_settle_one_round_on_a_tablet(watched, floor, settings):
    settings.MAUBINH_HOUSE_TAKE_DEALS = TEST_DEALS
    page = watched
    page.set_viewport_size({"width": 768, "height": 1024})
    table = maubinh_table(floor.venue)
    session = session_open(
        table=table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    for position, cards in enumerate((SEAT_1, SEAT_2, SEAT_3, SEAT_4), start=1):
        for row, text in zip(("back", "middle", "front"), cards.split(" / "), strict=True):
            page.fill(f"#seat-{position}-{row}", text.lower())
    page.click("#preview-button")
    page.wait_for_selector("#preview:not(.stale) #confirm:not([disabled])")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    laid_out = ["#round-form input:not([type=hidden])", "#round-form button", ".mb-eval"]
    assert page.evaluate(OVERLAPS, [*laid_out, "#preview", ".bar .tabs a"]) == []
    assert page.evaluate(CLIPPED) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 768
    page.keyboard.press("Control+Enter")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(".banner.settled[data-round='1']")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    assert page.locator("#toast").is_hidden()
    assert Round.objects.filter(session=session).count() == 1
    assert page.said == [] and page.failed == []


def test_the_opening_count_is_totalled_as_the_venue_writes_amounts(watched, dot_floor):
    page = watched
    log_in(page, "dealer")
    page.click(f"#table-{dot_floor.table.pk} a")
    page.fill("#chips-100000", "50")
    page.fill("#chips-10000", "100")
    assert page.text_content("[data-total]") == "6.000.000"
    assert page.get_by_text("100.000", exact=True).count() == 1  # the chip's label
    assert page.said == [] and page.failed == []
