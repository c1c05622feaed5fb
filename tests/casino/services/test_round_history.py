"""A round is shown from what it recorded, and settles exactly as it was previewed.

The venue's security review: a manager alone changed Hà Nội's rounding unit from 1,000 to
10,000, and a settled round's detail then showed commission 10,000 / net 90,000 where the
ledger had posted 5,000 / 95,000; a round dealt before the change settled at 10,000 instead
of its previewed 8,000; at a unit of 100,000 an old round's detail answered 400. The unit
and mode now belong to the ruleset version, and a settled round is never evaluated again.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse

from casino.floor.models import Bet, RoundStatus
from casino.floor.services.rounds import round_create, round_result
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.ledger.models import Account, EntryKind, LedgerEntry
from casino.rulesets.selectors import version_in_force
from casino.rulesets.services import (
    version_activate,
    version_approve,
    version_clone,
    version_content_hash,
    version_record_edit,
)
from casino.staff.roles import MANAGER
from niuniu.models import NiuNiuRulesetVersion
from niuniu.services import version_save_draft
from tests.casino.api import client_for, settle
from tests.factories import rules_dict, staff

pytestmark = pytest.mark.django_db

NIU_9 = "KS QS 5H 4H TC"  # the player: Niu 9
NIU_8 = "JS QH JD AC 7H"  # the dealer: Niu 8
HX = {"HTTP_HX_REQUEST": "true"}


def deal(session, user, single):
    box = BoxInput(position=1, cards=NIU_9, stakes={"single": D(single)})
    return round_create(session=session, user=user, dealer_cards=NIU_8, boxes=[box])


def change_venue_unit(venue, unit):
    """What the finding did: the venue's unit edited, as the venue admin saves it."""
    venue.rounding_unit = D(unit)
    venue.save()


def commission_and_net(answer: dict) -> tuple[str, str]:
    (bet,) = answer["boxes"][0]["bets"]
    return bet["commission"], bet["net"]


def test_a_settled_round_shows_what_the_ledger_posted_whatever_the_venue_unit(
    client, floor, session
):
    # given a single of 100,000 won at Niu 9: 5% commission 5,000, net 95,000 (unit 1,000)
    round_, _preview = deal(session, floor.dealer, "100000")
    api = client_for(floor.dealer)
    settled = settle(api, round_.pk, "settle-1")
    assert settled.status_code == 200
    assert commission_and_net(settled.json()) == ("5000.00", "95000.00")
    ledger_before = list(LedgerEntry.objects.filter(round=round_).values_list("kind", "amount"))
    assert (EntryKind.COMMISSION, D("5000")) in ledger_before
    client.force_login(floor.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    history = reverse("console:history", args=[session.pk])
    detail = reverse("console:round-detail", args=[session.pk, round_.pk])

    for unit in ("10000", "100000"):
        # when the venue's unit changes (100,000: the stake is no multiple of it any more)
        change_venue_unit(floor.venue, unit)
        # then the API's round detail shows what was posted, and answers 200
        shown = api.get(f"/api/v1/rounds/{round_.pk}/")
        assert shown.status_code == 200, (unit, shown.content[:500])
        assert commission_and_net(shown.json()) == ("5000.00", "95000.00")
        assert shown.json()["totals"] == {
            "stake": "100000.00",
            "commission": "5000.00",
            "house_net": "-95000.00",
        }
        # the idempotent settle answers the same settlement
        again = settle(api, round_.pk, "settle-1")
        assert again.status_code == 200
        assert commission_and_net(again.json()) == ("5000.00", "95000.00")
        # the ledger is as posted
        ledger = api.get(f"/api/v1/rounds/{round_.pk}/ledger/")
        assert ledger.status_code == 200
        amounts = list(LedgerEntry.objects.filter(round=round_).values_list("kind", "amount"))
        assert amounts == ledger_before
        # and the console's history shows the same commission and net
        page = client.get(history)
        assert page.status_code == 200
        assert ">-95,000<" in page.content.decode()  # the house's result
        row = client.get(detail, **HX)
        assert row.status_code == 200
        html = row.content.decode()
        assert "−5,000</td>" in html and "+95,000</td>" in html
        assert "−10,000" not in html and "+90,000" not in html
        # the round screen still opens (its rules are the version's, not the venue's)
        assert client.get(reverse("console:round", args=[session.pk])).status_code == 200


def test_a_round_voided_after_settling_is_shown_as_it_settled(floor, session):
    round_, _preview = deal(session, floor.dealer, "150000")
    round_settle(round_=round_, user=floor.dealer, key="settle-v")
    round_void(
        round_=round_, requested_by=floor.dealer, approved_by=floor.supervisor, reason="misdeal"
    )
    change_venue_unit(floor.venue, "100000")
    # when
    shown = client_for(floor.dealer).get(f"/api/v1/rounds/{round_.pk}/")
    # then
    assert shown.status_code == 200
    assert shown.json()["status"] == RoundStatus.VOIDED
    assert commission_and_net(shown.json()) == ("8000.00", "142000.00")


def test_a_settled_round_is_shown_without_reading_any_rule(floor, session, monkeypatch):
    round_, preview = deal(session, floor.dealer, "150000")
    _settled, posted = round_settle(round_=round_, user=floor.dealer, key="settle-r")
    # when every way to the rules fails
    from casino import games

    adapter = games.get("niuniu")

    def no_rules(*args, **kwargs):
        raise AssertionError("a settled round must not be evaluated again")

    monkeypatch.setattr(adapter, "evaluate_round", no_rules)
    monkeypatch.setattr(adapter, "snapshot", no_rules)
    # then its answer is what was posted, the same as its preview
    assert round_result(round_) == posted == preview


def test_a_dealt_round_settles_as_previewed_after_the_rules_change(floor, session):
    # given a round dealt and previewed under v1 (unit 1,000, up): 5% of 150,000 = 8,000
    round_, preview = deal(session, floor.dealer, "150000")
    assert preview.boxes[0].bets[0].commission == D("8000")
    # when the venue's unit changes, and a v2 rounding down to 1,000 comes in force
    change_venue_unit(floor.venue, "10000")
    manager = floor.manager
    approver = staff("second-manager", MANAGER, floor.venue)
    v1 = version_in_force(model=NiuNiuRulesetVersion, ruleset=floor.table.ruleset)
    v2 = version_clone(version=v1, user=manager)
    before = rules_dict(v2)
    v2.rounding_mode = "down"
    version_save_draft(version=v2, user=manager)
    version_record_edit(version=v2, user=manager, before=before)
    version_approve(version=v2, content_hash=version_content_hash(v2), user=approver)
    version_activate(version=v2, user=approver)
    # then the round settles exactly as previewed, under the version it recorded
    settled, result = round_settle(round_=round_, user=floor.dealer, key="settle-2")
    assert result == preview
    bet = Bet.objects.get(box__round=round_)
    assert (bet.gross, bet.commission, bet.net) == (D("150000"), D("8000"), D("142000"))
    house = LedgerEntry.objects.filter(round=round_, account=Account.HOUSE)
    assert sorted(house.values_list("amount", flat=True)) == [D("-150000"), D("8000")]
    assert settled.house_net == D("-142000")
    # and a round dealt now rounds as v2 says: 7,500 down to 7,000
    later, later_preview = deal(session, floor.dealer, "150000")
    assert later.ruleset_version_id == v2.pk
    assert later_preview.boxes[0].bets[0].commission == D("7000")
    _later, later_result = round_settle(round_=later, user=floor.dealer, key="settle-3")
    assert later_result.boxes[0].bets[0].net == D("143000")


@pytest.mark.parametrize(
    ("mode", "commission"),
    [("up", "8000"), ("half_up", "8000"), ("down", "7000"), ("none", "7500")],
)
def test_each_rounding_mode_of_a_version_settles_a_commission(floor, session, mode, commission):
    # given v1's mode changed through a new version (unit 1,000, from the venue)
    manager = floor.manager
    approver = staff("second-manager", MANAGER, floor.venue)
    v1 = version_in_force(model=NiuNiuRulesetVersion, ruleset=floor.table.ruleset)
    v2 = version_clone(version=v1, user=manager)
    v2.rounding_mode = mode
    version_save_draft(version=v2, user=manager)
    version_approve(version=v2, content_hash=version_content_hash(v2), user=approver)
    version_activate(version=v2, user=approver)
    # when a single of 150,000 wins: 5% = 7,500
    round_, _preview = deal(session, floor.dealer, "150000")
    round_settle(round_=round_, user=floor.dealer, key=f"mode-{mode}")
    # then
    bet = Bet.objects.get(box__round=round_)
    assert (bet.commission, bet.net) == (D(commission), D("150000") - D(commission))
    posted = LedgerEntry.objects.get(round=round_, account=Account.HOUSE, kind="commission")
    assert posted.amount == D(commission)
