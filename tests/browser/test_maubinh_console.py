"""A Mau Binh round in the browser: open the table, type four seats, preview, confirm once.

The round is tests/maubinh/test_rounds.py's, worked by hand there: a scoop and a foul,
chi +47, -44, -56, +53 at a stake of 10,000; fees 24,000 and 27,000.
"""

from __future__ import annotations

import shutil
from decimal import Decimal as D
from pathlib import Path

import pytest
from django.db.models import Sum

from casino.floor.models import Round, RoundStatus, TableSession
from casino.ledger.models import LedgerEntry
from tests.browser.conftest import PASSWORD, log_in, shot
from tests.maubinh.conftest import TEST_DEALS, maubinh_table
from tests.maubinh.test_rounds import SEAT_1, SEAT_2, SEAT_3, SEAT_4

pytestmark = pytest.mark.django_db(transaction=True)

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def type_seat(page, position: int, cards: str) -> None:
    for row, text in zip(("back", "middle", "front"), cards.split(" / "), strict=True):
        page.fill(f"#seat-{position}-{row}", text.lower())


def test_a_four_player_round_with_a_scoop_and_a_foul(page, floor, settings):
    settings.MAUBINH_HOUSE_TAKE_DEALS = TEST_DEALS
    table = maubinh_table(floor.venue)
    log_in(page, "dealer")

    # the Mau Binh table opens from My tables like any other, onto its own screen
    page.click(f"#table-{table.pk} a")
    page.fill("#chips-100000", "50")
    # a supervisor confirms the dealer's count with their own credentials
    page.fill("input[name=supervisor]", "supervisor")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    page.wait_for_selector("#seat-4-front")
    session = TableSession.objects.get(table=table)
    assert page.input_value("#stake") == "10,000"

    for position, cards in enumerate((SEAT_1, SEAT_2, SEAT_3, SEAT_4), start=1):
        type_seat(page, position, cards)
    # in the venue's language, with its sheet's words (Tứ quý: four of a kind)
    page.wait_for_selector("#seat-1-eval [data-row=back] b:has-text('Tứ quý A')")
    page.wait_for_selector("#seat-3-eval .foul")
    page.wait_for_selector("#seat-4-eval [data-row=back] b:has-text('Thùng phá sảnh 8')")
    assert page.locator(".mb-eval .foul").count() == 1

    page.click("#preview-button")
    page.wait_for_selector("#confirm")
    chi = page.eval_on_selector_all(".mb-matrix [data-chi]", "e => e.map(c => c.textContent)")
    assert chi == ["+47", "-44", "-56", "+53"]
    one_v_two = page.locator(".mb-matrix tr[data-seat='1'] td[data-against='2']")
    assert one_v_two.text_content().strip() == "+26★"
    assert "scoop" in one_v_two.get_attribute("class")
    assert page.locator(".mb-matrix tr[data-seat='3'] td[data-basis='foul']").count() == 3
    fees = page.eval_on_selector_all(".mb-matrix [data-fee]", "e => e.map(c => c.textContent)")
    assert fees == ["24,000", "", "", "27,000"]
    assert page.text_content("[data-total=fees]") == "51,000"
    assert page.text_content("[data-total=house]") == "+51,000"
    SCREENSHOT.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shot(page, "maubinh-preview"), SCREENSHOT / "console-maubinh-preview.png")

    page.dblclick("#confirm")
    page.wait_for_selector(".banner.settled[data-round='1']")
    shot(page, "maubinh-settled")
    (settled,) = Round.objects.filter(session=session)
    assert settled.status == RoundStatus.SETTLED and settled.house_net == D("51000")
    entries = LedgerEntry.objects.filter(round=settled)
    assert entries.count() == 8
    assert entries.aggregate(t=Sum("amount"))["t"] == 0
    # the next round: the same stake, empty seats
    assert page.input_value("#stake") == "10,000"
    assert page.input_value("#seat-1-back") == ""

    # the history lists the round and opens it seat by seat, in the venue's words
    page.click("nav a[href$='/history/']")
    page.wait_for_selector("#round-" + str(settled.pk))
    page.click(f"#round-{settled.pk} a")
    page.wait_for_selector(f"#round-detail-{settled.pk} .history-rows")
    detail = page.text_content(f"#round-detail-{settled.pk}")
    assert "Tứ quý A" in detail and "Binh lủng" in detail
    shutil.copyfile(shot(page, "maubinh-history"), SCREENSHOT / "console-maubinh-history.png")


def test_the_dealer_says_whether_an_instant_win_is_declared(page, floor, settings):
    settings.MAUBINH_HOUSE_TAKE_DEALS = TEST_DEALS
    table = maubinh_table(floor.venue, readings={"declaring": "optional"})
    log_in(page, "dealer")
    page.click(f"#table-{table.pk} a")
    page.fill("#chips-100000", "50")
    # a supervisor confirms the dealer's count with their own credentials
    page.fill("input[name=supervisor]", "supervisor")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    page.wait_for_selector("#seat-2-front")

    # Six Pairs whose rows would take 60 chi from the weak hand beside it
    type_seat(page, 1, "AS AH AD AC KS / QS QH QD QC KH / JS JH JD")
    type_seat(page, 2, "TC 9C 7D 5D 3C / 9D 8D 6C 4C 3H / 8H 6H 5H")
    # the venue's language asks, in its sheet's words (lục phé bôn: six pairs)
    page.wait_for_selector("#seat-1-eval legend:has-text('Người chơi có báo Lục phé bôn không?')")
    assert page.locator("#seat-2-eval .mb-declare").count() == 0

    # unanswered, the preview says what to ask
    page.click("#preview-button")
    page.wait_for_selector("#preview .error, #preview [role=alert]")
    assert "hãy hỏi người chơi có báo hay không" in page.text_content("#preview")
    assert page.locator("#confirm").count() == 0

    # not declared: the rows play, (8 + 16 + 6) x 2 = 60; the seats' evaluations the
    # dealer's typing asked for have all come back before the dealer answers
    page.wait_for_load_state("networkidle")
    page.get_by_label("Không báo: so từng chi").check()
    page.wait_for_load_state("networkidle")
    page.click("#preview-button")
    page.wait_for_selector("#confirm")
    chi = page.eval_on_selector_all(".mb-matrix [data-chi]", "e => e.map(c => c.textContent)")
    assert chi == ["+60", "-60"]
    # declared: Six Pairs takes 18
    page.get_by_label("Có báo").check()
    page.click("#preview-button")
    page.wait_for_function(
        "() => document.querySelector(\".mb-matrix [data-chi]\")?.textContent === '+18'"
    )
    page.dblclick("#confirm")
    page.wait_for_selector(".banner.settled[data-round='1']")
    (settled,) = Round.objects.filter(session__table=table)
    assert settled.boxes.get(position=1).evaluation["instant_win"] == "six_pairs"


def wait_for(page, held: list) -> None:
    """Until the page has asked for what the test holds back (a held route waits for it)."""
    for _ in range(100):
        if held:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the page asked for nothing")


def test_a_late_evaluation_keeps_the_answer_the_dealer_gave(page, floor, settings, live_server):
    """A seat's evaluation, or a preview, still on its way when the dealer answers the
    declaration must not redraw the question unanswered when it lands."""
    settings.MAUBINH_HOUSE_TAKE_DEALS = TEST_DEALS
    table = maubinh_table(floor.venue, readings={"declaring": "optional"})
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    log_in(page, "dealer")
    page.click(f"#table-{table.pk} a")
    page.fill("#chips-100000", "50")
    page.fill("input[name=supervisor]", "supervisor")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    page.wait_for_selector("#seat-2-front")
    type_seat(page, 1, "AS AH AD AC KS / QS QH QD QC KH / JS JH JD")
    type_seat(page, 2, "TC 9C 7D 5D 3C / 9D 8D 6C 4C 3H / 8H 6H 5H")
    page.wait_for_selector("#seat-1-eval .mb-declare")
    page.wait_for_load_state("networkidle")

    held = []
    page.route("**/maubinh/seat/**", lambda route: held.append(route))
    page.route("**/preview/**", lambda route: held.append(route))

    # the dealer retypes the front row (still Six Pairs): its evaluation is held on the way
    page.get_by_label("Seat 1: front").fill("jd jh js")
    wait_for(page, held)
    page.get_by_label("Declared", exact=True).check()
    for route in held:
        route.continue_()
    held.clear()
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    assert page.get_by_label("Declared", exact=True).is_checked()

    # the same with a preview asked for before the answer changed
    page.click("#preview-button")
    wait_for(page, held)
    page.get_by_label("Not declared: the rows play").check()
    for route in held:
        route.continue_()
    held.clear()
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    assert page.get_by_label("Not declared: the rows play").is_checked()

    # a seat's evaluation still on its way when a preview's answer redraws that seat: it
    # lands where the seat's evaluation now is, and the question keeps its answer
    page.unroute("**/preview/**")
    page.get_by_label("Seat 1: front").fill("js jh jd")
    wait_for(page, held)
    with page.expect_response("**/preview/**"):
        page.click("#preview-button")
    for route in held:
        route.continue_()
    held.clear()
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    assert page.locator("#seat-1-eval .mb-declare").count() == 1
    assert page.get_by_label("Not declared: the rows play").is_checked()
    assert page.input_value("#seat-1-front") == "js jh jd"
    page.unroute("**/maubinh/seat/**")
