"""A player's page and the API's history: the night shift's play of member M1 (An)."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.players.models import Player
from casino.reports.ratings import player_history

pytestmark = pytest.mark.django_db

NIGHT = {"from": "2026-11-28", "to": "2026-11-28"}


def test_the_history_rates_each_session_from_the_tallies(night):
    history = player_history(
        player=night.p1, date_from=night.shift.gaming_date, date_to=night.shift.gaming_date
    )
    lines = {line["table_code"]: line for line in history.lines}
    assert set(lines) == {"NN1", "MB1"}
    nn1 = lines["NN1"]
    # R1 single 100,000 (2.5%), R2 single 100,000 (2.5%) and super 50,000 (14%).
    assert nn1["theoretical_win"] == D("12000.00")
    assert nn1["actual_win"] == D("455000")  # 95,000 - 100,000 - 450,000, the house's side
    assert (nn1["rounds"], nn1["minutes"], nn1["average_bet"]) == (2, 16, D("83333.33"))
    # Mau Binh: the house's win and theoretical win is the fee it took.
    assert lines["MB1"]["theoretical_win"] == lines["MB1"]["actual_win"] == D("30000")
    assert history.totals["theoretical_win"] == D("42000.00")
    assert history.totals["actual_win"] == D("485000")


def test_the_page_shows_the_history_to_a_supervisor(client, night):
    client.force_login(night.floor.supervisor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("reports:player", args=[night.p1.pk]), NIGHT)
    text = page.content.decode()
    assert page.status_code == 200
    assert "42,000" in text and "+485,000" in text and "NN1" in text and "MB1" in text
    assert 'id="player-cash-title"' in text  # the buy-ins and cash-outs


def test_the_api_gives_the_detail_and_the_history(client, night):
    client.force_login(night.floor.auditor)
    detail = client.get(reverse("api:player-detail", args=[night.p1.pk])).json()
    assert detail["membership_number"] == "M1"
    history = client.get(reverse("api:player-history", args=[night.p1.pk]), NIGHT).json()
    assert history["totals"]["theoretical_win"] == "42000.00"
    assert {line["table_code"] for line in history["lines"]} == {"NN1", "MB1"}
    assert history["cash"] == []  # no buy-in recorded for M1 that night
    client.force_login(night.floor.dealer)
    assert client.get(reverse("api:player-history", args=[night.p1.pk])).status_code == 403


def test_the_search_marks_a_barred_player(client, night):
    Player.objects.filter(pk=night.p2.pk).update(status=Player.Status.BARRED)
    client.force_login(night.floor.manager)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("reports:players"), {"venue": night.venue.code}).content.decode()
    assert page.count("data-barred") == 1 and "M1" in page and "M2" in page
    # The page's title is its name only, and the duplicate search stands once, in its content.
    assert re.search(r"<title>\s*Players\b[^<]*</title>", page), page[:400]
    assert page.count('id="dup-title"') == 1


def test_a_game_rated_by_hand_adds_its_ratings(night, monkeypatch):
    from casino import games

    def rated_play(*, player_ids, date_from, date_to):
        assert player_ids == [night.p1.pk] and date_from == night.shift.gaming_date
        return [
            games.RatedPlay(
                player_id=night.p1.pk,
                session_id=night.sessions["NN2"].pk,
                table_code="BJ1",
                game="niuniu",
                started_at=night.shift.starts_at,
                ended_at=night.shift.starts_at + timedelta(minutes=60),
                average_bet=D("100000"),
                decisions=60,
                theoretical_win=D("8000"),
                actual_win=None,
            )
        ]

    monkeypatch.setattr(games.get("niuniu").reports, "rated_play", rated_play, raising=False)
    history = player_history(
        player=night.p1, date_from=night.shift.gaming_date, date_to=night.shift.gaming_date
    )
    (rated,) = [line for line in history.lines if line["source"] == "rating"]
    assert (rated["table_code"], rated["minutes"], rated["actual_win"]) == ("BJ1", 60, None)
    assert history.totals["theoretical_win"] == D("50000.00")  # 42,000 from the tallies
    assert history.totals["actual_win"] == D("485000")  # a rating without one adds nothing
