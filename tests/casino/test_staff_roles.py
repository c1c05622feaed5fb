"""Roles held per venue: a manager at one venue may be a dealer at another, and the access
checks, the admin, the API and the staff service keep each role to its venue."""

from __future__ import annotations

import importlib

import pytest
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.kernel.errors import InvalidInput
from casino.staff.models import StaffRole
from casino.staff.roles import (
    CAGE,
    CASHIER,
    COUNT,
    COUNT_TEAM,
    DEALER,
    MANAGE,
    MANAGER,
    PLAY,
    READ,
    ROLES,
    SUPERVISE,
    SUPERVISOR,
    can,
    forget,
    roles_at,
    venues_where,
)
from casino.staff.services import staff_access_update, venue_staff_set
from tests.casino.api import client_for
from tests.factories import UserFactory, staff
from tests.migration_state import models_as_of

pytestmark = pytest.mark.django_db

migration = importlib.import_module("casino.migrations.0016_staff_roles")


def apps_after_0016():
    """The models as the migration saw them (``StaffRole`` was the floor's then)."""
    return models_as_of("casino", "0016_staff_roles")


@pytest.fixture
def root(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def two_hats(floor):
    """A manager at the floor's venue who deals at the other venue."""
    member = staff("two-hats", MANAGER, floor.venue)
    staff_access_update(
        member=member,
        user=UserFactory(username="granter", is_superuser=True),
        roles=[(floor.venue, MANAGER), (floor.other_venue, DEALER)],
    )
    return member


def test_a_role_holds_at_its_venue_only(floor, two_hats):
    assert roles_at(two_hats, floor.venue.pk) == {MANAGER}
    assert roles_at(two_hats, floor.other_venue.pk) == {DEALER}
    assert can(two_hats, MANAGE, floor.venue.pk)
    assert not can(two_hats, MANAGE, floor.other_venue.pk)
    assert not can(two_hats, SUPERVISE, floor.other_venue.pk)
    assert can(two_hats, PLAY, floor.other_venue.pk)
    assert venues_where(two_hats, MANAGE) == {floor.venue.pk}
    assert venues_where(two_hats, PLAY) == {floor.venue.pk, floor.other_venue.pk}


def test_the_cage_and_the_count_hold_no_pit_capability(floor):
    cashier = staff("cashier", CAGE, floor.venue)
    counter = staff("counter", COUNT, floor.venue)
    for capability in (PLAY, SUPERVISE, MANAGE):
        assert not can(cashier, capability, floor.venue.pk)
        assert not can(counter, capability, floor.venue.pk)
    assert can(cashier, CASHIER, floor.venue.pk) and not can(counter, CASHIER, floor.venue.pk)
    assert can(counter, COUNT_TEAM, floor.venue.pk) and not can(cashier, COUNT_TEAM, floor.venue.pk)
    assert can(cashier, READ, floor.venue.pk) and can(counter, READ, floor.venue.pk)
    # no pit role is in the cage or on the count team
    for role in (DEALER, SUPERVISOR, MANAGER):
        member = staff(f"pit-{role}", role, floor.venue)
        assert not can(member, CASHIER | COUNT_TEAM, floor.venue.pk)


def test_a_role_is_held_once_and_is_one_of_the_roles(floor):
    with transaction.atomic(), pytest.raises(IntegrityError):
        StaffRole.objects.create(user=floor.dealer, venue=floor.venue, role=DEALER)
    with transaction.atomic(), pytest.raises(IntegrityError):
        StaffRole.objects.create(user=floor.dealer, venue=floor.venue, role="croupier")
    assert set(StaffRole.Role.values) == set(ROLES)


def test_the_groups_follow_the_roles_and_carry_the_admins_permissions(floor, two_hats, root):
    assert sorted(two_hats.groups.values_list("name", flat=True)) == [DEALER, MANAGER]
    staff_access_update(member=two_hats, user=root, roles=[(floor.other_venue, DEALER)])
    assert list(two_hats.groups.values_list("name", flat=True)) == [DEALER]
    assert two_hats.venues.filter(pk=floor.venue.pk).exists()  # still works there, no role
    forget(two_hats)
    assert not can(two_hats, MANAGE, floor.venue.pk)


def test_a_role_is_refused_unless_it_is_one(floor, root):
    with pytest.raises(InvalidInput) as refused:
        staff_access_update(member=floor.dealer, user=root, roles=[(floor.venue, "croupier")])
    assert refused.value.field == "roles"
    assert "dealer, supervisor, manager, auditor, cage, count" in refused.value.message
    assert roles_at(floor.dealer, floor.venue.pk) == {DEALER}


def test_leaving_a_venue_takes_its_roles_audited(floor, two_hats, root):
    # when a superuser takes the member off the other venue's staff
    venue_staff_set(
        venue=floor.other_venue,
        user=root,
        staff=[floor.other_dealer, floor.other_supervisor],
    )
    # then their role there is gone, the one at their own venue stays
    forget(two_hats)
    assert roles_at(two_hats, floor.other_venue.pk) == frozenset()
    assert roles_at(two_hats, floor.venue.pk) == {MANAGER}
    assert list(two_hats.groups.values_list("name", flat=True)) == [MANAGER]
    event = AuditEvent.objects.filter(action="venue.staff").latest("pk")
    assert "two-hats:dealer" in event.before["roles"]
    assert "two-hats:dealer" not in event.after["roles"]


def test_the_admin_keeps_a_managers_rights_to_the_venue_they_manage(floor, two_hats):
    client = Client()
    client.force_login(two_hats)
    own = reverse("admin:venues_table_change", args=[floor.table.pk])
    other = reverse("admin:venues_table_change", args=[floor.other_table.pk])
    listing = client.get(reverse("admin:venues_table_changelist")).content.decode()
    assert client.get(own).status_code == 200
    # the venue where they only deal: its tables are not theirs in the admin
    assert client.get(other).status_code == 302
    assert floor.table.code in listing and floor.other_table.code not in listing
    add = client.get(reverse("admin:venues_table_add"))
    venues = [str(choice[1]) for choice in add.context["adminform"].form.fields["venue"].choices]
    assert any(floor.venue.name in venue for venue in venues)
    assert not any(floor.other_venue.name in venue for venue in venues)


def test_the_api_says_who_holds_what_where(floor, two_hats):
    answer = client_for(two_hats).get("/api/v1/auth/me/")
    assert answer.status_code == 200
    venues = {row["code"]: row["roles"] for row in answer.json()["venues"]}
    assert venues == {floor.venue.code: [MANAGER], floor.other_venue.code: [DEALER]}
    # a manager's write at the venue where they only deal is refused
    refused = client_for(two_hats).patch(
        f"/api/v1/tables/{floor.other_table.pk}/", {"status": "inactive"}, format="json"
    )
    assert refused.status_code in (403, 404)
    done = client_for(two_hats).patch(
        f"/api/v1/tables/{floor.table.pk}/", {"status": "inactive"}, format="json"
    )
    assert done.status_code == 200, done.content


def test_the_upgrade_gives_each_member_their_role_at_each_of_their_venues(floor):
    # given the access as it was kept before: a group and the venues' staff
    member = UserFactory(username="old-timer")
    member.groups.add(Group.objects.get_or_create(name=SUPERVISOR)[0])
    floor.venue.staff.add(member)
    floor.other_venue.staff.add(member)
    # when the upgrade runs
    migration.roles_per_venue(apps_after_0016(), None)
    # then the member holds the role at both venues, and everyone else keeps theirs
    forget(member)
    assert roles_at(member, floor.venue.pk) == {SUPERVISOR}
    assert roles_at(member, floor.other_venue.pk) == {SUPERVISOR}
    assert roles_at(floor.dealer, floor.venue.pk) == {DEALER}
    migration.roles_per_venue(apps_after_0016(), None)  # again: nothing doubled
    assert StaffRole.objects.filter(user=member).count() == 2
