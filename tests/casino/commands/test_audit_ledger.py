from __future__ import annotations

import io
from decimal import Decimal as D

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from casino.models import Account, LedgerEntry, TableSession
from casino.services.closing import session_close
from casino.services.sessions import session_open
from casino.simulation import chips_for, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_session(floor):
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 100},
    )
    play(
        session=session,
        rounds=12,
        dealer=floor.dealer,
        supervisor=floor.supervisor,
        seed=7,
        void_rate=0.2,
    )
    tray = session.opening_total + sum(
        e.amount for e in LedgerEntry.objects.filter(session=session, account=Account.HOUSE)
    )
    return session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips=chips_for(tray, floor.table.chip_denominations),
    )


def audit() -> str:
    out = io.StringIO()
    call_command("audit_ledger", stdout=out, stderr=out)
    return out.getvalue()


def test_a_clean_floor_passes(closed_session):
    text = audit()
    assert "checked 12 rounds" in text
    assert "the ledger balances" in text


def test_a_session_whose_figures_disagree_with_the_ledger_is_named(closed_session):
    TableSession.objects.filter(pk=closed_session.pk).update(win_by_ledger=D("1"))
    with pytest.raises(CommandError, match="1 problem"):
        audit()


def test_an_unbalanced_round_is_named(closed_session):
    round_ = closed_session.rounds.filter(status="settled").first()
    with connection.cursor() as cursor:  # only a broken database could hold this
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE casino_ledgerentry DISABLE TRIGGER casino_ledger_balanced")
    LedgerEntry.objects.create(
        venue=closed_session.table.venue,
        session=closed_session,
        round=round_,
        account=Account.HOUSE,
        kind="result",
        amount=D("1000"),
    )
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE casino_ledgerentry ENABLE TRIGGER casino_ledger_balanced")
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("audit_ledger", stdout=out, stderr=out)
    assert f"round {round_.pk}: its entries sum to 1000.00, not 0" in out.getvalue()
