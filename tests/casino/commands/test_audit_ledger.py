from __future__ import annotations

import io
from decimal import Decimal as D

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from casino.floor.models import Bet, Box, Round, TableSession
from casino.floor.services.closing import session_close
from casino.floor.services.sessions import session_open
from casino.integrity.models import CardTally, CategoryTally
from casino.ledger.models import Account, LedgerEntry
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


def audit_tallies() -> str:
    out = io.StringIO()
    call_command("audit_ledger", "--tallies", stdout=out, stderr=out)
    return out.getvalue()


def test_integrity_tallies_that_match_their_rounds_pass(closed_session):
    assert CategoryTally.objects.filter(shift=closed_session.shift, count__gt=0).exists()
    assert closed_session.rounds.filter(status="voided").exists()  # their counts taken off
    assert "the ledger balances" in audit_tallies()


def test_a_tampered_integrity_tally_is_named_with_what_its_rounds_give(closed_session):
    # given a dealer's hand counted once more than it was dealt, and a card once less
    shift = closed_session.shift
    tally = CategoryTally.objects.filter(shift=shift, subject="dealer_hand", count__gt=0).first()
    CategoryTally.objects.filter(pk=tally.pk).update(count=tally.count + 1)
    card = CardTally.objects.filter(shift=shift, count__gt=0).first()
    CardTally.objects.filter(pk=card.pk).update(count=card.count - 1)
    out = io.StringIO()

    # when the ledger is audited with its tallies
    with pytest.raises(CommandError, match="2 problem"):
        call_command("audit_ledger", "--tallies", stdout=out, stderr=out)

    # then each tally is named with its count and the recount
    text = out.getvalue()
    assert (
        f"shift {shift.pk}: category tally {tally.pk} (session {closed_session.pk}, dealer "
        f"{tally.dealer_id}, dealer_hand {tally.category}) counts {tally.count + 1}, "
        f"its settled rounds give {tally.count}"
    ) in text
    assert (
        f"card tally {card.pk} (session {closed_session.pk}, dealer {card.dealer_id}, card "
        f"{card.rank}{card.suit}) counts {card.count - 1}, its settled rounds give {card.count}"
    ) in text


def test_settled_rounds_missing_from_the_integrity_tallies_are_named(closed_session):
    shift = closed_session.shift
    CategoryTally.objects.filter(shift=shift, subject="dealer_hand").delete()
    with pytest.raises(CommandError):
        audit_tallies()
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("audit_ledger", "--shift", str(shift.pk), stdout=out, stderr=out)
    missing = [line for line in out.getvalue().splitlines() if "in no category tally" in line]
    assert missing and all(
        line.startswith(f"shift {shift.pk}: its settled rounds give ") and "dealer_hand" in line
        for line in missing
    )


def _round_without_entries(session, *nets: str) -> None:
    """A settled round whose one box's bets have ``nets`` and which posted nothing."""
    model = session.rounds.filter(status="settled").first()
    round_ = Round.objects.create(
        session=session,
        number=999,
        game=model.game,
        status="settled",
        ruleset=model.ruleset,
        ruleset_version_id=model.ruleset_version_id,
        ruleset_version_number=model.ruleset_version_number,
        dealer=model.dealer,
        created_by=model.created_by,
    )
    box = Box.objects.create(round=round_, position=1, cards="")
    for n, net in enumerate(nets):
        Bet.objects.create(
            box=box,
            bet_type=f"b{n}",
            stake=abs(D(net)) or D(1),
            deposit_required=abs(D(net)) or D(1),
            outcome="win" if D(net) > 0 else "lose",
            gross=D(net),
            commission=D(0),
            net=D(net),
        )


def test_a_box_whose_bets_net_to_zero_posts_nothing_and_is_no_fault(closed_session):
    """Baccarat's player bet won 360 while its tie and pair bets lost 200 and 160: the box
    moved nothing, so the game posted nothing."""
    _round_without_entries(closed_session, "360", "-200", "-160")
    assert "the ledger balances" in audit()


def test_a_box_that_moved_money_without_entries_is_named(closed_session):
    _round_without_entries(closed_session, "360", "-200")
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("audit_ledger", stdout=out, stderr=out)
    assert "settled with results but no ledger entries" in out.getvalue()
