"""Mau Binh's table fee rounds as its ruleset version says, and a round is shown from what
it recorded: a later change to the venue's unit, or a new version, changes neither."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.floor.models import Bet
from casino.floor.services.rounds import round_create
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.kernel.errors import InvalidInput
from casino.ledger.models import Account, EntryKind, LedgerEntry
from casino.rulesets.selectors import version_in_force
from casino.rulesets.services import (
    version_activate,
    version_approve,
    version_clone,
    version_content_hash,
)
from casino.staff.roles import MANAGER
from maubinh.models import MauBinhRulesetVersion
from maubinh.services import version_save_draft
from tests.casino.api import client_for, settle
from tests.factories import staff

pytestmark = pytest.mark.django_db

# bigkool-2016: seat 1 wins all three rows (two pair, two pair, a pair of 9s against K high):
# 3 chi, doubled for the scoop: +6 chi. At 25,000 a chi it wins 150,000; the fee is 5% of
# that, 7,500: half of the unit 1,000.
WINNER = "AS AH KD KC 2S / QS QH JC JD 3C / 9H 9D 4C"
LOSER = "TS TH 8D 8C 5S / 7S 7H 6C 6D 2C / KS 3H 4D"
STAKE = D("25000")


def deal(session, dealer):
    seats = [
        BoxInput(position=1, cards=WINNER, stakes={"stake": STAKE}),
        BoxInput(position=2, cards=LOSER, stakes={"stake": STAKE}),
    ]
    return round_create(session=session, user=dealer, dealer_cards="", boxes=seats)


def new_version(table, **rules):
    """A clone of the version in force with ``rules`` changed, approved and activated by two
    managers."""
    manager = staff("mb-manager", MANAGER, table.venue)
    approver = staff("mb-approver", MANAGER, table.venue)
    current = version_in_force(model=MauBinhRulesetVersion, ruleset=table.ruleset)
    draft = version_clone(version=current, user=manager)
    for name, value in rules.items():
        setattr(draft, name, value)
    version_save_draft(version=draft, user=manager)
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    return version_activate(version=draft, user=approver)


def fee_of(answer: dict) -> tuple[str, str]:
    winner = next(box for box in answer["boxes"] if box["position"] == 1)
    (bet,) = winner["bets"]
    return bet["commission"], bet["net"]


def test_a_settled_round_shows_its_fee_whatever_the_venue_unit(client, venue, session, dealer):
    # given a round settled at the venue's unit 1,000: fee 8,000 (7,500 rounded up)
    round_, _preview = deal(session, dealer)
    api = client_for(dealer)
    assert fee_of(settle(api, round_.pk, "mb-r1").json()) == ("8000.00", "142000.00")
    client.force_login(dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    detail = reverse("console:round-detail", args=[session.pk, round_.pk])
    for unit in ("10000", "100000"):
        # when the venue's unit changes (100,000: the stake is no multiple of it)
        venue.rounding_unit = D(unit)
        venue.save()
        # then the API, the idempotent settle, the ledger and the console agree with the post
        shown = api.get(f"/api/v1/rounds/{round_.pk}/")
        assert shown.status_code == 200, (unit, shown.content[:500])
        assert fee_of(shown.json()) == ("8000.00", "142000.00")
        assert shown.json()["totals"]["house_net"] == "8000.00"
        assert fee_of(settle(api, round_.pk, "mb-r1").json()) == ("8000.00", "142000.00")
        fee = LedgerEntry.objects.get(round=round_, account=Account.HOUSE, kind=EntryKind.FEE)
        assert fee.amount == D("8000")
        html = client.get(detail, HTTP_HX_REQUEST="true").content.decode()
        assert "−8,000</td>" in html and "+142,000</td>" in html
        assert client.get(reverse("console:round", args=[session.pk])).status_code == 200


def test_a_dealt_round_settles_at_its_previewed_fee_after_the_rules_change(
    venue, table, session, dealer
):
    round_, preview = deal(session, dealer)
    assert preview.boxes[0].bets[0].commission == D("8000")
    # when the venue's unit changes and a version rounding down to 5,000 comes in force
    venue.rounding_unit = D("10000")
    venue.save()
    v2 = new_version(table, rounding_unit=D("5000"), rounding_mode="down")
    # then the dealt round settles as previewed
    _settled, result = round_settle(round_=round_, user=dealer, key="mb-r2")
    assert result == preview
    bets = {bet.box.position: bet for bet in Bet.objects.select_related("box")}
    assert (bets[1].gross, bets[1].commission, bets[1].net) == (
        D("150000"),
        D("8000"),
        D("142000"),
    )
    # and a round dealt now takes v2's rounding: 7,500 down to 5,000
    later, later_preview = deal(session, dealer)
    assert later.ruleset_version_id == v2.pk
    assert later_preview.boxes[0].bets[0].commission == D("5000")


@pytest.mark.parametrize(
    ("mode", "fee"), [("up", "8000"), ("half_up", "8000"), ("down", "7000"), ("none", "7500")]
)
def test_each_rounding_mode_of_a_version_settles_a_fee(table, session, dealer, mode, fee):
    new_version(table, rounding_mode=mode)
    round_, _preview = deal(session, dealer)
    # when
    round_settle(round_=round_, user=dealer, key=f"mb-{mode}")
    # then 5% of 150,000 = 7,500, rounded to 1,000 as the version says
    winner = Bet.objects.get(box__round=round_, box__position=1)
    assert (winner.commission, winner.net) == (D(fee), D("150000") - D(fee))
    posted = LedgerEntry.objects.get(round=round_, account=Account.HOUSE, kind=EntryKind.FEE)
    assert posted.amount == D(fee)


def test_a_stake_off_the_versions_unit_is_refused_whatever_the_venue_unit(
    venue, table, session, dealer
):
    new_version(table, rounding_unit=D("10000"))
    venue.rounding_unit = D("1000")
    venue.save()
    seats = [
        BoxInput(position=1, cards=WINNER, stakes={"stake": STAKE}),
        BoxInput(position=2, cards=LOSER, stakes={"stake": STAKE}),
    ]
    with pytest.raises(InvalidInput, match="not a multiple of the rounding unit 10000"):
        round_create(session=session, user=dealer, dealer_cards="", boxes=seats)
