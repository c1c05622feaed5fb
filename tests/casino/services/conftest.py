"""Fixtures of the cash tests: the venue's thresholds, approved by a second manager."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.cage.services.thresholds import thresholds_approve, thresholds_propose

#: The venue's logging and reporting thresholds in the cash tests.
LOG, REPORT = D("30000000"), D("100000000")


@pytest.fixture
def thresholds(floor, approver):
    version = thresholds_propose(
        venue=floor.venue, user=floor.manager, logging_threshold=LOG, reporting_threshold=REPORT
    )
    return thresholds_approve(version=version, user=approver)
