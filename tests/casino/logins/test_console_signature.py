"""A supervisor's signature on the console (void, close, drop reversal) is behind the lockout,
and the console says so when the lockout refused it, not "wrong password"."""

from __future__ import annotations

import pytest
from django.conf import settings

from casino.floor.models import Round, RoundStatus
from tests.casino.console.test_views import (
    HX,
    NIU_9,
    preview_then_confirm,
    round_data,
    url,
    void_data,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def settled_round(dealer, session):
    preview_then_confirm(dealer, session, round_data(box1=(NIU_9, {"single": "100,000"})))
    return Round.objects.get()


def test_a_locked_out_supervisor_is_told_so_and_voids_nothing(dealer, session, settled_round):
    for _attempt in range(settings.LOGIN_FAILURE_LIMIT):
        wrong = dealer.post(url("void", session, settled_round.pk), void_data(password="x"), **HX)
        assert "Wrong username or password: nothing was voided." in wrong.content.decode()
    # the right password no longer helps, and the page says why
    locked = dealer.post(url("void", session, settled_round.pk), void_data(), **HX)
    assert locked.status_code == 422
    page = locked.content.decode()
    assert "Too many failed logins for this username" in page
    assert "Wrong username or password" not in page
    settled_round.refresh_from_db()
    assert settled_round.status == RoundStatus.SETTLED
