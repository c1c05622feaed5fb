"""In the browser: a buy-in recorded from the table's console by keyboard alone.

The dealer opens the table's Buy-ins page, where the membership number has the focus,
types it, tabs to the amount, types it as the venue writes amounts and presses Enter: a
cash buy-in, shown in the session's list.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from playwright.sync_api import expect

from casino.cage.models import CashTransaction
from casino.cage.services.cash import cash_record
from casino.cage.services.thresholds import thresholds_approve, thresholds_propose
from casino.floor.services.sessions import session_open
from casino.kernel.timezones import venue_today
from casino.players.services import player_bar
from casino.staff.roles import MANAGER
from tests.browser.conftest import log_in, shot
from tests.factories import PlayerFactory, staff

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


def test_a_buy_in_reaching_the_reporting_threshold_is_said_before_recording_and_seen_by_the_pit(
    page, person, floor
):
    """The member's earlier cash of the day and this buy-in reach the reporting threshold:
    the form says so before recording and asks for an identity document; once recorded,
    the dealer's list marks it and the pit watching the table sees it."""
    floor.venue.language = "en"
    floor.venue.save(update_fields=["language"])
    version = thresholds_propose(
        venue=floor.venue,
        user=floor.manager,
        logging_threshold=D("30000000"),
        reporting_threshold=D("100000000"),
    )
    thresholds_approve(version=version, user=staff("approver", MANAGER, floor.venue))
    player = PlayerFactory(venue=floor.venue, membership_number="VIP-7", name="Tran Van A")
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    cash_record(session=session, user=floor.dealer, player=player, amount=D("80000000"))
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/cash/")
    page.get_by_label("Membership number").fill("vip-7")
    page.get_by_label("Amount (VND)").fill("20,000,000")
    page.get_by_role("button", name="Record").click()

    warning = page.get_by_role("alert").filter(has_text="Reporting threshold reached")
    warning.wait_for()
    assert (
        "With this one, Tran Van A's cash today comes to 100,000,000: it reaches the "
        "reporting threshold of 100,000,000." in warning.inner_text()
    )
    assert CashTransaction.objects.count() == 1  # said before anything is recorded
    shot(page, "cash-threshold-asks-identification")
    page.get_by_label("Identity document type").fill("passport")
    page.get_by_label("Identity document number").fill("C7654321")
    page.get_by_role("button", name="Record with the threshold").click()

    notice = page.get_by_role("status").filter(has_text="recorded for Tran Van A")
    notice.wait_for()
    assert "the cage and the pit are alerted" in notice.inner_text()
    listing = page.get_by_role("region", name="Buy-ins and cash-outs of this session")
    row = listing.get_by_role("row").filter(has_text="20,000,000")
    assert "Reporting threshold" in row.inner_text()
    tx = CashTransaction.objects.latest("pk")
    assert (tx.threshold, tx.id_document_type, tx.id_document_number) == (
        "reporting",
        "passport",
        "C7654321",
    )

    pit = person("supervisor")
    pit.goto(f"/console/sessions/{session.pk}/watch/")
    crossings = pit.get_by_role("region", name="Cash at the thresholds")
    reported = crossings.get_by_role("listitem").filter(has_text="Reporting threshold")
    reported.wait_for()
    assert "VIP-7 Tran Van A" in reported.inner_text()
    assert "20,000,000" in reported.inner_text()
    # The earlier buy-in of the day reached the logging threshold on its own.
    assert "80,000,000" in crossings.get_by_role("listitem").filter(has_text="Logging").inner_text()
    shot(pit, "cash-threshold-pit")


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
