"""The Mau Binh screen's member lookup: a typed number finds its own member or nobody."""

from __future__ import annotations

import pytest

from casino.floor.models import Round
from tests.factories import PlayerFactory
from tests.maubinh.test_console import HX, SEAT_1, digest_of, round_data, seat_fields, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealer_client(client, dealer, settings):
    client.force_login(dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def members(venue):
    return {
        number: PlayerFactory(venue=venue, membership_number=number, name=f"Owner of {number}")
        for number in ("MB-SS1", "MB-FI1", "MB-001")
    }


@pytest.mark.parametrize(
    ("typed", "owner"), [("MB-ß1", None), ("MB-ﬁ1", None), ("ＭＢ－００１", "MB-001")]
)
def test_a_seat_finds_the_stored_form_or_nobody(dealer_client, session, members, typed, owner):
    query = {"seat": "1", "seat-1-member": typed, **seat_fields(1, SEAT_1)}
    html = dealer_client.get(url("mb-seat", session), query, **HX).content.decode()
    shown = [number for number in members if f"Owner of {number}" in html]
    assert shown == ([owner] if owner else [])
    if owner is None:
        assert f"No player with membership number {typed} at this venue" in html


def test_a_look_alike_number_seats_nobody_and_a_full_width_one_its_member(
    dealer_client, session, members
):
    refused = dealer_client.post(
        url("preview", session), round_data(**{"seat-2-member": "MB-ﬁ1"}), **HX
    )
    assert refused.status_code == 422
    assert "Owner of MB-FI1" not in refused.content.decode()
    data = round_data(**{"seat-2-member": "ＭＢ－００１"})
    previewed = dealer_client.post(url("preview", session), data, **HX)
    confirmed = dealer_client.post(
        url("confirm", session), {**data, "digest": digest_of(previewed)}, **HX
    )
    assert confirmed.status_code == 200
    (settled,) = Round.objects.all()
    assert settled.boxes.get(position=2).player == members["MB-001"]
