"""The cash log searched for patterns, a case opened for each finding, once
(casino.compliance.detection).

The day at the Hà Nội test venue (logging threshold 70,000,000, reporting 400,000,000; just
under the reporting threshold: 320,000,000 to 399,999,999), all at the cage window:

    A  buys chips for 390,000,000, 380,000,000, 395,000,000   three just under: structuring
    B  buys chips for 390,000,000, 385,000,000, 300,000,000   two just under: a near miss
    C  buys chips for 100,000,000 and cashes in 95,000,000,    95% back, 0 played (under 20%
       playing nothing                                         of 100,000,000): little play
    D  buys chips for 100,000,000 and cashes in 50,000,000     half back: not little play

Two cases: A's (three movements in its evidence) and C's; run again, none.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.core.management import call_command
from django.utils import timezone

from casino.cage.services.inventory import chip_purchase, chip_redemption
from casino.cage.services.patrons import WindowPatron
from casino.cage.services.thresholds import gaming_date_at, thresholds_approve, thresholds_propose
from casino.compliance.detection import patterns_detect
from casino.compliance.models import CaseSource, SuspicionCase
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

M = D("1000000")


@pytest.fixture
def venue(floor, approver):
    venue = floor.venue
    venue.note_denominations = ["500000"]
    venue.save(update_fields=["note_denominations"])
    version = thresholds_propose(
        venue=venue, user=floor.manager, logging_threshold=70 * M, reporting_threshold=400 * M
    )
    thresholds_approve(version=version, user=approver)
    return venue


def _buy(venue, cashier, player, millions):
    chip_purchase(
        venue=venue,
        user=cashier,
        chips={"1000000": millions},
        notes={"500000": millions * 2},
        patron=WindowPatron(player=player),
    )


def _cash_in(venue, cashier, player, millions):
    chip_redemption(
        venue=venue,
        user=cashier,
        chips={"1000000": millions},
        notes={"500000": millions * 2},
        patron=WindowPatron(player=player),
    )


def test_structuring_and_little_play_open_a_case_each_once(venue, cashier, capsys):
    a, b, c, d = (
        PlayerFactory(venue=venue, membership_number=f"AML-{x}", id_document_number=f"ID{x}")
        for x in "ABCD"
    )
    for player, amounts in ((a, (390, 380, 395)), (b, (390, 385, 300))):
        for millions in amounts:
            _buy(venue, cashier, player, millions)
    for player, back in ((c, 95), (d, 50)):
        _buy(venue, cashier, player, 100)
        _cash_in(venue, cashier, player, back)

    today = gaming_date_at(venue, timezone.now())
    cases = patterns_detect(venue, today)
    assert sorted(
        (case.player.membership_number, case.finding.split(":")[0]) for case in cases
    ) == [
        ("AML-A", "structuring"),
        ("AML-C", "little_play"),
    ]
    structuring = next(case for case in cases if case.player == a)
    assert structuring.source == CaseSource.PATTERN and structuring.status == "draft"
    assert len(structuring.evidence) == 3
    assert "1,165,000,000" in structuring.grounds  # the three together, in the venue's words
    assert patterns_detect(venue, today) == []  # the same findings: nothing opened twice
    call_command("detect_patterns", venue=venue.code, date=today.isoformat())
    assert "0 case(s) opened" in capsys.readouterr().out
    assert SuspicionCase.objects.filter(venue=venue).count() == 2
