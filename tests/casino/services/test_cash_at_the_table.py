"""A threshold reached at the table: the buy-in form says so before recording (the patron's
earlier cash of the gaming day counted, as the log and the alert count it), asks for the
identification the services require, and after recording the dealer's list and the pit's
view of the table show it. One rule: ``threshold_crossing``, asked by the form and by
``cash_record``."""

from __future__ import annotations

from decimal import Decimal as D
from html import unescape

import pytest
from django.conf import settings
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.cage.models import CashAlert, CashTransaction
from casino.cage.services.cash import cash_record
from casino.cage.services.thresholds import Identification, threshold_crossing
from casino.kernel.errors import InvalidInput
from casino.venues.services.pits import pit_create
from tests.casino.services.conftest import LOG, REPORT
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(floor):
    """A member with no identity document on record."""
    return PlayerFactory(venue=floor.venue, membership_number="VIP-7", name="Tran Van A")


def buy_in(session, user, player, amount, **extra):
    return cash_record(session=session, user=user, player=player, amount=D(amount), **extra)


def crossing(floor, player, amount, **extra):
    return threshold_crossing(
        venue=floor.venue,
        kind=extra.pop("kind", "buy_in"),
        instrument=extra.pop("instrument", "cash"),
        amount=D(amount),
        player=player,
    )


def test_the_rule_counts_the_days_earlier_cash_and_says_what_it_needs(
    floor, session, player, thresholds
):
    assert crossing(floor, player, "29000000") is None
    logged = crossing(floor, player, "30000000")
    assert (logged.level, logged.threshold, logged.identification) == ("logging", LOG, "")
    buy_in(session, floor.dealer, player, "80000000")
    reached = crossing(floor, player, "20000000")
    assert (reached.level, reached.earlier, reached.total, reached.threshold) == (
        "reporting",
        D("80000000"),
        D("100000000"),
        REPORT,
    )
    assert reached.identification == Identification.DOCUMENT
    # Chips and the other direction are apart; a patron nobody knows counts alone.
    assert crossing(floor, player, "90000000", instrument="chips") is None
    assert crossing(floor, player, "20000000", kind="cash_out") is None
    unknown = crossing(floor, None, "40000000")
    assert (unknown.level, unknown.identification) == ("logging", Identification.DESCRIPTION)
    player.id_document_number = "B1234567"
    assert crossing(floor, player, "20000000").identification == Identification.NONE


def test_the_service_refuses_a_crossing_without_the_identification_it_needs(
    floor, session, player, thresholds
):
    buy_in(session, floor.dealer, player, "80000000")
    with pytest.raises(InvalidInput) as refused:
        buy_in(session, floor.dealer, player, "20000000")
    assert (refused.value.field, refused.value.reason) == (
        "id_document_type",
        "identification_required",
    )
    with pytest.raises(InvalidInput) as refused:
        buy_in(session, floor.dealer, None, "40000000")
    assert refused.value.field == "patron_description"
    assert CashTransaction.objects.count() == 1
    tx = buy_in(
        session,
        floor.dealer,
        player,
        "20000000",
        id_document_type="passport",
        id_document_number="C7654321",
    )
    assert (tx.threshold, tx.id_document_type, tx.id_document_number) == (
        "reporting",
        "passport",
        "C7654321",
    )
    assert CashAlert.objects.get().transaction == tx
    event = AuditEvent.objects.filter(action="cash.buy_in").latest("pk")
    assert event.after["id_document"] == "passport ••••4321"
    described = buy_in(
        session, floor.dealer, None, "40000000", patron_description="man, 40s, grey jacket"
    )
    assert (described.threshold, described.patron_description) == (
        "logging",
        "man, 40s, grey jacket",
    )


def test_the_form_says_it_before_recording_then_the_dealer_and_the_pit_see_it(
    dealer, client, floor, session, player, thresholds
):
    buy_in(session, floor.dealer, player, "80000000")
    url = reverse("console:cash", args=[session.pk])
    typed = {"player": "vip-7", "amount": "20,000,000", "key": "a" * 32}

    warned = dealer.post(url, typed)

    assert warned.status_code == 200
    html = unescape(warned.content.decode())
    assert "Reporting threshold reached" in html
    assert (
        "With this one, Tran Van A's cash today comes to 100,000,000: it reaches the "
        "reporting threshold of 100,000,000."
    ) in html
    assert "Ask for an identity document" in html
    assert 'name="id_document_number"' in html
    assert 'name="threshold_shown" value="reporting"' in html
    assert CashTransaction.objects.count() == 1  # nothing recorded yet

    missing = dealer.post(url, {**typed, "threshold_shown": "reporting"})
    assert missing.status_code == 422
    assert "give its type and number" in missing.content.decode()
    assert CashTransaction.objects.count() == 1

    shown = {
        **typed,
        "threshold_shown": "reporting",
        "id_document_type": "passport",
        "id_document_number": "C7654321",
    }
    recorded = dealer.post(url, shown)
    assert recorded.status_code == 200
    html = recorded.content.decode()
    assert "It reached the reporting threshold: the cage and the pit are alerted." in html
    assert "threshold reporting" in html  # the list's mark on the row
    tx = CashTransaction.objects.latest("pk")
    assert (tx.threshold, tx.id_document_number) == ("reporting", "C7654321")

    client.force_login(floor.supervisor)
    watch = client.get(reverse("console:watch", args=[session.pk])).content.decode()
    assert "Cash at the thresholds" in watch
    assert "Reporting threshold" in watch and "VIP-7 Tran Van A" in watch
    assert "20,000,000" in watch
    # The pit's floor view: the table's card carries the alert.
    pit = pit_create(
        user=floor.manager,
        venue=floor.venue,
        code="P1",
        name="Main pit",
        supervisors=[floor.supervisor],
        tables=[floor.table],
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    card = client.get(reverse("console:pit", args=[pit.pk])).content.decode()
    assert "A buy-in or cash-out reached the reporting threshold" in card


def test_an_unknown_patrons_cash_at_the_logging_threshold_asks_for_a_description(
    dealer, floor, session, thresholds
):
    url = reverse("console:cash", args=[session.pk])
    typed = {"player": "", "amount": "40,000,000", "key": "b" * 32}
    warned = dealer.post(url, typed).content.decode()
    assert "Logging threshold reached" in warned
    assert "The patron is not a known member: describe them" in warned
    assert not CashTransaction.objects.exists()
    described = {**typed, "threshold_shown": "logging", "patron_description": "woman, red coat"}
    recorded = dealer.post(url, described).content.decode()
    assert "It reached the logging threshold: it goes in the cash log." in recorded
    assert CashTransaction.objects.get().patron_description == "woman, red coat"


def test_a_buy_in_below_the_thresholds_is_recorded_at_once(dealer, floor, session, thresholds):
    url = reverse("console:cash", args=[session.pk])
    answer = dealer.post(url, {"player": "", "amount": "1,000,000", "key": "c" * 32})
    assert answer.status_code == 200
    assert CashTransaction.objects.get().threshold == ""
    assert "threshold" not in answer.content.decode().split('role="status"')[1][:200]
