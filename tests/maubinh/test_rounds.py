"""Mau Binh rounds through the floor services (round_create, round_settle, void), on PostgreSQL."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db.models import Sum

from casino import games
from casino.floor.models import Bet, Box, RoundStatus
from casino.floor.services.rounds import round_create
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.kernel.errors import InvalidInput
from casino.ledger.models import Account, EntryKind, LedgerEntry
from maubinh.engine import presets

pytestmark = pytest.mark.django_db

# The whole deck between four seats (bigkool-2016 at a VND venue, rounding unit 1,000).
SEAT_1 = "AS AH AD AC 2S / KS KH KD 3C 3D / QS QH 4C"  # Four Aces, Full House, pair of Qs
SEAT_2 = "JS JH TC TD 5S / 9S 9H 6C 7C 8D / 2H 3H 4D"  # Two Pair, pair of 9s, 4 high
SEAT_3 = "QC QD 2C 5C 8C / JC JD 9C 9D 2D / KC 5D 6D"  # fouled: the middle beats the back
SEAT_4 = "4H 5H 6H 7H 8H / TS 8S 7S 6S 3S / 4S TH 7D"  # Straight Flush, Flush, T high
STAKE = "10000"


def seat(position, cards, stake=STAKE, *, quit=False, **other_bets):
    return BoxInput(
        position=position,
        cards=cards,
        stakes={"stake": D(stake), **{k: D(v) for k, v in other_bets.items()}},
        quit=quit,
    )


def deal(session, user, *seats, dealer=""):
    return round_create(session=session, user=user, dealer_cards=dealer, boxes=list(seats))


def test_a_four_player_round_with_a_scoop_and_a_foul(session, dealer):
    # Pair by pair, in chi (bigkool-2016: back quads 8, back straight flush 10, middle full
    # house 4, plain rows 1; a scoop, or beating a fouled hand, doubles):
    #   1 v 2: 1 wins back 8, middle 4, front 1 = 13, all three: x2 = +26
    #   1 v 3: 3 fouled, 1 wins every row with its bonuses: 13 x 2 = +26
    #   1 v 4: back 4's straight flush -10, middle +4, front pair of Qs over T high +1 = -5
    #   2 v 3: 3 fouled: 2's plain rows 1 + 1 + 1 = 3, x2 = +6
    #   2 v 4: 4 wins 10 + 1 + 1 = 12, all three: x2 = -24
    #   3 v 4: 3 fouled: 4's rows 10 + 1 + 1 = 12, x2 = -24
    # Seats: 1: 26 + 26 - 5 = +47, 2: -26 + 6 - 24 = -44, 3: -26 - 6 - 24 = -56, 4: +53.
    # At 10,000 a chi: seat 1 wins 470,000 and pays 5% = 23,500, rounded up to 24,000;
    # seat 4 wins 530,000 and pays 26,500 -> 27,000. The house takes 51,000.
    round_, preview = deal(
        session, dealer, seat(1, SEAT_1), seat(2, SEAT_2), seat(3, SEAT_3), seat(4, SEAT_4)
    )
    # when
    settled, result = round_settle(round_=round_, user=dealer, key="mb-1")
    _again, result_again = round_settle(round_=round_, user=dealer, key="mb-1")
    # then
    assert result == preview == result_again, "stored cards settle exactly as entered"
    assert settled.status == RoundStatus.SETTLED
    bets = {bet.box.position: bet for bet in Bet.objects.select_related("box")}
    assert {p: (b.odds, b.gross, b.commission, b.net, b.outcome) for p, b in bets.items()} == {
        1: (D("47"), D("470000"), D("24000"), D("446000"), "win"),
        2: (D("-44"), D("-440000"), D("0"), D("-440000"), "lose"),
        3: (D("-56"), D("-560000"), D("0"), D("-560000"), "lose"),
        4: (D("53"), D("530000"), D("27000"), D("503000"), "win"),
    }
    assert all(b.stake == D(STAKE) and b.deposit_required == 0 for b in bets.values())
    entries = LedgerEntry.objects.filter(round=round_)
    assert entries.count() == 8  # a result per seat, a fee pair per winner
    assert entries.aggregate(t=Sum("amount"))["t"] == 0
    players = entries.filter(account=Account.PLAYER, kind=EntryKind.STAKE_RESULT)
    assert players.aggregate(t=Sum("amount"))["t"] == 0, "the players' results sum to zero"
    house = entries.filter(account=Account.HOUSE)
    assert set(house.values_list("kind", "amount")) == {
        (EntryKind.FEE, D("24000")),
        (EntryKind.FEE, D("27000")),
    }
    assert settled.house_net == result.house_net == D("51000")
    assert result.deal_order == result.payment_order == (1, 2, 3, 4)
    assert result.dealer_cards == "" and result.dealer_evaluation is None


def test_each_seat_is_evaluated_for_the_console(session, dealer):
    round_, result = deal(
        session, dealer, seat(1, SEAT_1), seat(2, SEAT_2), seat(3, SEAT_3), seat(4, SEAT_4)
    )
    one, two, three, four = (box.evaluation for box in result.boxes)
    assert [row["label"] for row in one["rows"]] == [
        "Four of a Kind, As",
        "Full House, Ks over 3s",
        "Pair of Qs",
    ]
    assert one["chi"] == 47 and one["scooped"] == [2, 3] and one["scooped_by"] == []
    assert one["against"]["4"] == {"chi": -5, "basis": "rows", "rows": [-10, 4, 1], "scoop": False}
    assert two["scooped_by"] == [1, 4]
    assert three["fouled"] is True
    assert three["foul_reason"].startswith("the middle row (Two Pair, Js and 9s) beats the back")
    assert three["label"].startswith("Fouled: ")
    assert three["against"]["1"]["basis"] == "foul"
    assert four["rows"][0] == {
        "row": "back",
        "cards": "4H 5H 6H 7H 8H",
        "category": "STRAIGHT_FLUSH",
        "label": "Straight Flush, 8 high",
    }
    # what the box row keeps: the canonical cards and the same evaluation
    stored = Box.objects.get(round=round_, position=4)
    assert stored.cards == SEAT_4 and stored.evaluation == four


def test_a_player_who_quits_pays_the_penalty_to_each_other_player(session, dealer):
    # 1 v 2: +26 as above; seat 3 quits (no cards) and pays 6 chi to each of 1 and 2.
    # Seat 1: 26 + 6 = 32 chi = 320,000, fee 16,000; seat 2: -26 + 6 = -20; seat 3: -12.
    round_, _ = deal(session, dealer, seat(1, SEAT_1), seat(2, SEAT_2), seat(3, "", quit=True))
    _settled, result = round_settle(round_=round_, user=dealer, key="mb-quit")
    nets = {box.position: (box.bets[0].gross, box.bets[0].net) for box in result.boxes}
    assert nets == {
        1: (D("320000"), D("304000")),
        2: (D("-200000"), D("-200000")),
        3: (D("-120000"), D("-120000")),
    }
    quitter = Box.objects.get(round=round_, position=3)
    assert quitter.quit is True and quitter.cards == ""
    assert quitter.evaluation["quit"] is True
    assert quitter.evaluation["label"] == "Quit: pays 6 chi to each other player"
    assert quitter.evaluation["against"]["1"]["basis"] == "quit"
    assert LedgerEntry.objects.filter(round=round_).aggregate(t=Sum("amount"))["t"] == 0


def test_an_even_result_is_a_push_and_nothing_is_posted_for_it(session, dealer):
    # The same three rows, suit for suit swapped: every row ties, 0 chi each.
    round_, result = deal(
        session,
        dealer,
        seat(1, "AS KS QH JH 9D / 8S 8H 5C 5D 2S / 7C 7D 3H"),
        seat(2, "AH KH QS JS 9C / 8C 8D 5S 5H 2H / 7S 7H 3C"),
    )
    round_settle(round_=round_, user=dealer, key="mb-push")
    assert [box.bets[0].outcome for box in result.boxes] == ["push", "push"]
    assert not LedgerEntry.objects.filter(round=round_).exists()


@pytest.mark.parametrize(
    ("seats", "field", "message"),
    [
        (
            [seat(1, SEAT_1), seat(2, SEAT_2.replace(" 4D", ""))],
            "boxes[1].cards",
            "seat 2: the front row has 2 cards; it takes 3 (12 cards in all; a hand is 13)",
        ),
        (
            [seat(1, SEAT_1), seat(2, SEAT_2 + " 6D")],
            "boxes[1].cards",
            "seat 2: the front row has 4 cards; it takes 3 (14 cards in all; a hand is 13)",
        ),
        (
            [seat(1, SEAT_1.replace(" / ", " ").replace(" 4C", "")), seat(2, SEAT_2)],
            "boxes[0].cards",
            "seat 1: the hand has 12 cards; it takes 13",
        ),
        (
            [seat(1, "AS AH AD AC 2S / KS KH KD 3C / 3D QS QH 4C"), seat(2, SEAT_2)],
            "boxes[0].cards",
            "seat 1: the middle row has 4 cards; it takes 5",
        ),
        (
            [seat(1, "AS AH AD AC 2S KS / KH KD 3C 3D / QS QH 4C"), seat(2, SEAT_2)],
            "boxes[0].cards",
            "seat 1: the back row has 6 cards; it takes 5",
        ),
        (
            [seat(1, "AS AH AD AC 2S / KS KH KD 3C 3D / QS QH AS"), seat(2, SEAT_2)],
            "boxes[0].cards",
            "seat 1: 'AS' is in both the back row and the front row",
        ),
        (
            [seat(1, "AS AH AD AC 2S / KS KH KD 3C 3D / QS QH XX"), seat(2, SEAT_2)],
            "boxes[0].cards",
            "seat 1: ",
        ),
        (
            [seat(1, SEAT_1.replace(" / ", " ")), seat(2, SEAT_2)],
            "boxes[0].cards",
            "separate the three rows with '/'",
        ),
        (
            [seat(1, SEAT_1), seat(2, SEAT_2), seat(3, SEAT_3.replace("KC", "KS"))],
            "boxes[2].cards",
            "'KS' is in both seat 1 and seat 3",
        ),
        (
            [seat(1, SEAT_1), seat(2, SEAT_2.replace("5S", "QS"))],
            "boxes[1].cards",
            "'QS' is in both seat 1 and seat 2",
        ),
        (
            [seat(1, SEAT_1), seat(2, SEAT_2, "20000")],
            "boxes[1].bets.stake",
            "seat 2 stakes 20000 but seat 1 stakes 10000",
        ),
        (
            [seat(1, SEAT_1, "10500"), seat(2, SEAT_2, "10500")],
            "boxes[0].bets.stake",
            "not a multiple of the rounding unit 1000",
        ),
        (
            [seat(1, SEAT_1, single="10000"), seat(2, SEAT_2)],
            "boxes[0].bets.single",
            "Mau Binh has one bet, 'stake'",
        ),
        (
            [seat(1, SEAT_1), seat(2, "")],
            "boxes[1].cards",
            "seat 2 has no cards; only a player who quits may have none",
        ),
        ([seat(1, SEAT_1)], "boxes", "Mau Binh takes 2 to 4 players, got 1"),
        (
            [seat(p, c) for p, c in enumerate([SEAT_1, SEAT_2, SEAT_3, SEAT_4, ""], start=1)],
            "boxes[4].position",
            "box position 5 is not on table MB1; it has boxes 1 to 4",
        ),
    ],
)
def test_bad_input_is_refused_naming_the_field(session, dealer, seats, field, message):
    with pytest.raises(InvalidInput) as error:
        deal(session, dealer, *seats)
    assert error.value.field == field
    assert message in error.value.message
    assert not Box.objects.exists()


def test_a_dealer_hand_is_refused(session, dealer):
    with pytest.raises(InvalidInput) as error:
        deal(session, dealer, seat(1, SEAT_1), seat(2, SEAT_2), dealer="2C 3C 4C 5C 6C")
    assert error.value.field == "dealer_cards"
    assert "no dealer's hand" in error.value.message


def test_five_players_are_refused_by_the_game():
    adapter = games.get("maubinh")
    rules = presets.get("bigkool-2016")
    seats = [seat(p, "", quit=True) for p in range(1, 6)]
    with pytest.raises(InvalidInput) as error:
        adapter.evaluate_round(rules=rules, dealer_cards="", boxes=seats)
    assert (error.value.field, error.value.message) == (
        "boxes",
        "Mau Binh takes 2 to 4 players, got 5",
    )


def test_a_void_of_a_settled_round_reverses_its_entries(session, dealer, supervisor):
    round_, _ = deal(
        session, dealer, seat(1, SEAT_1), seat(2, SEAT_2), seat(3, SEAT_3), seat(4, SEAT_4)
    )
    round_settle(round_=round_, user=dealer, key="mb-void")
    # when
    voided = round_void(
        round_=round_, requested_by=dealer, approved_by=supervisor, reason="misdeal"
    )
    # then
    assert voided.status == RoundStatus.VOIDED
    entries = LedgerEntry.objects.filter(round=round_)
    assert entries.count() == 16
    assert entries.filter(kind=EntryKind.VOID).count() == 8
    assert entries.aggregate(t=Sum("amount"))["t"] == 0
    assert entries.filter(account=Account.HOUSE).aggregate(t=Sum("amount"))["t"] == 0
    for position in (1, 2, 3, 4):
        player = entries.filter(account=Account.PLAYER, box__position=position)
        assert player.aggregate(t=Sum("amount"))["t"] == 0


# Declaring an instant win (the version's ``declaring``) ---------------------------------

SIX_PAIRS_60 = "AS AH AD AC KS / QS QH QD QC KH / JS JH JD"  # its rows score 60 against WEAK
WEAK = "TC 9C 7D 5D 3C / 9D 8D 6C 4C 3H / 8H 6H 5H"


def declaring(position, cards, declared):
    return BoxInput(position=position, cards=cards, stakes={"stake": D(STAKE)}, declared=declared)


@pytest.mark.parametrize(
    ("declared", "chi", "net"),
    [
        (True, 18, D("171000")),  # 180,000 less 5% (9,000)
        (False, 60, D("570000")),  # (8 + 16 + 6) x 2 on the rows: 600,000 less 30,000
    ],
)
def test_where_declaring_is_optional_the_player_says(optional_session, dealer, declared, chi, net):
    round_, result = deal(
        optional_session,
        dealer,
        declaring(1, SIX_PAIRS_60, declared),
        declaring(2, WEAK, None),
    )
    first = result.boxes[0]
    assert first.evaluation["chi"] == chi
    assert first.bets[0].net == net
    assert first.evaluation["instant_win"] == ("six_pairs" if declared else None)
    assert first.evaluation["undeclared_instant_win"] == (None if declared else "six_pairs")
    assert Box.objects.get(round=round_, position=1).evaluation["chi"] == chi


def test_a_seat_holding_an_instant_win_must_say_where_declaring_is_optional(
    optional_session, dealer
):
    with pytest.raises(InvalidInput) as error:
        deal(optional_session, dealer, seat(1, SIX_PAIRS_60), seat(2, WEAK))
    assert error.value.field == "boxes[0].declared"
    assert "seat 1 holds Six Pairs: ask the player whether it is declared" in str(error.value)


@pytest.mark.parametrize(
    ("boxes", "field", "message"),
    [
        (
            (declaring(1, SIX_PAIRS_60, False), seat(2, WEAK)),
            "boxes[0].declared",
            "these rules take every instant win automatically",
        ),
        (
            (seat(1, SIX_PAIRS_60), declaring(2, WEAK, True)),
            "boxes[1].declared",
            "seat 2 declares an instant win, but its cards hold none",
        ),
    ],
)
def test_where_it_is_automatic_an_instant_win_cannot_be_left_undeclared(
    session, dealer, boxes, field, message
):
    with pytest.raises(InvalidInput) as error:
        deal(session, dealer, *boxes)
    assert error.value.field == field
    assert message in str(error.value)
