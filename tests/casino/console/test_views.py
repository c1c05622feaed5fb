"""The console's pages and partials through Django's test client, on PostgreSQL.

An htmx request (``HX-Request: true``) gets only the fragment it replaces; the same URL
without it gets the whole page.
"""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.models import LedgerEntry, Player, Round, RoundStatus, Slip, TableSession
from casino.roles import DEALER
from casino.services.sessions import session_close, session_open
from tests.factories import staff

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
NIU_9 = "ks qs 5h 4h 10c"  # Niu 9, high card K♠
NO_NIU = "kh 8h 4d jh ad"
NIU_8 = "js qh jd ac 7h"  # the dealer: Niu 8


@pytest.fixture
def session(floor):
    return session_open(table=floor.table, user=floor.dealer, opening_chips={"100000": 50})


@pytest.fixture
def dealer(client, floor):
    client.force_login(floor.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


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


# Getting in


def test_the_root_goes_to_the_console_and_the_console_to_the_login(client):
    assert client.get("/").url == "/console/"
    response = client.get("/console/")
    assert response.status_code == 302
    assert response.url.startswith(settings.LOGIN_URL)
    assert client.get("/console/", **HX).headers["HX-Redirect"].startswith(settings.LOGIN_URL)


def test_the_login_form_logs_a_dealer_in(client, floor):
    page = client.get(settings.LOGIN_URL)
    assert b'name="username"' in page.content
    response = client.post(settings.LOGIN_URL, {"username": "dealer", "password": "pw-for-tests"})
    assert response.url == settings.LOGIN_REDIRECT_URL
    client.post(reverse("logout"))
    wrong = client.post(settings.LOGIN_URL, {"username": "dealer", "password": "nope"})
    assert wrong.status_code == 200 and b'role="alert"' in wrong.content


def test_my_tables_are_those_of_my_venues(dealer, floor, session):
    page = dealer.get(reverse("console:home")).content.decode()
    assert floor.venue.name in page and floor.other_venue.name not in page
    assert reverse("console:round", args=[session.pk]) in page


def test_opening_a_table_with_a_chip_count_leads_to_the_round_screen(dealer, floor):
    form = dealer.get(reverse("console:open", args=[floor.table.pk]))
    assert b'name="chips-100000"' in form.content
    data = {"chips-100000": "50", "chips-1000": "1,000"}
    response = dealer.post(reverse("console:open", args=[floor.table.pk]), data)
    session = TableSession.objects.get(table=floor.table)
    assert response.status_code == 303
    assert response.url == reverse("console:round", args=[session.pk])
    assert session.opening_total == D("6000000")
    # the same form posted again opens nothing more
    again = dealer.post(reverse("console:open", args=[floor.table.pk]), data)
    assert again.url == response.url
    assert TableSession.objects.filter(table=floor.table).count() == 1


def test_a_bad_chip_count_is_shown_on_the_form(dealer, floor):
    response = dealer.post(reverse("console:open", args=[floor.table.pk]), {"chips-1000": "-3"})
    assert response.status_code == 422
    assert b"Count the chips as a whole number" in response.content
    assert not TableSession.objects.exists()


def test_absurd_numbers_are_refused_on_the_form_not_with_an_error_page(dealer, floor, session):
    response = dealer.post(
        reverse("console:open", args=[floor.other_table.pk]), {"chips-1000": "9" * 20}
    )
    assert response.status_code == 404  # another venue's table, whatever the count
    data = round_data(box1=(NIU_9, {"single": "9" * 20}))
    preview = dealer.post(url("preview", session), data, **HX)
    assert preview.status_code == 422 and "is not an amount" in preview.content.decode()
    slip = dealer.post(url("slips", session), {"kind": "fill", "chips-1000": "9" * 20, "seen": "0"})
    assert slip.status_code == 422 and "At most 99,999 chips" in slip.content.decode()
    assert dealer.get(url("history", session), {"round": "x"}).status_code == 200
    assert dealer.get(url("round-detail", session, 999999), **HX).status_code == 404


def test_another_venues_table_is_not_found_and_a_user_without_the_role_is_refused(client, floor):
    client.force_login(floor.dealer)
    assert client.get(reverse("console:open", args=[floor.other_table.pk])).status_code == 404
    other_session = session_open(table=floor.other_table, user=floor.other_dealer, opening_chips={})
    assert client.get(reverse("console:round", args=[other_session.pk])).status_code == 404
    assert client.post(url("preview", other_session), {}, **HX).status_code == 404
    client.force_login(floor.auditor)
    assert client.get(reverse("console:open", args=[floor.table.pk])).status_code == 403
    session = session_open(table=floor.table, user=floor.dealer, opening_chips={})
    refused = client.post(url("preview", session), {}, **HX)
    assert refused.status_code == 403
    assert refused["Content-Type"].startswith("text/plain")
    assert refused["HX-Reswap"] == "none"


# The round screen and its partials


def test_the_round_screen_is_a_page_and_its_partials_are_fragments(dealer, session):
    page = dealer.get(url("round", session))
    assert page.status_code == 200
    html = page.content.decode()
    assert "<html" in html and 'id="round-form"' in html and 'data-pick="KS"' in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    assert "htmx-2" in html and "unpkg" not in html and "cdn" not in html.lower()

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


def test_a_hand_without_niu_shows_its_five_cards_and_high_card(dealer, session):
    response = dealer.get(url("hand", session), {"box": "dealer", "dealer-cards": NO_NIU}, **HX)
    html = response.content.decode()
    assert 'id="hand-dealer"' in html and "No Niu" in html and '<div class="five">' in html


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
    assert "Ngầu 9" in vietnamese.content.decode()
    assert vietnamese["Content-Language"] == "vi"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    assert "니우 9" in client.get(url("hand", session), params, **HX).content.decode()
    chosen = client.post(reverse("set_language"), {"language": "pt", "next": "/console/"})
    assert chosen.status_code == 302
    assert "Niu 9" in client.get(url("hand", session), params, **HX).content.decode()
    reset = client.post(reverse("console:language-of-venue"), {"next": "/console/"})
    assert reset.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""
    del client.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert "Ngầu 9" in client.get(url("hand", session), params, **HX).content.decode()


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
    assert "Super: Above the table maximum of 1,000,000" in html
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
    from casino.console import forms
    from casino.console.selectors import screen_for

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


def test_a_closed_session_takes_no_round(dealer, floor, session):
    session_close(session=session, user=floor.supervisor, closing_chips={"100000": 50})
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
    with django_assert_max_num_queries(6):
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


# History and voids


@pytest.fixture
def settled_round(dealer, session):
    data = round_data(box1=(NIU_9, {"single": "100,000"}))
    preview_then_confirm(dealer, session, data)
    return Round.objects.get()


def void_data(**extra):
    return {"reason": "misdeal", "supervisor": "supervisor", "password": "pw-for-tests", **extra}


def test_the_history_lists_rounds_and_their_details(dealer, session, settled_round):
    page = dealer.get(url("history", session)).content.decode()
    assert f'id="round-{settled_round.pk}"' in page and "Niu 8" in page
    detail = dealer.get(url("round-detail", session, settled_round.pk), **HX)
    html = detail.content.decode()
    assert "<html" not in html and f'id="round-detail-{settled_round.pk}"' in html
    assert "Void round 1" in html
    plain = dealer.get(url("round-detail", session, settled_round.pk))
    assert plain.status_code == 302 and f"round={settled_round.pk}" in plain.url


def test_a_void_is_approved_by_a_supervisor_with_their_own_credentials(
    dealer, floor, session, settled_round
):
    wrong = dealer.post(url("void", session, settled_round.pk), void_data(password="guess"), **HX)
    assert wrong.status_code == 422
    assert "Wrong username or password: nothing was voided." in wrong.content.decode()
    settled_round.refresh_from_db()
    assert settled_round.status == RoundStatus.SETTLED

    not_a_supervisor = dealer.post(
        url("void", session, settled_round.pk), void_data(supervisor="dealer"), **HX
    )
    assert "dealer is not a supervisor at this venue" in not_a_supervisor.content.decode()

    done = dealer.post(url("void", session, settled_round.pk), void_data(), **HX)
    assert done.status_code == 200 and 'id="history"' in done.content.decode()
    settled_round.refresh_from_db()
    assert settled_round.status == RoundStatus.VOIDED
    assert settled_round.void_requested_by == floor.dealer
    assert settled_round.voided_by == floor.supervisor
    assert LedgerEntry.objects.filter(round=settled_round).count() % 2 == 0
    # the same form again changes nothing
    entries = LedgerEntry.objects.count()
    assert dealer.post(url("void", session, settled_round.pk), void_data(), **HX).status_code == 200
    assert LedgerEntry.objects.count() == entries


def test_a_supervisor_cannot_approve_their_own_void(client, floor, session, settled_round):
    client.force_login(floor.supervisor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.post(url("void", session, settled_round.pk), void_data(), **HX)
    assert "another supervisor must approve it" in response.content.decode()
    settled_round.refresh_from_db()
    assert settled_round.status == RoundStatus.SETTLED


# Fills and credits


def test_a_fill_is_requested_once_per_form_and_its_status_shown(dealer, session):
    page = dealer.get(url("slips", session)).content.decode()
    seen = re.search(r'name="seen" value="(\d+)"', page).group(1)
    data = {"kind": "fill", "chips-100000": "10", "seen": seen}
    first = dealer.post(url("slips", session), data, **HX)
    assert first.status_code == 200
    assert "Fill 1 requested for 1,000,000." in first.content.decode()
    again = dealer.post(url("slips", session), data, **HX)
    assert "That request was already sent" in again.content.decode()
    slip = Slip.objects.get()
    assert (slip.kind, slip.amount, slip.status) == ("fill", D("1000000"), "requested")
    listing = dealer.get(url("slips", session), {"list": "1"}, **HX).content.decode()
    assert listing.strip().startswith('<div id="slip-list"') and "Requested" in listing


def test_a_slip_without_chips_is_refused(dealer, session):
    response = dealer.post(url("slips", session), {"kind": "credit", "seen": "0"}, **HX)
    assert response.status_code == 422 and "Count at least one chip." in response.content.decode()
    assert not Slip.objects.exists()


# Closing


def test_closing_needs_a_supervisor_and_shows_the_variance(dealer, floor, session, settled_round):
    # opened with 5,000,000; the house lost 95,000 in round 1: 4,905,000 expected in the tray
    page = dealer.get(url("close", session)).content.decode()
    assert 'data-expected="4905000' in page
    count = {"chips-1000000": "4", "chips-100000": "9", "chips-1000": "10"}  # 4,910,000
    wrong = dealer.post(
        url("close", session), {**count, "supervisor": "supervisor", "password": "x"}, **HX
    )
    assert wrong.status_code == 422
    assert "the table is still open" in wrong.content.decode()
    response = dealer.post(
        url("close", session),
        {**count, "supervisor": "supervisor", "password": "pw-for-tests"},
        **HX,
    )
    assert response.headers["HX-Redirect"] == url("round", session)
    session.refresh_from_db()
    assert session.status == TableSession.Status.CLOSED
    assert session.closed_by == floor.supervisor
    assert (session.win_by_count, session.win_by_ledger, session.variance) == (
        D("-90000"),
        D("-95000"),
        D("5000"),
    )
    summary = dealer.get(url("round", session)).content.decode()
    assert 'data-figure="variance">+5,000' in summary
    # the same form again: the table is closed already
    again = dealer.post(
        url("close", session),
        {**count, "supervisor": "supervisor", "password": "pw-for-tests"},
        **HX,
    )
    assert again.headers["HX-Redirect"] == url("round", session)


def test_a_dealer_of_another_venue_sees_nothing_here(client, floor, session):
    stranger = staff("stranger", DEALER, floor.other_venue)
    client.force_login(stranger)
    for name in ("round", "history", "slips", "close"):
        assert client.get(url(name, session)).status_code == 404
