"""A blackjack table kept for its accounting: a whole session (opener, a fill, ratings, the
closer's count with its drop) in the shift report, the ratings' refusals, four eyes on its
rules, and the players' rated play."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from casino import games
from casino.audit.models import AuditEvent
from casino.cage.services.slips import slip_request
from casino.floor.models import TableSession
from casino.floor.services.closing import session_close
from casino.floor.services.sessions import session_open
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.timezones import venue_zone
from casino.players.services import player_bar, player_unbar
from casino.reports import outputs
from casino.reports.models import ShiftReport
from casino.reports.services import report_build, report_request
from casino.rulesets.services import version_approve, version_content_hash
from casino.staff.roles import DEALER, MANAGER, SUPERVISOR
from casino.venues.models import Shift
from casino.venues.services.tables import table_create
from tablegames.models import Rating
from tablegames.services import rating_enter, venue_ruleset_from_preset
from tests.casino.api import client_for
from tests.casino.slips import slip_post
from tests.factories import PlayerFactory, VenueFactory, staff

pytestmark = pytest.mark.django_db


class Blackjack:
    """An open blackjack table (2% edge, 60 hands an hour; limits 10,000 to 1,000,000)
    whose session opened two hours ago, in a shift around it."""

    def __init__(self) -> None:
        self.venue = venue = VenueFactory(code="bj", language="en")
        self.manager = staff("bj-manager", MANAGER, venue)
        self.approver = staff("bj-approver", MANAGER, venue)
        self.dealer = staff("bj-dealer", DEALER, venue)
        self.supervisor = staff("bj-supervisor", SUPERVISOR, venue)
        self.version = venue_ruleset_from_preset(
            venue=venue,
            preset_code="blackjack-6deck",
            editor=self.manager,
            approver=self.approver,
        )
        self.table = table_create(
            venue=venue,
            user=self.manager,
            code="BJ1",
            game="tablegames",
            ruleset=self.version.ruleset,
            seats=7,
            chip_denominations=["1000000", "100000"],
            limits={"bet": {"min_stake": D("10000"), "max_stake": D("1000000")}},
        )
        self.p1 = PlayerFactory(venue=venue, membership_number="BJ-1", name="Lan")
        self.p2 = PlayerFactory(venue=venue, membership_number="BJ-2", name="Minh")
        self.now = now = timezone.now()
        self.shift = Shift.objects.create(
            venue=venue,
            gaming_date=timezone.localdate(now),
            name="evening",
            starts_at=now - timedelta(hours=3),
            ends_at=now + timedelta(hours=1),
        )
        session = session_open(
            table=self.table,
            counted_by=self.dealer,
            confirmed_by=self.supervisor,
            opening_chips={"1000000": 10},
            shift=self.shift,
        )
        # Opened two hours ago, for ratings of an hour to fit in it.
        self.opened = now - timedelta(hours=2)
        TableSession.objects.filter(pk=session.pk).update(opened_at=self.opened)
        session.refresh_from_db()
        self.session = session

    def rate(self, **given):
        data = {
            "session": self.session,
            "user": self.supervisor,
            "player": self.p1,
            "average_bet": "100000",
            "started_at": self.opened + timedelta(minutes=10),
            "ended_at": self.opened + timedelta(minutes=70),
            **given,
        }
        return rating_enter(**data)


@pytest.fixture
def bj():
    return Blackjack()


def local(value) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%dT%H:%M")


def test_a_blackjack_session_with_ratings_in_the_shift_report(bj, client):
    # A fill of 1,000,000 through the cage.
    fill = slip_request(session=bj.session, user=bj.dealer, kind="fill", chips={"1000000": 1})
    slip_post(fill, dealer=bj.dealer, supervisor=bj.supervisor)

    # The supervisor rates Lan on the console: 100,000 an hand for an hour.
    client.force_login(bj.supervisor)
    with timezone.override(bj.venue.timezone):
        form = {
            "player": "bj-1",
            "average_bet": "100000",
            "started_at": local(bj.opened + timedelta(minutes=10)),
            "ended_at": local(bj.opened + timedelta(minutes=70)),
        }
    saved = client.post(reverse("console:tablegames-rate", args=[bj.session.pk]), form)
    assert saved.status_code == 200, saved.content.decode()[:2000]
    assert "theoretical win" in saved.content.decode()
    # Minh for half an hour at 50,000, then corrected to 40,000; he won 20,000.
    first = bj.rate(
        player=bj.p2,
        average_bet="50000",
        started_at=bj.opened + timedelta(minutes=30),
        ended_at=bj.opened + timedelta(minutes=60),
    )
    bj.rate(
        player=bj.p2,
        average_bet="40000",
        started_at=bj.opened + timedelta(minutes=30),
        ended_at=bj.opened + timedelta(minutes=60),
        actual_win="-20000",
        replaces=first,
        reason="the bet was misread",
    )
    assert Rating.objects.count() == 3  # the replaced rating is kept
    in_force = Rating.objects.filter(replaced_by__isnull=True).order_by("started_at")
    # 100,000 x 60 an hour x 1 hour x 2%; 40,000 x 60 x 0.5 x 2%
    assert [(r.decisions, r.theoretical_win) for r in in_force] == [
        (60, D("120000")),
        (30, D("24000")),
    ]
    assert AuditEvent.objects.filter(action="rating.correct").count() == 1

    page = client.get(reverse("console:round", args=[bj.session.pk]))
    shown = page.content.decode()
    assert page.status_code == 200
    assert "Ratings of this session" in shown and "BJ-1 Lan" in shown
    assert "house edge 2%," in shown and "0.0200" not in shown  # as people write it
    assert 'class="rounds ratings"' in shown  # styled as the console's tables
    assert "Ratings replaced by a correction" in shown
    # The floor's other pages of the session take a table that deals no rounds.
    for name in ("watch", "history", "slips", "close"):
        other = client.get(reverse(f"console:{name}", args=[bj.session.pk]))
        assert other.status_code == 200, (name, other.content.decode()[:1000])

    # Closed: 9,000,000 in the tray, a drop of 3,000,000: 9M - 10M - 1M fill + 3M = 1M.
    closed = session_close(
        session=bj.session,
        counted_by=bj.dealer,
        confirmed_by=bj.supervisor,
        closing_chips={"1000000": 9},
        drop="3000000",
    )
    assert (closed.win_by_count, closed.variance) == (D("1000000"), D(0))

    report = report_request(shift_id=bj.shift.pk, user=bj.manager, send=False)
    built = report_build(report_id=report.pk, email=False)
    assert built.status == ShiftReport.Status.DONE, built.error
    figures = built.figures
    (table,) = figures["tables"]
    assert (table["key"], table["game"]) == ("BJ1", "tablegames")
    assert D(table["house_win"]) == D("1000000")
    assert D(table["theoretical_win"]) == D("144000")
    assert D(table["handle"]) == D("100000") * 60 + D("40000") * 30  # the rated handle
    (game,) = figures["games"]
    assert game["label"] == str(games.get("tablegames").reports.label)
    assert D(game["house_win"]) == D("1000000")
    # The shift's house win of settled bets leaves the rated table out, as its dealers and
    # hours do (none here); its win by count stands on its own line.
    assert D(figures["total"]["house_win"]) == sum(D(d["house_win"]) for d in figures["dealers"])
    assert D(figures["total"]["house_win"]) == sum(D(h["house_win"]) for h in figures["hours"])
    assert D(figures["total"]["house_win"]) == 0
    assert D(figures["rated_total"]["house_win"]) == D("1000000")
    assert D(figures["rated_total"]["theoretical_win"]) == D("144000")
    players = {line["key"]: line for line in figures["players"]}
    assert D(players["BJ-1"]["theoretical_win"]) == D("120000")
    assert (players["BJ-1"]["minutes"], players["BJ-1"]["hands"]) == (60, 60)
    assert D(players["BJ-1"]["average_bet"]) == D("100000")
    assert D(players["BJ-2"]["theoretical_win"]) == D("24000")
    assert D(players["BJ-2"]["house_win"]) == D("-20000")
    assert list(players) == ["BJ-1", "BJ-2"]  # the highest theoretical first
    assert D(figures["count"]["sessions"][0]["win_by_count"]) == D("1000000")
    sheet = outputs.render_csv(figures).decode()  # the report's files show the lines
    assert "BJ1" in sheet and "BJ-2" in sheet
    assert "Win of rated tables (by count)" in sheet
    assert outputs.render_xlsx(figures)[:2] == b"PK"
    client.force_login(bj.manager)
    shown = client.get(reverse("reports:report", args=[built.pk]))
    assert shown.status_code == 200
    assert "BJ1" in shown.content.decode() and "Other table games" in shown.content.decode()
    assert "Win of rated tables (by count)" in shown.content.decode()

    # The player page's hook: Lan's rated play that day.
    day = bj.shift.gaming_date
    (play,) = games.get("tablegames").reports.rated_play(
        player_ids=[bj.p1.pk], date_from=day, date_to=day
    )
    assert (play.game, play.table_code, play.session_id) == ("Blackjack", "BJ1", bj.session.pk)
    assert (play.average_bet, play.decisions, play.theoretical_win) == (
        D("100000"),
        60,
        D("120000"),
    )
    assert play.actual_win is None
    assert (
        games.get("tablegames").reports.rated_play(
            player_ids=None, date_from=day + timedelta(days=1), date_to=day + timedelta(days=2)
        )
        == []
    )


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"average_bet": "5000"}, "average_bet"),  # under the table's minimum
        ({"average_bet": "2000000"}, "average_bet"),  # over its maximum
        ({"average_bet": "abc"}, "average_bet"),
        ({"started_at": "before"}, "started_at"),  # before the session opened
        ({"ended_at": "future"}, "ended_at"),  # after now
        ({"ended_at": "start"}, "ended_at"),  # not after the time in
        ({"player": "other venue"}, "player"),
    ],
)
def test_a_rating_is_refused_with_the_field_it_is_wrong_in(bj, given, field):
    key, value = next(iter(given.items()))
    if value == "before":
        given = {key: bj.opened - timedelta(minutes=1)}
    elif value == "future":
        given = {key: timezone.now() + timedelta(minutes=5)}
    elif value == "start":
        given = {key: bj.opened + timedelta(minutes=10)}
    elif value == "other venue":
        given = {key: PlayerFactory(venue=VenueFactory(code="elsewhere"))}
    with pytest.raises(InvalidInput) as refused:
        bj.rate(**given)
    assert refused.value.field == field
    assert not Rating.objects.exists()


def test_only_a_supervisor_rates_and_a_correction_is_made_once_with_a_reason(bj, client):
    with pytest.raises(Forbidden):
        bj.rate(user=bj.dealer)
    rating = bj.rate()
    with pytest.raises(InvalidInput) as no_reason:
        bj.rate(replaces=rating)
    assert no_reason.value.field == "reason"
    bj.rate(replaces=rating, reason="time out was 11:10")
    with pytest.raises(Conflict):
        bj.rate(replaces=rating, reason="again")
    # The console's form says what is wrong beside the field.
    client.force_login(bj.supervisor)
    answer = client.post(
        reverse("console:tablegames-rate", args=[bj.session.pk]),
        {"player": "BJ-1", "average_bet": "5", "started_at": "x", "ended_at": ""},
    )
    assert answer.status_code == 400
    assert "Type a date and time" in answer.content.decode()
    assert Rating.objects.count() == 2


def test_the_rules_are_approved_by_a_second_person_and_a_round_is_refused(bj):
    draft = venue_ruleset_from_preset(
        venue=bj.venue, preset_code="roulette-single-zero", editor=bj.manager
    )
    with pytest.raises(ValidationError, match="two-person"):
        version_approve(version=draft, user=bj.manager, content_hash=version_content_hash(draft))
    approved = version_approve(
        version=draft, user=bj.approver, content_hash=version_content_hash(draft)
    )
    assert approved.figures["house_edge"] == {"bet": "0.027"}
    assert approved.figures["game_name"] == "Roulette"

    # No round is dealt at a rated table: the API says so.
    answer = client_for(bj.dealer).post(
        "/api/v1/rounds/",
        {
            "session": bj.session.pk,
            "dealer_cards": "",
            "boxes": [{"position": 1, "cards": "AS KD", "bets": {"bet": "10000.00"}}],
        },
        format="json",
    )
    assert answer.status_code == 400, answer.content
    assert "no round is dealt" in answer.json()["detail"]


def test_a_barred_members_play_is_not_rated_on_the_service_or_the_console(bj, client):
    # given: Lan barred from the venue's date of the time in
    started = bj.opened + timedelta(minutes=10)
    on = timezone.localdate(started, timezone=venue_zone(bj.venue))
    barring = player_bar(player=bj.p1, user=bj.manager, reason="self-exclusion", starts_on=on)
    # then: the service refuses, naming the barring, and so does the console's form
    with pytest.raises(Conflict, match="self-exclusion") as refused:
        bj.rate()
    assert refused.value.reason == "player_barred" and refused.value.field == "player"
    client.force_login(bj.supervisor)
    with timezone.override(bj.venue.timezone):
        form = {
            "player": "bj-1",
            "average_bet": "100000",
            "started_at": local(started),
            "ended_at": local(started + timedelta(hours=1)),
        }
    answer = client.post(reverse("console:tablegames-rate", args=[bj.session.pk]), form)
    assert answer.status_code == 400
    assert "their play is not rated" in answer.content.decode()
    # A barring from the next day leaves play before it rated (a late entry).
    player_unbar(barring=barring, user=bj.manager, reason="entered by mistake")
    player_bar(player=bj.p1, user=bj.manager, reason="later", starts_on=on + timedelta(days=1))
    assert bj.rate().player == bj.p1
    assert Rating.objects.count() == 1
