"""The integrity run on tallies of simulated play: a fair period raises no alert, each
manipulation is flagged within the rounds the statistics' power functions state, and an
alert opens an investigation in the fluctuation workflow."""

from __future__ import annotations

import math

import pytest

from casino.floor.services.sessions import session_open
from casino.integrity import statistics as st
from casino.integrity.group_tests import CARD_MINIMUM, run_tests
from casino.integrity.models import FluctuationInvestigation, IntegrityResult
from casino.integrity.runs import integrity_run
from casino.staff.roles import DEALER
from tests.casino.integrity.simulated import Manipulation, deal
from tests.factories import PlayerFactory, niuniu_table, staff

#: Tests in a run of these tables (a table's, its dealer's and its players' together):
#: detection is stated at the Bonferroni level FDR / tests, which Benjamini-Hochberg
#: always reaches.
FDR = 0.05


def open_tables(floor, count):
    sessions = []
    for index in range(count):
        table = floor.table if index == 0 else niuniu_table(floor.venue, code=f"NN{index + 1}")
        dealer = staff(f"integrity-dealer-{index}", DEALER, floor.venue)
        sessions.append(
            session_open(
                table=table,
                counted_by=dealer,
                confirmed_by=floor.supervisor,
                opening_chips={"100000": 50},
            )
        )
    return sessions


def day(floor, sessions):
    date = sessions[0].shift.gaming_date
    return integrity_run(venue=floor.venue, date_from=date, date_to=date)


@pytest.mark.django_db
def test_a_fair_period_raises_no_alert(floor):
    sessions = open_tables(floor, 4)
    members = [PlayerFactory(venue=floor.venue) for _ in range(2)]
    for index, session in enumerate(sessions):
        players = {1: members[0].pk, 2: members[1].pk} if index == 0 else {}
        deal(session, 1200, seed=index, players=players)
    run = day(floor, sessions)
    results = list(IntegrityResult.objects.filter(run=run))
    tested = [r for r in results if r.p_value is not None]
    # Tables, dealers, pits and players: hands, outcomes, cards, net results.
    assert {r.test for r in tested} >= {
        "dealer_hand",
        "box_hand",
        "box_outcome",
        "cards",
        "net_result",
    }
    assert run.tests == len(tested) >= 20
    # Under fair play every null is true: BH then alerts with probability at most the FDR
    # (5%); this seed's period alerts on none.
    assert run.alerts == 0
    assert not FluctuationInvestigation.objects.filter(integrity_result__run=run).exists()
    # A fair period's p-values spread over (0, 1): no more than a fifth below 0.05.
    assert sum(r.p_value < 0.05 for r in tested) <= max(2, len(tested) // 5)


def flagged(run, test, label):
    return IntegrityResult.objects.filter(run=run, test=test, label=label, alert=True).exists()


def count_tests(floor, sessions):
    date = sessions[0].shift.gaming_date
    return sum(o.p_value is not None for o in run_tests(floor.venue.pk, date, date))


@pytest.mark.django_db
def test_a_deck_missing_a_card_is_flagged_within_the_stated_rounds(floor):
    sessions = open_tables(floor, 2)
    # 25 cards a round (four boxes and the dealer); at the Bonferroni level of ~12 tests.
    rounds = max(st.rounds_to_detect_missing_card(25, alpha=FDR / 12), CARD_MINIMUM.rounds)
    assert rounds == 20
    deal(sessions[0], rounds, seed=7, crooked=Manipulation(missing=("AS",)))
    deal(sessions[1], rounds, seed=8)
    assert count_tests(floor, sessions) <= 12
    run = day(floor, sessions)
    assert flagged(run, "cards", sessions[0].table.code)
    cards = IntegrityResult.objects.get(run=run, test="cards", label=sessions[0].table.code)
    assert any(cell["key"].startswith("AS") and cell["observed"] == 0 for cell in cards.cells)
    assert not flagged(run, "cards", sessions[1].table.code)
    # The alert opened an investigation in the fluctuation workflow, with its evidence.
    investigation = FluctuationInvestigation.objects.get(integrity_result=cards)
    assert investigation.status == FluctuationInvestigation.Status.OPEN
    assert investigation.table_id == sessions[0].table_id
    assert investigation.report_id is None and investigation.shift_id is None
    assert cards.evidence["sessions"] == [sessions[0].pk]


@pytest.mark.django_db
def test_a_deck_stacked_with_tens_is_flagged_within_the_stated_rounds(floor):
    sessions = open_tables(floor, 2)
    # The 2s and 3s taken out: 16 ten-valued cards of 44 (36%) instead of 16 of 52 (31%).
    missing = tuple(f"{rank}{suit}" for rank in "23" for suit in "SHDC")
    rounds = st.rounds_to_detect(16 / 52, 16 / 44, alpha=FDR / 12, per_round=25)
    deal(sessions[0], max(rounds, 100), seed=9, crooked=Manipulation(missing=missing))
    deal(sessions[1], max(rounds, 100), seed=10)
    run = day(floor, sessions)
    assert flagged(run, "cards", sessions[0].table.code)
    assert not flagged(run, "cards", sessions[1].table.code)


@pytest.mark.django_db
def test_a_dealer_swapping_for_a_better_hand_is_flagged_within_the_stated_rounds(floor):
    sessions = open_tables(floor, 2)
    # 2% of rounds the dealer takes the best of the five hands dealt: its four boxes then
    # all lose (two of four win a fair round), so a box's win rate falls from 1/2 to 0.49.
    # Boxes of a round play one hand: the rounds are counted with a design effect of 1.6.
    rounds = st.rounds_to_detect(0.5, 0.49, alpha=FDR / 12, per_round=4)
    rounds = math.ceil(rounds * 1.6)
    assert rounds <= 20_000
    deal(sessions[0], rounds, seed=11, crooked=Manipulation(swap_rate=0.02))
    deal(sessions[1], 300, seed=12)
    run = day(floor, sessions)
    code = sessions[0].table.code
    assert flagged(run, "dealer_hand", code) or flagged(run, "box_outcome", code)
    assert not IntegrityResult.objects.filter(
        run=run, label=sessions[1].table.code, alert=True
    ).exists()


@pytest.mark.django_db
def test_a_dealer_paying_a_players_losing_box_is_flagged_within_the_stated_rounds(floor):
    sessions = open_tables(floor, 1)
    member = PlayerFactory(venue=floor.venue)
    # 5% of the member's losing boxes paid as a win: its win rate 1/2 -> 0.525; its net
    # result per unit from -0.025 by 0.025 * 1.95 (a lost stake back and 0.95 won).
    rounds = st.rounds_to_detect(0.5, 0.525, alpha=FDR / 12)
    deal(
        sessions[0],
        rounds,
        seed=13,
        players={1: member.pk},
        crooked=Manipulation(pay_rate=0.05, paid_position=1),
    )
    run = day(floor, sessions)
    number = member.membership_number
    assert flagged(run, "box_outcome", number) or flagged(run, "net_result", number)


@pytest.mark.django_db
def test_a_gaming_day_that_ended_is_tested_once_by_the_sweep(
    floor, celery_eager, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from casino.integrity.models import IntegrityRun
    from casino.integrity.runs import integrity_sweep
    from casino.venues.models import GamingDay

    sessions = open_tables(floor, 1)
    deal(sessions[0], 30, seed=41)
    day = GamingDay.objects.get(venue=floor.venue, gaming_date=sessions[0].shift.gaming_date)
    later = day.ends_at + timedelta(minutes=5)
    with django_capture_on_commit_callbacks(execute=True):
        assert integrity_sweep(now=later) == 1
    (run,) = IntegrityRun.objects.filter(venue=floor.venue)
    assert run.status == IntegrityRun.Status.DONE and run.date_from == day.gaming_date
    assert integrity_sweep(now=later) == 0  # once a day
