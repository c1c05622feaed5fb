"""A slip taken through its steps as the floor takes them (the services'), for tests that
need a posted fill or credit rather than the steps themselves."""

from __future__ import annotations

from typing import Any

from casino.cage.models import Slip
from casino.cage.services.slips import (
    slip_confirm_dealer,
    slip_confirm_supervisor,
    slip_issue,
    slip_receive,
)
from casino.staff.roles import CAGE
from tests.factories import staff


def cashier_at(venue: Any, username: str | None = None) -> Any:
    """The cage's cashier at ``venue`` (made once per username)."""
    from django.contrib.auth import get_user_model

    username = username or f"{venue.code}-cashier"
    found = get_user_model().objects.filter(username=username).first()
    return found or staff(username, CAGE, venue)


def slip_post(slip: Slip, *, dealer: Any, supervisor: Any, cashier: Any = None) -> Slip:
    """Issue ``slip`` at the cage, sign it at the table by ``dealer`` and ``supervisor`` and,
    for a credit, receive it back at the cage: posted to the ledger."""
    cashier = cashier or cashier_at(slip.venue)
    slip = slip_issue(slip=slip, user=cashier, runner="runner")
    slip = slip_confirm_dealer(slip=slip, user=dealer)
    slip = slip_confirm_supervisor(slip=slip, user=supervisor)
    if slip.kind == Slip.Kind.CREDIT:
        slip = slip_receive(slip=slip, user=cashier)
    return slip
