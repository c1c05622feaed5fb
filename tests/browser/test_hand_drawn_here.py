"""A hand short of five cards is drawn by the browser, as the server's hand partial draws it.

The round screen asks the server to read a hand once it is whole, or when a token is not
a card or a card is held twice; a hand of one to four plain cards is drawn by
``static/js/console.js`` from the picker's faces and the round form's count words. These
tests hold the two drawings equal: each hand drawn in the browser is compared, markup for
markup, with the partial the server answers for the same fields.

The venue speaks Vietnamese: "3/5".
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import log_in

pytestmark = pytest.mark.django_db(transaction=True)

#: The hand as the server draws it for the page's card fields now, and as the page shows
#: it: the class and the markup inside, the spaces between tags made one.
SERVER_AND_PAGE = """async (box) => {
    const fields = Array.from(document.querySelectorAll('input[data-cards]'));
    const query = new URLSearchParams(fields.map((f) => [f.name, f.value]));
    query.set('box', box);
    const url = document.getElementById(box === 'dealer' ? 'dealer-cards' : `box-${box}-cards`)
        .getAttribute('hx-get');
    const answer = await fetch(`${url}?${query}`, {headers: {'HX-Request': 'true'}});
    const holder = document.createElement('template');
    holder.innerHTML = (await answer.text()).trim();
    const served = holder.content.firstElementChild;
    const flat = (html) => html.replace(/>\\s+</g, '><').replace(/\\s+/g, ' ').trim();
    const shown = document.getElementById(`hand-${box}`);
    return {
        server: [served.className, flat(served.innerHTML)],
        page: [shown.className, flat(shown.innerHTML)],
        text: (shown.querySelector('.count, .error, .category') || {innerText: ''})
            .innerText.trim(),
    };
}"""


@pytest.fixture
def screen(page, session):
    """The round screen of the floor's open session (tests/conftest.py), with every request
    the page makes for a hand partial counted (the page's are htmx's XMLHttpRequests; the
    tests' own, by ``fetch``, are not counted)."""
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    page.wait_for_load_state("networkidle")
    asked: list[str] = []
    page.on(
        "request",
        lambda r: asked.append(r.url) if "/hand/" in r.url and r.resource_type == "xhr" else None,
    )
    page.asked = asked
    return page


def settled(page) -> None:
    """Past the fields' 120 ms wait, with nothing in flight."""
    page.wait_for_timeout(400)
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def compared(page, box: str = "1") -> dict:
    drawn = page.evaluate(SERVER_AND_PAGE, box)
    assert drawn["page"] == drawn["server"], drawn
    return drawn


def test_a_short_hand_is_drawn_here_as_the_server_draws_it_without_asking(screen):
    page = screen
    page.fill("#dealer-cards", "2s 3s")
    spellings = [
        ("ks", "1/5"),
        ("KS qh", "2/5"),
        ("10d,q♥;3c", "3/5"),
        ("a♠\ufe0f 2h  3h,4h", "4/5"),
        (" , ", ""),
        ("", ""),
        ("jd", "1/5"),
    ]
    for typed, count in spellings:
        page.fill("#box-1-cards", typed)
        settled(page)
        drawn = compared(page)
        assert drawn["text"].endswith(count), (typed, drawn["text"])
    assert page.asked == [], "a short hand was asked of the server"
    faces = "e => e.map(c => c.dataset.card)"
    assert page.eval_on_selector_all("#hand-1 .five [data-card]", faces) == ["JD"]


def test_a_whole_hand_a_wrong_card_or_a_card_twice_is_the_servers_to_read(screen):
    page = screen
    page.fill("#dealer-cards", "2s 3s")
    answers = [
        ("1", "ks qs 5h 4h 10c", "Niu 9"),  # whole: evaluated by the server
        ("1", "ks qs 1x", "“1x”"),  # not a card
        ("1", "ks qs ks", "K♠"),  # twice in the hand
        ("1", "ks 2s", "2/5"),  # 2♠ is the dealer's too: the later hand is marked
        ("dealer", "3s 2s", "2♠ đã có ở Ô 1"),  # ... as here: "2♠ is already in Box 1"
        ("1", "ks qs 5h 4h 10c 9d", "6"),  # more than five
        ("1", "ks qſ", "2/5"),  # a letter the browser leaves to the server: "ſ" reads as S
    ]
    for number, (box, typed, said) in enumerate(answers, start=1):
        with page.expect_response("**/hand/**"):
            page.fill("#dealer-cards" if box == "dealer" else f"#box-{box}-cards", typed)
        settled(page)
        drawn = compared(page, box)
        assert said in drawn["text"], (typed, drawn["text"])
        assert len(page.asked) == number, (typed, page.asked)


def test_a_card_taken_off_a_whole_hand_is_drawn_here_over_its_evaluation(screen):
    page = screen
    with page.expect_response("**/hand/**"):
        page.fill("#box-1-cards", "ks qs 5h 4h 10c")
    page.wait_for_selector("#hand-1 .category:has-text('Niu 9')")
    page.fill("#box-1-cards", "ks qs 5h 4h")
    page.wait_for_selector("#hand-1 .count:has-text('4/5')")
    assert page.locator("#hand-1 .category").count() == 0
    settled(page)
    compared(page)
    assert len(page.asked) == 1


def test_cards_picked_are_drawn_here_and_the_fifth_asks_the_server(screen):
    page = screen
    page.click("#box-2-cards")
    for card in ("KS", "QS", "5H", "4H"):
        page.click(f"[data-pick='{card}']")
    page.wait_for_selector("#hand-2 .count:has-text('4/5')")
    settled(page)
    compared(page, "2")
    assert page.asked == []
    with page.expect_response("**/hand/**"):
        page.click("[data-pick='TC']")
    page.wait_for_selector("#hand-2 .category:has-text('Niu 9')")
    assert len(page.asked) == 1


def test_a_short_hand_typed_while_a_preview_is_on_its_way_shows_as_typed(screen):
    """The preview redraws every hand as it read them; a hand drawn here after the preview
    left is drawn again once the preview's answer has landed."""
    page = screen
    page.fill("#box-1-single", "100000")
    page.fill("#box-1-cards", "ks qs 5h 4h 10c")
    page.fill("#dealer-cards", "js qh jd ac 7h")
    page.wait_for_selector("#hand-dealer .category:has-text('Niu 8')")
    page.wait_for_load_state("networkidle")
    held = []
    page.route("**/preview/**", lambda route: held.append(route))
    page.click("#preview-button")
    page.wait_for_function("() => document.querySelector('#round-form.htmx-request')")
    page.fill("#box-1-cards", "ks qs")
    page.wait_for_selector("#hand-1 .count:has-text('2/5')")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    with page.expect_response("**/preview/**"):
        held[0].continue_()
    settled(page)
    page.unroute("**/preview/**")
    drawn = compared(page)
    assert drawn["text"] == "2/5"
