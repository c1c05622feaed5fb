"""What the console's tests share: an open session at the floor's table, and its dealer's
client speaking English (a test module may override either)."""

from __future__ import annotations

import pytest
from django.conf import settings

from casino.services.sessions import session_open


@pytest.fixture
def session(floor):
    return session_open(table=floor.table, user=floor.dealer, opening_chips={"100000": 50})


@pytest.fixture
def dealer(client, floor):
    client.force_login(floor.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client
