"""The one reader of amounts (``casino.kernel.amounts``) and the fields built on it: what it reads
at Hà Nội (points group thousands, VND has no decimals), what it refuses, and its words."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django import forms
from rest_framework import serializers

from casino.api.serializers.fields import MoneyField
from casino.kernel.amounts import AmountField, check_amount, read_amount
from casino.kernel.errors import InvalidInput
from casino.venues.models import Venue
from casino.venues.services.venues import venue_update

pytestmark = pytest.mark.django_db

#: What the reader answers at Hà Nội for what is not an amount of VND.
HOW_TO = "is not an amount: write 100.000 or 100000, without decimals"


def dot(venue: Venue) -> Venue:
    venue.amount_grouping = "dot"
    venue.save(update_fields=["amount_grouping"])
    return venue


@pytest.mark.parametrize(
    ("typed", "amount"),
    [("200.000", D(200000)), ("1.000.000", D(1000000)), ("500000", D(500000)), (" 7 ", D(7))],
)
def test_at_hanoi_an_amount_is_read_in_the_venues_grouping(floor, typed, amount):
    assert read_amount(typed, dot(floor.venue)) == amount


@pytest.mark.parametrize(
    "typed", ["1,5", "0.5", "1E+1", "1e5", "1_000", "NaN", "Infinity", "-inf", "100.5", "0,01"]
)
def test_at_hanoi_what_is_not_an_amount_of_vnd_is_refused_saying_how_to_write_it(floor, typed):
    with pytest.raises(ValueError) as refused:
        read_amount(typed, dot(floor.venue))
    assert str(refused.value) == f"“{typed}” {HOW_TO}"


def test_underscores_and_exponents_are_refused_in_every_grouping():
    for grouping in ("comma", "dot", "space"):
        for typed in ("1_000", "1e3", "1E+1", "nan"):
            with pytest.raises(ValueError, match="is not an amount"):
                read_amount(typed, grouping)


def test_a_unit_refuses_an_amount_off_it(floor):
    venue = dot(floor.venue)
    assert read_amount("2.000", venue, unit=D(1000)) == D(2000)
    with pytest.raises(ValueError) as refused:
        read_amount("500", venue, unit=D(1000))
    assert str(refused.value) == (
        "“500” is not an amount here: write a multiple of 1.000, e.g. 100.000 or 100000"
    )


def test_a_service_given_half_a_dong_refuses_it_as_the_form_does(floor):
    with pytest.raises(InvalidInput) as refused:
        check_amount(D("0.5"), floor.venue, field="amount")
    assert refused.value.message == f"“0.5” {HOW_TO.replace('100.000', '100,000')}"
    assert refused.value.field == "amount"
    assert check_amount("1.000", dot(floor.venue)) == D(1000)  # text is read by the reader
    for given in (0.5, None, D("NaN"), D("1E+20")):
        with pytest.raises(InvalidInput):
            check_amount(given, floor.venue)  # a float is never an amount


def test_the_api_field_reads_json_numbers_only_as_written():
    field = MoneyField()
    assert field.to_internal_value(100000) == D("100000.00")
    assert field.to_internal_value("12.50") == D("12.50")
    for sent in (1e5, True, "1e5", "1_000", "NaN", "Infinity", ""):
        with pytest.raises(serializers.ValidationError):
            field.to_internal_value(sent)


def test_the_form_field_reads_at_its_venue_and_writes_back_in_its_grouping(floor):
    class Form(forms.Form):
        amount = AmountField()

    venue = dot(floor.venue)
    form = Form({"amount": "200.000"})
    form.fields["amount"].bind(venue)
    assert form.is_valid() and form.cleaned_data["amount"] == D(200000)
    refused = Form({"amount": "1,5"})
    refused.fields["amount"].bind(venue)
    assert not refused.is_valid() and refused.errors["amount"] == [f"“1,5” {HOW_TO}"]
    assert form.fields["amount"].prepare_value(D("1500000.00")) == "1.500.000"


def test_a_venues_own_amounts_are_held_to_its_currency(floor):
    with pytest.raises(InvalidInput) as refused:
        venue_update(venue=floor.venue, user=floor.manager, variance_reason_over=D("0.5"))
    assert refused.value.field == "variance_reason_over"
    assert refused.value.message == f"“0.5” {HOW_TO.replace('100.000', '100,000')}"
    saved = venue_update(venue=floor.venue, user=floor.manager, variance_reason_over=D("50000"))
    assert saved.variance_reason_over == D("50000")
