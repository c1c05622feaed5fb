"""A superuser sets the operating group up in the admin: the group, its venues and its
roles, each added through its service (casino.group.services), audited as the service
audits it, and refused in its words on the form; nobody else adds any, and nothing is
changed or deleted there."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.group.models import GroupRole, GroupVenue, OperatingGroup
from casino.staff.roles import GROUP_MANAGER
from tests.factories import UserFactory, VenueFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def root(client):
    user = get_user_model().objects.create_superuser("root", password="pw-for-tests")
    client.force_login(user)
    return user


def add(client, model: str, data: dict):
    return client.post(reverse(f"admin:group_{model}_add"), data)


def test_a_superuser_sets_the_group_up_through_the_services(client, root):
    answer = add(
        client,
        "operatinggroup",
        {"code": "asia", "name": "Asia group", "reporting_currency": "USD", "timezone": "UTC"},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    group = OperatingGroup.objects.get(code="asia")
    assert AuditEvent.objects.filter(action="group.create", user=root).count() == 1

    venue = VenueFactory(code="hanoi", currency="VND", rounding_unit=Decimal(1000))
    answer = add(client, "groupvenue", {"group": group.pk, "venue": venue.pk, "country": "vn"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert GroupVenue.objects.get(venue=venue).country == "VN"  # as the service writes it
    assert AuditEvent.objects.filter(action="group.venue_add", venue=venue).count() == 1

    member = UserFactory(username="group-head")
    answer = add(client, "grouprole", {"group": group.pk, "user": member.pk, "role": GROUP_MANAGER})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert GroupRole.objects.get(user=member).role == GROUP_MANAGER
    assert AuditEvent.objects.filter(action="group.role_grant").count() == 1


def test_a_refusal_is_shown_on_the_form_and_nothing_is_written(client, root):
    add(
        client,
        "operatinggroup",
        {"code": "asia", "name": "Asia group", "reporting_currency": "USD", "timezone": "UTC"},
    )
    again = add(
        client,
        "operatinggroup",
        {"code": "asia", "name": "Other", "reporting_currency": "EUR", "timezone": "UTC"},
    )
    assert again.status_code == 200
    assert "There is already an operating group with the code asia." in again.content.decode()
    zone = add(
        client,
        "operatinggroup",
        {"code": "euro", "name": "Euro", "reporting_currency": "EUR", "timezone": "Mars/Base"},
    )
    assert "is not a time zone" in zone.content.decode()
    assert list(OperatingGroup.objects.values_list("code", flat=True)) == ["asia"]

    group = OperatingGroup.objects.get()
    venue = VenueFactory(code="hanoi", currency="VND", rounding_unit=Decimal(1000))
    add(client, "groupvenue", {"group": group.pk, "venue": venue.pk, "country": "VN"})
    twice = add(client, "groupvenue", {"group": group.pk, "venue": venue.pk, "country": "VN"})
    assert twice.status_code == 200
    assert "is already a venue of Asia group" in twice.content.decode()
    country = add(client, "groupvenue", {"group": group.pk, "venue": venue.pk, "country": "V1"})
    assert "two-letter ISO code" in country.content.decode()
    assert GroupVenue.objects.count() == 1


def test_nobody_but_a_superuser_adds_and_nothing_is_changed_or_deleted(client, root, manager):
    group = OperatingGroup.objects.create(code="asia", name="Asia", reporting_currency="USD")
    page = client.get(reverse("admin:group_operatinggroup_change", args=[group.pk]))
    assert page.status_code == 200
    assert 'name="code"' not in page.content.decode()  # shown, not a form
    delete = reverse("admin:group_operatinggroup_delete", args=[group.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    client.force_login(manager)
    for model in ("operatinggroup", "groupvenue", "grouprole"):
        assert client.get(reverse(f"admin:group_{model}_add")).status_code == 403
