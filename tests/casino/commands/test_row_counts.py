"""``manage.py row_counts``: one line a table, sorted, the counts of what the floor wrote
(a restore's listing is compared with the primary's with ``diff``)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from casino.floor.models import Bet, Round
from casino.floor.services.sessions import session_open
from casino.ledger.models import LedgerEntry
from casino.simulation import play

pytestmark = pytest.mark.django_db


def listing() -> dict[str, int]:
    out = io.StringIO()
    call_command("row_counts", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines == sorted(lines)
    return {table: int(count) for table, count in (line.split() for line in lines)}


def test_the_counts_are_the_tables_rows(floor):
    before = listing()
    assert before["casino_round"] == 0
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 100},
    )
    play(session=session, rounds=5, dealer=floor.dealer, supervisor=floor.supervisor, seed=3)

    after = listing()
    assert after["casino_round"] == Round.objects.count() == 5
    assert after["casino_bet"] == Bet.objects.count() > 0
    assert after["casino_ledgerentry"] == LedgerEntry.objects.count() > 0
    assert after["casino_tablesession"] == 1
    assert after["casino_auditevent"] > before["casino_auditevent"]
    assert set(after) >= {"casino_slip", "casino_drop", "casino_cashtransaction"}
