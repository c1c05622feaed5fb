"""Niu Niu's round screen (``niuniu/console/``) through Django's test client, on PostgreSQL.

An htmx request (``HX-Request: true``) gets only the fragment it replaces; the same URL
without it gets the whole page.
"""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.floor.models import Round, RoundStatus, TableSession
from casino.floor.services.closing import session_close
from casino.ledger.models import LedgerEntry
from casino.players.models import Player

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
NIU_9 = "ks qs 5h 4h 10c"  # Niu 9, high card K♠
NO_NIU = "kh 8h 4d jh ad"
NIU_8 = "js qh jd ac 7h"  # the dealer: Niu 8


def url(name, session, *args):
    return reverse(f"console:{name}", args=[session.pk, *args])


def round_data(key="a" * 32, dealer=NIU_8, **boxes):
    """Form data: ``box1=(cards, {"single": "100000"}, member)``."""
    data = {"key": key, "dealer-cards": dealer}
    for name, (cards, stakes, *member) in boxes.items():
        position = name.removeprefix("box")
        data[f"box-{position}-cards"] = cards
        for bet_type, stake in stakes.items():
            data[f"box-{position}-{bet_type}"] = stake
        if member:
            data[f"box-{position}-member"] = member[0]
    return data


def digest_of(response) -> str:
    return re.search(r'name="digest" value="([0-9a-f]+)"', response.content.decode()).group(1)


def preview_then_confirm(client, session, data):
    previewed = client.post(url("preview", session), data, **HX)
    assert previewed.status_code == 200, previewed.content.decode()[:2000]
    return client.post(url("confirm", session), {**data, "digest": digest_of(previewed)}, **HX)


# The round screen and its partials


def test_the_round_screen_is_a_page_and_its_partials_are_fragments(dealer, session):
    page = dealer.get(url("round", session))
    assert page.status_code == 200
    html = page.content.decode()
    assert "<html" in html and 'id="round-form"' in html and 'data-pick="KS"' in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    # every script and style from this server: no address names a CDN (the CSRF token,
    # random letters, may spell "cdn")
    fetched = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert any("htmx-2" in address for address in fetched)
    assert not [a for a in fetched if "unpkg" in a or "cdn" in a.lower() or "//" in a], fetched

    partial = dealer.get(url("hand", session), {"box": "1", "box-1-cards": NIU_9}, **HX)
    fragment = partial.content.decode()
    assert "<html" not in fragment
    assert fragment.strip().startswith('<div class="hand') and 'id="hand-1"' in fragment

    whole = dealer.get(url("hand", session), {"box": "1", "box-1-cards": NIU_9})
    assert "<html" in whole.content.decode()
    assert 'value="ks qs 5h 4h 10c"' in whole.content.decode()


def test_five_cards_are_evaluated_with_the_split_as_laid_on_the_felt(dealer, session):
    response = dealer.get(url("hand", session), {"box": "1", "box-1-cards": NIU_9}, **HX)
    html = response.content.decode()
    assert "Niu 9" in html
    two, three = re.search(
        r'<div class="two">(.*?)</div>\s*<div class="three">(.*?)</div>', html, re.S
    ).groups()
    assert re.findall(r'data-card="(\w\w)"', two) == ["5H", "4H"]
    assert re.findall(r'data-card="(\w\w)"', three) == ["KS", "QS", "TC"]
    assert 'class="card black high" data-card="KS"' in html


def test_a_hand_without_niu_shows_its_five_cards_two_above_three_and_high_card(dealer, session):
    response = dealer.get(url("hand", session), {"box": "dealer", "dealer-cards": NO_NIU}, **HX)
    html = response.content.decode()
    assert 'id="hand-dealer"' in html and "No Niu" in html and 'class="split no-niu"' in html
    two, three = re.search(
        r'<div class="two">(.*?)</div>\s*<div class="three">(.*?)</div>', html, re.S
    ).groups()
    cards = NO_NIU.upper().replace("10", "T").split()
    assert re.findall(r'data-card="(\w\w)"', two) == cards[:2]
    assert re.findall(r'data-card="(\w\w)"', three) == cards[2:]


def test_a_wrong_card_is_shown_inline(dealer, session):
    response = dealer.get(url("hand", session), {"box": "2", "box-2-cards": "ks qh 1x"}, **HX)
    assert response.status_code == 200
    assert "“1x” is not a card" in response.content.decode()


def test_a_card_already_in_another_hand_is_shown_inline(dealer, session):
    params = {"box": "dealer", "box-1-cards": NIU_9, "dealer-cards": "ks 2d"}
    response = dealer.get(url("hand", session), params, **HX)
    assert "K♠ is already in Box 1" in response.content.decode()


def test_a_hand_in_the_venues_language_unless_the_user_chose_one(client, floor, session):
    client.force_login(floor.dealer)  # the venue speaks Vietnamese; no language chosen
    params = {"box": "1", "box-1-cards": NIU_9}
    vietnamese = client.get(url("hand", session), params, **HX)
    assert "Niu 9" in vietnamese.content.decode()
    assert vietnamese["Content-Language"] == "vi"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    assert "니우 9" in client.get(url("hand", session), params, **HX).content.decode()
    chosen = client.post(reverse("set_language"), {"language": "pt", "next": "/console/"})
    assert chosen.status_code == 302
    portuguese = client.get(url("hand", session), params, **HX)
    assert portuguese["Content-Language"] == "pt"
    assert "Niu 9" in portuguese.content.decode()
    reset = client.post(reverse("console:language-of-venue"), {"next": "/console/"})
    assert reset.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""
    del client.cookies[settings.LANGUAGE_COOKIE_NAME]
    again = client.get(url("hand", session), params, **HX)
    assert "Niu 9" in again.content.decode()
    assert again["Content-Language"] == "vi"


@pytest.mark.parametrize("language", ["en", "vi", "ko", "pt"])
def test_the_screen_holds_what_the_browser_needs_to_draw_a_short_hand_as_the_partial_does(
    client, floor, session, language
):
    """A hand short of five cards is drawn by the browser (static/js/console.js) from the
    round form's count words and the picker's faces: both are what the hand partial draws,
    in every language."""
    client.force_login(floor.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    screen = client.get(url("round", session)).content.decode()
    words = re.search(r'id="round-form"[^>]*data-msg-count="([^"]*)"', screen).group(1)
    face = r'data-pick="(\w\w)"[^>]*>(<span class="card .*?</svg></span>)'
    picked = dict(re.findall(face, screen))
    partial = client.get(url("hand", session), {"box": "2", "box-2-cards": "10d q♥ 3c"}, **HX)
    drawn = partial.content.decode()
    count = re.search(r'<span class="count">(.*?)</span>', drawn).group(1)
    assert "%(count)s" in words and words.replace("%(count)s", "3") == count
    assert count == {"en": "3 of 5", "vi": "3/5", "ko": "3/5", "pt": "3 de 5"}[language]
    faces = re.search(r'<div class="five">(.*?)</div></div>', drawn).group(1)
    assert faces == picked["TD"] + picked["QH"] + picked["3C"]
    for box in ("1", "2", "3", "4", "5", "dealer"):
        assert f'data-hand="hand-{box}" data-hand-size="5"' in screen
        assert f'id="hand-{box}"' in screen


def test_stakes_show_the_deposit_the_limits_and_the_deal_order(dealer, session):
    params = {
        "box": "1",
        "box-1-single": "100,000",
        "box-1-double": "100,000",
        "box-1-super": "2,000,000",
        "box-3-single": "500,000",
    }
    html = dealer.get(url("stakes", session), params, **HX).content.decode()
    assert 'id="stakes-1"' in html
    assert "Double 100,000: show 300,000" in html
    assert "Super: the stake 2,000,000 is above the table maximum of 1,000,000" in html
    orders = re.search(
        r'<div id="orders" class="orders" hx-swap-oob="true">(.*?)</div>', html, re.S
    )
    positions = re.findall(r'<b class="order">(\d)</b>', orders.group(1))
    assert positions == ["3", "1", "1", "3"]  # deal: largest single first; pay: from box 1


def test_a_membership_number_shows_the_player_or_why_not(dealer, floor, session):
    Player.objects.create(venue=floor.venue, membership_number="HN-7", name="Trần Thị Bình")
    found = dealer.get(url("player", session), {"box": "2", "box-2-member": "hn-7"}, **HX)
    assert 'id="player-2"' in found.content.decode()
    assert "Trần Thị Bình" in found.content.decode()
    missing = dealer.get(url("player", session), {"box": "2", "box-2-member": "X-1"}, **HX)
    assert "No player with membership number X-1" in missing.content.decode()


def test_an_unknown_box_is_not_found(dealer, session):
    assert dealer.get(url("hand", session), {"box": "9"}, **HX).status_code == 404


def test_the_preview_settles_in_payment_order_and_writes_nothing(dealer, floor, session):
    Player.objects.create(venue=floor.venue, membership_number="HN-1", name="An")
    data = round_data(
        box2=(NO_NIU, {"single": "200,000", "super": "50,000"}),
        box1=(NIU_9, {"single": "100,000", "double": "100,000"}, "HN-1"),
    )
    response = dealer.post(url("preview", session), data, **HX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.strip().startswith('<section id="preview"')
    assert re.findall(r'<tbody class="box-result" data-box="(\d)">', html) == ["1", "2"]
    # box 1 Niu 9 beats Niu 8: single +100,000 - 5,000; double 2:1 +200,000 - 10,000
    assert re.search(r'data-bet="double".*?\+200,000.*?10,000.*?\+190,000', html, re.S)
    # box 2 No Niu loses: super x8 (dealer's Niu 8) takes 400,000, 350,000 beyond the stake
    assert re.search(r'data-bet="super".*?-400,000.*?-400,000.*?350,000', html, re.S)
    assert 'data-total="house" class="plus">+315,000' in html
    assert 'data-total="commission">15,000' in html
    assert 'id="confirm"' in html
    # every hand comes back evaluated with the preview, out of band
    assert re.search(r'id="hand-dealer"[^>]*hx-swap-oob="true"', html)
    assert re.search(r'id="hand-1"[^>]*hx-swap-oob="true"', html)
    assert not Round.objects.exists()


def test_a_wrong_card_stops_the_preview_and_nothing_is_settled(dealer, session):
    data = round_data(box1=("ks qs 5h 4h zz", {"single": "100,000"}))
    response = dealer.post(url("preview", session), data, **HX)
    assert response.status_code == 422
    html = response.content.decode()
    assert "Box 1: “zz” is not a card" in html and 'id="confirm"' not in html
    confirmed = dealer.post(url("confirm", session), {**data, "digest": "0" * 32}, **HX)
    assert confirmed.status_code == 422
    assert not Round.objects.exists() and not LedgerEntry.objects.exists()


def test_confirm_settles_once_however_often_it_is_posted(dealer, floor, session):
    data = round_data(box1=(NIU_9, {"single": "100,000", "double": "100,000"}))
    first = preview_then_confirm(dealer, session, data)
    assert first.status_code == 200
    assert "console:settled" in first["HX-Trigger"]
    entries = LedgerEntry.objects.count()
    again = dealer.post(
        url("confirm", session), {**data, "digest": digest_of_confirmed(data)}, **HX
    )
    assert again.status_code == 200
    settled = Round.objects.get()
    assert settled.status == RoundStatus.SETTLED
    assert settled.create_key == settled.settle_key == "a" * 32
    assert settled.house_net == D("-285000")
    assert LedgerEntry.objects.count() == entries
    html = first.content.decode()
    assert html.strip().startswith('<div id="round"')
    assert "Round 1 settled: house -285,000." in html
    # the next round: same stakes, no cards, a new key
    assert 'name="box-1-double" value="100,000"' in html
    assert 'name="box-1-cards" value=""' in html
    assert 'name="key" value="' + "a" * 32 not in html


def digest_of_confirmed(data):
    from casino.floor.console.selectors import screen_for
    from niuniu.console import forms

    session = TableSession.objects.get()
    return forms.read_round(data, screen_for(session=session), players={}).digest()


def test_confirm_refuses_a_round_changed_after_its_preview(dealer, session):
    data = round_data(box1=(NIU_9, {"single": "100,000"}))
    previewed = dealer.post(url("preview", session), data, **HX)
    changed = {**data, "box-1-single": "900,000", "digest": digest_of(previewed)}
    response = dealer.post(url("confirm", session), changed, **HX)
    assert response.status_code == 422
    assert "The round changed after its preview" in response.content.decode()
    assert not Round.objects.exists()


def test_confirm_without_htmx_redirects_to_the_next_round_prefilled(dealer, floor, session):
    Player.objects.create(venue=floor.venue, membership_number="HN-1", name="An")
    data = round_data(box4=(NIU_9, {"single": "100,000"}, "HN-1"))
    previewed = dealer.post(url("preview", session), data, **HX)
    response = dealer.post(url("confirm", session), {**data, "digest": digest_of(previewed)})
    assert response.status_code == 303 and response.url == url("round", session)
    page = dealer.get(response.url).content.decode()
    assert 'name="box-4-member" value="HN-1"' in page
    assert 'name="box-4-single" value="100,000"' in page
    assert "Last round 1: Settled" in page


def test_the_confirms_answer_is_the_round_written_not_read_back(dealer, floor, session):
    """The next round's form comes from the boxes and bets the services wrote, and is the
    one the whole screen draws from the round read back."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    Player.objects.create(venue=floor.venue, membership_number="HN-1", name="An")
    data = round_data(
        box1=(NIU_9, {"single": "100,000", "double": "100,000"}, "HN-1"),
        box3=(NO_NIU, {"single": "50,000", "super": "20,000"}),
    )
    previewed = dealer.post(url("preview", session), data, **HX)
    confirmed = {**data, "digest": digest_of(previewed)}
    with CaptureQueriesContext(connection) as queries:
        answer = dealer.post(url("confirm", session), confirmed, **HX)
    assert answer.status_code == 200, answer.content.decode()[:2000]
    reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert not [sql for sql in reads if re.search(r'FROM "casino_(box|bet)"', sql)], reads

    def fields(html):
        return sorted(re.findall(r'<input[^>]* name="(box-[^"]+)" value="([^"]*)"', html))

    page = dealer.get(url("round", session)).content.decode()
    assert fields(answer.content.decode()) == fields(page)
    assert {("box-1-member", "HN-1"), ("box-1-double", "100,000"), ("box-3-super", "20,000")} <= (
        set(fields(page))
    )


def test_a_closed_session_takes_no_round(dealer, floor, session):
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
    )
    data = round_data(box1=(NIU_9, {"single": "100,000"}))
    response = dealer.post(url("preview", session), data, **HX)
    assert response.status_code == 409
    assert "This session is closed" in response.content.decode()
    assert dealer.post(url("confirm", session), data, **HX).status_code == 409
    summary = dealer.get(url("round", session)).content.decode()
    assert 'id="summary"' in summary
    assert not Round.objects.exists()


def test_the_hand_partial_costs_a_few_queries(dealer, session, django_assert_max_num_queries):
    dealer.get(url("hand", session), {"box": "1", "box-1-cards": NIU_9}, **HX)  # warm caches
    # The session (from the database here; production's is in Redis), the login in one
    # statement and the second factor's device: the table and its rules are kept.
    with django_assert_max_num_queries(3):
        dealer.get(url("hand", session), {"box": "1", "box-1-cards": NIU_9}, **HX)


def test_the_preview_costs_a_few_queries(dealer, floor, session, django_assert_max_num_queries):
    Player.objects.create(venue=floor.venue, membership_number="HN-1", name="An")
    data = round_data(
        box1=(NIU_9, {"single": "100,000", "double": "100,000"}, "HN-1"),
        box2=(NO_NIU, {"single": "200,000", "super": "50,000"}),
    )
    dealer.post(url("preview", session), data, **HX)  # warm caches
    with django_assert_max_num_queries(8):
        assert dealer.post(url("preview", session), data, **HX).status_code == 200


# Refusals in the dealer's language, from the rule that refuses


@pytest.fixture
def vietnamese(client, floor):
    client.force_login(floor.dealer)  # the venue speaks Vietnamese; no language chosen
    return client


def test_a_stake_off_the_table_limits_is_refused_in_the_venues_language(vietnamese, session):
    params = {"box": "1", "box-1-single": "5,000"}
    html = vietnamese.get(url("stakes", session), params, **HX).content.decode()
    # casino.floor.services.rounds.check_stake's message, as the API says it in Vietnamese
    assert "tiền cược 5,000 dưới mức tối thiểu của bàn 10,000" in html


def test_a_bet_without_a_single_is_refused_by_the_game_in_the_venues_language(vietnamese, session):
    data = round_data(box1=(NIU_9, {"double": "100,000"}))
    response = vietnamese.post(url("preview", session), data, **HX)
    assert response.status_code == 422
    html = response.content.decode()
    # the engine's refusal, said by the adapter, beside the Single of box 1
    assert "ô 1: cược double cần có Cược Đơn trên cùng ô" in html
    assert 'id="confirm"' not in html
    english = {**data}
    with_cookie = vietnamese
    with_cookie.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = with_cookie.post(url("preview", session), english, **HX).content.decode()
    assert "box 1: a double bet needs a single bet on the same box" in html


def test_closing_with_a_round_not_settled_says_so_in_the_venues_language(
    vietnamese, floor, session
):
    from casino.floor.services.rounds import round_create
    from casino.games import BoxInput

    round_create(
        session=session,
        user=floor.dealer,
        dealer_cards=NIU_8,
        boxes=[BoxInput(position=1, cards=NIU_9, stakes={"single": D("100000")})],
    )
    response = vietnamese.post(url("close", session), {"chips-100000": "50"}, **HX)
    assert response.status_code == 422
    # casino.floor.services.closing.check_closable, before any supervisor signs
    assert "ván 1 chưa thanh toán; hãy thanh toán hoặc hủy ván đó trước khi đóng bàn" in (
        response.content.decode()
    )


# A Confirm reads the entry once


def test_a_confirm_parses_each_card_once_and_evaluates_no_hand(dealer, session):
    from unittest import mock

    from casino.floor.console import forms as shared_forms
    from casino.floor.console import round as rounds
    from casino.floor.console import selectors
    from niuniu.console import forms

    data = round_data(box1=(NIU_9, {"single": "100,000"}), box3=(NO_NIU, {"single": "50,000"}))
    previewed = dealer.post(url("preview", session), data, **HX)
    confirmed = {**data, "digest": digest_of(previewed)}
    with (
        mock.patch.object(shared_forms, "parse_card", wraps=shared_forms.parse_card) as parse,
        mock.patch.object(forms, "evaluate", wraps=forms.evaluate) as evaluate,
        mock.patch.object(
            selectors, "settlement_preview", wraps=selectors.settlement_preview
        ) as preview,
        mock.patch.object(rounds, "round_confirm", wraps=rounds.round_confirm) as confirm,
    ):
        response = dealer.post(url("confirm", session), confirmed, **HX)
    assert response.status_code == 200, response.content.decode()[:2000]
    assert parse.call_count == 15  # two boxes and the dealer, five cards each, read once
    assert evaluate.call_count == 0  # the services evaluate the round as they record it
    assert preview.call_count == 0
    assert confirm.call_count == 1
    (call,) = confirm.call_args_list
    boxes = call.kwargs["boxes"]
    assert [(b.position, b.cards) for b in boxes] == [(1, "KS QS 5H 4H TC"), (3, "KH 8H 4D JH AD")]
    assert Round.objects.get().status == RoundStatus.SETTLED


def test_a_round_not_yet_typed_whole_previews_what_is_missing_without_an_error_status(
    dealer, session
):
    data = round_data(box1=("ks qs 5h", {"single": "100,000"}))
    response = dealer.post(url("preview", session), data, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Enter 5 cards (3 so far)" in html and 'id="confirm"' not in html


def test_the_screen_shows_and_reads_amounts_as_the_venue_writes_them(dealer, session, floor):
    floor.venue.amount_grouping = "dot"
    floor.venue.save(update_fields=["amount_grouping"])
    page = dealer.get(url("round", session)).content.decode()
    assert re.search(r'id="limit-single"[^>]*>10\.000–10\.000\.000<', page)
    data = round_data(box1=(NIU_9, {"single": "100.000", "double": "100000"}))
    response = dealer.post(url("preview", session), data, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-total="house" class="minus">-285.000' in html
    confirmed = dealer.post(url("confirm", session), {**data, "digest": digest_of(response)}, **HX)
    assert confirmed.status_code == 200
    assert 'name="box-1-single" value="100.000"' in confirmed.content.decode()
