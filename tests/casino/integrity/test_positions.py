"""Per-position tests in Niu Niu: a box position dealt the best of the boxes' hands is caught
by its own test, which the table's pooled boxes cannot show (the same hands, in other
places), whoever sits there (the positions that gave up their best hands show too, less
far off); a dealer's scope tests the boxes' hands too."""

from __future__ import annotations

import pytest

from casino.integrity import statistics as st
from casino.integrity.models import IntegrityResult
from tests.casino.integrity.simulated import Manipulation, deal
from tests.casino.integrity.test_runs import FDR, count_tests, day, open_tables

#: The favoured box's win rate against the dealer: the best of four boxes' hands beats the
#: dealer's 79.9% of the time (4,000 deals by the engine), a box's own hand half the time.
BEST_OF_FOUR = 0.799


@pytest.mark.django_db
def test_a_favoured_box_position_is_caught_by_its_own_test(floor):
    sessions = open_tables(floor, 2)
    # One round in five: the position's wins go from 0.5 to 0.56.
    rate, rounds = 0.2, 1500
    favoured = 0.5 + rate * (BEST_OF_FOUR - 0.5)
    deal(sessions[0], rounds, seed=1, crooked=Manipulation(favour_rate=rate))
    deal(sessions[1], rounds, seed=2)
    # The rounds dealt are those the power function gives at the Bonferroni level of the
    # run's tests (about 40, the positions' own included), which Benjamini-Hochberg reaches.
    tests = count_tests(floor, sessions)
    assert 1300 <= st.rounds_to_detect(0.5, favoured, alpha=FDR / tests) <= rounds
    run = day(floor, sessions)
    table = sessions[0].table.code
    seat = IntegrityResult.objects.get(run=run, label=table, test="box_outcome", position=2)
    assert seat.alert and seat.rounds == rounds
    # The table's pooled boxes show nothing: the same hands were dealt, in other places.
    pooled = IntegrityResult.objects.get(run=run, label=table, test="box_outcome", position=None)
    assert not pooled.alert
    # The other positions gave up their best hands: they won less, and less far off.
    others = IntegrityResult.objects.filter(
        run=run, label=table, test="box_outcome", position__in=[1, 3, 4]
    )
    assert len(others) == 3
    for other in others:
        wins = next(cell for cell in other.cells if cell["key"] == "win")
        assert wins["observed"] < wins["expected"]
        assert other.p_value > seat.p_value
    # The dealer's scope tests the boxes' hands, and every position has its hands tested.
    assert IntegrityResult.objects.filter(
        run=run, scope="dealer", test="box_hand", p_value__isnull=False
    ).exists()
    assert set(
        IntegrityResult.objects.filter(run=run, label=table, test="box_hand")
        .exclude(position=None)
        .values_list("position", flat=True)
    ) == {1, 2, 3, 4}
