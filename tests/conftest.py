from __future__ import annotations

from decimal import Decimal

import pytest

from tests.factories import UserFactory, VenueFactory


@pytest.fixture
def venue(db):
    return VenueFactory(code="hanoi", currency="VND", rounding_unit=Decimal("1000"))


@pytest.fixture
def manager(db):
    from casino.roles import role_group

    user = UserFactory(username="manager", is_staff=True)
    user.groups.add(role_group("manager"))
    return user


@pytest.fixture
def approver(db):
    from casino.roles import role_group

    user = UserFactory(username="approver", is_staff=True)
    user.groups.add(role_group("manager"))
    return user
