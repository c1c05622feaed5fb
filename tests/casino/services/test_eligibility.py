"""The one eligibility question (casino.players.eligibility): its answers, and a barring
(not only the player's status) refusing every activity but a cash-out on every surface."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.cage.models import CashTransaction
from casino.cage.services.cash import cash_record
from casino.floor.console import forms, selectors
from casino.floor.console.selectors import players_by_number
from casino.floor.models import Round
from casino.floor.services.rounds import round_create
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.kernel.errors import Conflict, InvalidInput
from casino.kernel.timezones import venue_today
from casino.players.eligibility import (
    Activity,
    check_player_may,
    player_eligibility,
    players_eligibility,
)
from casino.players.models import Comp, Player
from casino.players.services import player_bar, player_unbar
from casino.reports.comps import comp_issue, comp_policy_approve, comp_policy_propose
from niuniu.models import NiuNiuRulesetVersion
from tests.casino.api import NIU_8, NO_NIU, box, client_for, error_of, round_body
from tests.factories import PlayerFactory, staff

pytestmark = pytest.mark.django_db

REFUSED_WHEN_BARRED = [Activity.PLAY, Activity.BUY_IN, Activity.COMP, Activity.RATE]


@pytest.fixture
def member(floor):
    return PlayerFactory(venue=floor.venue, membership_number="VIP-7", name="Tran Van A")


@pytest.fixture
def barred(floor, member):
    """A member barred from today by a barring (their status stays active)."""
    player_bar(
        player=member,
        user=floor.manager,
        reason="self-exclusion",
        starts_on=venue_today(floor.venue),
    )
    member.refresh_from_db()
    assert member.status == Player.Status.ACTIVE
    return member


def _ask(player, venue, activity, at=None):
    return player_eligibility(player=player, venue=venue, activity=activity, at=at)


@pytest.mark.parametrize("activity", list(Activity))
def test_an_active_member_may_do_everything(floor, member, activity):
    answer = _ask(member, floor.venue, activity)
    assert (answer.allowed, answer.barred, answer.reason, answer.code) == (True, False, "", "")


@pytest.mark.parametrize("activity", REFUSED_WHEN_BARRED)
def test_a_barring_in_force_refuses_all_but_a_cash_out(floor, barred, activity):
    answer = _ask(barred, floor.venue, activity)
    assert (answer.allowed, answer.barred, answer.code) == (False, True, "player_barred")
    assert "VIP-7" in answer.reason and "self-exclusion" in answer.reason
    with pytest.raises(Conflict) as refused:
        check_player_may(player=barred, venue=floor.venue, activity=activity, field="who")
    assert (refused.value.reason, refused.value.field) == ("player_barred", "who")
    assert refused.value.message == answer.reason


def test_a_barred_member_cashes_out_flagged_as_barred(floor, barred):
    answer = _ask(barred, floor.venue, Activity.CASH_OUT)
    assert (answer.allowed, answer.barred, answer.barring.reason) == (True, True, "self-exclusion")


@pytest.mark.parametrize("activity", list(Activity))
def test_the_barred_status_bars_without_a_barring(floor, member, activity):
    member.status = Player.Status.BARRED
    answer = _ask(member, floor.venue, activity)
    assert answer.barred and answer.barring is None
    assert answer.allowed is (activity == Activity.CASH_OUT)


@pytest.mark.parametrize("activity", list(Activity))
def test_a_member_of_another_venue_is_nobody_here(floor, activity):
    stranger = PlayerFactory(venue=floor.other_venue, membership_number="SE-1")
    answer = _ask(stranger, floor.venue, activity)
    assert (answer.allowed, answer.code) == (False, "player_not_of_venue")
    assert answer.reason == "No player with membership number SE-1 at this venue."
    with pytest.raises(InvalidInput):
        answer.check()


def test_the_barring_is_read_on_the_venues_date_of_the_instant(floor, member):
    # Hà Nội is UTC+7: 16:59 UTC on the 4th is the 4th there, 17:00 UTC the 5th.
    player_bar(
        player=member,
        user=floor.manager,
        reason="from the 5th",
        starts_on=datetime(2026, 12, 5).date(),
        ends_on=datetime(2026, 12, 6).date(),
    )
    on_the_4th = datetime(2026, 12, 4, 16, 59, tzinfo=UTC)
    on_the_5th = datetime(2026, 12, 4, 17, 0, tzinfo=UTC)
    after = datetime(2026, 12, 6, 17, 0, tzinfo=UTC)
    assert _ask(member, floor.venue, Activity.PLAY, on_the_4th).allowed
    refused = _ask(member, floor.venue, Activity.PLAY, on_the_5th)
    assert not refused.allowed
    assert refused.reason == (
        "player VIP-7 is barred from 2026-12-05 until 2026-12-06 (from the 5th) and cannot play"
    )
    assert _ask(member, floor.venue, Activity.PLAY, after).allowed


def test_a_lifted_barring_or_one_not_begun_bars_nobody(floor, member):
    today = venue_today(floor.venue)
    barring = player_bar(player=member, user=floor.manager, reason="x", starts_on=today)
    player_unbar(barring=barring, user=floor.manager, reason="lifted")
    player_bar(player=member, user=floor.manager, reason="y", starts_on=today + timedelta(1))
    assert _ask(member, floor.venue, Activity.BUY_IN).allowed


def test_players_read_with_their_barred_flag_cost_one_query_for_the_barred(
    floor, member, barred, django_assert_num_queries
):
    other = PlayerFactory(venue=floor.venue, membership_number="VIP-8")
    found = players_by_number(venue=floor.venue, numbers=["VIP-7", "VIP-8"])
    with django_assert_num_queries(1):  # the barring of VIP-7, to say why
        answers = players_eligibility(
            players=found.values(), venue=floor.venue, activity=Activity.PLAY
        )
    assert not answers[barred.pk].allowed and answers[other.pk].allowed
    with django_assert_num_queries(0):
        players_eligibility(players=[found["VIP-8"]], venue=floor.venue, activity=Activity.PLAY)


def test_a_look_up_of_more_numbers_than_one_statement_takes_finds_each_once(
    floor, member, barred, django_assert_num_queries
):
    """Fifteen typed numbers (ten members, three spellings of a barred one, another venue's
    and nobody's): each of the venue's players found once, with their barred flag."""
    numbers = [f"VIP-{n}" for n in range(10, 20)]
    for number in numbers:
        PlayerFactory(venue=floor.venue, membership_number=number)
    PlayerFactory(venue=floor.other_venue, membership_number="VIP-90")
    typed = [*numbers, "vip-7", " VIP-7", "ｖｉｐ－７", "VIP-90", "VIP-99"]
    assert len(set(typed)) > selectors.NUMBERS_AT_ONCE
    with django_assert_num_queries(2):  # 13 numbers, 8 a statement
        found = players_by_number(venue=floor.venue, numbers=typed)
    assert sorted(found) == sorted([*numbers, "VIP-7"])
    assert {number for number, player in found.items() if player.barred_today} == {"VIP-7"}
    assert all(player.venue is floor.venue for player in found.values())
    assert players_by_number(venue=floor.venue, numbers=["", "  "]) == {}


# Finding: a barring (not the status) let a cash buy-in be recorded.


def test_a_barring_in_force_refuses_a_buy_in_whatever_the_instrument(floor, session, barred):
    for instrument in ("cash", "chips", "other"):
        with pytest.raises(Conflict) as refused:
            cash_record(
                session=session,
                user=floor.dealer,
                player=barred,
                amount=D("1000000"),
                instrument=instrument,
            )
        assert refused.value.reason == "player_barred" and refused.value.field == "player"
        assert "cannot buy in" in refused.value.message
        assert "self-exclusion" in refused.value.message
    assert not CashTransaction.objects.exists()


def test_a_barred_members_cash_out_is_recorded_audited_and_logged(floor, session, barred, caplog):
    with caplog.at_level(logging.WARNING, logger="casino.security"):
        tx = cash_record(
            session=session, user=floor.dealer, player=barred, amount=D("500000"), kind="cash_out"
        )
    assert (tx.kind, tx.player) == ("cash_out", barred)
    event = AuditEvent.objects.get(action="cash.barred_cash_out")
    assert event.object_id == str(tx.pk) and "barred player VIP-7" in event.summary
    assert event.after["barring"] == barred.barrings.get().pk
    assert any("cash-out by a barred player" in r.getMessage() for r in caplog.records)


def test_the_dealer_is_told_a_cash_out_was_a_barred_members(dealer, session, barred):
    url = reverse("console:cash", args=[session.pk])
    answer = dealer.post(
        url, {"player": "vip-7", "amount": "500,000", "kind": "cash_out", "key": "f" * 32}
    )
    assert answer.status_code == 200
    assert "is barred: the cash-out is paid and recorded as a barred player's" in (
        answer.content.decode().replace("&#x27;", "'")
    )
    assert CashTransaction.objects.get().kind == "cash_out"


def test_the_console_cash_form_refuses_a_barred_members_buy_in(dealer, session, barred):
    url = reverse("console:cash", args=[session.pk])
    answer = dealer.post(url, {"player": "vip-7", "amount": "1,000,000", "key": "e" * 32})
    assert answer.status_code == 422
    page = answer.content.decode()
    assert "player VIP-7 is barred from" in page and "cannot buy in" in page
    assert not CashTransaction.objects.exists()


# Rounds: the services and the console say the same.


def test_a_round_for_a_barred_member_is_refused_on_the_api_and_the_console_says_why(
    floor, session, barred
):
    api = client_for(floor.dealer)
    body = round_body(session.pk, box(1, NO_NIU, single="100000", player=barred.pk))
    answer = api.post("/api/v1/rounds/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert error_of(answer) == (409, "conflict", "boxes[0].player")
    assert not Round.objects.exists()
    shown = forms.read_player("vip-7", players_by_number(venue=floor.venue, numbers=["vip-7"]))
    assert shown == (barred, answer.json()["detail"])


# Comps and ratings.


@pytest.fixture
def rated(floor, session, member):
    """The member lost 10,000,000 at a 2.5% edge under a 20% policy: 50,000 earned."""
    NiuNiuRulesetVersion.objects.filter(ruleset=floor.table.ruleset).update(
        figures={"house_edge": {"single": "0.025", "double": "0.03", "super": "0.14"}}
    )
    dealt, _ = round_create(
        session=session,
        user=floor.dealer,
        dealer_cards=NIU_8,
        boxes=[BoxInput(1, NO_NIU, {"single": D("10000000")}, player_id=member.pk)],
    )
    round_settle(round_=dealt, user=floor.dealer, key="rated")
    policy = comp_policy_propose(
        venue=floor.venue,
        user=floor.manager,
        reinvestment_pct="20",
        supervisor_limit="30000",
        manager_limit="100000",
    )
    comp_policy_approve(policy=policy, user=staff("manager2", "manager", floor.venue))
    return member


def test_a_barred_member_receives_no_comp_on_the_service_or_the_page(client, floor, rated):
    player_bar(
        player=rated, user=floor.manager, reason="cheating", starts_on=venue_today(floor.venue)
    )
    with pytest.raises(Conflict, match="cannot receive a comp") as refused:
        comp_issue(player=rated, user=floor.supervisor, amount="20000", kind="meal")
    assert refused.value.reason == "player_barred"
    client.force_login(floor.supervisor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.post(
        reverse("reports:player_step", args=[rated.pk, "comp"]),
        {"amount": "20000", "kind": "meal"},
    )
    assert page.status_code == 409 and "cannot receive a comp" in page.content.decode()
    assert not Comp.objects.exists()
