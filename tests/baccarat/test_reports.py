"""A shift report with a Baccarat table: its rounds counted under the game's label, the
handle and the house's win as settled, each bet rated by its version's house edge."""

from __future__ import annotations

from decimal import Decimal

import pytest

from baccarat.models import BaccaratRulesetVersion
from casino import games
from casino.reports.models import ShiftReport
from casino.reports.services import report_build, report_request
from tests.baccarat.test_commission_box import BANKER_9, PLAYER_9, bets, settled_round

pytestmark = pytest.mark.django_db


def test_the_shift_report_counts_a_baccarat_table(bac):
    settled_round(bac, bac.session, BANKER_9, bets(1, banker="100000"), key="a")
    settled_round(bac, bac.session, PLAYER_9, bets(2, banker="50000", tie="10000"), key="b")
    report = report_request(shift_id=bac.session.shift_id, user=bac.manager, send=False)
    built = report_build(report_id=report.pk, email=False)
    assert built.status == ShiftReport.Status.DONE, built.error
    rows = {row["key"]: row for row in built.figures["games"]}
    row = rows["baccarat"]
    assert row["label"] == str(games.get("baccarat").reports.label) == "Baccarat"
    assert row["rounds"] == 2
    assert Decimal(row["handle"]) == Decimal("160000")
    # the house pays 95,000 on the first round and takes 60,000 on the second
    assert Decimal(row["house_win"]) == Decimal("-35000")
    version = BaccaratRulesetVersion.objects.get(ruleset=bac.table.ruleset)
    edge = version.house_edge("banker")
    assert edge is not None and Decimal("0.010") < edge < Decimal("0.011")
    assert Decimal(row["theoretical_win"]) > 0
