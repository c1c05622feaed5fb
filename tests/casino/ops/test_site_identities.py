"""What of its members a venue sends the group (``Venue.group_player_data``) and the site's
publication that follows it (casino.ops.sites): pseudonymised, the default, sends the group
key only; identified sends the name, birth date and document too; a site whose venues
disagree is not published, and says which venues to set alike. The setting is changed by a
superuser only, audited; the venue's manager sees it. The drill
(tests/drills/test_group_sites.py) runs the replication itself."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection

from casino.audit.models import AuditEvent
from casino.kernel.errors import Forbidden, InvalidInput
from casino.ops import sites
from casino.players.services import player_create, player_identity_update
from casino.staff.roles import MANAGER
from casino.venues.models import Venue
from casino.venues.services.venues import venue_update
from tests.casino.api import client_for
from tests.factories import staff

PSEUDONYMISED = ("id", "venue_id", "membership_number", "status", "created_at", "group_key")
IDENTIFIED = (
    *PSEUDONYMISED,
    "name", "date_of_birth", "id_document_type", "id_document_number", "id_document_country",
)  # fmt: skip


def test_pseudonymised_venues_or_none_send_the_group_key_only():
    assert sites.player_columns({}) == PSEUDONYMISED
    both = {"vn-hanoi": "pseudonymised", "vn-hcm": "pseudonymised"}
    assert sites.player_columns(both) == PSEUDONYMISED


def test_identified_venues_send_who_their_members_are():
    assert sites.player_columns({"mo-macau": "identified", "mo-taipa": "identified"}) == IDENTIFIED
    player = next(t for t in sites.sent_tables(IDENTIFIED) if t.table == "casino_player")
    assert player.columns == IDENTIFIED
    # the others unchanged
    assert [t for t in sites.sent_tables(IDENTIFIED) if t.table != "casino_player"] == [
        t for t in sites.sent_tables() if t.table != "casino_player"
    ]


def test_venues_of_one_site_that_disagree_are_named_and_told_how_to_agree():
    venues = {"mo-macau": "identified", "mo-taipa": "pseudonymised", "mo-cotai": "identified"}
    with pytest.raises(InvalidInput) as refused:
        sites.player_columns(venues)
    message = str(refused.value)
    assert "identified mo-cotai, mo-macau; pseudonymised mo-taipa" in message
    assert "set every venue's \"members' data sent to the group\" alike" in message
    assert "run site_setup again" in message
    assert refused.value.field == "group_player_data"


def test_a_name_the_identity_sends_is_checked_against_the_model(monkeypatch):
    monkeypatch.setattr(sites, "IDENTITY", ("passport",))
    with pytest.raises(LookupError, match=r"players\.Player has no column passport"):
        sites.sent_tables(sites.player_columns({"mo-macau": "identified"}))


def _published_players() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attnames FROM pg_publication_tables WHERE pubname = %s "
            "AND tablename = 'casino_player'",
            [sites.PUBLICATION],
        )
        return set(cursor.fetchone()[0])


@pytest.fixture
def root(db):
    return get_user_model().objects.create_superuser("root", password="pw-for-tests")


@pytest.mark.django_db
def test_the_publication_follows_the_venues_and_refuses_when_they_disagree(venue, manager, root):
    player_create(venue=venue, user=manager, membership_number="M-1", name="An")
    assert sites.site_publish().startswith(f"publication {sites.PUBLICATION}: made")
    assert _published_players() == set(PSEUDONYMISED)

    venue_update(venue=venue, user=root, group_player_data="identified")
    done = sites.site_publish()
    assert _published_players() == set(IDENTIFIED)
    assert "1 members sent again with name, date_of_birth" in done  # the rows registered before
    assert "sent again" not in sites.site_publish()  # published so already: nothing re-sent

    Venue.objects.create(
        code="hanoi-2", name="Hà Nội 2", currency="VND", rounding_unit=1000,
        timezone="Asia/Ho_Chi_Minh",
    )  # fmt: skip
    with pytest.raises(InvalidInput, match="identified hanoi; pseudonymised hanoi-2"):
        sites.site_publish()
    assert _published_players() == set(IDENTIFIED)  # left as it was
    with connection.cursor() as cursor:
        cursor.execute("SELECT last_value FROM casino_venue_id_seq")
        before = cursor.fetchone()
        with pytest.raises(CommandError, match="identified hanoi; pseudonymised hanoi-2"):
            call_command("site_setup", "--site", "1")
        cursor.execute("SELECT last_value FROM casino_venue_id_seq")
        assert cursor.fetchone() == before  # refused before a key moved into the site's range


@pytest.mark.django_db
def test_the_group_forgets_the_identities_of_a_venue_no_longer_identified(floor, root, settings):
    settings.GROUP_PSEUDONYM_KEY = "the group's secret"
    for venue in (floor.venue, floor.other_venue):
        venue_update(venue=venue, user=root, group_player_data="identified")
    managers = {venue.pk: staff(f"m-{venue.code}", MANAGER, venue) for venue in
                (floor.venue, floor.other_venue)}  # fmt: skip
    kept = player_create(
        venue=floor.venue, user=managers[floor.venue.pk], membership_number="M-1", name="An"
    )
    gone = player_create(
        venue=floor.other_venue, user=managers[floor.other_venue.pk], membership_number="M-1",
        name="Ji",
    )  # fmt: skip
    for player in (kept, gone):
        player_identity_update(
            player=player, user=managers[player.venue_id], date_of_birth="1980-01-02",
            id_document_type="Passport", id_document_number="B1234567",
            id_document_country="VN",
        )  # fmt: skip
    venue_update(venue=floor.other_venue, user=root, group_player_data="pseudonymised")
    with connection.cursor() as cursor:
        cursor.execute(sites.FORGET_IDENTITIES)
        assert cursor.rowcount == 1
    gone.refresh_from_db()
    kept.refresh_from_db()
    assert (gone.name, gone.date_of_birth, gone.id_document_number) == ("", None, "")
    assert gone.group_key == kept.group_key != ""  # still known to the group by its key
    assert (kept.name, kept.id_document_number) == ("An", "B1234567")


@pytest.mark.django_db
def test_only_a_superuser_changes_it_and_the_change_is_audited(floor, root):
    assert floor.venue.group_player_data == "pseudonymised"
    with pytest.raises(Forbidden, match="only a superuser changes what the venue sends"):
        venue_update(venue=floor.venue, user=floor.manager, group_player_data="identified")
    # the manager changes the venue's other settings as before
    venue_update(venue=floor.venue, user=floor.manager, group_player_data="pseudonymised")
    with pytest.raises(InvalidInput, match="give pseudonymised or identified"):
        venue_update(venue=floor.venue, user=root, group_player_data="everything")
    venue = venue_update(venue=floor.venue, user=root, group_player_data="identified")
    assert venue.group_player_data == "identified"
    event = AuditEvent.objects.get(action="venue.update", venue=venue)
    assert event.user == root
    assert event.before["group_player_data"] == "pseudonymised"
    assert event.after["group_player_data"] == "identified"


@pytest.mark.django_db
def test_the_manager_sees_it_on_the_venues_page_and_cannot_change_it(client, floor):
    client.force_login(floor.manager)
    page = client.get(f"/admin/venues/venue/{floor.venue.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "data sent to the group" in text
    assert 'name="group_player_data"' not in text  # read-only for a manager
    assert "Pseudonymised: the group key only" in text


@pytest.mark.django_db
def test_the_manager_reads_it_through_the_api_too(floor):
    answer = client_for(floor.manager).get(f"/api/v1/venues/{floor.venue.pk}/")
    assert answer.status_code == 200
    assert answer.json()["group_player_data"] == "pseudonymised"
