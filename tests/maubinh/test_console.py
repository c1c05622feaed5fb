"""The Mau Binh round screen of the console (maubinh/console/), through the test client.

An htmx request (``HX-Request: true``) gets only the fragment it replaces; mistakes come
back inline with 422, never as a 500.
"""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from django.db.models import Sum
from django.urls import reverse

from casino.floor.models import Round, RoundStatus, TableSession
from casino.ledger.models import LedgerEntry
from tests.factories import PlayerFactory
from tests.maubinh.test_rounds import SEAT_1, SEAT_2, SEAT_3, SEAT_4

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
SEATS = {1: SEAT_1, 2: SEAT_2, 3: SEAT_3, 4: SEAT_4}
SIX_PAIRS = "7D 9S 9H JC JD / 2S 2H 5S 5H 7C / KS KH AC"


def url(name, session, query=""):
    return reverse(f"console:{name}", args=[session.pk]) + query


def seat_fields(position, cards):
    back, middle, front = cards.split(" / ")
    return {
        f"seat-{position}-back": back,
        f"seat-{position}-middle": middle,
        f"seat-{position}-front": front,
    }


def round_data(seats=SEATS, stake="10,000", **extra):
    data = {"key": "mb-console-key-1", "stake": stake}
    for position, cards in seats.items():
        data.update(seat_fields(position, cards))
    data.update(extra)
    return data


@pytest.fixture
def dealer_client(client, dealer, settings):
    client.force_login(dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the venue speaks Vietnamese
    return client


def digest_of(response):
    return re.search(r'id="digest" name="digest" value="([0-9a-f]+)"', response.content.decode())[1]


def test_a_mau_binh_table_opens_in_the_console_and_shows_its_own_screen(
    dealer_client, table, dealer, supervisor
):
    home = dealer_client.get(reverse("console:home"))
    assert reverse("console:open", args=[table.pk]) in home.content.decode()
    count = {"chips-100000": "50", "supervisor": supervisor.username, "password": "pw-for-tests"}
    opened = dealer_client.post(reverse("console:open", args=[table.pk]), count, follow=True)
    session = TableSession.objects.get(table=table)
    assert opened.redirect_chain[-1][0] == url("round", session)
    body = opened.content.decode()
    assert opened.status_code == 200
    for position in (1, 2, 3, 4):
        for row in ("back", "middle", "front"):
            assert f'id="seat-{position}-{row}"' in body
    assert 'id="stake"' in body and 'value="10,000"' in body  # the table minimum
    assert "box-1-single" not in body


def test_the_screen_speaks_the_venues_language(client, dealer, session):
    client.force_login(dealer)  # no language chosen: the venue's, Vietnamese
    body = client.get(url("round", session)).content.decode()
    # the rows as the venue's sheet names them (seed 002: chi đầu is the 5-card back row)
    assert "chi đầu" in body and "chi giữa" in body and "chi cuối" in body
    assert "Tự xếp bài" in body  # Auto-arrange


def test_niu_niu_partials_answer_404_for_a_mau_binh_session(dealer_client, session):
    assert dealer_client.get(url("hand", session), {"box": "1"}, **HX).status_code == 404
    # The preview is the floor's, every game's: Mau Binh's screen reads and answers it.
    preview = dealer_client.post(url("preview", session), {}, **HX)
    assert preview.status_code == 200
    assert "mb-preview" in preview.content.decode()


def test_the_seat_partial_describes_the_rows_and_warns_of_a_foul(dealer_client, session):
    response = dealer_client.get(
        url("mb-seat", session), {"seat": "3", **seat_fields(3, SEAT_3)}, **HX
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and body.lstrip().startswith('<div class="mb-eval')
    assert 'id="seat-3-eval"' in body
    assert 'class="foul"' in body and "Fouled: the middle row (Two Pair, Js and 9s)" in body
    one = dealer_client.get(url("mb-seat", session), {"seat": "1", **seat_fields(1, SEAT_1)}, **HX)
    assert "Four of a Kind, As" in one.content.decode()
    assert "Full House, Ks over 3s" in one.content.decode()
    assert 'class="foul"' not in one.content.decode()


def test_the_seat_partial_shows_an_instant_win_badge(dealer_client, session):
    response = dealer_client.get(
        url("mb-seat", session), {"seat": "2", **seat_fields(2, SIX_PAIRS)}, **HX
    )
    body = response.content.decode()
    assert 'data-instant="six_pairs"' in body and "Instant win: Six Pairs" in body


def test_the_seat_partial_says_what_is_wrong_inline(dealer_client, session):
    bad = dealer_client.get(url("mb-seat", session), {"seat": "1", "seat-1-back": "AS KS 1X"}, **HX)
    assert bad.status_code == 200 and "“1X” is not a card" in bad.content.decode()
    long = dealer_client.get(
        url("mb-seat", session), {"seat": "1", "seat-1-front": "AS KS QS JS"}, **HX
    )
    assert "The front row takes 3 cards; it has 4" in long.content.decode()
    twice = dealer_client.get(
        url("mb-seat", session),
        {"seat": "2", **seat_fields(1, SEAT_1), "seat-2-back": "AS 2D"},
        **HX,
    )
    assert "A♠ is already in seat 1" in twice.content.decode()
    partial = dealer_client.get(url("mb-seat", session), {"seat": "1", "seat-1-back": "AS"}, **HX)
    assert "1 of 13" in partial.content.decode()
    assert dealer_client.get(url("mb-seat", session), {"seat": "9"}, **HX).status_code == 404


def test_auto_arrange_fills_the_three_rows(dealer_client, session):
    cards = SEAT_3.replace(" /", "")  # the fouled hand's 13 cards, typed in the back row
    response = dealer_client.post(
        url("mb-arrange", session, "?seat=3"), {"stake": "10000", "seat-3-back": cards}, **HX
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<fieldset class="mb-seat')
    values = dict(re.findall(r'name="seat-3-(back|middle|front)" value="([^"]*)"', body))
    assert [len(values[row].split()) for row in ("back", "middle", "front")] == [5, 5, 3]
    assert sorted(" ".join(values.values()).split()) == sorted(cards.split())
    assert 'class="foul"' not in body, "a suggested arrangement is never fouled"


def test_auto_arrange_needs_13_cards(dealer_client, session):
    response = dealer_client.post(
        url("mb-arrange", session, "?seat=1"), {"seat-1-back": "AS KS QS JS"}, **HX
    )
    assert response.status_code == 422
    assert "needs the seat&#x27;s 13 cards (4 so far)" in response.content.decode()


def test_the_preview_shows_the_pairwise_matrix_fees_and_totals(dealer_client, session):
    response = dealer_client.post(url("preview", session), round_data(), **HX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and 'id="preview"' in body
    cells = dict(re.findall(r'<tr data-seat="(\d)".*?data-chi>([^<]+)</td>', body, flags=re.DOTALL))
    assert cells == {"1": "+47", "2": "-44", "3": "-56", "4": "+53"}
    row_1 = re.search(r'<tr data-seat="1".*?</tr>', body, flags=re.DOTALL)[0]
    assert re.search(r'scoop" data-against="2"[^>]*>\+26<span class="star"', row_1)
    assert re.search(r'data-against="4"[^>]*>-5</td>', row_1)
    row_3 = re.search(r'<tr data-seat="3".*?</tr>', body, flags=re.DOTALL)[0]
    assert 'data-basis="foul"' in row_3 and "Fouled" in row_3
    fees = re.findall(r"data-fee>([^<]*)</td>", body)
    assert fees == ["24,000", "", "", "27,000"]
    assert re.search(r'data-total="fees">51,000<', body)
    assert re.search(r'data-total="house" class="[^"]*">\+51,000<', body)
    # every seat's evaluation comes back out of band
    assert body.count('hx-swap-oob="true"') == 4


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ({1: SEAT_1, 2: SEAT_2.rsplit(" ", 1)[0]}, "the front row has 2 cards; it takes 3"),
        ({1: SEAT_1, 2: SEAT_2 + " 6S"}, "The front row takes 3 cards; it has 4"),
        ({1: SEAT_1, 2: SEAT_1}, "is already in seat 1"),
        ({1: SEAT_1, 2: "AS KS QS JS ZZ / 2H / 3H"}, "“ZZ” is not a card"),
        ({1: SEAT_1}, "Mau Binh takes 2 to 4 players, got 1"),
    ],
)
def test_a_preview_with_mistakes_lists_them_inline(dealer_client, session, seats, message):
    response = dealer_client.post(url("preview", session), round_data(seats), **HX)
    assert response.status_code == 422
    assert message in response.content.decode().replace("&#x27;", "'")
    assert 'id="confirm"' not in response.content.decode()


def test_a_bad_stake_is_said_inline(dealer_client, session):
    response = dealer_client.post(url("preview", session), round_data(stake="5,000"), **HX)
    assert response.status_code == 422
    assert "the stake 5,000 is below the table minimum of 10,000" in response.content.decode()


def test_a_quitter_pays_the_penalty(dealer_client, session):
    data = round_data({1: SEAT_1, 2: SEAT_2}, **{"seat-3-quit": "1"})
    response = dealer_client.post(url("preview", session), data, **HX)
    body = response.content.decode()
    assert response.status_code == 200
    nets = dict(re.findall(r'<tr data-seat="(\d)".*?data-net>([^<]+)</td>', body, re.DOTALL))
    assert nets == {"1": "+304,000", "2": "-200,000", "3": "-120,000"}
    assert 'data-basis="quit"' in body


def test_confirming_twice_settles_once_and_the_ledger_sums_to_zero(dealer_client, session):
    previewed = dealer_client.post(url("preview", session), round_data(), **HX)
    data = {**round_data(), "digest": digest_of(previewed)}
    first = dealer_client.post(url("confirm", session), data, **HX)
    again = dealer_client.post(url("confirm", session), data, **HX)
    assert first.status_code == again.status_code == 200
    assert "console:settled" in first["HX-Trigger"]
    assert 'data-round="1"' in first.content.decode()
    (settled,) = Round.objects.all()
    assert settled.status == RoundStatus.SETTLED and settled.house_net == D("51000")
    entries = LedgerEntry.objects.filter(round=settled)
    assert entries.count() == 8
    assert entries.aggregate(t=Sum("amount"))["t"] == 0
    # the next round's form keeps the stake, with a new key
    assert 'name="stake" value="10,000"' in first.content.decode()
    assert "mb-console-key-1" not in first.content.decode()


def test_a_confirmation_that_differs_from_its_preview_is_refused(dealer_client, session):
    previewed = dealer_client.post(url("preview", session), round_data(), **HX)
    data = {**round_data(stake="20000"), "digest": digest_of(previewed)}
    response = dealer_client.post(url("confirm", session), data, **HX)
    assert response.status_code == 422
    assert "The round changed after its preview" in response.content.decode()
    assert not Round.objects.exists()


def test_without_htmx_a_confirmation_redirects_to_the_screen(dealer_client, session):
    previewed = dealer_client.post(url("preview", session), round_data())
    assert "<html" in previewed.content.decode()
    data = {**round_data(), "digest": digest_of(previewed)}
    response = dealer_client.post(url("confirm", session), data)
    assert response.status_code == 303 and response["Location"] == url("round", session)
    screen = dealer_client.get(url("round", session))
    assert "Last round 1" in screen.content.decode()


def test_a_seat_takes_a_member_and_says_who_it_is(dealer_client, session, venue):
    member = PlayerFactory(venue=venue, membership_number="HN-0042", name="Lê Văn Tám")
    query = {"seat": "1", "seat-1-member": "hn-0042", **seat_fields(1, SEAT_1)}
    found = dealer_client.get(url("mb-seat", session), query, **HX)
    assert found.status_code == 200
    assert member.name in found.content.decode()
    unknown = dealer_client.get(url("mb-seat", session), {**query, "seat-1-member": "X-1"}, **HX)
    assert "No player with membership number X-1 at this venue" in unknown.content.decode()


def test_a_confirmed_round_records_each_seats_member_and_keeps_them_seated(
    dealer_client, session, venue
):
    member = PlayerFactory(venue=venue, membership_number="HN-0007")
    data = round_data(**{"seat-2-member": "HN-0007"})
    previewed = dealer_client.post(url("preview", session), data, **HX)
    confirmed = dealer_client.post(
        url("confirm", session), {**data, "digest": digest_of(previewed)}, **HX
    )
    assert confirmed.status_code == 200
    (settled,) = Round.objects.all()
    assert {box.position: box.player_id for box in settled.boxes.all()} == {
        1: None,
        2: member.pk,
        3: None,
        4: None,
    }
    # the next round's form seats the member again
    assert 'name="seat-2-member" value="HN-0007"' in confirmed.content.decode()


def test_a_member_changed_after_the_preview_needs_a_new_preview(dealer_client, session, venue):
    PlayerFactory(venue=venue, membership_number="HN-0008")
    previewed = dealer_client.post(url("preview", session), round_data(), **HX)
    data = {**round_data(**{"seat-1-member": "HN-0008"}), "digest": digest_of(previewed)}
    response = dealer_client.post(url("confirm", session), data, **HX)
    assert response.status_code == 422
    assert not Round.objects.exists()


def test_the_history_lists_and_details_a_mau_binh_round(dealer_client, session):
    previewed = dealer_client.post(url("preview", session), round_data(), **HX)
    data = {**round_data(), "digest": digest_of(previewed)}
    assert dealer_client.post(url("confirm", session), data, **HX).status_code == 200
    (settled,) = Round.objects.all()
    listed = dealer_client.get(url("history", session)).content.decode()
    assert "1: 47 chi" in listed and "3: Fouled" in listed and "4: 53 chi" in listed
    # its own columns: no dealer's hand, seats not boxes
    head = listed[listed.index("<thead>") : listed.index("</thead>")]
    assert ">Seats</th>" in head and ">Dealer<" not in head and ">Boxes<" not in head
    detail = dealer_client.get(reverse("console:round-detail", args=[session.pk, settled.pk]), **HX)
    assert detail.status_code == 200
    body = detail.content.decode()
    assert "Seat 1" in body and "Dealer" not in body
    assert "Four of a Kind, As" in body and "Straight Flush, 8 high" in body
    assert body.count('data-row="back"') == 4
    assert "Stake" in body  # the bet, by its name


# Refusals in the dealer's language, and a Confirm that reads the entry once


def test_the_games_refusals_are_said_in_the_venues_language(client, dealer, session):
    client.force_login(dealer)  # the venue speaks Vietnamese; no language chosen
    one_seat = client.post(url("preview", session), round_data({1: SEAT_1}), **HX)
    assert one_seat.status_code == 422
    assert "Mậu Binh cần từ 2 đến 4 người chơi, hiện có 1" in one_seat.content.decode()
    low = client.post(url("preview", session), round_data(stake="5,000"), **HX)
    assert "tiền cược 5,000 dưới mức tối thiểu của bàn 10,000" in low.content.decode()
    short = {1: SEAT_1, 2: SEAT_2.rsplit(" ", 1)[0]}
    row = client.post(url("preview", session), round_data(short), **HX)
    assert "ghế 2: chi cuối có 2 lá; chi này nhận 3 lá" in row.content.decode()


def test_a_confirm_parses_each_card_once_and_lays_out_no_seat(dealer_client, session):
    from unittest import mock

    from casino.floor.console import forms as shared_forms
    from casino.floor.console import round as rounds
    from maubinh.console import forms

    data = round_data({1: SEAT_1, 2: SEAT_2})
    previewed = dealer_client.post(url("preview", session), data, **HX)
    confirmed = {**data, "digest": digest_of(previewed)}
    with (
        mock.patch.object(shared_forms, "parse_card", wraps=shared_forms.parse_card) as parse,
        mock.patch.object(forms, "evaluate_row", wraps=forms.evaluate_row) as rows,
        mock.patch.object(
            forms, "check_arrangement", wraps=forms.check_arrangement
        ) as arrangements,
        mock.patch.object(rounds, "round_confirm", wraps=rounds.round_confirm) as confirm,
    ):
        response = dealer_client.post(url("confirm", session), confirmed, **HX)
    assert response.status_code == 200, response.content.decode()[:2000]
    assert parse.call_count == 26  # two seats of 13 cards, each read once
    assert rows.call_count == arrangements.call_count == 0
    assert confirm.call_count == 1
    assert Round.objects.get().status == RoundStatus.SETTLED


# Declaring an instant win where the version leaves it to the player ---------------------


def test_the_dealer_is_asked_whether_an_instant_win_is_declared(dealer_client, optional_session):
    from tests.maubinh.test_rounds import SIX_PAIRS_60, WEAK

    seats = {1: SIX_PAIRS_60, 2: WEAK}
    # the seat holding Six Pairs asks; the other does not
    asked = dealer_client.get(
        url("mb-seat", optional_session), {"seat": "1", **seat_fields(1, SIX_PAIRS_60)}, **HX
    ).content.decode()
    assert "Does the player declare Six Pairs?" in asked
    assert 'name="seat-1-declared" value="yes"' in asked
    assert 'name="seat-1-declared" value="no"' in asked
    plain = dealer_client.get(
        url("mb-seat", optional_session), {"seat": "2", **seat_fields(2, WEAK)}, **HX
    ).content.decode()
    assert "seat-2-declared" not in plain
    # a preview without the answer says what to do, on the seat
    unanswered = dealer_client.post(url("preview", optional_session), round_data(seats), **HX)
    assert unanswered.status_code == 422
    assert "seat 1 holds Six Pairs: ask the player whether it is declared" in (
        unanswered.content.decode()
    )
    assert 'id="confirm"' not in unanswered.content.decode()
    # not declared: the rows play, 60 chi; declared: 18
    for answer, chi in (("no", "+60"), ("yes", "+18")):
        data = round_data(seats, **{"seat-1-declared": answer})
        response = dealer_client.post(url("preview", optional_session), data, **HX)
        body = response.content.decode()
        assert response.status_code == 200, body
        cells = dict(re.findall(r'<tr data-seat="(\d)".*?data-chi>([^<]+)</td>', body, re.DOTALL))
        assert cells["1"] == chi
        assert f'name="seat-1-declared" value="{answer}" data-mb-declared checked' in body
    # the answer is part of what is confirmed
    previewed = dealer_client.post(
        url("preview", optional_session),
        round_data(seats, **{"seat-1-declared": "no"}),
        **HX,
    )
    changed = {**round_data(seats, **{"seat-1-declared": "yes"}), "digest": digest_of(previewed)}
    refused = dealer_client.post(url("confirm", optional_session), changed, **HX)
    assert refused.status_code == 422
    assert "The round changed after its preview" in refused.content.decode()


def test_where_declaring_is_automatic_nothing_is_asked(dealer_client, session):
    response = dealer_client.get(
        url("mb-seat", session), {"seat": "2", **seat_fields(2, SIX_PAIRS)}, **HX
    )
    assert "Instant win: Six Pairs" in response.content.decode()
    assert "seat-2-declared" not in response.content.decode()
