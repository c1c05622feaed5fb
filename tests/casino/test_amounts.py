"""Amounts are read one way on every surface: the venue's grouping, the currency's
decimals, the unit where there is one; no exponents, underscores, NaN or infinities; one
refusal that says how to write it (``casino.kernel.amounts``).

At Hà Nội (points group thousands, VND has no decimals), the comp form once recorded
``200.000`` as 200, ``1,5`` as 15, ``0.5`` as 0.50 VND and ``1E+1`` as 10; a comp policy
limit ``500.000`` was stored as 500; the blackjack rating refused a ``500.000`` average
bet; the API took ``1e5`` as a stake and ``100.5`` / ``0.01`` VND as a drop; the console's
cash form took ``1_000``, and 500 VND at a 1.000 chip unit.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from casino.cage.models import CashTransaction
from casino.cage.services.cash import cash_record
from casino.floor.models import Round
from casino.floor.services.sessions import drop_record
from casino.kernel.errors import InvalidInput
from casino.ledger.models import Drop
from casino.players.models import Comp, CompPolicy, Player
from casino.reports.comps import comp_issue, comp_policy_approve, comp_policy_propose
from casino.venues.models import Venue
from niuniu.models import NiuNiuRulesetVersion
from tablegames.models import Rating
from tests.casino.api import client_for, open_session
from tests.casino.test_player_comps import FIGURES, _play
from tests.factories import staff
from tests.tablegames.test_tablegames import Blackjack, local

pytestmark = pytest.mark.django_db

#: What the reader answers at Hà Nội for what is not an amount of VND.
HOW_TO = "is not an amount: write 100.000 or 100000, without decimals"


def dot(venue: Venue) -> Venue:
    venue.amount_grouping = "dot"
    venue.save(update_fields=["amount_grouping"])
    return venue


# Comps


@pytest.fixture
def rated(floor, session):
    """A member who lost a single of 10,000,000 at a 2.5% edge: theoretical win 250,000."""
    member = Player.objects.create(venue=floor.venue, membership_number="VIP-1", name="An")
    NiuNiuRulesetVersion.objects.filter(ruleset=floor.table.ruleset).update(figures=FIGURES)
    _play(session, floor.dealer, member)
    return member


@pytest.fixture
def generous(floor):
    """All of the theoretical win back; a supervisor gives up to 500.000, a manager 1.000.000
    (a dot-grouping venue)."""
    dot(floor.venue)
    proposed = comp_policy_propose(
        venue=floor.venue,
        user=floor.manager,
        reinvestment_pct="100",
        supervisor_limit="500000",
        manager_limit="1000000",
    )
    return comp_policy_approve(policy=proposed, user=staff("manager2", "manager", floor.venue))


def test_a_comp_policy_limit_is_read_in_the_venues_grouping(client, floor):
    dot(floor.venue)
    client.force_login(floor.manager)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("reports:comp_policy_step", args=[floor.venue.pk, "propose"])
    data = {"reinvestment_pct": "20", "supervisor_limit": "500.000", "manager_limit": "1.000.000"}
    assert client.post(url, data).status_code == 302
    policy = CompPolicy.objects.get()
    assert (policy.supervisor_limit, policy.manager_limit) == (D(500000), D(1000000))


def test_the_comp_form_reads_the_amount_in_the_venues_grouping(
    client, floor, session, rated, generous
):
    client.force_login(floor.supervisor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("reports:player_step", args=[rated.pk, "comp"])
    for typed in ("1,5", "0.5", "1E+1"):
        refused = client.post(url, {"amount": typed, "kind": "meal"})
        assert refused.status_code == 400
        assert f"“{typed}” {HOW_TO}" in refused.content.decode()
    assert not Comp.objects.exists()
    done = client.post(url, {"amount": "200.000", "kind": "meal"})
    assert done.status_code == 302
    assert Comp.objects.get().amount == D(200000)
    with pytest.raises(InvalidInput, match="is not an amount"):
        comp_issue(player=rated, user=floor.supervisor, amount=D("0.5"), kind="meal")
    with pytest.raises(InvalidInput, match="is not an amount"):
        cash_record(session=session, user=floor.dealer, amount=D("0.5"), kind="buy_in")
    with pytest.raises(InvalidInput, match="is not an amount"):
        drop_record(session=session, user=floor.supervisor, amount=D("100.5"))


# The blackjack rating


def test_a_rating_reads_the_average_bet_in_the_venues_grouping(client):
    bj = Blackjack()
    dot(bj.venue)
    client.force_login(bj.supervisor)
    with timezone.override(bj.venue.timezone):
        form = {
            "player": "bj-1",
            "average_bet": "500.000",
            "actual_win": "-20.000",
            "started_at": local(bj.opened + timedelta(minutes=10)),
            "ended_at": local(bj.opened + timedelta(minutes=70)),
        }
    saved = client.post(reverse("console:tablegames-rate", args=[bj.session.pk]), form)
    assert saved.status_code == 200, saved.content.decode()[:2000]
    rating = Rating.objects.get()
    assert (rating.average_bet, rating.actual_win) == (D(500000), D(-20000))


# The API


def test_the_api_refuses_an_exponent_as_a_stake(floor):
    dealer = client_for(floor.dealer)
    session = open_session(dealer, floor.table.pk)
    for stake in ("1e5", '"1e5"', "1E+5", '"100_000"'):
        body = (
            f'{{"session": {session["id"]}, "dealer_cards": "JS QH JD AC 7H", "boxes": '
            f'[{{"position": 1, "cards": "KH 8H 4D JH AD", "bets": {{"single": {stake}}}}}]}}'
        )
        answer = dealer.post("/api/v1/rounds/", body, content_type="application/json")
        assert answer.status_code == 400, (stake, answer.json())
        assert "is not an amount" in answer.json()["detail"], answer.json()
    assert not Round.objects.exists()


def test_the_api_refuses_a_drop_of_a_fraction_of_a_dong(floor):
    dealer, supervisor = client_for(floor.dealer), client_for(floor.supervisor)
    session = open_session(dealer, floor.table.pk)
    drops = f"/api/v1/sessions/{session['id']}/drop/"
    for amount in ('"100.5"', "100.5", '"0.01"', "0.01", "1e5"):
        answer = supervisor.post(drops, f'{{"amount": {amount}}}', content_type="application/json")
        assert answer.status_code == 400, (amount, answer.json())
        assert "is not an amount" in answer.json()["detail"], answer.json()
        assert answer.json()["field"] == "amount"
    assert not Drop.objects.exists()
    taken = supervisor.post(drops, '{"amount": 500000}', content_type="application/json")
    assert taken.status_code == 201 and Drop.objects.get().amount == D(500000)
    # The API reads plain digits whatever the venue's grouping, its own answers' "500000.00"
    # too; a venue's "500.000" is never guessed.
    dot(floor.venue)
    again = supervisor.post(drops, {"amount": "250000.00"}, format="json")
    assert again.status_code == 201 and again.json()["amount"] == "250000.00"
    guessed = supervisor.post(drops, {"amount": "500.000"}, format="json")
    assert guessed.status_code == 400 and "“500.000” is not an amount" in guessed.json()["detail"]


# The console


def test_the_console_cash_form_refuses_underscores_and_an_amount_off_the_chip_unit(
    client, floor, session
):
    dot(floor.venue)
    client.force_login(floor.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("console:cash", args=[session.pk])
    for typed, said in (
        ("1_000", "“1_000” is not an amount here"),
        ("500", "“500” is not an amount here: write a multiple of 1.000"),
    ):
        refused = client.post(url, {"amount": typed, "key": "a" * 32})
        assert refused.status_code == 422
        assert said in refused.content.decode()
    assert not CashTransaction.objects.exists()
    with pytest.raises(InvalidInput, match=r"multiple of 1\.000"):
        cash_record(session=session, user=floor.dealer, amount=D(500), kind="buy_in")
    done = client.post(url, {"amount": "2.000", "key": "b" * 32})
    assert done.status_code == 200 and CashTransaction.objects.get().amount == D(2000)


# Forms


def test_the_venue_admin_reads_its_amounts_in_the_venues_grouping(client, floor):
    venue = dot(floor.venue)
    admin_user = staff("root", "manager", venue)
    admin_user.is_superuser = admin_user.is_staff = True
    admin_user.save()
    client.force_login(admin_user)
    url = reverse("admin:venues_venue_change", args=[venue.pk])
    page = client.get(url).content.decode()
    assert 'value="1.000"' in page  # the rounding unit, as the venue writes it
