"""An integrity result's rounds: exactly the settled rounds its scope counted (a table's, a
dealer's, a player's, a pit's), newest first and paginated, voided and unsettled rounds
left out, in a bounded number of queries; for the venue's managers and auditors only; and
the evidence naming its sessions by table and gaming date with the link to them."""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino.floor.services.rotation import dealer_relieve
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.integrity import rounds_views as integrity_rounds_views
from casino.integrity.models import IntegrityResult
from casino.integrity.runs import integrity_run
from casino.staff.roles import DEALER, MANAGER
from casino.venues.models import Pit
from tests.casino.integrity.test_page import flagged_run  # noqa: F401 (a fixture)
from tests.factories import PlayerFactory, niuniu_table, staff

DEALER_NIU_8 = "JS QH JD AC 7H"
HANDS = ("KS QS 5H 4H TC", "KH 8H 4D JH AD", "2S 3S 4S 5D 6D", "9C 9D 9H 9S 8C")


def settled(session, user, key, player=None, position=1):
    """A round of two boxes dealt and settled through the services; ``player`` at
    ``position``."""
    boxes = [
        BoxInput(
            position=at,
            cards=HANDS[at - 1],
            stakes={"single": D("100000")},
            player_id=player.pk if player is not None and at == position else None,
        )
        for at in (1, 2)
    ]
    round_, _ = round_create(session=session, user=user, dealer_cards=DEALER_NIU_8, boxes=boxes)
    round_settle(round_=round_, user=user, key=key)
    return round_


@pytest.fixture
def dealt(floor):
    """NN1: the floor's dealer deals a1 (the member at box 1), a2 and a3 (voided), then
    the second dealer takes over and deals a4 and a5 (dealt, never settled). NN2: the
    third dealer deals b1 (the member at box 2) and b2. Both tables are in one pit."""
    pit = Pit.objects.create(venue=floor.venue, code="p1", name="Pit 1")
    second, third = (staff(name, DEALER, floor.venue) for name in ("dealer-two", "dealer-three"))
    other_table = niuniu_table(floor.venue, code="NN2")
    for table in (floor.table, other_table):
        table.pit = pit
        table.save(update_fields=["pit"])
    member = PlayerFactory(venue=floor.venue)
    opened = {"confirmed_by": floor.supervisor, "opening_chips": {"100000": 50}}
    nn1 = session_open(table=floor.table, counted_by=floor.dealer, **opened)
    nn2 = session_open(table=other_table, counted_by=third, **opened)
    rounds = {
        "a1": settled(nn1, floor.dealer, "a1", member),
        "a2": settled(nn1, floor.dealer, "a2"),
        "a3": settled(nn1, floor.dealer, "a3"),
    }
    round_void(
        round_=rounds["a3"], requested_by=floor.dealer, approved_by=floor.supervisor, reason="x"
    )
    dealer_relieve(session=nn1, dealer=second, by=floor.supervisor)
    rounds["a4"] = settled(nn1, second, "a4")
    rounds["a5"], _ = round_create(
        session=nn1,
        user=second,
        dealer_cards=DEALER_NIU_8,
        boxes=[BoxInput(position=1, cards=HANDS[0], stakes={"single": D("100000")})],
    )
    rounds["b1"] = settled(nn2, third, "b1", member, position=2)
    rounds["b2"] = settled(nn2, third, "b2")
    date = nn1.shift.gaming_date
    run = integrity_run(venue=floor.venue, date_from=date, date_to=date)
    return {
        "run": run,
        "rounds": rounds,
        "member": member,
        "dealers": (floor.dealer, second, third),
        "tables": (floor.table, other_table),
        "pit": pit,
        "sessions": (nn1, nn2),
    }


def english(client, user):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def result_of(run, **scope):
    return IntegrityResult.objects.filter(run=run, **scope).order_by("test").first()


def listed(page) -> list[int]:
    return [int(pk) for pk in re.findall(r'<tr id="round-(\d+)">', page.content.decode())]


def ids(dealt, *names):
    return [dealt["rounds"][name].pk for name in names]


@pytest.mark.django_db
def test_each_scope_lists_exactly_its_settled_rounds_newest_first(client, floor, dealt):
    run = dealt["run"]
    first, second, third = dealt["dealers"]
    nn1, _nn2 = dealt["tables"]
    expected = {
        ("table", nn1.code): (result_of(run, scope="table", table=nn1), ("a4", "a2", "a1")),
        ("dealer", first.username): (result_of(run, scope="dealer", dealer=first), ("a2", "a1")),
        ("dealer", second.username): (result_of(run, scope="dealer", dealer=second), ("a4",)),
        ("dealer", third.username): (result_of(run, scope="dealer", dealer=third), ("b2", "b1")),
        ("player", "member"): (
            result_of(run, scope="player", player=dealt["member"]),
            ("b1", "a1"),
        ),
        ("pit", "p1"): (
            result_of(run, scope="pit", pit=dealt["pit"]),
            ("b2", "b1", "a4", "a2", "a1"),
        ),
    }
    english(client, floor.manager)
    for key, (result, names) in expected.items():
        assert result is not None, key
        page = client.get(reverse("reports:integrity_rounds", args=[result.pk]))
        assert page.status_code == 200, key
        # The voided a3 and the unsettled a5 are in no scope's list.
        assert listed(page) == ids(dealt, *names), key
    page = client.get(reverse("reports:integrity_rounds", args=[expected[("pit", "p1")][0].pk]))
    text = page.content.decode()
    # A caption naming the result, the column headers, each round's cards as its game shows them.
    assert re.search(r"<caption>[^<]*: p1, 5 rounds</caption>", text)
    assert '<th scope="col">Dealer\'s hand</th>' in text
    assert 'data-card="KS"' in text and 'data-card="JS"' in text
    assert second.username in text and nn1.code in text


@pytest.mark.django_db
def test_the_rounds_are_paginated_with_named_links(client, floor, dealt, monkeypatch):
    monkeypatch.setattr(integrity_rounds_views, "PAGE_ROUNDS", 2)
    result = result_of(dealt["run"], scope="table", table=dealt["tables"][0])
    url = reverse("reports:integrity_rounds", args=[result.pk])
    english(client, floor.manager)
    first = client.get(url)
    assert listed(first) == ids(dealt, "a4", "a2")
    text = first.content.decode()
    assert 'aria-label="Pages of rounds"' in text
    assert '<a href="?page=2" rel="next">Older rounds</a>' in text and "Page 1 of 2" in text
    second = client.get(url, {"page": "2"})
    assert listed(second) == ids(dealt, "a1")
    assert '<a href="?page=1" rel="prev">Newer rounds</a>' in second.content.decode()
    # A page past the end or not a number shows a page, never an error.
    assert listed(client.get(url, {"page": "9"})) == ids(dealt, "a1")
    assert listed(client.get(url, {"page": "x"})) == ids(dealt, "a4", "a2")


@pytest.mark.django_db
def test_the_page_costs_the_same_few_queries_however_many_rounds_it_lists(
    client, floor, dealt, django_assert_max_num_queries
):
    run = dealt["run"]
    english(client, floor.manager)
    counts = []
    for result in (
        result_of(run, scope="dealer", dealer=dealt["dealers"][1]),  # 1 round
        result_of(run, scope="pit", pit=dealt["pit"]),  # 5 rounds
    ):
        url = reverse("reports:integrity_rounds", args=[result.pk])
        # The login, its second factor's device and its roles, the result, then the rounds'
        # count, the rounds with their tables and dealers, their boxes with their players,
        # the boxes' bets; the navigation's one question whether the user reads a group.
        with (
            django_assert_max_num_queries(11),
            CaptureQueriesContext(connection) as queries,
        ):
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


@pytest.mark.django_db
def test_only_the_venues_managers_and_auditors_read_it(client, floor, dealt):
    result = result_of(dealt["run"], scope="table", table=dealt["tables"][0])
    url = reverse("reports:integrity_rounds", args=[result.pk])
    assert english(client, floor.auditor).get(url).status_code == 200
    # A dealer reads no report; a supervisor reads the reports but not the integrity tests.
    assert english(client, floor.dealer).get(url).status_code == 403
    assert english(client, floor.supervisor).get(url).status_code == 403
    # Another venue's manager: as if there were no such result.
    other = staff("seoul-manager", MANAGER, floor.other_venue)
    assert english(client, other).get(url).status_code == 404
    missing = reverse("reports:integrity_rounds", args=[result.pk + 10_000])
    assert english(client, floor.manager).get(missing).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the login page


@pytest.mark.django_db
def test_the_evidence_names_its_sessions_by_table_and_date_and_links_its_rounds(
    client, floor, dealt
):
    nn1_session, nn2_session = dealt["sessions"]
    result = result_of(dealt["run"], scope="pit", pit=dealt["pit"])
    date = nn1_session.shift.gaming_date.isoformat()
    assert result.evidence["counted"] == [
        {"session": nn1_session.pk, "table": "NN1", "gaming_date": date},
        {"session": nn2_session.pk, "table": "NN2", "gaming_date": date},
    ]
    link = reverse("reports:integrity_rounds", args=[result.pk])
    shown = render_to_string(
        "reports/_integrity_evidence.html", {"result": result, "rounds_link": True}
    )
    assert f"NN1 {date}, NN2 {date}" in shown
    assert f'<a href="{link}">' in shown
    # Evidence stored before the sessions were named still shows their ids.
    result.evidence = {"sessions": [nn1_session.pk, nn2_session.pk], "more": True}
    shown = render_to_string("reports/_integrity_evidence.html", {"result": result})
    assert f"{nn1_session.pk}, {nn2_session.pk} …" in shown and link not in shown
    # The integrity page's evidence links its result's rounds.
    english(client, floor.manager)
    page = client.get(reverse("reports:integrity"), {"venue": floor.venue.code})
    chart = page.context["chart"]
    assert reverse("reports:integrity_rounds", args=[chart.pk]) in page.content.decode()


@pytest.mark.django_db
def test_an_investigation_links_the_rounds_for_those_who_may_read_them(
    client,
    floor,
    flagged_run,  # noqa: F811 (the fixture imported above)
):
    run, _sessions = flagged_run
    alert = IntegrityResult.objects.filter(run=run, alert=True).first()
    detail = reverse("reports:investigation", args=[alert.investigation.pk])
    link = reverse("reports:integrity_rounds", args=[alert.pk])
    assert link in english(client, floor.manager).get(detail).content.decode()
    shown = english(client, floor.supervisor).get(detail)
    assert shown.status_code == 200 and link not in shown.content.decode()
