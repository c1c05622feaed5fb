"""The console's shared readers: amounts, cards, players, money as the venue writes it."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.utils import translation

from casino.floor.console import forms
from casino.kernel.money import format_money
from casino.players.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    ("typed", "amount"),
    [("100000", D("100000")), ("100,000", D("100000")), ("1 000 000", D("1000000")), ("", None)],
)
def test_amounts_are_read_with_separators(typed, amount):
    assert forms.read_amount(typed) == amount


@pytest.mark.parametrize("typed", ["ten", "-5", "1e3", "12..5"])
def test_what_is_not_an_amount_is_refused(typed):
    with pytest.raises(ValueError, match="is not an amount"):
        forms.read_amount(typed)


def test_membership_numbers_are_looked_up_and_barred_players_refused(floor):
    barred = Player.objects.create(
        venue=floor.venue, membership_number="M-9", name="Barred", status=Player.Status.BARRED
    )
    assert forms.read_player("m-9", {"M-9": barred}) == (
        barred,
        "player M-9 is barred and cannot play",
    )
    assert forms.read_player("X-1", {})[1] == "No player with membership number X-1 at this venue"
    assert forms.read_player("", {}) == (None, "")


def test_cards_are_read_once_each_up_to_the_first_mistake():
    read = forms.read_cards("ks qh zz 3c", twice="%(card)s twice")
    assert read.canonical == "KS QH"
    assert read.error == "“zz” is not a card: rank A 2-10 J Q K, suit S H C D or ♠ ♥ ♣ ♦"
    assert forms.read_cards("ks ks", twice="%(card)s twice").error == "K♠ twice"


@pytest.mark.parametrize(
    ("amount", "currency", "text"),
    [
        (D("1234000"), "VND", "1,234,000"),
        (D("1234000.00"), "KRW", "1,234,000"),
        (D("1234.5"), "MOP", "1,234.50"),
        (D("-0.10"), "MOP", "-0.10"),
    ],
)
def test_money_in_the_venue_currency(amount, currency, text):
    assert format_money(amount, currency) == text


@pytest.mark.parametrize(
    ("typed", "grouping", "amount"),
    [
        ("100.000", "dot", D("100000")),
        ("1.000.000", "dot", D("1000000")),
        ("1.234,50", "dot", D("1234.50")),
        ("100000", "dot", D("100000")),
        ("1 000 000", "dot", D("1000000")),
        ("1\u00a0000\u00a0000,5", "space", D("1000000.5")),
        ("1,000,000", "comma", D("1000000")),
        ("12.50", "comma", D("12.50")),
    ],
)
def test_amounts_are_read_in_the_venues_grouping_or_as_plain_digits(typed, grouping, amount):
    assert forms.read_amount(typed, grouping) == amount


@pytest.mark.parametrize(
    ("typed", "grouping", "hint"),
    [
        # what the other grouping would read otherwise is refused, never guessed
        ("100,000", "dot", "write 100.000 or 100000, decimals as 12,50"),
        ("12.5", "dot", "write 100.000 or 100000, decimals as 12,50"),
        ("1.00.000", "dot", "write 100.000 or 100000, decimals as 12,50"),
        ("100.000", "comma", "write 100,000 or 100000, decimals as 12.50"),
        ("1,00,000", "comma", "write 100,000 or 100000, decimals as 12.50"),
        ("1.000", "space", "write 100\u00a0000 or 100000, decimals as 12,50"),
        ("ten", "dot", "write 100.000 or 100000, decimals as 12,50"),
    ],
)
def test_an_amount_read_two_ways_is_refused_saying_how_to_write_it(typed, grouping, hint):
    with pytest.raises(ValueError) as refused:
        forms.read_amount(typed, grouping)
    assert str(refused.value) == f"“{typed}” is not an amount: {hint}"


def test_a_stake_refused_by_the_table_names_its_limits_in_the_venues_grouping(floor):
    from casino.venues.models import TableLimit

    limit = TableLimit.objects.get(table=floor.table, bet_type="single")
    amount, error = forms.read_stake("20.000.000", unit=D("1000"), limit=limit, grouping="dot")
    assert amount == D("20000000")
    assert error == "the stake 20.000.000 is above the table maximum of 10.000.000"


@pytest.mark.parametrize(
    ("amount", "grouping", "text"),
    [
        (D("1234000"), "dot", "1.234.000"),
        (D("-1234.5"), "dot", "-1.234,50"),
        (D("1234000"), "space", "1\u00a0234\u00a0000"),
    ],
)
def test_money_in_the_venues_grouping(amount, grouping, text):
    currency = "MOP" if amount % 1 else "VND"
    assert format_money(amount, currency, grouping=grouping) == text
