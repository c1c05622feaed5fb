"""A player's figures are those of ``casino.floor.figures``, and every surface that shows a
player's line (the player page, the API's history and ratings, the shift report's player
ratings and the dashboard's top players) shows the same.

The night shift (conftest): member M1 (An) plays Niu Niu at NN1, a game the house banks,
and Mau Binh at MB1, where players play each other and the house takes a fee. At MB1 the
house's actual win from An is the fee An paid (theoretical = actual = 30,000), not what An
lost to the other players.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from casino.floor import figures
from casino.floor.kinds import fee_games
from casino.floor.models import BetTally
from casino.reports import outputs, selectors, services
from casino.reports.ratings import player_history
from tests.casino.api import client_for
from tests.casino.charts import chart_of
from tests.tablegames.test_tablegames import Blackjack

pytestmark = pytest.mark.django_db

NIGHT = {"from": "2026-11-28", "to": "2026-11-28"}


def _history(night):
    day = night.shift.gaming_date
    return player_history(player=night.p1, date_from=day, date_to=day)


def test_each_line_of_the_player_page_is_worked_out_by_casino_figures(night):
    # The tallies of M1's bets, summed here per session without the page's code.
    sums = defaultdict(lambda: {"handle": D(0), "bets": 0, "result": D(0), "fees": D(0)})
    for row in (
        BetTally.objects.filter(player=night.p1)
        .values("session_id", "game")
        .annotate(
            handle=Sum("handle"),
            bets=Sum("bets"),
            result=Sum("player_result"),
            fees=Sum("commission"),
        )
    ):
        line = sums[row["session_id"]]
        line["handle"] += row["handle"]
        line["bets"] += row["bets"]
        if row["game"] in fee_games():
            line["fees"] += row["fees"]
        else:
            line["result"] += row["result"]
    history = _history(night)
    assert {line["session_id"] for line in history.lines} == set(sums)
    for line in history.lines:
        mine = sums[line["session_id"]]
        assert line["handle"] == mine["handle"]
        assert line["average_bet"] == figures.average_bet(mine["handle"], mine["bets"])
        assert line["actual_win"] == figures.actual_win(
            banked_result=mine["result"], fees=mine["fees"]
        )
    # By hand: NN1 two bets of 100,000 and one of 50,000; An lost 455,000 there and paid
    # MB1 a fee of 30,000.
    nn1 = next(line for line in history.lines if line["table_code"] == "NN1")
    assert (nn1["average_bet"], nn1["actual_win"]) == (D("83333.33"), D("455000"))
    assert history.totals["actual_win"] == D("485000")
    assert history.totals["average_bet"] == figures.average_bet_over_time(
        (line["average_bet"], line["minutes"]) for line in history.lines
    )
    assert history.totals["handle"] == sum(m["handle"] for m in sums.values())


def test_the_page_says_which_definitions_its_figures_use(client, night):
    client.force_login(night.floor.supervisor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("reports:player", args=[night.p1.pk]), NIGHT).content.decode()
    for key in ("handle", "average_bet", "theoretical_win", "actual_win"):
        assert str(figures.DEFINITIONS[key]) in page.replace("&#x27;", "'"), key
    assert "+485,000" in page and "42,000" in page
    # the sessions drawn too: actual against theoretical, above the table of them
    svg = chart_of(page, "player-history-chart")
    assert "Actual against theoretical win by session" in svg
    assert page.index("player-history-chart") < page.index('id="history"')


def test_the_shift_report_the_dashboard_and_the_player_page_agree_on_the_players_figures(
    night, report
):
    built = services.report_build(report_id=report.pk, email=False)
    history = _history(night)
    (line,) = [p for p in built.figures["players"] if p["key"] == "M1"]
    # Before: the report's "actual win" was the house win of An's bets, which counts what
    # An lost to the other players at MB1 as the house's.
    assert D(line["house_win"]) != history.totals["actual_win"]
    assert D(line["actual_win"]) == history.totals["actual_win"] == D("485000")
    assert D(line["theoretical_win"]) == history.totals["theoretical_win"]
    assert D(line["handle"]) == history.totals["handle"]
    # The report's page and its CSV show the actual win, not the house win.
    shown = outputs.present(built.figures)
    (row,) = [p for p in shown["players"] if p["key"] == "M1"]
    assert row["actual_win"] == "485,000"
    sheet = list(csv.reader(io.StringIO(outputs.render_csv(built.figures).decode())))
    header = next(r for r in sheet if r[:2] == ["Member", "Name"])
    (m1,) = [r for r in sheet if r[:1] == ["M1"]]
    assert D(m1[header.index("Actual win")]) == D("485000")

    day = night.shift.gaming_date
    board = selectors.dashboard(venue=night.venue, date_from=day, date_to=day)
    (top,) = [p for p in board.players if p["key"] == "M1"]
    assert top["actual_win"] == history.totals["actual_win"]
    assert top["theoretical_win"] == history.totals["theoretical_win"]
    assert top["average_bet"] == figures.average_bet(top["handle"], top["bets"])


def test_an_older_report_shows_its_house_win_as_the_players_actual_win(night, report):
    built = services.report_build(report_id=report.pk, email=False)
    older = {**built.figures, "players": [dict(p) for p in built.figures["players"]]}
    for line in older["players"]:
        line.pop("actual_win")
    (row,) = [p for p in outputs.present(older)["players"] if p["key"] == "M1"]
    assert row["actual_win"] == row["house_win"]


def test_the_api_gives_the_player_pages_figures(night):
    history = _history(night)
    answer = (
        client_for(night.floor.auditor)
        .get(reverse("api:player-history", args=[night.p1.pk]), NIGHT)
        .json()
    )
    for key in ("handle", "average_bet", "theoretical_win", "actual_win"):
        assert D(answer["totals"][key]) == history.totals[key], key
    by_session = {line["session_id"]: line for line in answer["lines"]}
    for line in history.lines:
        assert D(by_session[line["session_id"]]["actual_win"]) == line["actual_win"]
        assert D(by_session[line["session_id"]]["average_bet"]) == line["average_bet"]


@pytest.fixture
def bj():
    return Blackjack()


def test_a_rating_reads_the_same_on_the_player_page_and_in_the_apis_ratings(bj):
    # Lan: 100,000 an hand for an hour at 60 hands an hour and a 2% edge, the house won
    # 150,000 from her: theoretical 100,000 x 60 x 2% = 120,000.
    bj.rate(actual_win="150000")
    day = timezone.localdate(bj.now)
    history = player_history(player=bj.p1, date_from=day, date_to=day)
    (line,) = history.lines
    assert (line["source"], line["theoretical_win"], line["actual_win"]) == (
        "rating",
        D("120000.00"),
        D("150000"),
    )
    assert history.totals["average_bet"] == D("100000.00")
    answer = (
        client_for(bj.supervisor)
        .get(
            reverse("api:rating-list", args=[bj.venue.pk]),
            {"date_from": day.isoformat(), "date_to": day.isoformat(), "player": bj.p1.pk},
        )
        .json()
    )
    (rated,) = answer["results"]
    assert D(rated["theoretical_win"]) == line["theoretical_win"]
    assert D(rated["actual_win"]) == line["actual_win"]
    assert D(rated["average_bet"]) == line["average_bet"]
    # The player page's totals and the API's history read the same.
    api = (
        client_for(bj.supervisor)
        .get(
            reverse("api:player-history", args=[bj.p1.pk]),
            {"date_from": (day - timedelta(days=1)).isoformat(), "date_to": day.isoformat()},
        )
        .json()
    )
    assert D(api["totals"]["theoretical_win"]) == history.totals["theoretical_win"]
    assert D(api["totals"]["actual_win"]) == history.totals["actual_win"]
