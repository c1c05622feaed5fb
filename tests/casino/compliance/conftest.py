"""Fixtures of the compliance tests: two compliance officers at the floor's venue (an author
and a reviewer), one at the other venue, a member whose cash reached the reporting
threshold (an alert), and a case opened by the author."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal as D
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from casino.cage.models import CashAlert
from casino.cage.services.cash import cash_record
from casino.cage.services.thresholds import thresholds_approve, thresholds_propose
from casino.compliance.services import case_open
from casino.floor.services.sessions import session_open
from casino.staff.roles import COMPLIANCE, MANAGER
from tests.factories import PlayerFactory, staff


@dataclass
class Desk:
    author: Any
    reviewer: Any
    elsewhere: Any  # compliance at the other venue
    player: Any
    alert: CashAlert


@pytest.fixture
def desk(floor) -> Desk:
    version = thresholds_propose(
        venue=floor.venue,
        user=floor.manager,
        logging_threshold=D("30000000"),
        reporting_threshold=D("100000000"),
    )
    thresholds_approve(version=version, user=staff("second-manager", MANAGER, floor.venue))
    player = PlayerFactory(
        venue=floor.venue,
        membership_number="VIP-7",
        name="Tran Van A",
        id_document_type="passport",
        id_document_number="B1234567",
    )
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    cash_record(session=session, user=floor.dealer, player=player, amount=D("60000000"))
    cash_record(session=session, user=floor.dealer, player=player, amount=D("45000000"))
    return Desk(
        author=staff("aml-author", COMPLIANCE, floor.venue),
        reviewer=staff("aml-reviewer", COMPLIANCE, floor.venue),
        elsewhere=staff("aml-elsewhere", COMPLIANCE, floor.other_venue),
        player=player,
        alert=CashAlert.objects.get(player=player),
    )


@pytest.fixture
def case(floor, desk):
    return case_open(
        venue=floor.venue,
        user=desk.author,
        player=desk.player,
        grounds="Two buy-ins in cash just under and over the threshold within an hour.",
        evidence=[{"kind": "cash_alert", "ref": desk.alert.pk, "note": ""}],
    )


def english(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client
