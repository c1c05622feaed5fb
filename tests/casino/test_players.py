"""The stored form of a membership number (casino/players/membership.py), as typed and as stored."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.forms import modelform_factory
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from casino.players.membership import (
    STORED_FORM,
    MembershipNumberFormField,
    NotAMembershipNumber,
    membership_key,
    membership_number,
)
from casino.players.models import Player


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("HANOI-0001", "HANOI-0001"),
        (" hanoi-0001\t", "HANOI-0001"),
        ("ＭＢ－００１", "MB-001"),  # full-width, as a CJK keyboard types it
        ("\u3000ｖｉｐ．７／Ａ\u3000", "VIP.7/A"),  # with ideographic spaces around
        ("a" * 32, "A" * 32),
        ("7", "7"),
    ],
)
def test_a_number_is_stored_in_one_form(typed, stored):
    assert membership_number(typed) == stored
    assert membership_key(typed) == stored
    assert re.fullmatch(STORED_FORM, stored)


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ("MB-ß1", "“ß” (U+00DF)"),  # Python upper-cases it to SS
        ("MB-ﬁ1", "“ﬁ” (U+FB01)"),  # a ligature, FI under compatibility mapping
        ("MB-\x001", "U+0000"),
        ("HN\u200b1", "U+200B"),  # zero-width space
        ("МВ-1", "“М” (U+041C), “В” (U+0412)"),  # Cyrillic look-alikes of M and B
        ("HN 1", "“ ” (U+0020)"),
        ("HN_1", "“_” (U+005F)"),
        ("Đ-1", "“Đ” (U+0110)"),
        ("ＭＢ＿１", "“_” (U+005F)"),  # full-width underscore is still an underscore
    ],
)
def test_a_number_outside_the_form_is_refused_naming_what_is_wrong(typed, named):
    with pytest.raises(NotAMembershipNumber) as refused:
        membership_number(typed)
    assert str(refused.value) == (
        "A membership number may hold only the letters A to Z, the digits 0 to 9 and the "
        f"signs - . /; retype it without {named}."
    )
    assert membership_key(typed) is None


#: Mostly characters near the edge of the form: allowed, full-width, look-alike, invisible.
TYPED = st.text(alphabet="aZz09-./_ \tＡｚ０－\u3000ßﬁКİı\x00\u200b", max_size=40) | st.text()


@given(TYPED)
def test_any_text_gives_the_stored_form_or_nothing(text):
    key = membership_key(text)
    if key is not None:
        assert re.fullmatch(STORED_FORM, key)
        assert membership_key(key) == key
        # only ASCII letters, digits and - . / (or their full-width forms) were typed
        assert all(
            c in "-./" or (c.isascii() and c.isalnum())
            for c in text.strip().translate({code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)})
        )


def test_an_empty_or_long_number_is_refused_saying_how_long_one_is():
    for blank in ("", "   ", None):
        with pytest.raises(NotAMembershipNumber, match="Enter a membership number: 1 to 32"):
            membership_number(blank)
    with pytest.raises(NotAMembershipNumber) as refused:
        membership_number("Ａ" * 33)
    assert str(refused.value) == "A membership number has at most 32 characters; this one has 33."


def test_the_message_is_translated():
    with translation.override("vi"), pytest.raises(NotAMembershipNumber) as refused:
        membership_number("MB-ß1")
    assert str(refused.value) == (
        "Số hội viên chỉ được gồm chữ cái A đến Z, chữ số 0 đến 9 và các dấu - . /; "
        "hãy nhập lại, bỏ “ß” (U+00DF)."
    )


def test_a_form_field_cleans_into_the_stored_form_or_says_why_not():
    field = MembershipNumberFormField(max_length=32)
    assert field.clean(" ｈａｎｏｉ-0001 ") == "HANOI-0001"
    with pytest.raises(ValidationError) as refused:
        field.clean("MB-ß1")
    assert "“ß” (U+00DF)" in refused.value.messages[0]


@pytest.mark.django_db
def test_a_player_form_built_on_the_model_stores_the_form(venue):
    """The admin's forms are built from the model: they clean the number the same way."""
    PlayerForm = modelform_factory(Player, fields=["venue", "membership_number", "name", "status"])
    form = PlayerForm(
        {"venue": venue.pk, "membership_number": "hn-1", "name": "An", "status": "active"}
    )
    assert form.is_valid(), form.errors
    assert form.save().membership_number == "HN-1"
    near = PlayerForm(
        {"venue": venue.pk, "membership_number": "Hn-1", "name": "B", "status": "active"}
    )
    assert not near.is_valid()
    refused = PlayerForm(
        {"venue": venue.pk, "membership_number": "MB-ﬁ1", "name": "C", "status": "active"}
    )
    assert "“ﬁ” (U+FB01)" in refused.errors["membership_number"][0]
