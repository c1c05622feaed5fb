"""The false discovery rate's family is the subject (a table with its positions, a dealer, a
player, a pit): a fair table is not admitted because another table is a discovery, a lone
alert needs what one procedure over the run asked, and a run asked for again over the same
dates gives the same results and opens no second investigation."""

from __future__ import annotations

import pytest

from casino.integrity import investigation_steps as steps
from casino.integrity import statistics as st
from casino.integrity.groups import Group, Outcome, Scope
from casino.integrity.models import FluctuationInvestigation, IntegrityResult
from casino.integrity.runs import FDR, _discoveries
from casino.staff.roles import MANAGER
from tests.casino.integrity.simulated import Manipulation, deal
from tests.casino.integrity.test_runs import day, open_tables
from tests.factories import staff


def outcomes(scope: str, key: int, p_values: list[float]) -> list[Outcome]:
    group = Group(scope, key, "niuniu")
    return [Outcome(group, f"test{i}", 100, [], p_value=p) for i, p in enumerate(p_values)]


FAIR = [0.3, 0.5, 0.7, 0.9]


def test_a_fair_table_is_not_admitted_because_another_table_is_a_discovery():
    # Twenty tests: a crooked table (a card missing), a fair table whose smallest p is
    # between FDR / 20 and 2 FDR / 20, and three other fair subjects.
    real = outcomes(Scope.TABLE, 1, [1e-12, *FAIR])
    fair = outcomes(Scope.TABLE, 2, [0.0035, *FAIR])
    rest = [o for key in (3, 4) for o in outcomes(Scope.DEALER, key, [0.2, *FAIR])]
    run = real + fair + rest
    assert len(run) == 20
    # One procedure over the run would admit the fair table: its rank 2 bar is 2 x 0.0025.
    one = st.benjamini_hochberg([o.p_value for o in run], q=FDR)
    assert one.discoveries[: len(real) + 1] == (True, False, False, False, False, True)
    found = _discoveries(run, FDR)
    assert found[id(real[0])][1] is True
    assert not any(found[id(o)][1] for o in fair + rest)
    # Its q-value: its family's Benjamini-Hochberg q times 20 / 5.
    assert found[id(fair[0])][0] == pytest.approx(0.0035 * 5 * 4)


def test_a_lone_alert_needs_the_runs_bonferroni_bar_whatever_its_family():
    lone = outcomes(Scope.TABLE, 1, [0.0024, *FAIR])
    run = lone + [o for key in (2, 3, 4) for o in outcomes(Scope.PLAYER, key, [0.4, *FAIR])]
    assert _discoveries(run, FDR)[id(lone[0])][1] is True  # 0.0024 <= 0.05 / 20
    lone[0].p_value = 0.0026
    assert _discoveries(run, FDR)[id(lone[0])][1] is False


@pytest.mark.django_db
def test_a_run_over_the_same_dates_again_gives_the_same_results_and_no_second_investigation(
    floor,
):
    sessions = open_tables(floor, 2)
    deal(sessions[0], 40, seed=7, crooked=Manipulation(missing=("AS",)))
    deal(sessions[1], 40, seed=8)
    first, again = day(floor, sessions), day(floor, sessions)

    def results(run):
        return sorted(
            IntegrityResult.objects.filter(run=run).values_list(
                "scope", "label", "position", "test", "p_value", "q_value", "alert"
            ),
            key=str,
        )

    assert results(first) == results(again)
    assert (first.tests, first.alerts) == (again.tests, again.alerts) and first.alerts >= 1
    opened = FluctuationInvestigation.objects.filter(integrity_result__run__in=[first, again])
    assert opened.count() == first.alerts
    assert set(opened.values_list("integrity_result__run", flat=True)) == {first.pk}


@pytest.mark.django_db
def test_a_finding_whose_investigation_closed_opens_again_and_the_run_reads_them_once(floor):
    """An alert followed by an investigation not closed opens none; once that one is
    closed, the same finding found again opens a new one. The venue's open investigations
    are read once a run, however many alerts it has."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    sessions = open_tables(floor, 3)
    for index, session in enumerate(sessions):
        deal(session, 40, seed=10 + index, crooked=Manipulation(missing=("AS",)))
    with CaptureQueriesContext(connection) as queries:
        first = day(floor, sessions)
    assert first.alerts >= 3
    reads = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith("SELECT")
        and "casino_fluctuationinvestigation" in q["sql"]
        and "casino_integrityrun" in q["sql"]
    ]
    assert len(reads) == 1, reads
    opened = FluctuationInvestigation.objects.filter(integrity_result__run=first)
    assert opened.count() == first.alerts
    closed = opened.first()
    writer, signer = (staff(f"integrity-manager-{n}", MANAGER, floor.venue) for n in (1, 2))
    steps.investigation_findings(investigation=closed, user=writer, findings="Shuffler fault.")
    steps.investigation_sign_off(investigation=closed, user=signer)
    steps.investigation_close(investigation=closed, user=signer, outcome="variance")
    again = day(floor, sessions)
    reopened = FluctuationInvestigation.objects.filter(integrity_result__run=again)
    assert reopened.count() == 1
    finding = ("scope", "test", "table_id", "dealer_id", "player_id", "pit_id", "position")
    assert [getattr(reopened.get().integrity_result, name) for name in finding] == [
        getattr(closed.integrity_result, name) for name in finding
    ]
