"""In the browser: a buy-in recorded from the table's console by keyboard alone.

The dealer opens the table's Buy-ins page, where the membership number has the focus,
types it, tabs to the amount, types it as the venue writes amounts and presses Enter: a
cash buy-in, shown in the session's list.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from playwright.sync_api import expect

from casino.models import CashTransaction
from casino.services.players import player_bar
from casino.services.sessions import session_open
from casino.timezones import venue_today
from tests.browser.conftest import log_in, shot
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_buy_in_is_recorded_by_keyboard_and_listed_at_the_table(page, floor):
    floor.venue.language = "en"
    floor.venue.save(update_fields=["language"])
    player = PlayerFactory(venue=floor.venue, membership_number="VIP-7", name="Tran Van A")
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    page.get_by_role("link", name="Buy-ins").click()
    # The membership number has the focus: type it, Tab, the amount, Enter.
    assert page.get_by_label("Membership number").evaluate("e => e === document.activeElement")
    page.keyboard.type("vip-7")
    page.keyboard.press("Tab")
    page.keyboard.type("1,500,000")
    page.keyboard.press("Enter")
    notice = page.get_by_role("status")
    notice.wait_for()
    assert "Buy-in of 1,500,000 (Cash) recorded for Tran Van A." in notice.text_content()
    listing = page.get_by_role("region", name="Buy-ins and cash-outs of this session")
    row = listing.get_by_role("row", name="VIP-7 Tran Van A")
    assert "1,500,000" in row.text_content() and "Buy-in" in row.text_content()
    (tx,) = CashTransaction.objects.all()
    assert (tx.player, tx.amount, tx.kind, tx.instrument) == (
        player,
        D("1500000"),
        "buy_in",
        "cash",
    )
    # The form is ready for the next one, the focus back on the membership number.
    page.get_by_label("Membership number").wait_for()
    assert page.get_by_label("Membership number").input_value() == ""
    shot(page, "cash-buy-in")


def test_a_barred_members_buy_in_is_refused_with_the_barring_beside_their_number(page, floor):
    floor.venue.language = "en"
    floor.venue.save(update_fields=["language"])
    player = PlayerFactory(venue=floor.venue, membership_number="VIP-9", name="Le Thi B")
    # A barring in force; the player's status stays active.
    player_bar(
        player=player,
        user=floor.manager,
        reason="self-exclusion",
        starts_on=venue_today(floor.venue),
    )
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/cash/")
    page.get_by_label("Membership number").fill("vip-9")
    page.get_by_label("Amount").fill("1,000,000")
    page.keyboard.press("Enter")
    number = page.get_by_label("Membership number")
    expect(number).to_have_attribute("aria-invalid", "true")
    expect(number).to_have_accessible_description(
        f"player VIP-9 is barred from {venue_today(floor.venue).isoformat()} "
        "(self-exclusion) and cannot buy in"
    )
    assert not CashTransaction.objects.exists()
