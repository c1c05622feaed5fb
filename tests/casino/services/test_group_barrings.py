"""A barring recorded at another site of the group reaches this site as the group sent it
(``GroupBarring``, by the member's group key: docs/OPERATIONS.md "A group of sites") and
refuses the member's next round here, naming the venue and the kind and nothing else; a
lifted or ended one, or one this site made itself, does not. The replication that carries
it is the drill's (tests/drills/test_group_sites.py)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.test import override_settings
from django.utils import timezone, translation

from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.games import BoxInput
from casino.kernel.errors import Conflict
from casino.kernel.timezones import venue_today
from casino.players.eligibility import Activity, player_eligibility
from casino.players.models import GroupBarring, Player
from casino.players.names import group_key
from casino.players.services import group_keys_written, player_bar
from tests.casino.api import NIU_8, NO_NIU
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

SECRET = "the group's secret"
PASSPORT = "passport|B12345678|VN"


@pytest.fixture
def member(floor):
    """Seoul's member SE-1, whose passport the group's other site knows too."""
    with override_settings(GROUP_PSEUDONYM_KEY=SECRET):
        player = PlayerFactory(
            venue=floor.venue,
            membership_number="SE-1",
            name="Nguyễn Văn An",
            id_document_type="Passport",
            id_document_number="b 1234-5678",
            id_document_country="vn",
        )
    assert player.group_key == group_key(PASSPORT, SECRET) != ""
    return player


def sent(member: Player, today, **changes) -> GroupBarring:
    """A self-exclusion at Hà Nội (another site), as the group sends it."""
    fields = {
        "barring_id": 10**12 + 7,
        "group_key": member.group_key,
        "kind": "self_exclusion",
        "venue_code": "vn-hanoi",
        "venue_name": "Hà Nội",
        "starts_on": today,
        **changes,
    }
    return GroupBarring.objects.create(**fields)


def test_a_barring_at_another_site_refuses_the_next_round_naming_venue_and_kind(floor, member):
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    today = venue_today(floor.venue)
    sent(member, today)
    with translation.override("en"), pytest.raises(Conflict) as refused:
        round_create(
            session=session,
            user=floor.dealer,
            dealer_cards=NIU_8,
            boxes=[BoxInput(1, NO_NIU, {"single": D("100000")}, player_id=member.pk)],
        )
    assert refused.value.reason == "player_barred"
    assert refused.value.message == (
        "player SE-1 is barred at Hà Nội (self-exclusion) and cannot play"
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"lifted_at": "now"},
        {"ends_on": "yesterday", "starts_on": "a week ago"},
        {"starts_on": "tomorrow"},
        {"group_key": "another person's key"},
    ],
)
def test_a_lifted_ended_future_or_other_persons_barring_does_not(floor, member, changes):
    today = venue_today(floor.venue)
    values = {
        "now": timezone.now(),
        "yesterday": today - timedelta(days=1),
        "a week ago": today - timedelta(days=7),
        "tomorrow": today + timedelta(days=1),
    }
    sent(member, today, **{field: values.get(value, value) for field, value in changes.items()})
    assert player_eligibility(player=member, venue=floor.venue, activity=Activity.PLAY).allowed


def test_a_barring_this_site_made_is_read_where_it_was_made(floor, member):
    today = venue_today(floor.venue)
    barring = player_bar(
        player=member, user=floor.manager, reason="asked at the cage", starts_on=today
    )
    sent(member, today, barring_id=barring.pk, venue_name="Somewhere else")  # come back
    with translation.override("en"):
        answer = player_eligibility(player=member, venue=floor.venue, activity=Activity.PLAY)
    assert not answer.allowed and answer.elsewhere is None and answer.barring == barring


def test_the_keys_follow_the_groups_secret(floor, member):
    with override_settings(GROUP_PSEUDONYM_KEY="a new secret"):
        assert group_keys_written() == 1
        assert group_keys_written() == 0
    member.refresh_from_db()
    assert member.group_key == group_key(PASSPORT, "a new secret")
    with override_settings(GROUP_PSEUDONYM_KEY=""):
        group_keys_written()
    member.refresh_from_db()
    assert member.group_key == ""
