"""A dealer's shift in the browser: open, play, refuse a bad card, double-click, void, close.

The floor's venue speaks Vietnamese, and no language is chosen, so the console speaks
Vietnamese: the hands are named as the venue's sheet names them (Niu 9, Ngầu Hầm, Không Ngầu).
Amounts are VND: thousands separators, no decimals.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db.models import Sum

from casino.floor.models import Round, RoundStatus, TableSession
from casino.floor.services.closing import session_close
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.ledger.models import LedgerEntry
from casino.players.models import Player
from tests.browser.conftest import log_in, shot

pytestmark = pytest.mark.django_db(transaction=True)


def pick(page, *cards: str) -> None:
    for card in cards:
        page.click(f"[data-pick='{card}']")


def type_cards(page, field: str, text: str) -> None:
    page.click(field)
    page.keyboard.type(text)


def open_session(floor) -> TableSession:
    return session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )


def settled_round(floor, session) -> Round:
    round_, _ = round_create(
        session=session,
        user=floor.dealer,
        dealer_cards="JS QH JD AC 7H",
        boxes=[BoxInput(position=1, cards="KS QS 5H 4H TC", stakes={"single": D("100000")})],
    )
    settled, _ = round_settle(round_=round_, user=floor.dealer, key="browser-test")
    return settled


def test_a_dealer_opens_a_table_and_plays_three_rounds(page, floor):
    Player.objects.create(venue=floor.venue, membership_number="HN-1", name="Nguyễn Văn An")
    log_in(page, "dealer")
    assert page.locator(f"#table-{floor.other_table.pk}").count() == 0
    shot(page, "01-my-tables")

    # open the table with a chip count
    page.click(f"#table-{floor.table.pk} a")
    page.fill("#chips-100000", "50")
    page.fill("#chips-10000", "100")
    assert page.text_content("[data-total]") == "6,000,000"
    # the table's first opening: nothing to compare with, a supervisor confirms the count
    assert "chưa từng được đóng" in page.text_content("#inventory-note")
    page.fill("input[name=supervisor]", "supervisor")
    page.fill("input[name=password]", "pw-for-tests")
    shot(page, "02-open-table")
    page.click("button.primary")
    page.wait_for_selector("#round-form")
    session = TableSession.objects.get(table=floor.table)
    assert session.opening_total == D("6000000")

    # round 1, typed: box 1 Niu 9 with a player, box 2 No Niu, the dealer Niu 8
    page.fill("#box-1-member", "HN-1")
    page.fill("#box-1-single", "100000")
    page.fill("#box-1-double", "100000")
    page.fill("#box-2-single", "200000")
    page.fill("#box-2-super", "50000")
    page.wait_for_selector("#player-1 .player-name:has-text('Nguyễn Văn An')")
    page.wait_for_selector("#stakes-1 .deposit:has-text('100,000')")
    page.wait_for_selector("#stakes-2 .deposit:has-text('500,000')")  # each box updates alone
    assert "300,000" in page.text_content("#stakes-1")
    assert "500,000" in page.text_content("#stakes-2")
    type_cards(page, "#box-1-cards", "ks qs 5h 4h 10c")
    page.wait_for_selector("#hand-1 .category:has-text('Niu 9')")
    assert page.eval_on_selector_all(
        "#hand-1 .two [data-card]", "e => e.map(c => c.dataset.card)"
    ) == [
        "5H",
        "4H",
    ]
    assert page.eval_on_selector_all(
        "#hand-1 .three [data-card]", "e => e.map(c => c.dataset.card)"
    ) == ["KS", "QS", "TC"]
    page.keyboard.press("Enter")  # on to the next hand's cards
    assert page.evaluate("document.activeElement.id") == "box-2-cards"
    page.keyboard.type("kh 8h 4d jh ad")
    page.keyboard.press("Enter")  # on to the next box, where a player may sit down
    assert page.evaluate("document.activeElement.id") == "box-3-single"
    page.keyboard.press("Enter")  # nobody there: the boxes are done
    assert page.evaluate("document.activeElement.id") == "dealer-cards"
    page.keyboard.type("JS QH JD AC 7H")
    page.wait_for_selector("#hand-2 .category:has-text('Không Ngầu')")
    page.wait_for_selector("#hand-dealer .category:has-text('Niu 8')")
    # deal from the largest Single (box 2); pay from the dealer's right (box 1)
    orders = page.eval_on_selector_all("#orders .order", "e => e.map(o => o.textContent)")
    assert orders == ["2", "1", "1", "2"]
    assert "used" in page.get_attribute("[data-pick='KS']", "class")
    shot(page, "03-round-1-typed")
    page.keyboard.press("Enter")  # Enter on the dealer's cards previews
    page.wait_for_selector("#confirm")
    assert page.text_content("[data-total=house]") == "+315,000"
    assert page.text_content("[data-total=commission]") == "15,000"
    double = page.locator("tbody[data-box='1'] tr[data-bet='double'] td")
    assert [double.nth(i).text_content().strip() for i in (3, 4, 5)] == [
        "+200,000",
        "10,000",
        "+190,000",
    ]
    superbet = page.locator("tbody[data-box='2'] tr[data-bet='super'] td")
    assert [superbet.nth(i).text_content().strip() for i in (3, 5, 6)] == [
        "-400,000",
        "-400,000",
        "350,000",
    ]
    shot(page, "04-round-1-preview")
    page.wait_for_selector("#preview:not(.stale) #confirm:not([disabled])")  # fresh
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(".banner.settled[data-round='1']")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")  # nothing in flight
    shot(page, "05-round-1-settled")

    # round 2 from the picker: same players and stakes; box 1 Niu Niu, box 2 No Niu, dealer Niu 8
    assert page.input_value("#box-1-double") == "100,000"
    assert page.input_value("#box-1-cards") == ""
    assert page.evaluate("document.activeElement.id") == "box-1-cards"
    pick(page, "TS", "JS", "QS", "9H", "AH")
    assert page.evaluate("document.activeElement.id") == "box-2-cards"  # moves on at five
    pick(page, "2C", "3C", "4C", "6D", "7D")
    pick(page, "KD", "KC", "5S", "5D", "8C")
    assert page.input_value("#box-1-cards") == "TS JS QS 9H AH"
    page.wait_for_selector("#hand-1 .category:has-text('Ngầu Hầm')")
    page.wait_for_selector("#hand-dealer .category:has-text('Niu 8')")
    # a card in another hand is greyed and cannot be picked again
    assert "used" in page.get_attribute("[data-pick='TS']", "class")
    pick(page, "TS")
    assert page.input_value("#dealer-cards") == "KD KC 5S 5D 8C"
    shot(page, "06-round-2-picker")
    page.keyboard.press("Enter")
    page.wait_for_selector("#confirm")
    assert page.text_content("[data-total=house]") == "+220,000"
    shot(page, "07-round-2-preview")
    page.wait_for_selector("#preview:not(.stale) #confirm:not([disabled])")  # fresh
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(".banner.settled[data-round='2']")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")  # nothing in flight

    # round 3, box 2 stands up; typed and picked: box 1 Niu 5 beats the dealer's No Niu
    page.fill("#box-2-single", "")
    page.fill("#box-2-super", "")
    type_cards(page, "#box-1-cards", "as 2d 3h 4c 5s")
    page.click("#dealer-cards")
    pick(page, "9C", "8D", "7S", "6H", "2H")
    page.wait_for_selector("#hand-dealer .category:has-text('Không Ngầu')")
    page.wait_for_function("() => document.querySelector('#orders').textContent.includes('1')")
    page.press("#dealer-cards", "Enter")
    page.wait_for_selector("#confirm")
    assert page.text_content("[data-total=house]") == "-195,000"
    page.wait_for_selector("#preview:not(.stale) #confirm:not([disabled])")  # fresh
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(".banner.settled[data-round='3']")
    shot(page, "08-round-3-settled")

    rounds = list(Round.objects.filter(session=session).order_by("number"))
    assert [r.status for r in rounds] == [RoundStatus.SETTLED] * 3
    assert [r.house_net for r in rounds] == [D("315000"), D("220000"), D("-195000")]
    assert rounds[0].boxes.get(position=1).player.membership_number == "HN-1"
    for round_ in rounds:
        assert LedgerEntry.objects.filter(round=round_).aggregate(s=Sum("amount"))["s"] == 0


def test_a_wrong_card_shows_an_inline_error_and_nothing_is_settled(page, floor):
    session = open_session(floor)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    page.fill("#box-1-single", "100000")
    type_cards(page, "#box-1-cards", "ks qs 5h 4h 1x")
    page.wait_for_selector("#hand-1 .error:has-text('1x')")
    type_cards(page, "#dealer-cards", "js qh jd ac 7h")
    page.keyboard.press("Enter")
    page.wait_for_selector("#preview .errors")
    assert page.locator("#confirm").count() == 0
    page.keyboard.press("Control+Enter")  # with no preview to confirm, it previews again
    page.wait_for_selector("#preview .errors")
    shot(page, "09-wrong-card")
    assert not Round.objects.exists()
    assert not LedgerEntry.objects.exists()


def test_a_double_click_on_confirm_settles_once(page, floor):
    session = open_session(floor)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    page.fill("#box-1-single", "100000")
    type_cards(page, "#box-1-cards", "ks qs 5h 4h 10c")
    type_cards(page, "#dealer-cards", "js qh jd ac 7h")
    page.keyboard.press("Enter")
    page.wait_for_selector("#confirm")
    # keep the form as it was confirmed, to post it again behind the page's back
    page.evaluate(
        """() => {
        const form = new FormData(document.getElementById('round-form'));
        form.set('digest', document.getElementById('digest').value);
        window.confirmedForm = form;
    }"""
    )
    page.dblclick("#confirm")
    page.wait_for_selector(".banner.settled")
    statuses = page.evaluate(
        """async () => {
        const headers = {
            'X-CSRFToken': JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'],
            'HX-Request': 'true',
        };
        const url = document.getElementById('round-form').action.replace('/preview/', '/confirm/');
        const post = () => fetch(url, {method: 'POST', body: window.confirmedForm, headers});
        const answers = await Promise.all([post(), post(), post()]);
        return answers.map(answer => answer.status);
    }"""
    )
    assert statuses == [200, 200, 200]
    shot(page, "10-double-click")
    (settled,) = Round.objects.all()
    assert settled.status == RoundStatus.SETTLED and settled.house_net == D("-95000")
    assert LedgerEntry.objects.filter(round=settled).count() == 4  # stake result + commission


def test_a_void_is_approved_by_a_supervisor_on_the_same_screen(page, floor):
    session = open_session(floor)
    round_ = settled_round(floor, session)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/history/")
    page.click(f"#round-{round_.pk} a")
    page.wait_for_selector(".void-form")
    page.fill(".void-form input[name=reason]", "misdeal at box 1")
    page.fill(".void-form input[name=supervisor]", "supervisor")
    page.fill(".void-form input[name=password]", "wrong")
    page.click(".void-form button")
    page.wait_for_selector(".void-form .error")
    shot(page, "11-void-wrong-password")
    round_.refresh_from_db()
    assert round_.status == RoundStatus.SETTLED
    page.fill(".void-form input[name=supervisor]", "supervisor")
    page.fill(".void-form input[name=password]", "pw-for-tests")
    page.click(".void-form button")
    page.wait_for_selector(f"#round-{round_.pk}.voided")
    shot(page, "12-void-approved")
    round_.refresh_from_db()
    assert round_.status == RoundStatus.VOIDED
    assert (round_.void_requested_by, round_.voided_by) == (floor.dealer, floor.supervisor)
    assert LedgerEntry.objects.filter(session=session).aggregate(s=Sum("amount"))["s"] == 0


def test_the_session_is_closed_with_its_variance(page, floor):
    session = open_session(floor)
    settled_round(floor, session)  # the house lost 95,000: 4,905,000 expected in the tray
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/close/")
    page.fill("#chips-1000000", "4")
    page.fill("#chips-100000", "9")
    page.fill("#chips-1000", "6")  # 4,906,000 counted
    assert page.text_content("[data-variance]") == "+1,000"
    page.get_by_label("Lý do chênh lệch").fill("tiền boa của khách để trên bàn")
    page.fill("input[name=supervisor]", "supervisor")
    page.fill("input[name=password]", "pw-for-tests")
    shot(page, "13-close-count")
    page.click("#close button.primary")
    page.wait_for_selector("#summary")
    assert page.text_content("[data-figure=variance]") == "+1,000"
    assert page.text_content("[data-figure=win_by_ledger]") == "-95,000"
    shot(page, "14-closed-summary")
    session.refresh_from_db()
    assert (session.status, session.variance) == (TableSession.Status.CLOSED, D("1000"))


def test_the_table_opens_with_the_count_beside_its_inventory(page, floor):
    # given the table closed with 50 x 100,000 in its tray
    closed = session_close(
        session=open_session(floor),
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
    )
    log_in(page, "dealer")
    page.goto(f"/console/tables/{floor.table.pk}/open/")
    row = page.locator("tr[data-row='100000']")
    assert row.locator("[data-expected-count]").text_content() == "50"
    # the difference shows as the dealer types
    page.fill("#chips-100000", "49")
    assert row.locator("[data-difference]").text_content() == "-1"
    assert page.text_content("[data-difference-total]") == "-100,000"
    page.fill("input[name=supervisor]", "supervisor")
    page.fill("input[name=password]", "pw-for-tests")
    page.get_by_role("button", name="Mở bàn").click()
    # refused without a reason, the difference named
    refusal = page.locator("#discrepancy-reason-error")
    refusal.wait_for()
    assert "-1 × 100,000 (-100,000)" in refusal.text_content()
    assert row.locator("[data-difference]").text_content() == "-1"
    shot(page, "15a-open-difference")
    page.get_by_label("Lý do chênh lệch").fill("một phỉnh đã chuyển về quầy thu ngân")
    page.fill("input[name=supervisor]", "supervisor")
    page.fill("input[name=password]", "pw-for-tests")
    page.get_by_role("button", name="Mở bàn").click()
    banner = page.locator("#opening-discrepancy")
    banner.wait_for()
    assert "một phỉnh đã chuyển về quầy thu ngân" in banner.text_content()
    opened = TableSession.objects.get(status="open")
    assert opened.opening_expected_chips == closed.closing_chips
    assert (opened.opening_discrepancy, opened.opening_confirmed_by) == (
        {"100000": -1},
        floor.supervisor,
    )


def test_a_dealer_of_one_venue_cannot_open_another_venues_table(page, floor):
    log_in(page, "dealer")
    response = page.goto(f"/console/tables/{floor.other_table.pk}/open/")
    assert response.status == 404
    shot(page, "15-other-venue")
    page.goto("/console/")
    status = page.evaluate(
        """async (url) => {
        const token = JSON.parse(document.body.getAttribute('hx-headers') || '{}')['X-CSRFToken'];
        const answer = await fetch(url, {method: 'POST', headers: {'X-CSRFToken': token || ''},
                                         body: new URLSearchParams({'chips-1000': '1'})});
        return answer.status;
    }""",
        f"/console/tables/{floor.other_table.pk}/open/",
    )
    assert status == 404
    assert not TableSession.objects.filter(table=floor.other_table).exists()


def test_a_hand_typed_while_a_preview_is_on_its_way_shows_as_typed(page, floor):
    """The preview redraws every hand as it read them; a hand's own answer, asked for after
    the preview left and arriving after it, still lands on the hand."""
    session = open_session(floor)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    page.fill("#box-1-single", "100000")
    page.fill("#box-1-cards", "ks qs 5h 4h")
    page.fill("#dealer-cards", "js qh jd ac 7h")
    page.wait_for_selector("#hand-dealer .category:has-text('Niu 8')")
    page.wait_for_load_state("networkidle")

    held = {}
    page.route("**/preview/**", lambda route: held.setdefault("preview", route))
    page.route("**/hand/**", lambda route: held.setdefault("hand", route))
    page.click("#preview-button")
    page.fill("#box-1-cards", "ks qs 5h 4h tc")
    for _ in range(100):
        if len(held) == 2:
            break
        page.wait_for_timeout(100)
    assert set(held) == {"preview", "hand"}
    with page.expect_response("**/preview/**"):
        held["preview"].continue_()
    with page.expect_response("**/hand/**"):
        held["hand"].continue_()
    page.wait_for_selector("#hand-1 .category:has-text('Niu 9')")
    page.unroute("**/preview/**")
    page.unroute("**/hand/**")
