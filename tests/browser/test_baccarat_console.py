"""A Baccarat round in the browser: three seats, a Super 6, typed from the keyboard by the
screen's visible labels, previewed and confirmed once.

The deal (no-commission preset): Player 4H AD = 5 draws 5S, 0; Banker 3C 3S = 6 stands on 6
against a Player's third card of 5 (it draws on 6 only against 6-7). The Banker wins with 6
in two cards: a Banker bet wins half its stake, Super 6 pays 12:1. By hand:

- Seat 1: Banker 100,000 wins 50,000, Super 6 10,000 wins 120,000: +170,000;
- Seat 2: Player 50,000 and Tie 10,000 lose: -60,000;
- Seat 3: Banker 30,000 wins 15,000, Player Pair 10,000 loses: +5,000.

Paid out 185,000, collected 70,000, no commission: the house -115,000.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db.models import Sum

from casino.floor.models import Round, RoundStatus
from casino.floor.services.sessions import session_open
from casino.ledger.models import LedgerEntry
from casino.staff.roles import MANAGER
from tests.baccarat.conftest import baccarat_ruleset, baccarat_table
from tests.browser.conftest import log_in, shot
from tests.factories import staff

pytestmark = pytest.mark.django_db(transaction=True)

STAKES = {
    1: {"Banker": "100000", "Super 6": "10000"},
    2: {"Player": "50000", "Tie": "10000"},
    3: {"Banker": "30000", "Player Pair": "10000"},
}


def focused(page) -> str:
    return page.evaluate("document.activeElement && document.activeElement.id")


def test_a_three_seat_round_with_a_super_6(page, floor, live_server):
    approver = staff("bac-approver", MANAGER, floor.venue)
    ruleset = baccarat_ruleset(floor.venue, floor.manager, approver, preset="no-commission")
    table = baccarat_table(floor.venue, ruleset)
    session = session_open(
        table=table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    page.get_by_label("Player card 1", exact=True).wait_for()
    assert page.text_content("#shoe-number") == "Shoe 1"

    for position, stakes in STAKES.items():
        for bet, amount in stakes.items():
            page.get_by_label(f"Seat {position}: {bet}", exact=True).fill(amount)

    # keyboard-first: each card moves on; after the fourth the tableau says what comes next
    page.get_by_label("Seat 4: Player", exact=True).focus()
    page.keyboard.press("Enter")  # on an empty seat the seats are done: on to the deal
    assert focused(page) == "bac-p1"
    for card, then in (("4h", "bac-b1"), ("3c", "bac-p2"), ("ad", "bac-b2")):
        page.keyboard.type(card)
        assert focused(page) == then
    page.keyboard.type("3s")
    player = page.get_by_role("region", name="Player hand")
    banker = page.get_by_role("region", name="Banker hand")
    banker.get_by_text("Banker waits for the Player's third card").wait_for()
    assert "Player draws on 5" in player.text_content()
    page.wait_for_function("() => document.activeElement.id === 'bac-p3'")
    assert "Player draws on 5: enter the card" in page.text_content("#note-bac-p3")
    page.keyboard.type("5s")
    page.get_by_text("Banker wins, 6 to 0: Super 6").wait_for()
    assert "Player drew a third card: 0" in player.text_content()
    assert "Banker stands on 6" in banker.text_content()
    assert "Banker stands on 6: leave it empty" in page.text_content("#note-bac-b3")
    assert focused(page) == "bac-p3"

    # Enter on the last card of the deal previews
    page.keyboard.press("Enter")
    page.wait_for_selector("#confirm")
    nets = {}
    for position in STAKES:
        region = page.get_by_role("region", name=f"Seat {position} settlement")
        nets[position] = region.locator("[data-seat-net]").text_content()
    assert nets == {1: "+170,000", 2: "-60,000", 3: "+5,000"}
    seat_1 = page.get_by_role("region", name="Seat 1 settlement")
    assert seat_1.locator("tr[data-bet=banker] [data-net]").text_content() == "+50,000"
    assert seat_1.locator("tr[data-bet=super6] [data-net]").text_content() == "+120,000"
    assert seat_1.locator("tr[data-bet=super6] .outcome").text_content().split() == ["win", "12:1"]
    seat_3 = page.get_by_role("region", name="Seat 3 settlement")
    assert seat_3.locator("tr[data-bet=player_pair] [data-net]").text_content() == "-10,000"
    assert page.text_content("[data-total=paid]") == "185,000"
    assert page.text_content("[data-total=collected]") == "70,000"
    assert page.text_content("[data-total=house]") == "-115,000"
    assert "Super 6" in page.text_content("#preview-deal")
    shot(page, "baccarat-preview")

    # Ctrl+Enter confirms once; a second press on the next round's form does nothing
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(".banner.settled[data-round='1']")
    page.keyboard.press("Control+Enter")
    page.wait_for_timeout(300)
    (settled,) = Round.objects.filter(session=session)
    assert settled.status == RoundStatus.SETTLED
    assert settled.dealer_cards == "4H 3C AD 3S 5S"
    assert settled.house_net == D("-115000")
    assert LedgerEntry.objects.filter(round=settled).aggregate(t=Sum("amount"))["t"] == 0
    assert settled.dealer_evaluation["super6"] is True
    # the next round: the same stakes, a new deal starting at its first card
    assert page.get_by_label("Seat 1: Super 6", exact=True).input_value() == "10,000"
    assert page.get_by_label("Player card 1", exact=True).input_value() == ""
    page.wait_for_function("() => document.activeElement.id === 'bac-p1'")
    shot(page, "baccarat-settled")

    # the history shows the deal and its shoe
    page.click("nav a[href$='/history/']")
    page.wait_for_selector(f"#round-{settled.pk}")
    page.click(f"#round-{settled.pk} a")
    page.wait_for_selector(f"#round-detail-{settled.pk} .bac-detail")
    detail = page.text_content(f"#round-detail-{settled.pk}")
    assert "Shoe 1" in detail and "Super 6" in detail and "Seat 3" in detail
