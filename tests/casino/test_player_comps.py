"""Barring, identity and comps: through the services, as the pages and the floor use them."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.floor.console import forms
from casino.floor.services.rounds import round_create
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.timezones import venue_today
from casino.players.models import Comp, CompPolicy, Player
from casino.players.services import player_bar, player_identity_update, player_unbar
from casino.reports.comps import comp_earned, comp_issue, comp_policy_approve, comp_policy_propose
from niuniu.models import NiuNiuRulesetVersion
from tests.factories import staff

pytestmark = pytest.mark.django_db

NIU_8 = "JS QH JD AC 7H"
NO_NIU = "KH 8H 4D JH AD"
FIGURES = {"house_edge": {"single": "0.025", "double": "0.03", "super": "0.14"}}


@pytest.fixture
def member(floor):
    return Player.objects.create(venue=floor.venue, membership_number="VIP-1", name="An")


def _play(session, dealer, player, stake="10000000"):
    round_, _ = round_create(
        session=session,
        user=dealer,
        dealer_cards=NIU_8,
        boxes=[
            BoxInput(position=1, cards=NO_NIU, stakes={"single": D(stake)}, player_id=player.pk)
        ],
    )
    return round_settle(round_=round_, user=dealer, key=f"k-{round_.pk}")[0]


@pytest.fixture
def rated(floor, session, member):
    """The member lost a single of 10,000,000 at a 2.5% edge: theoretical win 250,000."""
    NiuNiuRulesetVersion.objects.filter(ruleset=floor.table.ruleset).update(figures=FIGURES)
    _play(session, floor.dealer, member)
    return member


@pytest.fixture
def policy(floor):
    """20% of theoretical win; supervisors up to 30,000 a comp, managers up to 100,000."""
    proposed = comp_policy_propose(
        venue=floor.venue,
        user=floor.manager,
        reinvestment_pct="20",
        supervisor_limit="30000",
        manager_limit="100000",
    )
    return comp_policy_approve(policy=proposed, user=staff("manager2", "manager", floor.venue))


def test_a_barred_member_is_refused_a_seat_with_the_barring_named(floor, session, member):
    today = venue_today(floor.venue)
    barring = player_bar(
        player=member, user=floor.manager, reason="self-exclusion", starts_on=today
    )
    with pytest.raises(Conflict) as refused:
        _play(session, floor.dealer, member)
    assert "barred from" in refused.value.message and "self-exclusion" in refused.value.message
    assert refused.value.reason == "player_barred"
    # The console's member field says the same before the round is dealt.
    assert "self-exclusion" in forms.read_player("vip-1", {"VIP-1": member})[1]
    with pytest.raises(Forbidden):
        player_bar(player=member, user=floor.supervisor, reason="x", starts_on=today)
    player_unbar(barring=barring, user=floor.manager, reason="exclusion ended")
    assert _play(session, floor.dealer, member, stake="100000").status == "settled"
    # A barring that starts tomorrow does not stop today's play.
    player_bar(
        player=member, user=floor.manager, reason="later", starts_on=today + timedelta(days=1)
    )
    _play(session, floor.dealer, member, stake="100000")
    actions = list(
        AuditEvent.objects.filter(action__startswith="player.").values_list("action", flat=True)
    )
    assert actions.count("player.bar") == 2 and "player.unbar" in actions


def test_identity_is_masked_for_a_supervisor_and_full_for_a_manager(client, floor, member):
    player_identity_update(
        player=member,
        user=floor.manager,
        date_of_birth="1980-04-30",
        nationality="VN",
        id_document_type="passport",
        id_document_number="B12345678",
    )
    event = AuditEvent.objects.get(action="player.identity")
    assert event.after["id_document_number"] == "•••••5678"
    assert "B12345678" not in str(event.after) and "1980-04-30" not in str(event.after)
    with pytest.raises(Forbidden):
        player_identity_update(player=member, user=floor.supervisor, nationality="KR")
    url = reverse("reports:player", args=[member.pk])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(floor.supervisor)
    page = client.get(url).content.decode()
    assert "•••••5678" in page and "B12345678" not in page and "1980-04-30" not in page
    client.force_login(floor.manager)
    page = client.get(url).content.decode()
    assert "B12345678" in page and "1980-04-30" in page


def test_the_policy_needs_a_second_manager(floor):
    proposed = comp_policy_propose(
        venue=floor.venue,
        user=floor.manager,
        reinvestment_pct="20",
        supervisor_limit="30000",
        manager_limit="100000",
    )
    with pytest.raises(Forbidden, match="two-person rule"):
        comp_policy_approve(policy=proposed, user=floor.manager)
    with pytest.raises(Forbidden):
        comp_policy_approve(policy=proposed, user=floor.supervisor)
    approved = comp_policy_approve(policy=proposed, user=staff("m2", "manager", floor.venue))
    assert approved.status == CompPolicy.Status.APPROVED
    assert AuditEvent.objects.filter(
        action="comp_policy.approve", object_id=str(approved.pk)
    ).exists()


def test_comps_keep_to_the_limits_and_the_earned_amount(floor, rated, policy):
    assert comp_earned(rated).earned == D("50000.00")  # 20% of 250,000
    with pytest.raises(InvalidInput, match="supervisor's limit of 30,000"):
        comp_issue(player=rated, user=floor.supervisor, amount="40000", kind="meal")
    comp = comp_issue(
        player=rated, user=floor.supervisor, amount="20000", kind="meal", notes="dinner"
    )
    assert (comp.amount, comp.issued_by, comp.authorised_by) == (D("20000"), floor.supervisor, None)
    event = AuditEvent.objects.get(action="comp.issue")
    assert event.after["amount"] == "20000" and event.object_id == str(comp.pk)
    # 30,000 left of the earned amount: a manager's limit does not stretch it.
    with pytest.raises(InvalidInput, match="over what the player has earned, 30,000"):
        comp_issue(player=rated, user=floor.manager, amount="40000", kind="room")
    assert Comp.objects.count() == 1
    with pytest.raises(Forbidden):
        comp_issue(player=rated, user=floor.dealer, amount="1000", kind="meal")


def test_the_comps_report_and_its_csv(client, floor, rated, policy):
    comp_issue(player=rated, user=floor.supervisor, amount="20000", kind="show")
    client.force_login(floor.auditor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("reports:comps"), {"venue": floor.venue.code})
    assert page.status_code == 200 and "VIP-1" in page.content.decode()
    csv = client.get(reverse("reports:comps_csv"), {"venue": floor.venue.code})
    assert csv.content.startswith(b"\xef\xbb\xbf")  # UTF-8 as Excel reads it
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Gaming date,Issued at,Membership number")
    assert len(lines) == 2 and ",VIP-1,An,Show,20000,VND,supervisor," in lines[1]


def test_a_supervisor_issues_a_comp_from_the_page(client, floor, rated, policy):
    client.force_login(floor.supervisor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("reports:player_step", args=[rated.pk, "comp"])
    refused = client.post(url, {"amount": "35000", "kind": "meal"})
    assert refused.status_code == 400 and "30,000" in refused.content.decode()
    done = client.post(url, {"amount": "25000", "kind": "meal"})
    assert done.status_code == 302 and Comp.objects.get().amount == D("25000")


def test_a_comp_belongs_to_the_gaming_day_the_tables_count(floor, session, rated, policy):
    comp = comp_issue(player=rated, user=floor.supervisor, amount="20000", kind="meal")
    assert comp.gaming_date == session.shift.gaming_date


def test_a_comp_given_before_the_gaming_day_starts_is_the_day_before(floor, monkeypatch):
    """At 01:00 on the venue's clocks the gaming day that began the evening before is still
    on (it starts at 06:00 by default): its comps, like its tables, count on that day."""
    from types import SimpleNamespace
    from zoneinfo import ZoneInfo

    from casino.reports import comps

    player = Player.objects.create(venue=floor.venue, membership_number="VIP-9", name="Ba")
    zone = ZoneInfo(floor.venue.timezone)
    today = venue_today(floor.venue)
    one_am = datetime.combine(today, time(1, 0), tzinfo=zone)
    monkeypatch.setattr(comps, "timezone", SimpleNamespace(now=lambda: one_am))
    assert comp_earned(player).date_to == today - timedelta(days=1)
