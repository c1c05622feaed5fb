"""A Baccarat round dealt and settled through ``/api/v1/``: the whole deal is the dealer's
cards, the seats hold none, players betting behind at positions 8 and up; a broken deal is
answered 400 naming the card and the field."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.ledger.models import LedgerEntry
from tests.baccarat.conftest import baccarat_ruleset, baccarat_table
from tests.casino.api import client_for, error_of, ledger_total, settle

pytestmark = pytest.mark.django_db

BANKER_TWO_CARD_6 = "AS 6H 4C KD KH"  # Player 5 draws K (5); Banker 6 stands on a 0


def seat(position: int, cards: str = "", **stakes: str) -> dict:
    return {"position": position, "cards": cards, "bets": stakes}


def body(session_id: int, dealer_cards: str, *boxes: dict) -> dict:
    return {"session": session_id, "dealer_cards": dealer_cards, "boxes": list(boxes)}


def post(client, session_id: int, dealer_cards: str, *boxes: dict):
    return client.post("/api/v1/rounds/", body(session_id, dealer_cards, *boxes), format="json")


def test_a_round_dealt_and_settled(bac):
    api = client_for(bac.dealer)
    dealt = post(
        api,
        bac.session.pk,
        "as 6h 4c kd kh",
        seat(1, banker="100000"),
        seat(2, super6="10000"),
        seat(3, player="50000"),
        seat(8, tie="10000"),
    )
    assert dealt.status_code == 201, dealt.json()
    round_ = dealt.json()
    assert round_["game"] == "baccarat"
    assert round_["dealer"]["cards"] == "AS 6H 4C KD KH"
    evaluation = round_["dealer"]["evaluation"]
    assert evaluation["winner"] == "banker" and evaluation["super6"] is True
    assert evaluation["player"] == {
        "cards": "AS 4C KH", "total": 5, "natural": False, "drew": True, "pair": False,
    }  # fmt: skip
    assert evaluation["banker"]["total"] == 6 and evaluation["banker"]["drew"] is False
    boxes = {b["position"]: b for b in round_["boxes"]}
    assert {p: b["cards"] for p, b in boxes.items()} == {1: "", 2: "", 3: "", 8: ""}
    assert boxes[8]["evaluation"] == {"behind": 1, "label": "Behind 1"}
    assert boxes[1]["evaluation"] == {}
    # Banker 100,000 less 5%; Super 6 with two cards 12:1; the Player and the Tie lose
    assert {p: b["net"] for p, b in boxes.items()} == {
        1: "95000.00", 2: "120000.00", 3: "-50000.00", 8: "-10000.00",
    }  # fmt: skip
    (banker,) = boxes[1]["bets"]
    assert (banker["gross"], banker["commission"]) == ("100000.00", "5000.00")
    assert round_["totals"] == {
        "stake": "170000.00", "commission": "5000.00", "house_net": "-155000.00",
    }  # fmt: skip
    assert round_["deal_order"] == [] and round_["payment_order"] == [1, 2, 3, 8]

    settled = settle(api, round_["id"], "bac-1")
    assert settled.status_code == 200, settled.json()
    assert settled.json()["totals"] == round_["totals"]
    assert ledger_total(round_id=round_["id"]) == 0
    house = ledger_total(round_id=round_["id"], account="house")
    assert house == Decimal("-155000")
    assert LedgerEntry.objects.filter(round_id=round_["id"], kind="commission").count() == 2


def test_a_tie_pushes_the_player_and_banker_bets_and_pays_the_pairs(bac):
    api = client_for(bac.dealer)
    dealt = post(
        api,
        bac.session.pk,
        "4S 4H 4C 4D",  # both a natural 8, both a pair
        seat(1, banker="10000", banker_pair="1000"),
        seat(2, player="10000", tie="2000", player_pair="1000"),
    )
    assert dealt.status_code == 201, dealt.json()
    nets = {b["position"]: b["net"] for b in dealt.json()["boxes"]}
    assert nets == {1: "11000.00", 2: "27000.00"}  # pairs 11:1, tie 8:1, pushes 0
    outcomes = {bet["bet_type"]: bet["outcome"] for b in dealt.json()["boxes"] for bet in b["bets"]}
    assert outcomes["banker"] == outcomes["player"] == "push"


@pytest.mark.parametrize(
    ("cards", "words", "reason"),
    [
        ("9S 2H KC 3D 5H", "'5H' is one card too many", "dealer_cards"),
        ("2S 3H 3C KD", "enter the Player's third card", "dealer_cards"),
        ("2S 3H 3C", "a round starts with four cards", "dealer_cards"),
        ("2S 3H 3C XX", "'XX' is not a card", "dealer_cards"),
    ],
)
def test_a_broken_deal_is_answered_400_naming_the_card(bac, cards, words, reason):
    answer = post(client_for(bac.dealer), bac.session.pk, cards, seat(1, banker="10000"))
    assert error_of(answer)[0::2] == (400, reason)
    assert words in answer.json()["detail"], answer.json()


def test_a_card_beyond_the_shoe_s_copies_is_refused(bac):
    one_deck = baccarat_ruleset(bac.venue, bac.manager, bac.approver, code="one-deck", decks=1)
    table = baccarat_table(bac.venue, one_deck, code="BAC9")
    from casino.floor.services.sessions import session_open

    session = session_open(
        table=table,
        counted_by=bac.dealer,
        confirmed_by=bac.supervisor,
        opening_chips={"100000": 50},
    )
    api = client_for(bac.dealer)
    answer = post(api, session.pk, "KS 2H KS 5D 9C", seat(1, banker="10000"))
    assert error_of(answer)[0::2] == (400, "dealer_cards")
    assert "'KS' is dealt 2 times; a 1-deck shoe holds it once" in answer.json()["detail"]
    # the same deal from the eight decks of the other table is fine
    assert post(api, bac.session.pk, "KS 2H KS 5D 9C", seat(1, banker="10000")).status_code == 201


def test_a_seat_given_cards_and_a_bet_not_offered_name_their_field(bac):
    api = client_for(bac.dealer)
    with_cards = post(api, bac.session.pk, "9S 2H KC 3D", seat(1, "KS QS", banker="10000"))
    assert error_of(with_cards)[0::2] == (400, "boxes[0].cards")
    assert "the seats hold no cards" in with_cards.json()["detail"]
    off_unit = post(api, bac.session.pk, "9S 2H KC 3D", seat(2, banker="1500"))
    assert error_of(off_unit)[0] == 400
    assert off_unit.json()["field"].startswith("boxes[0]")
