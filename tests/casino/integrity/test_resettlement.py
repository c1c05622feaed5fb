"""Every settled round settled again from its record: an untouched round gives nothing, a
bet whose stored result was altered after settlement is named (round, bet, amounts) by the
service, the integrity run (an alert with no p-value, its investigation, the page) and
``audit_ledger``; a Mau Binh seat's declaration is read back from its record."""

from __future__ import annotations

import io
import threading
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from casino import games
from casino.floor.models import Bet, RoundStatus
from casino.floor.services.rounds import round_create_written
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle_written
from casino.games import BoxInput
from casino.integrity import resettlement
from casino.integrity.deals import DealWatch
from casino.integrity.models import FluctuationInvestigation, IntegrityResult
from casino.integrity.resettlement import resettle
from casino.integrity.runs import integrity_run
from casino.ledger.models import LedgerEntry
from casino.simulation import play
from tests.factories import niuniu_table

pytestmark = pytest.mark.django_db

ROUNDS = 6


@pytest.fixture
def played(floor):
    """Six Niu Niu rounds dealt and settled through the services."""
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    play(session=session, rounds=ROUNDS, dealer=floor.dealer, seed=3)
    return session


def tamper(session):
    """A losing (or winning) bet of the session's third round made to pay the other way,
    as a raw UPDATE after settlement: the stored outcome and net change, nothing else."""
    round_ = session.rounds.filter(status=RoundStatus.SETTLED).order_by("number")[2]
    bet = Bet.objects.filter(box__round=round_).exclude(net=0).order_by("pk").first()
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE casino_bet SET net = -net, outcome = %s WHERE id = %s",
            ["win" if bet.net < 0 else "lose", bet.pk],
        )
    return round_, bet


def test_untouched_rounds_settle_again_to_what_they_recorded(floor, played):
    tables = resettle(venue_id=floor.venue.pk)
    assert list(tables) == [floor.table.pk]
    table = tables[floor.table.pk]
    assert table.rounds == ROUNDS and table.sessions == {played.pk}
    assert table.differences == [] and table.rounds_differing == 0


def test_a_result_altered_after_settlement_is_named_with_its_round_bet_and_amounts(floor, played):
    round_, bet = tamper(played)
    table = resettle(venue_id=floor.venue.pk)[floor.table.pk]
    assert table.rounds_differing == 1
    found = {d.field: d for d in table.differences}
    assert set(found) == {"outcome", "net"}
    net = found["net"]
    assert (net.round_id, net.number, net.table) == (round_.pk, round_.number, floor.table.code)
    assert (net.position, net.bet_type) == (bet.box.position, bet.bet_type)
    assert Decimal(net.recorded) == -bet.net and Decimal(net.resettled) == bet.net
    assert found["outcome"].resettled == bet.outcome


def test_a_ledger_entry_altered_after_settlement_is_named_with_its_box_and_sums(floor, played):
    """An entry's amount changed by a raw UPDATE (past the append-only trigger, as only the
    database's owner can): its round differs in that account and kind only (its bets are as
    recorded), the box's sums recorded and settled again named."""
    round_ = played.rounds.filter(status=RoundStatus.SETTLED).order_by("number")[3]
    entry = LedgerEntry.objects.filter(round=round_, box__isnull=False).order_by("pk").first()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")  # no triggers
        cursor.execute(
            "UPDATE casino_ledgerentry SET amount = amount + 1 WHERE id = %s", [entry.pk]
        )
        cursor.execute("SET LOCAL session_replication_role = DEFAULT")
    table = resettle(venue_id=floor.venue.pk, workers=1)[floor.table.pk]
    assert table.rounds_differing == 1
    (found,) = table.differences
    assert found.field == f"ledger:{entry.account}:{entry.kind}"
    assert (found.round_id, found.position, found.bet_type) == (round_.pk, entry.box.position, "")
    assert Decimal(found.recorded) == Decimal(found.resettled) + 1 == entry.amount + 1


def test_ledger_entries_appended_to_a_settled_round_are_named(floor, played):
    """A balanced pair of entries added to a settled round (the ledger takes appends): the
    round differs in the sums of both accounts for that kind and box."""
    round_ = played.rounds.filter(status=RoundStatus.SETTLED).order_by("number")[1]
    entry = LedgerEntry.objects.filter(round=round_, box__isnull=False).order_by("pk").last()
    added = []
    for account, amount in (("player", Decimal(5)), ("house", Decimal(-5))):
        copy = LedgerEntry.objects.get(pk=entry.pk)
        copy.pk, copy.account, copy.amount = None, account, amount
        added.append(copy)
    LedgerEntry.objects.bulk_create(added)  # one statement: the round still sums to zero
    table = resettle(venue_id=floor.venue.pk, workers=1)[floor.table.pk]
    assert table.rounds_differing == 1
    found = {d.field: d for d in table.differences}
    assert set(found) == {f"ledger:player:{entry.kind}", f"ledger:house:{entry.kind}"}
    player = found[f"ledger:player:{entry.kind}"]
    assert player.round_id == round_.pk and player.position == entry.box.position
    assert Decimal(player.recorded) - Decimal(player.resettled) == 5


def test_the_run_alerts_with_certainty_and_opens_an_investigation(client, floor, played):
    date = played.shift.gaming_date
    clean = integrity_run(venue=floor.venue, date_from=date, date_to=date)
    result = IntegrityResult.objects.get(run=clean, test="resettlement")
    assert not result.alert and result.rounds == ROUNDS and result.certain
    assert result.p_value is None  # certain: never part of the false discovery rate

    round_, _ = tamper(played)
    run = integrity_run(venue=floor.venue, date_from=date, date_to=date)
    result = IntegrityResult.objects.get(run=run, test="resettlement")
    assert result.alert and result.p_value is None and result.q_value is None
    assert result.table_id == floor.table.pk
    assert result.evidence["rounds_differing"] == 1
    assert {d["round"] for d in result.evidence["differences"]} == {round_.pk}
    investigation = FluctuationInvestigation.objects.get(integrity_result=result)

    client.force_login(floor.manager)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("reports:integrity"), {"venue": floor.venue.code})
    text = page.content.decode()
    assert "Rounds settled again from their record" in text and "differs" in text
    assert f"investigation #{investigation.pk}" in text
    detail = client.get(reverse("reports:investigation", args=[investigation.pk])).content
    assert f"{floor.table.code} #{round_.number}".encode() in detail
    assert b"Recorded against settled again from the record" in detail


def test_audit_ledger_names_the_altered_round(floor, played):
    out = io.StringIO()
    call_command("audit_ledger", "--resettle", stdout=out, stderr=out)
    assert "the ledger balances" in out.getvalue()
    round_, _ = tamper(played)
    with pytest.raises(CommandError, match="problem"):
        call_command("audit_ledger", "--resettle", stdout=out, stderr=out)
    assert f"round {round_.pk} (number {round_.number} at {floor.table.code}" in out.getvalue()


def test_a_mau_binh_declaration_is_read_back_from_the_record(floor, settings):
    from tests.maubinh.conftest import TEST_DEALS, maubinh_table
    from tests.maubinh.test_rounds import SIX_PAIRS_60, WEAK

    settings.MAUBINH_HOUSE_TAKE_DEALS = TEST_DEALS
    table = maubinh_table(floor.venue, code="MB-OPT", readings={"declaring": "optional"})
    session = session_open(
        table=table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    stake = {"stake": Decimal("10000")}
    for number, declared in enumerate((False, True)):
        dealt = round_create_written(
            session=session,
            user=floor.dealer,
            dealer_cards="",
            boxes=[
                BoxInput(position=1, cards=SIX_PAIRS_60, stakes=stake, declared=declared),
                BoxInput(position=2, cards=WEAK, stakes=stake),
            ],
        )
        round_settle_written(round_=dealt.round, user=floor.dealer, key=f"mb-{number}", dealt=dealt)
    adapter = games.get("maubinh")
    evaluations = [box.evaluation for box in session.rounds.get(number=1).boxes.order_by("pk")]
    assert adapter.declared_of(evaluations[0]) is False and adapter.declared_of({}) is None
    table_resettled = resettle(venue_id=floor.venue.pk)[table.pk]
    # Undeclared (its rows play: 60 chi) and declared (18 chi) both settle as recorded.
    assert table_resettled.rounds == 2 and table_resettled.differences == []


def test_inside_a_transaction_the_tables_are_settled_again_in_this_process(
    floor, played, monkeypatch
):
    """A test's rows are its transaction's: no worker could see them, so none is forked."""
    monkeypatch.setattr(resettlement, "PARALLEL_FROM", 0)
    monkeypatch.setattr(resettlement, "_in_workers", None)  # would fail if called
    assert resettle(venue_id=floor.venue.pk, workers=2)[floor.table.pk].rounds == ROUNDS


def outcome_figures(deals):
    return [
        (o.group.key, o.test, o.n, o.p_value, o.cells, sorted(o.group.sessions))
        for o in deals.outcomes()
    ]


@pytest.mark.django_db(transaction=True)
def test_worker_processes_give_what_one_process_gives(floor, monkeypatch):
    """Three tables split between two forked workers, which read the same (test) database:
    the same tables in the same order, the same differences and the same deals' figures."""
    monkeypatch.setattr(resettlement, "PARALLEL_FROM", 0)
    tables = [
        floor.table,
        niuniu_table(floor.venue, code="NN2"),
        niuniu_table(floor.venue, code="NN3"),
    ]
    for seed, (table, rounds) in enumerate(zip(tables, (5, 3, 4), strict=True)):
        session = session_open(
            table=table,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            opening_chips={"100000": 50},
        )
        play(session=session, rounds=rounds, dealer=floor.dealer, seed=seed)
        if table.code == "NN2":
            round_, bet = tamper(session)
    forked = []
    in_workers = resettlement._in_workers
    monkeypatch.setattr(
        resettlement, "_in_workers", lambda *args: forked.append(args[2]) or in_workers(*args)
    )
    read_ahead = []
    ahead = resettlement._read_ahead
    monkeypatch.setattr(
        resettlement,
        "_read_ahead",
        lambda *args, after: read_ahead.append(args[1]) or ahead(*args, after=after),
    )

    def resettled_with(workers):
        deals = DealWatch()
        # chunks of 2 rounds: the read-ahead thread hands several over
        resettled = resettle(venue_id=floor.venue.pk, workers=workers, deals=deals, chunk=2)
        return (
            [
                (t.table_id, t.rounds, t.sessions, t.rounds_differing, t.differences)
                for t in resettled.values()
            ],
            outcome_figures(deals),
        )

    found = {workers: resettled_with(workers) for workers in (1, 2)}
    assert forked == [2]  # the second pass only, with two workers
    # the first pass read ahead after its first chunk; the workers of the second read none
    assert read_ahead == [2]
    assert found[2] == found[1]
    monkeypatch.setattr(resettlement, "_may_read_ahead", lambda alias: False)
    assert resettled_with(1) == found[1]  # each chunk read on the pass's own thread: the same
    assert read_ahead == [2]
    assert [row[0] for row in found[2][0]] == [table.pk for table in tables]
    (differing,) = [row for row in found[2][0] if row[3]]
    assert differing[0] == tables[1].pk
    assert {d.round_id for d in differing[4]} == {round_.pk}
    assert {(d.position, d.bet_type) for d in differing[4]} == {(bet.box.position, bet.bet_type)}


@pytest.mark.django_db(transaction=True)
def test_a_read_ahead_that_fails_fails_the_pass_and_its_thread_ends(floor, played, monkeypatch):
    """The reading thread's error is raised where the rounds are settled again; the thread
    is gone after."""
    read = resettlement._read
    calls = []

    def failing(*args, **kwargs):
        calls.append(args[1])
        if len(calls) > 3:  # the second chunk's boxes
            raise RuntimeError("the connection broke")
        return read(*args, **kwargs)

    monkeypatch.setattr(resettlement, "_read", failing)
    with pytest.raises(RuntimeError, match="the connection broke"):
        resettle(venue_id=floor.venue.pk, workers=1, chunk=2)
    assert not [t for t in threading.enumerate() if t.name == "resettle-read"]
