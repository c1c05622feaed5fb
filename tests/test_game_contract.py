"""Every registered game plays a round through the floor: dealt, previewed and settled
through the API, previewed and confirmed on the console's shell, voided by a supervisor,
and counted in a shift's report. A new game is tested here by registering it."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from casino import games
from casino.floor.console.selectors import screen_for
from casino.floor.models import Round, RoundStatus
from casino.floor.services.sessions import session_open
from casino.ledger.models import LedgerEntry
from casino.players.models import Player
from casino.reports.models import ShiftReport
from casino.reports.services import report_build, report_request
from casino.staff.roles import DEALER, MANAGER, SUPERVISOR
from casino.venues.models import Shift
from casino.venues.services.tables import table_create
from tests.casino.api import client_for
from tests.factories import VenueFactory, staff

pytestmark = pytest.mark.django_db

#: The games that deal rounds; a game kept for its accounting only is tested by its own app.
GAMES = [pytest.param(game.code, id=game.code) for game in games.round_games()]
PASSWORD = "pw-for-tests"  # tests.factories.UserFactory's
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _few_deals(settings):
    settings.MAUBINH_HOUSE_TAKE_DEALS = 3  # a fee game's house take is simulated on approval


class Table:
    """A venue with one open table of ``game`` in a shift, its staff and players."""

    def __init__(self, code: str) -> None:
        self.game = games.get(code)
        self.venue = VenueFactory(code=f"v-{code}", currency="VND", rounding_unit=Decimal(1000))
        self.manager = manager = staff(f"{code}-manager", MANAGER, self.venue)
        approver = staff(f"{code}-approver", MANAGER, self.venue)
        self.dealer = staff(f"{code}-dealer", DEALER, self.venue)
        self.supervisor = staff(f"{code}-supervisor", SUPERVISOR, self.venue)
        version = self.game.demo.ruleset_from_preset(
            venue=self.venue,
            preset_code=self.game.demo.simulation_preset,
            editor=manager,
            approver=approver,
            override_reason="The preset as printed.",
        )
        self.table = table_create(
            venue=self.venue,
            user=manager,
            code="T1",
            game=code,
            ruleset=version.ruleset,
            seats=5,
            chip_denominations=["1000000", "100000", "10000", "1000"],
            limits={
                bet_type: {"min_stake": low, "max_stake": high}
                for bet_type, (low, high) in self.game.demo.simulation_limits.items()
            },
        )
        Player.objects.bulk_create(
            Player(venue=self.venue, membership_number=f"C-{n:03d}", name=f"Player {n}")
            for n in range(1, 9)
        )
        now = timezone.now()
        self.shift = Shift.objects.create(
            venue=self.venue,
            gaming_date=now.date(),
            name="contract",
            starts_at=now - timedelta(hours=1),
            ends_at=now + timedelta(hours=1),
        )
        self.session = session_open(
            table=self.table,
            counted_by=self.dealer,
            confirmed_by=self.supervisor,
            opening_chips={"1000000": 50, "100000": 50},
            shift=self.shift,
        )
        self.rounds = self.game.demo.round_stream(session=self.session, rng=random.Random(7))


def money(amount: Decimal) -> str:
    return str(amount.quantize(Decimal("0.01")))


def api_body(session_id: int, dealer_cards: str, boxes) -> dict:
    return {
        "session": session_id,
        "dealer_cards": dealer_cards,
        "boxes": [
            {
                "position": box.position,
                "cards": box.cards,
                "bets": {bet: money(stake) for bet, stake in box.stakes.items()},
                "deposits": {bet: money(amount) for bet, amount in box.deposits.items()},
                "player": box.player_id,
                "quit": box.quit,
            }
            for box in boxes
        ],
    }


def balanced(round_id: int) -> bool:
    return LedgerEntry.objects.filter(round_id=round_id).aggregate(t=Sum("amount"))["t"] == 0


@pytest.mark.parametrize("code", GAMES)
def test_a_round_through_the_api(code):
    floor = Table(code)
    # Nothing of a fresh session stands in the way of its closing.
    assert floor.game.session_close_refusal(floor.session) is None
    dealer_cards, boxes = next(floor.rounds)
    api = client_for(floor.dealer)
    dealt = api.post(
        "/api/v1/rounds/", api_body(floor.session.pk, dealer_cards, boxes), format="json"
    )
    assert dealt.status_code == 201, dealt.content
    body = dealt.json()
    assert (body["status"], body["preview"], body["game"]) == ("dealt", True, code)
    assert [box["position"] for box in body["boxes"]] == [box.position for box in boxes]
    assert not LedgerEntry.objects.filter(round_id=body["id"]).exists()

    settled = api.post(f"/api/v1/rounds/{body['id']}/settle/", HTTP_IDEMPOTENCY_KEY=f"{code}-1")
    assert settled.status_code == 200, settled.content
    answer = settled.json()
    assert (answer["status"], answer["preview"]) == ("settled", False)
    # settling posts the outcome the round was dealt with
    assert [box["net"] for box in answer["boxes"]] == [box["net"] for box in body["boxes"]]
    assert answer["totals"] == body["totals"]
    assert balanced(body["id"])
    detail = api.get(f"/api/v1/rounds/{body['id']}/")
    assert detail.json()["boxes"] == answer["boxes"]

    # voided: a dealer asks, another person (a supervisor) approves; entries reversed
    reason = {"reason": "misdeal seen on camera"}
    asked = api.post(f"/api/v1/rounds/{body['id']}/void/", reason, format="json")
    assert asked.status_code == 202, asked.content
    approved = client_for(floor.supervisor).post(
        f"/api/v1/rounds/{body['id']}/void/", reason, format="json"
    )
    assert approved.status_code == 200, approved.content
    assert approved.json()["status"] == "voided"
    assert balanced(body["id"])
    assert LedgerEntry.objects.filter(round_id=body["id"], reverses__isnull=False).exists()


@pytest.mark.parametrize("code", GAMES)
def test_a_round_on_the_console_s_shell_then_voided_and_reported(code, client):
    floor = Table(code)
    client.force_login(floor.dealer)
    session = floor.session
    screen = client.get(reverse("console:round", args=[session.pk]))
    assert screen.status_code == 200
    assert 'name="key"' in screen.content.decode()
    key = re.search(r'name="key" value="([^"]+)"', screen.content.decode()).group(1)

    dealer_cards, boxes = next(floor.rounds)
    data = {
        **floor.game.console.form_data(dealer_cards, boxes, screen_for(session=session)),
        "key": key,
    }
    # The floor's own preview and Confirm, whatever the game: the table says which it is.
    preview = client.post(reverse("console:preview", args=[session.pk]), data, **HTMX)
    assert preview.status_code == 200, preview.content.decode()[:2000]
    shown = preview.content.decode()
    digest = re.search(r'name="digest" value="([^"]+)"', shown)
    assert digest, shown[:3000]
    assert not Round.objects.filter(session=session).exists(), "a preview writes nothing"

    confirm = reverse("console:confirm", args=[session.pk])
    posted = client.post(confirm, {**data, "digest": digest.group(1)}, **HTMX)
    assert posted.status_code == 200, posted.content.decode()[:2000]
    again = client.post(confirm, {**data, "digest": digest.group(1)}, **HTMX)  # twice
    assert again.status_code == 200
    (round_,) = Round.objects.filter(session=session)
    assert round_.status == RoundStatus.SETTLED
    assert balanced(round_.pk)
    assert [box.position for box in round_.boxes.order_by("position")] == sorted(
        box.position for box in boxes
    )

    history = client.get(reverse("console:round-detail", args=[session.pk, round_.pk]), follow=True)
    assert history.status_code == 200
    assert f'id="round-{round_.pk}"' in history.content.decode()

    # A second round stays in the report; the first is voided on the console.
    dealer_cards, boxes = next(floor.rounds)
    api = client_for(floor.dealer)
    second = api.post("/api/v1/rounds/", api_body(session.pk, dealer_cards, boxes), format="json")
    assert second.status_code == 201, second.content
    kept = api.post(f"/api/v1/rounds/{second.json()['id']}/settle/", HTTP_IDEMPOTENCY_KEY="k2")
    assert kept.status_code == 200
    voided = client.post(
        reverse("console:void", args=[session.pk, round_.pk]),
        {"reason": "misdeal", "supervisor": floor.supervisor.username, "password": PASSWORD},
        **HTMX,
    )
    assert voided.status_code == 200, voided.content.decode()[:2000]
    round_.refresh_from_db()
    assert round_.status == RoundStatus.VOIDED
    assert balanced(round_.pk)

    report = report_request(shift_id=floor.shift.pk, user=floor.manager, send=False)
    built = report_build(report_id=report.pk, email=False)
    assert built.status == ShiftReport.Status.DONE, built.error
    (row,) = built.figures["games"]
    assert (row["key"], row["label"]) == (code, str(floor.game.reports.label)), row
    totals = kept.json()["totals"]
    assert row["rounds"] == 1, row  # the voided round is not counted
    assert Decimal(row["house_win"]) == Decimal(totals["house_net"]), row
    assert Decimal(row["handle"]) == Decimal(totals["stake"]), row


@pytest.mark.parametrize(
    "code", [pytest.param(g.code, id=g.code) for g in games.all_games() if not g.settles_rounds]
)
def test_a_game_that_deals_no_rounds_gives_the_reports_its_own_lines(code):
    """It has no tallies: the shift report and the player page read it through its hooks."""
    reports = games.get(code).reports
    assert callable(getattr(reports, "shift_lines", None))
    assert callable(getattr(reports, "rated_play", None))
    assert code not in [game.code for game in games.round_games()]
