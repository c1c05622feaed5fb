"""Baccarat's round screen in the console, through the test client: the seats and the deal's
six card fields, the live deal as it is typed, the preview, one Confirm, the shoe and the
commission box, and every refusal shown beside what it concerns (never a 500).

Amounts by hand, on the commission preset at a venue rounding to 1,000: a Banker win pays
1:1 less 5% (100,000 wins 95,000), the Player 1:1, the Tie 8:1, a pair 11:1.
"""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from django.db.models import Sum
from django.urls import reverse

from baccarat.console import CONSOLE, deal_entry
from baccarat.engine import presets
from baccarat.models import CommissionCollection, Shoe
from baccarat.selectors import commission_owed
from casino.audit.models import AuditEvent
from casino.floor.console.selectors import screen_for
from casino.floor.models import Round, RoundStatus
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.ledger.models import LedgerEntry
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
BANKER_NATURAL = {"bac-p1": "2s", "bac-b1": "9h", "bac-p2": "3c", "bac-b2": "kd"}  # P 5, B 9


def url(name, session, query=""):
    return reverse(f"console:{name}", args=[session.pk]) + query


@pytest.fixture
def dealer_client(client, bac, settings):
    client.force_login(bac.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def digest_of(response):
    return re.search(r'id="digest" name="digest" value="([0-9a-f]+)"', response.content.decode())[1]


def round_data(cards=BANKER_NATURAL, **stakes):
    data = {"key": "bac-console-key-1", **cards}
    for name, value in stakes.items():  # box_1_player_pair: the field box-1-player_pair
        _box, position, rest = name.split("_", 2)
        data[f"box-{position}-{rest}"] = value
    return data


# The deal as it is read


def test_the_deal_is_followed_through_the_tableau_card_by_card():
    rules = presets.get("commission")
    deal = deal_entry.read_deal({"bac-p1": "4h", "bac-b1": "3c"}, rules)
    assert (deal.next_field, deal.player_third_note) == ("bac-p2", "The Player draws on 0-5")
    deal = deal_entry.read_deal(
        {"bac-p1": "4h", "bac-b1": "3c", "bac-p2": "kd", "bac-b2": "4s"}, rules
    )
    assert deal.player_note == "Player draws on 4"
    assert deal.banker_note == "Banker waits for the Player's third card"
    assert deal.next_field == "bac-p3" and deal.status == "Next: Player third card"
    deal = deal_entry.read_deal(
        {"bac-p1": "4h", "bac-b1": "3c", "bac-p2": "kd", "bac-b2": "4s", "bac-p3": "8c"}, rules
    )
    # Banker 7 stands whatever the Player drew
    assert deal.banker_note == "Banker stands on 7"
    assert deal.banker_third_note == "Banker stands on 7: leave it empty"
    assert deal.complete
    assert deal.canonical == "4H 3C KD 4S 8C"
    assert str(deal.coup.winner) == "banker" and deal.status == "Banker wins, 7 to 2"


def test_a_card_the_tableau_does_not_draw_is_named_on_its_field():
    rules = presets.get("commission")
    stands = deal_entry.read_deal({**BANKER_NATURAL, "bac-b3": "5s"}, rules)
    assert stands.player_note == "Player stands on 5: the Banker has a natural"
    assert stands.banker_note == "Natural 9"
    assert (
        stands.by_name("bac-b3").error == "a natural 9: both hands stand: '5S' is one card too many"
    )
    early = deal_entry.read_deal({"bac-p1": "2s", "bac-p2": "3c"}, rules)
    assert early.by_name("bac-p2").error.startswith("Enter Banker card 1 first")
    # the Player stands on 6: a fifth card is the Banker's, in its own field
    six = {"bac-p1": "3s", "bac-b1": "2h", "bac-p2": "3c", "bac-b2": "kd"}
    wrong = deal_entry.read_deal({**six, "bac-p3": "4d"}, rules)
    assert wrong.by_name("bac-p3").error.startswith("Player stands on 6: '4D' is one card too many")
    right = deal_entry.read_deal({**six, "bac-b3": "4d"}, rules)
    assert right.complete and right.canonical == "3S 2H 3C KD 4D"
    # what the fields held, as typed, for the browser to match to its fields (a "3" is
    # not yet the "3s" typed after it)
    assert right.typed == "3s|2h|3c|kd||4d"
    assert deal_entry.read_deal({**six, "bac-b3": "4"}, rules).typed != right.typed
    # a one-deck shoe holds each card once
    one_deck = rules.__class__(**{**rules.__dict__, "decks": 1})
    twice = deal_entry.read_deal({"bac-p1": "ks", "bac-b1": "ks"}, one_deck)
    assert twice.by_name("bac-b1").error == "'KS' is dealt 2 times; a 1-deck shoe holds it once"
    two = deal_entry.read_deal({"bac-p1": "ks qh"}, rules)
    assert two.by_name("bac-p1").error == "Player card 1 holds one card; 2 are typed"


def test_a_deal_reads_back_into_its_fields():
    rules = presets.get("commission")
    assert deal_entry.deal_fields("3S 2H 3C KD 4D", rules)["bac-b3"] == "4D"
    fields = deal_entry.deal_fields("4H 3C KD 4S 8C 2D", rules)
    assert (fields["bac-p3"], fields["bac-b3"]) == ("8C", "2D")


# The screen


def test_the_screen_shows_seats_behind_bets_and_the_deal(dealer_client, bac):
    body = dealer_client.get(url("round", bac.session)).content.decode()
    assert 'aria-label="Seat 7: Super 6"' in body
    assert 'aria-label="Behind 2: Banker Pair"' in body  # position 9 bets behind
    for label in ("Player card 1", "Banker card 2", "Player third card", "Banker third card"):
        assert f">{label}</label>" in body
    assert 'aria-labelledby="player-hand-title"' in body and "Banker hand" in body
    assert 'id="shoe-number" class="shoe-number" data-shoe="1"' in body
    assert "Collect commission" not in body  # the commission is taken at the win


def test_the_live_deal_says_who_draws_and_names_a_card_too_many(dealer_client, bac):
    cards = {"bac-p1": "4h", "bac-b1": "3c", "bac-p2": "kd", "bac-b2": "4s"}
    live = dealer_client.get(url("bac-deal", bac.session), cards, **HX)
    body = live.content.decode()
    assert live.status_code == 200 and body.lstrip().startswith('<div id="bac-deal"')
    assert "Player draws on 4" in body and 'data-next="bac-p3"' in body
    assert 'id="note-bac-p3" hx-swap-oob="true">Player draws on 4: enter the card' in body
    broken = dealer_client.get(
        url("bac-deal", bac.session), {**cards, "bac-p3": "8c", "bac-b3": "2d"}, **HX
    ).content.decode()
    assert "Banker third card: Banker stands on 7: &#x27;2D&#x27; is one card too many" in broken
    # without htmx the same address is the whole screen, the cards kept
    whole = dealer_client.get(url("bac-deal", bac.session), cards)
    assert whole.status_code == 200 and 'value="kd"' in whole.content.decode()


def test_a_stake_off_the_table_s_limits_is_said_beside_the_seat(dealer_client, bac):
    answer = dealer_client.get(
        url("bac-stakes", bac.session), {"box": "2", "box-2-tie": "500"}, **HX
    )
    assert answer.status_code == 200 and "Tie: " in answer.content.decode()
    assert dealer_client.get(url("bac-stakes", bac.session), {"box": "12"}, **HX).status_code == 404


def test_preview_confirm_once_and_the_next_round_keeps_the_stakes(dealer_client, bac):
    player = PlayerFactory(venue=bac.venue, membership_number="M-1001")
    data = round_data(
        box_1_member="M-1001",
        box_1_banker="100,000",
        box_2_player="50,000",
        box_2_tie="10,000",
        box_8_banker_pair="10,000",
    )
    preview = dealer_client.post(url("preview", bac.session), data, **HX)
    body = preview.content.decode()
    assert preview.status_code == 200, body[:2000]
    assert not Round.objects.exists()  # a preview writes nothing
    assert 'aria-label="Seat 1 settlement"' in body and 'aria-label="Behind 1 settlement"' in body
    assert "<strong>Banker wins</strong>" in body
    # Seat 1: Banker 100,000 wins 100,000 less 5,000; Seat 2 loses 60,000; Behind 1 loses 10,000
    assert re.search(r"data-commission>5,000<", body)
    assert re.search(r"data-seat-net>\+95,000<", body)
    assert re.search(r"data-seat-net>-60,000<", body)
    assert re.search(r"data-seat-net>-10,000<", body)
    assert re.search(r'data-total="players"[^>]*>\+25,000<', body)
    assert re.search(r'data-total="house"[^>]*>-25,000<', body)
    digest = digest_of(preview)

    confirm = url("confirm", bac.session)
    first = dealer_client.post(confirm, {**data, "digest": digest}, **HX)
    assert first.status_code == 200, first.content.decode()[:2000]
    again = dealer_client.post(confirm, {**data, "digest": digest}, **HX)  # a second click
    assert again.status_code == 200
    (round_,) = Round.objects.filter(session=bac.session)
    assert round_.status == RoundStatus.SETTLED
    assert round_.dealer_cards == "2S 9H 3C KD"
    assert round_.house_net == D("-95000") + D("60000") + D("10000")
    assert LedgerEntry.objects.filter(round=round_).aggregate(t=Sum("amount"))["t"] == 0
    assert round_.boxes.get(position=1).player == player
    following = first.content.decode()
    # the next round: the same members and stakes, no cards
    assert 'value="M-1001"' in following and 'value="100,000"' in following
    assert 'id="bac-p1" name="bac-p1" value=""' in following

    # the history shows the deal and the shoe
    detail = dealer_client.get(url("history", bac.session) + f"?round={round_.pk}")
    text = detail.content.decode()
    assert "Shoe 1" in text and "Banker wins" in text and "Behind 1" in text


def test_a_round_changed_after_its_preview_is_not_confirmed(dealer_client, bac):
    data = round_data(box_1_player="10,000")
    digest = digest_of(dealer_client.post(url("preview", bac.session), data, **HX))
    changed = {**data, "box-1-player": "20,000", "digest": digest}
    answer = dealer_client.post(url("confirm", bac.session), changed, **HX)
    assert answer.status_code == 422
    assert "The round changed after its preview" in answer.content.decode()
    assert not Round.objects.exists()


def test_an_incomplete_deal_or_no_stake_is_not_ready(dealer_client, bac):
    cards = {"bac-p1": "4h", "bac-b1": "3c", "bac-p2": "kd", "bac-b2": "4s"}
    answer = dealer_client.post(url("preview", bac.session), round_data(cards), **HX)
    body = answer.content.decode()
    assert answer.status_code == 200 and "Not ready to settle" in body
    assert "Enter a stake on at least one seat" in body
    assert "The deal is not complete: enter the Player third card" in body
    wrong = round_data({**cards, "bac-p3": "zz"}, box_1_player="10,000")
    refused = dealer_client.post(url("preview", bac.session), wrong, **HX)
    assert refused.status_code == 422 and "“zz” is not a card" in refused.content.decode()


def test_a_new_shoe_is_numbered_and_audited(dealer_client, bac):
    answer = dealer_client.post(url("bac-shoe", bac.session), {"box-1-player": "10,000"}, **HX)
    body = answer.content.decode()
    assert answer.status_code == 200 and "Shoe 1 started." in body
    assert 'value="10,000"' in body  # what was typed stays
    answer = dealer_client.post(url("bac-shoe", bac.session), {}, **HX)
    assert (
        "Shoe 2 started." in answer.content.decode() and 'data-shoe="2"' in answer.content.decode()
    )
    assert Shoe.objects.filter(session=bac.session).count() == 2
    assert AuditEvent.objects.filter(action="baccarat.shoe_start").count() == 2


def test_the_commission_box_is_collected_seat_by_seat_before_a_new_shoe(dealer_client, bac):
    session = bac.box_session
    data = round_data(box_1_banker="100,000", box_3_banker="30,000")
    digest = digest_of(dealer_client.post(url("preview", session), data, **HX))
    settled = dealer_client.post(url("confirm", session), {**data, "digest": digest}, **HX)
    body = settled.content.decode()
    # 5% of 100,000, and of 30,000 (1,500 down to 1,000), owed in the box
    assert commission_owed(session) == {1: D("5000"), 3: D("1000")}
    assert 'data-owed="1">Owes 5,000' in body and 'data-owed="3">Owes 1,000' in body
    assert 'aria-label="Seat 1: Collect commission"' in body

    refused = dealer_client.post(url("bac-shoe", session), {}, **HX)
    assert refused.status_code == 409
    assert "collect the commission box first: seat 1 owes 5000, seat 3 owes 1000" in (
        refused.content.decode()
    )
    assert not Shoe.objects.filter(session=session).exists()

    collected = dealer_client.post(url("bac-collect", session), {"box": "1"}, **HX)
    assert collected.status_code == 200
    assert "Seat 1: commission of 5,000 collected." in collected.content.decode()
    twice = dealer_client.post(url("bac-collect", session), {"box": "1"}, **HX)
    assert twice.status_code == 422
    assert "seat 1 owes no commission: there is nothing to collect" in twice.content.decode()
    dealer_client.post(url("bac-collect", session), {"box": "3"}, **HX)
    assert CommissionCollection.objects.filter(session=session).count() == 2
    assert dealer_client.post(url("bac-shoe", session), {}, **HX).status_code == 200


def test_the_console_s_form_reads_back_what_a_dealer_typed(bac):
    screen = screen_for(session=bac.session)
    boxes = [BoxInput(position=2, cards="", stakes={"tie": D("10000")})]
    data = CONSOLE.form_data("4H 3C KD 4S 8C", boxes, screen)
    entry = CONSOLE.read_entry({**data, "key": "k" * 16}, screen)
    assert entry.check_complete()
    assert entry.round_input()[0] == "4H 3C KD 4S 8C"


def test_a_void_after_the_collection_is_given_back_from_the_box(dealer_client, bac):
    session = bac.box_session
    data = round_data(box_2_banker="100,000")
    digest = digest_of(dealer_client.post(url("preview", session), data, **HX))
    dealer_client.post(url("confirm", session), {**data, "digest": digest}, **HX)
    dealer_client.post(url("bac-collect", session), {"box": "2"}, **HX)
    (round_,) = Round.objects.filter(session=session)
    round_void(round_=round_, requested_by=bac.dealer, approved_by=bac.supervisor, reason="misdeal")
    screen = dealer_client.get(url("round", session)).content.decode()
    assert 'data-owed="2">Owed back 5,000' in screen
    assert 'aria-label="Seat 2: Give back commission"' in screen
    given = dealer_client.post(url("bac-collect", session), {"box": "2"}, **HX)
    assert "Seat 2: 5,000 of commission given back." in given.content.decode()
    assert commission_owed(session) == {}


def test_without_htmx_a_new_shoe_goes_back_to_the_screen(dealer_client, bac):
    answer = dealer_client.post(url("bac-shoe", bac.session), {})
    assert answer.status_code == 303 and answer["Location"] == url("round", bac.session)
    refused = dealer_client.post(url("bac-collect", bac.session), {"box": "1"})
    assert refused.status_code == 422  # nothing owed: the screen says so
    assert "seat 1 owes no commission" in refused.content.decode()
    assert dealer_client.post(url("bac-collect", bac.session), {"box": "0"}).status_code == 404


def test_a_no_commission_banker_six_shows_its_odds_as_the_sign_says_them(dealer_client, bac):
    from casino.floor.services.sessions import session_open
    from tests.baccarat.conftest import baccarat_ruleset, baccarat_table

    ruleset = baccarat_ruleset(bac.venue, bac.manager, bac.approver, preset="no-commission")
    session = session_open(
        table=baccarat_table(bac.venue, ruleset, code="BAC9"),
        counted_by=bac.dealer,
        confirmed_by=bac.supervisor,
        opening_chips={"100000": 50},
    )
    # Player 2 + 3 = 5 draws a ten (5); Banker K + 6 = 6 stands on it: a Banker 6 pays 1:2
    six = {"bac-p1": "2s", "bac-b1": "kh", "bac-p2": "3c", "bac-b2": "6d", "bac-p3": "td"}
    preview = dealer_client.post(
        url("preview", session), round_data(six, box_1_banker="100,000"), **HX
    )
    body = preview.content.decode()
    assert preview.status_code == 200, body[:2000]
    assert re.search(r"data-seat-net>\+50,000<", body)
    assert "<small>1:2</small>" in body and "0.5:1" not in body
