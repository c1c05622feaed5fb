"""Players across the group's venues (docs/PLAYERS.md, "Players across the group"): the
duplicate search, linking one person's memberships, exclusion areas with four eyes, a
barring at one venue refusing the linked membership at another venue of the area (on the
services, the API and the console), never outside it, and one person's cash added up across
an area whose law says so.

The floor: Hà Nội (``hanoi``, VND) and Seoul (``seoul``, KRW) in the area ``vn-kr``; Macau
(``macau``, MOP) outside it."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation

from casino.audit.models import AuditEvent
from casino.cage.services.cash import cash_record
from casino.cage.services.thresholds import (
    day_total,
    threshold_crossing,
    thresholds_approve,
    thresholds_propose,
)
from casino.floor.console import forms
from casino.floor.console.selectors import players_by_number
from casino.floor.models import Round
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.games import BoxInput
from casino.group.services import group_create, group_venue_add
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.timezones import venue_today
from casino.players.eligibility import Activity, player_eligibility
from casino.players.models import ExclusionArea, Player, PlayerBarring
from casino.players.names import name_key
from casino.players.selectors import DATE_OF_BIRTH, DOCUMENT, NAME, duplicate_candidates
from casino.players.services import (
    exclusion_area_approve,
    exclusion_area_propose,
    player_bar,
    player_link,
    player_unbar,
    player_unlink,
)
from casino.staff.roles import MANAGER, SUPERVISOR
from tests.casino.api import NIU_8, NO_NIU, box, client_for, error_of, round_body
from tests.factories import PlayerFactory, VenueFactory, macau_session, staff

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def macau(floor):
    return VenueFactory(code="macau", name="Macau", currency="MOP", timezone="Asia/Macau")


@pytest.fixture
def managers(floor, macau):
    """Two managers of Hà Nội and Seoul (and Macau): a proposer and an approver."""
    venues = (floor.venue, floor.other_venue, macau)
    return staff("group-m1", MANAGER, *venues), staff("group-m2", MANAGER, *venues)


@pytest.fixture
def area(floor, managers):
    """Hà Nội and Seoul share barrings; details stay at the venue that recorded them."""
    proposer, approver = managers
    proposed = exclusion_area_propose(
        user=proposer, code="vn-kr", name="Vietnam-Korea", venues=[floor.venue, floor.other_venue]
    )
    return exclusion_area_approve(area=proposed, user=approver)


@pytest.fixture
def an(floor, macau, managers):
    """One person, Nguyễn Văn An, a member at Hà Nội, Seoul and Macau, all linked."""
    hanoi = PlayerFactory(venue=floor.venue, membership_number="HN-1", name="Nguyễn Văn An")
    seoul = PlayerFactory(venue=floor.other_venue, membership_number="SE-1", name="nguyen van an")
    mo = PlayerFactory(venue=macau, membership_number="MO-1", name="NGUYEN VAN AN")
    player_link(player=hanoi, other=seoul, user=managers[0], reason="passport seen at the cage")
    player_link(player=seoul, other=mo, user=managers[0], reason="passport seen at the cage")
    for player in (hanoi, seoul, mo):
        player.refresh_from_db()
    return hanoi, seoul, mo


# The duplicate search


def test_the_search_finds_a_name_whatever_its_accents_case_and_word_order(floor, macau):
    reader = staff("reader", SUPERVISOR, floor.venue, floor.other_venue)
    hanoi = PlayerFactory(venue=floor.venue, membership_number="HN-1", name="Nguyễn Văn An")
    seoul = PlayerFactory(venue=floor.other_venue, membership_number="SE-1", name="AN Nguyen Van")
    PlayerFactory(venue=floor.venue, membership_number="HN-2", name="Nguyễn Văn Anh")
    PlayerFactory(venue=macau, membership_number="MO-1", name="nguyen van an")  # not readable

    found = duplicate_candidates(user=reader, name="nguyen van an")

    assert {(c.player.membership_number, c.matched) for c in found} == {
        ("HN-1", (NAME,)),
        ("SE-1", (NAME,)),
    }
    assert hanoi.name_key == seoul.name_key == name_key("Nguyễn Văn An") == "an nguyen van"
    assert name_key("Đặng Thị Hồng") == name_key("dang thi hong")


def test_the_search_finds_a_date_of_birth_and_a_document_and_says_why(floor):
    reader = staff("reader", SUPERVISOR, floor.venue, floor.other_venue)
    both = PlayerFactory(
        venue=floor.venue,
        membership_number="HN-1",
        name="Tran Van B",
        date_of_birth=date(1980, 4, 30),
        id_document_type="Passport",
        id_document_number="B 1234-5678",
        id_document_country="VN",
    )
    born = PlayerFactory(
        venue=floor.other_venue, membership_number="SE-9", date_of_birth=date(1980, 4, 30)
    )
    PlayerFactory(  # the same number from another country is another document
        venue=floor.other_venue,
        membership_number="SE-7",
        id_document_type="passport",
        id_document_number="B12345678",
        id_document_country="KR",
    )

    found = duplicate_candidates(
        user=reader,
        date_of_birth=date(1980, 4, 30),
        id_document_type="passport",
        id_document_number="b12345678",
        id_document_country="vn",
    )

    assert [(c.player, c.matched) for c in found] == [
        (both, (DATE_OF_BIRTH, DOCUMENT)),
        (born, (DATE_OF_BIRTH,)),
    ]
    assert duplicate_candidates(user=reader, name="nobody at all") == []


def test_the_search_finds_nobody_at_a_venue_the_user_may_not_read(floor, macau):
    dealer_there = staff("macau-dealer", "dealer", macau)
    reader = staff("reader", SUPERVISOR, floor.venue)
    PlayerFactory(venue=macau, name="Nguyễn Văn An", date_of_birth=date(1980, 4, 30))
    assert duplicate_candidates(user=reader, name="Nguyen Van An") == []
    assert duplicate_candidates(user=dealer_there, date_of_birth=date(1980, 4, 30)) == []


# Linking


def test_linking_is_audited_with_its_reason_and_needs_a_manager_of_both_venues(
    floor, managers, macau
):
    hanoi = PlayerFactory(venue=floor.venue, membership_number="HN-1")
    seoul = PlayerFactory(venue=floor.other_venue, membership_number="SE-1")
    with pytest.raises(Forbidden, match="Only a manager of Venue seoul links"):
        player_link(player=hanoi, other=seoul, user=floor.manager, reason="same passport")
    with pytest.raises(InvalidInput) as no_reason:
        player_link(player=hanoi, other=seoul, user=managers[0], reason=" ")
    assert no_reason.value.field == "reason"

    person = player_link(player=hanoi, other=seoul, user=managers[0], reason="same passport")

    hanoi.refresh_from_db()
    seoul.refresh_from_db()
    assert hanoi.person == seoul.person == person
    events = AuditEvent.objects.filter(action="player.link").order_by("venue__code")
    assert [(e.venue.code, e.after["person"], e.after["reason"]) for e in events] == [
        ("hanoi", person.pk, "same passport"),
        ("seoul", person.pk, "same passport"),
    ]
    player_unlink(player=seoul, user=managers[1], reason="a different person after all")
    seoul.refresh_from_db()
    assert seoul.person is None
    event = AuditEvent.objects.get(action="player.unlink")
    assert (event.object_id, event.before, event.after["reason"]) == (
        str(seoul.pk),
        {"person": person.pk},
        "a different person after all",
    )
    with pytest.raises(Conflict, match="linked to no other membership"):
        player_unlink(player=seoul, user=managers[1], reason="again")


# Four eyes on the area


def test_an_area_needs_a_second_manager_of_each_of_its_venues(floor, managers):
    proposer, approver = managers
    with pytest.raises(Forbidden, match="Only a manager of Venue seoul proposes"):
        exclusion_area_propose(
            user=floor.manager, code="vn-kr", name="VN-KR", venues=[floor.venue, floor.other_venue]
        )
    proposed = exclusion_area_propose(
        user=proposer, code="vn-kr", name="VN-KR", venues=[floor.venue, floor.other_venue]
    )
    with pytest.raises(Forbidden) as own:
        exclusion_area_approve(area=proposed, user=proposer)
    assert own.value.reason == "four_eyes"
    with pytest.raises(Forbidden) as one_venue:
        exclusion_area_approve(area=proposed, user=floor.manager)  # a manager of Hà Nội only
    assert one_venue.value.reason == "not_manager"
    assert ExclusionArea.objects.get().status == ExclusionArea.Status.PROPOSED

    approved = exclusion_area_approve(area=proposed, user=approver)

    assert (approved.status, approved.approved_by) == (ExclusionArea.Status.APPROVED, approver)
    actions = AuditEvent.objects.filter(object_id=str(approved.pk)).values_list(
        "action", "venue__code"
    )
    assert sorted(actions) == [
        ("exclusion_area.approve", "hanoi"),
        ("exclusion_area.approve", "seoul"),
        ("exclusion_area.propose", "hanoi"),
        ("exclusion_area.propose", "seoul"),
    ]
    with pytest.raises(Conflict, match="approved already"):
        exclusion_area_approve(area=approved, user=approver)


def test_a_venue_is_in_one_area_and_cash_adds_up_in_one_currency(floor, managers, macau, area):
    with pytest.raises(Conflict, match="Venue seoul is in the exclusion area Vietnam-Korea"):
        exclusion_area_propose(
            user=managers[0], code="kr-mo", name="KR-MO", venues=[floor.other_venue, macau]
        )
    with pytest.raises(InvalidInput, match=r"one currency only \(KRW, MOP here\)") as mixed:
        exclusion_area_propose(
            user=managers[0],
            code="mo",
            name="MO",
            venues=[macau, floor.other_venue],
            aggregates_cash=True,
        )
    assert mixed.value.field == "aggregates_cash"


# Barring across the area


def test_a_self_exclusion_at_hanoi_refuses_the_linked_member_in_seoul(floor, managers, area, an):
    hanoi, seoul, _mo = an
    player_bar(
        player=hanoi,
        user=floor.manager,
        reason="asked at the cage on 2026-12-01, form 17",
        starts_on=venue_today(floor.venue),
        kind=PlayerBarring.Kind.SELF_EXCLUSION,
    )
    for activity in (Activity.PLAY, Activity.BUY_IN, Activity.COMP, Activity.RATE):
        answer = player_eligibility(player=seoul, venue=floor.other_venue, activity=activity)
        assert (answer.allowed, answer.code) == (False, "player_barred")
        assert answer.reason.startswith("player SE-1 is barred at Venue hanoi (self-exclusion)")
        assert "form 17" not in answer.reason  # the area keeps the reason at Hà Nội
        assert answer.barring_shown is None
    cash_out = player_eligibility(player=seoul, venue=floor.other_venue, activity=Activity.CASH_OUT)
    assert cash_out.allowed and cash_out.barred


def test_the_next_round_in_seoul_is_refused_on_the_services_api_and_console(
    floor, managers, area, an
):
    hanoi, seoul, _mo = an
    session = session_open(
        table=floor.other_table,
        counted_by=floor.other_dealer,
        confirmed_by=floor.other_supervisor,
        opening_chips={"100000": 50},
    )
    dealt, _ = round_create(
        session=session,
        user=floor.other_dealer,
        dealer_cards=NIU_8,
        boxes=[BoxInput(1, NO_NIU, {"single": D("100000")}, player_id=seoul.pk)],
    )
    assert dealt.pk  # before the barring, Seoul deals them in
    player_bar(
        player=hanoi,
        user=floor.manager,
        reason="self-exclusion",
        starts_on=venue_today(floor.venue),
    )
    message = "player SE-1 is barred at Venue hanoi (barring by the venue) and cannot play"

    with pytest.raises(Conflict) as refused:
        round_create(
            session=session,
            user=floor.other_dealer,
            dealer_cards=NIU_8,
            boxes=[BoxInput(1, NO_NIU, {"single": D("100000")}, player_id=seoul.pk)],
        )
    assert (refused.value.reason, refused.value.message) == ("player_barred", message)

    api = client_for(floor.other_dealer)
    body = round_body(session.pk, box(1, NO_NIU, single="100000", player=seoul.pk))
    answer = api.post("/api/v1/rounds/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert error_of(answer) == (409, "conflict", "boxes[0].player")
    assert answer.json()["detail"] == message
    assert Round.objects.count() == 1

    typed = players_by_number(venue=floor.other_venue, numbers=["se-1"])
    assert forms.read_player("se-1", typed) == (seoul, message)


def test_an_area_that_shares_details_names_the_dates_and_reason(floor, managers, area, an):
    hanoi, seoul, _mo = an
    shared = exclusion_area_propose(
        user=managers[1],
        code="vn-kr",
        name="Vietnam-Korea",
        venues=[floor.venue, floor.other_venue],
        shares_details=True,
    )
    exclusion_area_approve(area=shared, user=managers[0])
    today = venue_today(floor.venue)
    player_bar(
        player=hanoi,
        user=floor.manager,
        reason="cheating",
        starts_on=today,
        ends_on=today + timedelta(days=30),
    )
    answer = player_eligibility(player=seoul, venue=floor.other_venue, activity=Activity.BUY_IN)
    assert answer.reason == (
        f"player SE-1 is barred at Venue hanoi from {today.isoformat()} until "
        f"{(today + timedelta(days=30)).isoformat()} (barring by the venue: cheating) and "
        "cannot buy in"
    )
    assert answer.barring_shown == hanoi.barrings.get()


def test_no_barring_reaches_a_venue_outside_the_area_nor_before_approval(
    floor, managers, macau, an
):
    hanoi, seoul, mo = an
    proposed = exclusion_area_propose(
        user=managers[0], code="vn-kr", name="VN-KR", venues=[floor.venue, floor.other_venue]
    )
    barring = player_bar(
        player=hanoi, user=floor.manager, reason="x", starts_on=venue_today(floor.venue)
    )
    assert player_eligibility(player=seoul, venue=floor.other_venue, activity=Activity.PLAY).allowed
    exclusion_area_approve(area=proposed, user=managers[1])
    assert not player_eligibility(
        player=seoul, venue=floor.other_venue, activity=Activity.PLAY
    ).allowed
    assert player_eligibility(player=mo, venue=macau, activity=Activity.PLAY).allowed  # outside
    player_unbar(barring=barring, user=floor.manager, reason="lifted at Hà Nội")
    assert player_eligibility(player=seoul, venue=floor.other_venue, activity=Activity.PLAY).allowed


def test_a_barring_reaches_only_memberships_still_linked_and_from_its_first_day(
    floor, managers, area, an
):
    hanoi, seoul, _mo = an
    # tomorrow at both venues: Seoul's day starts two hours before Hà Nội's
    tomorrow = max(venue_today(floor.venue), venue_today(floor.other_venue)) + timedelta(days=1)
    player_bar(player=hanoi, user=floor.manager, reason="from tomorrow", starts_on=tomorrow)
    assert player_eligibility(player=seoul, venue=floor.other_venue, activity=Activity.PLAY).allowed
    hanoi.status = Player.Status.BARRED
    hanoi.save(update_fields=["status"])
    assert not player_eligibility(
        player=seoul, venue=floor.other_venue, activity=Activity.PLAY
    ).allowed
    player_unlink(player=seoul, user=managers[0], reason="another person")
    seoul.refresh_from_db()
    assert player_eligibility(player=seoul, venue=floor.other_venue, activity=Activity.PLAY).allowed


# Cash across an area whose law adds it up


def test_one_persons_cash_is_added_up_across_an_area_that_says_so(db):
    first, first_dealer = macau_session("mo-a", "Macau A")
    second, second_dealer = macau_session("mo-b", "Macau B")
    venues = (first.table.venue, second.table.venue)
    m1, m2 = staff("mo-m1", MANAGER, *venues), staff("mo-m2", MANAGER, *venues)
    for venue in venues:
        proposed = thresholds_propose(
            venue=venue, user=m1, logging_threshold="30000", reporting_threshold="50000"
        )
        thresholds_approve(version=proposed, user=m2)
    a = PlayerFactory(venue=venues[0], membership_number="A-1", id_document_number="P1")
    b = PlayerFactory(venue=venues[1], membership_number="B-1", id_document_number="P1")
    player_link(player=a, other=b, user=m1, reason="same passport")
    b.refresh_from_db()
    gaming_date = cash_record(session=first, user=first_dealer, player=a, amount=D("40000"))
    gaming_date = gaming_date.gaming_date

    # Apart until an area adds cash up: 40,000 at A is not B's.
    assert day_total(player=b, gaming_date=gaming_date, kind="buy_in") == 0
    proposed = exclusion_area_propose(
        user=m1, code="mo", name="Macau", venues=venues, aggregates_cash=True
    )
    exclusion_area_approve(area=proposed, user=m2)
    assert day_total(player=b, gaming_date=gaming_date, kind="buy_in") == D("40000")
    crossing = threshold_crossing(
        venue=venues[1], kind="buy_in", instrument="cash", amount=D("10000"), player=b
    )
    assert (crossing.level, crossing.earlier, crossing.total) == (
        "reporting",
        D("40000"),
        D("50000"),
    )
    tx = cash_record(session=second, user=second_dealer, player=b, amount=D("10000"))
    assert tx.threshold == "reporting"
    alert = tx.alerts.get()
    assert (alert.venue, alert.player, alert.total) == (venues[1], b, D("50000"))


def test_one_persons_cash_is_added_up_across_the_operators_venues_where_the_law_says_so(db):
    """Korea's preset adds up the operator's venues in the jurisdiction (docs/compliance/KR.md):
    a member's cash at one of the group's Korean venues counts at the other, with no
    exclusion area; a Korean venue of another operator, and Vietnam's venues, stay apart."""
    sessions = {code: macau_session(code, code.upper()) for code in ("kr-a", "kr-b", "kr-c")}
    venues = {code: session.table.venue for code, (session, _dealer) in sessions.items()}
    for venue in venues.values():
        venue.jurisdiction = "KR"
        venue.save(update_fields=["jurisdiction"])
    root = User.objects.create_superuser("root", "root@example.com", "x")
    ours = group_create(user=root, code="ours", name="Ours", reporting_currency="USD")
    theirs = group_create(user=root, code="theirs", name="Theirs", reporting_currency="USD")
    group_venue_add(user=root, group=ours, venue=venues["kr-a"], country="KR")
    group_venue_add(user=root, group=ours, venue=venues["kr-b"], country="KR")
    group_venue_add(user=root, group=theirs, venue=venues["kr-c"], country="KR")
    manager = staff("kr-m", MANAGER, *venues.values())
    members = {
        code: PlayerFactory(
            venue=venue, membership_number=f"{code.upper()}-1", id_document_number="K1"
        )
        for code, venue in venues.items()
    }
    player_link(player=members["kr-a"], other=members["kr-b"], user=manager, reason="passport")
    player_link(player=members["kr-a"], other=members["kr-c"], user=manager, reason="passport")
    for member in members.values():
        member.refresh_from_db()
    session, dealer = sessions["kr-a"]
    tx = cash_record(session=session, user=dealer, player=members["kr-a"], amount=D("40000"))

    def at(code: str) -> D:
        return day_total(player=members[code], gaming_date=tx.gaming_date, kind="buy_in")

    assert (at("kr-a"), at("kr-b"), at("kr-c")) == (D("40000"), D("40000"), 0)
    # Where the law adds up no operator's venues, the group's venues stay apart.
    for code in ("kr-a", "kr-b"):
        venues[code].jurisdiction = "VN"
        venues[code].save(update_fields=["jurisdiction"])
    members["kr-b"].venue.refresh_from_db()
    assert at("kr-b") == 0


# The player page


def test_the_player_page_searches_duplicates_and_links(client, floor, managers):
    hanoi = PlayerFactory(venue=floor.venue, membership_number="HN-1", name="Nguyễn Văn An")
    seoul = PlayerFactory(venue=floor.other_venue, membership_number="SE-1", name="Nguyen Van An")
    client.force_login(managers[0])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("reports:player", args=[hanoi.pk])).content.decode()
    assert 'id="duplicates"' in page and "SE-1" in page and "Name" in page
    answer = client.post(
        reverse("reports:player_step", args=[hanoi.pk, "link"]),
        {"other": seoul.pk, "link_reason": "passport seen"},
    )
    assert answer.status_code == 302
    seoul.refresh_from_db()
    assert seoul.person_id is not None
    refused = client.post(
        reverse("reports:player_step", args=[hanoi.pk, "unlink"]), {"unlink_reason": ""}
    )
    assert refused.status_code == 400 and "Give the reason" in refused.content.decode()


def test_the_players_page_searches_before_enrolling(client, floor, macau):
    reader = staff("reader", SUPERVISOR, floor.venue, floor.other_venue)
    PlayerFactory(venue=floor.other_venue, membership_number="SE-1", name="nguyen van an")
    PlayerFactory(venue=macau, membership_number="MO-1", name="nguyen van an")
    client.force_login(reader)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("reports:players")
    page = client.get(url, {"venue": "hanoi", "dup_name": "Nguyễn Văn An"}).content.decode()
    assert "SE-1" in page and "MO-1" not in page and "Matched on" in page
    wrong = client.get(url, {"venue": "hanoi", "dup_date_of_birth": "30/04/1980"})
    assert wrong.status_code == 200 and "Enter the date as YYYY-MM-DD" in wrong.content.decode()


def test_the_api_searches_links_and_keeps_another_venues_barring_private(
    floor, managers, area, macau
):
    hanoi = PlayerFactory(venue=floor.venue, membership_number="HN-1", name="Nguyễn Văn An")
    seoul = PlayerFactory(venue=floor.other_venue, membership_number="SE-1", name="nguyen van an")
    api = client_for(managers[0])
    found = api.get("/api/v1/players/duplicates/", {"name": "NGUYEN van An"})
    assert found.status_code == 200
    assert [(c["player"]["membership_number"], c["matched"]) for c in found.json()] == [
        ("HN-1", ["name"]),
        ("SE-1", ["name"]),
    ]
    refused = client_for(floor.manager).post(
        f"/api/v1/players/{hanoi.pk}/link/", {"other": seoul.pk, "reason": "x"}, format="json"
    )
    assert refused.status_code == 404  # Seoul's member is nobody to a manager of Hà Nội only
    linked = api.post(
        f"/api/v1/players/{hanoi.pk}/link/",
        {"other": seoul.pk, "reason": "passport"},
        format="json",
    )
    assert linked.status_code == 200 and linked.json()["person"] is not None
    player_bar(
        player=hanoi, user=floor.manager, reason="form 17", starts_on=venue_today(floor.venue)
    )
    detail = client_for(floor.other_supervisor).get(f"/api/v1/players/{seoul.pk}/").json()
    assert (detail["barred"], detail["barring"], detail["barred_at"]["code"]) == (
        True,
        None,
        "hanoi",
    )
    unlinked = api.post(
        f"/api/v1/players/{seoul.pk}/unlink/", {"reason": "another person"}, format="json"
    )
    assert unlinked.status_code == 200 and unlinked.json()["person"] is None
    assert unlinked.json()["barred"] is False
