"""A blackjack table's ratings through the API: the ratings in force of the venue's
sessions (a corrected one left out), filtered by player, another venue's left out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Value
from django.db.models.functions import Concat
from django.utils import timezone

from casino.models import Venue
from casino.timezones import venue_zone
from tests.casino.api import client_for
from tests.factories import staff
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
