"""The Niu Niu screen's member lookup: a typed number finds its own member or nobody."""

from __future__ import annotations

import pytest

from casino.floor.models import Round
from casino.players.models import Player
from tests.niuniu.test_console import HX, NIU_9, digest_of, round_data, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def members(floor):
    return {
        number: Player.objects.create(
            venue=floor.venue, membership_number=number, name=f"Owner of {number}"
        )
        for number in ("MB-SS1", "MB-FI1", "MB-001")
    }


@pytest.mark.parametrize(
    ("typed", "owner"), [("MB-ß1", None), ("MB-ﬁ1", None), ("ＭＢ－００１", "MB-001")]
)
def test_the_member_partial_finds_the_stored_form_or_nobody(dealer, session, members, typed, owner):
    response = dealer.get(url("player", session), {"box": "1", "box-1-member": typed}, **HX)
    html = response.content.decode()
    assert response.status_code == 200
    shown = [number for number in members if f"Owner of {number}" in html]
    assert shown == ([owner] if owner else [])
    if owner is None:
        assert f"No player with membership number {typed} at this venue" in html


def test_a_look_alike_number_seats_nobody_in_the_round(dealer, session, members):
    data = round_data(box1=(NIU_9, {"single": "100,000"}, "MB-ß1"))
    response = dealer.post(url("preview", session), data, **HX)
    html = response.content.decode()
    assert response.status_code == 422
    assert "No player with membership number MB-ß1 at this venue" in html
    assert "Owner of MB-SS1" not in html
    assert dealer.post(url("confirm", session), data, **HX).status_code == 422
    assert not Round.objects.exists()


def test_a_full_width_number_seats_its_member(dealer, session, members):
    data = round_data(box1=(NIU_9, {"single": "100,000"}, "ＭＢ－００１"))
    previewed = dealer.post(url("preview", session), data, **HX)
    assert previewed.status_code == 200
    confirmed = dealer.post(url("confirm", session), {**data, "digest": digest_of(previewed)}, **HX)
    assert confirmed.status_code == 200
    (settled,) = Round.objects.all()
    assert settled.boxes.get(position=1).player == members["MB-001"]
    # the next round seats the member again, by the stored number
    assert 'name="box-1-member" value="MB-001"' in confirmed.content.decode()
