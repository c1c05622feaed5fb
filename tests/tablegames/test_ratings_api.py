"""A blackjack table's ratings through the API: the ratings in force of the venue's
sessions (a corrected one left out), filtered by player, another venue's left out."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Value
from django.db.models.functions import Concat
from django.utils import timezone

from casino.audit.models import AuditEvent
from casino.floor.services.closing import session_close
from casino.kernel.timezones import venue_zone
from casino.reports import periods
from casino.venues.models import Venue
from tablegames.models import Rating
from tests.casino.api import client_for, error_of
from tests.factories import VenueFactory, staff
from tests.tablegames.test_tablegames import Blackjack

pytestmark = pytest.mark.django_db


def _elsewhere() -> None:
    """Another venue's blackjack table with a rating, its names moved out of the way."""
    other = Blackjack()
    other.rate()
    get_user_model().objects.filter(username__startswith="bj-").update(
        username=Concat(Value("seoul-"), "username")
    )
    Venue.objects.filter(pk=other.venue.pk).update(code="seoul-bj")


def test_the_ratings_in_force_of_the_venue(django_assert_num_queries):
    _elsewhere()
    bj = Blackjack()
    lan = bj.rate(actual_win="-20000")
    first = bj.rate(
        player=bj.p2,
        average_bet="50000",
        started_at=bj.opened + timedelta(minutes=30),
        ended_at=bj.opened + timedelta(minutes=60),
    )
    minh = bj.rate(
        player=bj.p2,
        average_bet="40000",
        started_at=bj.opened + timedelta(minutes=30),
        ended_at=bj.opened + timedelta(minutes=60),
        replaces=first,
        reason="misread the chips",
    )
    auditor = client_for(staff("bj-auditor", "auditor", bj.venue))
    path = f"/api/v1/venues/{bj.venue.pk}/ratings/"
    day = {"date_from": bj.shift.gaming_date.isoformat(), "date_to": bj.shift.gaming_date}
    with django_assert_num_queries(3):
        listed = auditor.get(path, day).json()
    # Lan from minute 10, Minh (corrected to 40,000) from minute 30; the other venue's
    # rating of the same day is not listed
    assert [(r["player"], r["average_bet"]) for r in listed["results"]] == [
        (bj.p1.pk, "100000.00"),
        (bj.p2.pk, "40000.00"),
    ]
    row = listed["results"][0]
    # an hour at 60 hands an hour: 60 x 100,000 x 2% = 120,000
    assert (row["decisions"], row["theoretical_win"], row["actual_win"]) == (
        lan.decisions,
        "120000.00",
        "-20000.00",
    )
    assert (row["table_code"], row["session"], row["game"]) == (
        "BJ1",
        bj.session.pk,
        bj.version.game_name,
    )
    local = timezone.localtime(lan.started_at, venue_zone(bj.venue))
    assert row["started_at"] == local.isoformat()
    only_minh = auditor.get(path, {**day, "player": bj.p2.pk}).json()
    assert [r["theoretical_win"] for r in only_minh["results"]] == [str(minh.theoretical_win)]
    yesterday = bj.shift.gaming_date - timedelta(days=1)
    assert auditor.get(path, {"date_from": yesterday, "date_to": yesterday}).json()["count"] == 0


def test_a_rating_entered_and_corrected_through_the_api():
    bj = Blackjack()
    path = f"/api/v1/sessions/{bj.session.pk}/ratings/"
    body = {
        "player": bj.p1.pk,
        "average_bet": "100000",
        "started_at": (bj.opened + timedelta(minutes=10)).isoformat(),
        "ended_at": (bj.opened + timedelta(minutes=70)).isoformat(),
    }
    supervisor = client_for(bj.supervisor)
    made = supervisor.post(path, body, format="json")
    assert made.status_code == 201, made.json()
    rating = made.json()
    # an hour at 60 hands an hour: 60 x 100,000 x 2% = 120,000
    assert (rating["decisions"], rating["theoretical_win"], rating["actual_win"]) == (
        60,
        "120000.00",
        None,
    )
    assert (rating["table_code"], rating["entered_by"], rating["replaces"]) == (
        "BJ1",
        "bj-supervisor",
        None,
    )
    assert AuditEvent.objects.filter(action="rating.enter").count() == 1
    fixed = {**body, "average_bet": "50000", "replaces": rating["id"]}
    assert error_of(supervisor.post(path, fixed, format="json")) == (400, "invalid", "reason")
    corrected = supervisor.post(path, {**fixed, "reason": "misread"}, format="json").json()
    assert (corrected["replaces"], corrected["theoretical_win"]) == (rating["id"], "60000.00")
    assert AuditEvent.objects.filter(action="rating.correct").count() == 1
    assert error_of(supervisor.post(path, {**fixed, "replaces": 999999}, format="json")) == (
        404,
        "not_found",
        "replaces",
    )
    backwards = {**body, "ended_at": body["started_at"]}
    assert error_of(supervisor.post(path, backwards, format="json")) == (
        400,
        "invalid",
        "ended_at",
    )
    assert error_of(supervisor.post(path, {**body, "player": 999999}, format="json")) == (
        400,
        "invalid",
        "player",
    )
    assert error_of(client_for(bj.dealer).post(path, body, format="json"))[:2] == (
        403,
        "forbidden",
    )
    stranger = client_for(staff("bj2-supervisor", "supervisor", VenueFactory(code="bj2")))
    assert error_of(stranger.post(path, body, format="json"))[:2] == (404, "not_found")
    assert Rating.objects.count() == 2


def test_the_periods_give_the_accounting_only_tables_lines():
    bj = Blackjack()
    # 9,000,000 in the tray, a drop of 3,000,000: 9M - 10M + 3M = 2M won; 66.67% of the drop
    session_close(
        session=bj.session,
        counted_by=bj.dealer,
        confirmed_by=bj.supervisor,
        closing_chips={"1000000": 9},
        drop="3000000",
    )
    auditor = client_for(staff("bj-auditor", "auditor", bj.venue))
    path = f"/api/v1/venues/{bj.venue.pk}/periods/"
    asked = {"kind": "day", "day": bj.shift.gaming_date.isoformat(), "dimension": "table"}
    answer = auditor.get(path, asked).json()
    assert (answer["lines"], answer["accounting_dimension"]) == ([], "table")
    (line,) = answer["accounting"]
    assert (line["key"], line["drop"], line["win_by_count"], line["open_days"]) == (
        "BJ1",
        "3000000.00",
        "2000000.00",
        0,
    )
    assert D(line["win_drop_pct"]).quantize(D("0.01")) == D("66.67")
    assert (line["previous_win_by_count"], line["win_by_count_change"]) == ("0.00", "2000000.00")
    assert answer["accounting_total"]["win_by_count"] == "2000000.00"
    # the lines the page and its CSV show, from the same function
    figures = periods.period_figures(
        venue=bj.venue,
        period=periods.period_of("day", bj.shift.gaming_date),
        dimension="table",
    )
    assert [D(line["win_by_count"]) for line in answer["accounting"]] == [
        line["win_by_count"] for line in figures.accounting
    ]
    # by a dimension the count has no key for, the venue's line
    by_dealer = auditor.get(path, {**asked, "dimension": "dealer"}).json()
    assert by_dealer["accounting_dimension"] == "venue"
    assert [line["key"] for line in by_dealer["accounting"]] == [bj.venue.code]
