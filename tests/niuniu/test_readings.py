"""The readings of the sheets a version may take (docs/RULES.md "Settings a venue may choose"):
edited on a draft in the admin, validated, fingerprinted, audited, cloned, frozen once approved,
given to the engine, priced by the house-edge panel, and the box limit obeyed at the table."""

from __future__ import annotations

import importlib
import re
from decimal import Decimal

import pytest
from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from casino import games
from casino.audit.models import AuditEvent
from casino.floor.services.sessions import session_open
from casino.games import BoxInput, RoundInputError
from casino.rulesets.services import (
    version_activate,
    version_approve,
    version_clone,
    version_content_hash,
)
from casino.staff.roles import MANAGER
from niuniu.engine import BetType, Category
from niuniu.engine.odds import as_decimal, ruleset_odds
from niuniu.house_edge import figures_compute, figures_summary
from niuniu.models import READING_DEFAULTS, NiuNiuRulesetVersion, PaytableRow
from niuniu.selectors import ruleset_snapshot, version_in_force_for, version_with_rules
from niuniu.services import version_save_draft
from tests.casino.api import (
    NIU_8,
    NIU_9,
    NO_NIU,
    OTHER_HANDS,
    box,
    client_for,
    error_of,
    open_session,
    round_body,
)
from tests.factories import rules_dict, staff
from tests.niuniu.test_admin import change_url, form_data

pytestmark = pytest.mark.django_db

#: For each reading, the one the presets do not take.
OTHER_READINGS = {
    "double_deposit_basis": "single",
    "super_deposit_basis": "double",
    "five_small_rank": "level",
    "four_of_a_kind_rank": "level",
    "five_face_rank": "level",
    "max_boxes": 3,
}


def snapshot(version):
    return ruleset_snapshot(version_with_rules(version.pk))


def test_a_version_from_a_preset_takes_todays_readings_and_writes_none(draft):
    assert {name: getattr(draft, name) for name in READING_DEFAULTS} == READING_DEFAULTS
    # Not written into its rules, so the fingerprints of versions approved before stay.
    assert not set(READING_DEFAULTS) & set(rules_dict(draft))
    rules = snapshot(draft)
    assert (rules.level_with_niu_niu, dict(rules.deposit_bases), rules.max_boxes) == (
        frozenset(),
        {},
        5,
    )


@pytest.mark.parametrize(("field", "value"), OTHER_READINGS.items())
def test_each_reading_is_edited_on_a_draft_in_the_admin(
    client, draft, manager, approver, field, value
):
    # given
    client.force_login(manager)
    page = client.get(change_url(draft))
    data = form_data(page)
    assert data[field] == str(READING_DEFAULTS[field])
    fingerprint = version_content_hash(draft)
    # when
    response = client.post(change_url(draft), {**data, field: str(value)})
    # then
    assert response.status_code == 302, response.content.decode()[:2000]
    draft.refresh_from_db()
    assert getattr(draft, field) == value
    assert version_content_hash(draft) != fingerprint
    event = AuditEvent.objects.filter(action="ruleset.edit").get()
    assert field not in event.before
    assert event.after[field] == value
    # a clone carries it; the approved version keeps it
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    clone = version_clone(version=draft, user=manager)
    assert getattr(clone, field) == value
    assert rules_dict(clone) == rules_dict(draft)


def test_the_admin_quotes_the_sheets_for_each_choice(client, draft, manager):
    client.force_login(manager)
    html = client.get(change_url(draft)).content.decode()
    assert "Niu (0) & Super NIU NIU" in html
    assert "10 times the Double Bet" in html
    assert "gấp 10 lần cược Đôi" in html
    assert "2 to 6 players, including a dealer" in html
    assert "Level with Niu Niu (the high card decides)" in html


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            {"super_deposit_basis": "double", "offers_double": None},
            "super_deposit_basis",
            "The Super deposit cannot count from the Double stake: this version does not offer "
            "Double. Offer it, or count the deposit from another bet.",
        ),
        ({"max_boxes": "6"}, "max_boxes", "Ensure this value is less than or equal to 5."),
        ({"max_boxes": "0"}, "max_boxes", "Ensure this value is greater than or equal to 1."),
        ({"five_face_rank": "below"}, "five_face_rank", "Select a valid choice."),
    ],
)
def test_a_reading_that_cannot_be_is_refused_with_a_message(
    client, draft, manager, change, field, message
):
    client.force_login(manager)
    data = form_data(client.get(change_url(draft)))
    for name, value in change.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    response = client.post(change_url(draft), data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert message in " ".join(errors[field])
    assert rules_dict(NiuNiuRulesetVersion.objects.get(pk=draft.pk)) == rules_dict(draft)


def test_an_approved_version_keeps_its_readings(draft, manager, approver):
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    draft.five_face_rank = "level"
    with pytest.raises(ValidationError, match="read-only; clone it"):
        version_save_draft(version=draft, user=manager)
    draft.refresh_from_db()
    assert draft.five_face_rank == "above"


def test_the_snapshot_carries_every_reading(draft):
    NiuNiuRulesetVersion.objects.filter(pk=draft.pk).update(
        five_face=True, four_of_a_kind=True, **OTHER_READINGS
    )
    rules = snapshot(draft)
    # Five Small ranks level but is switched off: it ranks nowhere.
    assert rules.level_with_niu_niu == {Category.FOUR_OF_A_KIND, Category.FIVE_FACE}
    assert dict(rules.deposit_bases) == {
        BetType.DOUBLE: BetType.SINGLE,
        BetType.SUPER: BetType.DOUBLE,
    }
    assert rules.max_boxes == 3


def test_the_upgrade_gives_every_version_todays_readings(draft):
    # the rows as the upgrade could find them, whatever they hold
    NiuNiuRulesetVersion.objects.update(**OTHER_READINGS)
    migration = importlib.import_module("niuniu.migrations.0006_version_readings")
    migration.todays_readings(apps, None)
    draft.refresh_from_db()
    assert {name: getattr(draft, name) for name in READING_DEFAULTS} == READING_DEFAULTS


# ---- the house-edge panel follows the readings --------------------------------------------


def double_edge(version) -> Decimal:
    return Decimal(figures_summary(figures_compute(version_id=version.pk))["house_edge"]["double"])


def test_the_panel_prices_commission_on_the_1_to_1_rows(draft):
    assert round(double_edge(draft), 4) == Decimal("0.0269")
    # Sheet 004 in Korean and English: 5% on every Double win, the 1:1 rows included.
    PaytableRow.objects.filter(version=draft, bet_type="double").update(
        commission_rate=Decimal("0.05")
    )
    assert round(double_edge(draft), 4) == Decimal("0.0402")


@pytest.mark.parametrize("hand", ["five_small", "four_of_a_kind", "five_face"])
def test_the_panel_prices_where_a_special_hand_ranks(draft, hand):
    # The special hand switched on and paid 5:1 on the Double, so where it ranks shows.
    NiuNiuRulesetVersion.objects.filter(pk=draft.pk).update(**{hand: True})
    category = Category[hand.upper()]
    PaytableRow.objects.bulk_create(
        PaytableRow(
            version=draft,
            bet_type=bet_type,
            category=category.name,
            win_odds=Decimal("5" if bet_type == "double" else "1"),
            loss_multiple=Decimal("1"),
        )
        for bet_type in ("single", "double", "super")
    )
    above = double_edge(draft)
    NiuNiuRulesetVersion.objects.filter(pk=draft.pk).update(**{f"{hand}_rank": "level"})
    level = double_edge(draft)
    # Level with Niu Niu it wins less often, so the house keeps more.
    assert level > above
    exact = ruleset_odds(snapshot(draft)).bets[BetType.DOUBLE].house_edge
    assert level == as_decimal(exact)


# ---- the box limit at the table -------------------------------------------------------------


def put_in_force(floor, **readings):
    """The floor's table under a new version of its rules with these readings."""
    second = staff("second-manager", MANAGER, floor.venue)
    active = version_in_force_for(floor.table.ruleset)
    version = version_clone(version=active, user=floor.manager)
    for name, value in readings.items():
        setattr(version, name, value)
    version_save_draft(version=version, user=floor.manager)
    version_approve(version=version, content_hash=version_content_hash(version), user=second)
    version_activate(version=version, user=second)
    return floor.table


@pytest.fixture
def three_boxes(floor):
    """The floor's table under a version of its rules that deals to 3 boxes."""
    return put_in_force(floor, max_boxes=3)


def four_boxes():
    hands = (NIU_9, NO_NIU, OTHER_HANDS[0], OTHER_HANDS[1])
    return [box(n, cards, single="100000") for n, cards in enumerate(hands, start=1)]


def test_the_game_refuses_more_boxes_than_the_version_deals_to_in_the_readers_language(
    three_boxes,
):
    adapter = games.get("niuniu")
    rules = snapshot(version_in_force_for(three_boxes.ruleset))
    boxes = [
        BoxInput(position=b["position"], cards=b["cards"], stakes={"single": Decimal(100000)})
        for b in four_boxes()
    ]
    with translation.override("en"), pytest.raises(RoundInputError) as english:
        adapter.evaluate_round(rules=rules, dealer_cards=NIU_8, boxes=boxes)
    assert str(english.value.message) == (
        "Niu Niu deals to at most 3 boxes besides the dealer, got 4"
    )
    with translation.override("vi"), pytest.raises(RoundInputError) as vietnamese:
        adapter.evaluate_round(rules=rules, dealer_cards=NIU_8, boxes=boxes)
    assert str(vietnamese.value.message) != str(english.value.message)
    assert "3" in str(vietnamese.value.message)
    adapter.evaluate_round(rules=rules, dealer_cards=NIU_8, boxes=boxes[:3])


def test_the_api_refuses_more_boxes_than_the_version_deals_to(floor, three_boxes):
    dealer = client_for(floor.dealer)
    session_id = open_session(dealer, three_boxes.pk)["id"]
    response = dealer.post("/api/v1/rounds/", round_body(session_id, *four_boxes()), format="json")
    assert error_of(response)[0] == 400
    assert "at most 3 boxes" in response.json()["detail"]
    allowed = dealer.post(
        "/api/v1/rounds/", round_body(session_id, *four_boxes()[:3]), format="json"
    )
    assert allowed.status_code == 201, allowed.json()


def test_the_round_screen_shows_as_many_boxes_as_the_version_deals_to(client, floor, three_boxes):
    session = session_open(
        table=three_boxes,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    client.force_login(floor.dealer)
    html = client.get(reverse("console:round", args=[session.pk])).content.decode()
    assert three_boxes.seats == 5
    assert sorted(set(re.findall(r'name="box-(\d+)-cards"', html))) == ["1", "2", "3"]


def test_the_round_screen_shows_the_super_deposit_from_the_double_stake(client, floor):
    table = put_in_force(floor, super_deposit_basis="double")
    session = session_open(
        table=table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    client.force_login(floor.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    params = {
        "box": "1",
        "box-1-single": "100,000",
        "box-1-double": "50,000",
        "box-1-super": "20,000",
    }
    stakes = reverse("console:stakes", args=[session.pk])
    html = client.get(stakes, params, HTTP_HX_REQUEST="true").content.decode()
    assert "Double 50,000: show 150,000" in html
    assert "Super 20,000: show 500,000" in html  # 10 x the Double, not 10 x 20,000
