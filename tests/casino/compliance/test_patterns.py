"""The patterns searched for in the cash log (casino.compliance.patterns), on hand-made
movements.

Structuring, with Vietnam's threshold of 400,000,000 (just under: 320,000,000 to
399,999,999; three within 36 hours make a finding):

    A  in  390,000,000  day 1 10:00 |
    A  in  380,000,000  day 1 22:00 |  three within 22 hours: a finding, total 1,165,000,000
    A  in  395,000,000  day 2 08:00 |
    A  out 390,000,000  day 2 09:00    the other direction: not part of it
    B  in  390,000,000  day 1 10:00 |  a near miss: the third comes 48 hours after the
    B  in  385,000,000  day 1 20:00 |  first, and 38 after the second; no 36 hours hold
    B  in  390,000,000  day 3 10:00 |  three
    C  in  300,000,000  x 4, day 1     below 320,000,000: not just under
    D  in  400,000,000  x 3, day 1     at the threshold: reported anyway, not structuring

Little play (cash in at least 50,000,000; out at least 90% of it; played under 20% of it):

    E  in 100,000,000, out 95,000,000, played 10,000,000: a finding
    F  in 100,000,000, out 95,000,000, played 30,000,000: played enough
    G  in 100,000,000, out 50,000,000, played 0: took most of it home as chips or lost it
    H  in  40,000,000, out 40,000,000, played 0: under the least cash
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal as D

from casino.compliance.patterns import Movement, little_play, structuring

M = D("1000000")
DAY1 = datetime(2026, 12, 1, 0, 0, tzinfo=UTC)


def _at(day: int, hour: int) -> datetime:
    return DAY1 + timedelta(days=day - 1, hours=hour)


def _m(person, day, hour, amount, direction="in"):
    return Movement(person, _at(day, hour), direction, amount, f"{person}-{day}-{hour}")


def test_structuring_is_found_and_the_near_misses_are_not():
    movements = [
        _m("A", 1, 10, 390 * M),
        _m("A", 1, 22, 380 * M),
        _m("A", 2, 8, 395 * M),
        _m("A", 2, 9, 390 * M, "out"),
        _m("B", 1, 10, 390 * M),
        _m("B", 1, 20, 385 * M),
        _m("B", 3, 10, 390 * M),
        *[_m("C", 1, hour, 300 * M) for hour in (1, 2, 3, 4)],
        *[_m("D", 1, hour, 400 * M) for hour in (1, 2, 3)],
    ]
    (found,) = structuring(movements, threshold=400 * M)
    assert (found.kind, found.person, found.figures["direction"]) == ("structuring", "A", "in")
    assert (found.figures["count"], found.figures["total"]) == (3, 1165 * M)
    assert [m.reference for m in found.movements] == ["A-1-10", "A-1-22", "A-2-8"]
    assert found.key == f"structuring:A:{_at(1, 10).isoformat()}"
    # run again over the same movements: the same finding, the same key
    assert [f.key for f in structuring(movements, threshold=400 * M)] == [found.key]


def test_a_long_run_is_one_finding_and_a_wider_window_catches_the_near_miss():
    run = [_m("A", 1, hour, 350 * M) for hour in range(0, 12, 2)]  # six in ten hours
    (found,) = structuring(run, threshold=400 * M)
    assert found.figures["count"] == 6
    near_miss = [_m("B", 1, 10, 390 * M), _m("B", 1, 20, 385 * M), _m("B", 3, 10, 390 * M)]
    assert structuring(near_miss, threshold=400 * M) == []
    assert len(structuring(near_miss, threshold=400 * M, window=timedelta(hours=48))) == 1


def test_chips_bought_and_cashed_in_with_little_play():
    day = [
        _m("E", 1, 10, 100 * M),
        _m("E", 1, 11, 95 * M, "out"),
        _m("F", 1, 10, 100 * M),
        _m("F", 1, 11, 95 * M, "out"),
        _m("G", 1, 10, 100 * M),
        _m("G", 1, 11, 50 * M, "out"),
        _m("H", 1, 10, 40 * M),
        _m("H", 1, 11, 40 * M, "out"),
    ]
    played = {"E": 10 * M, "F": 30 * M}
    (found,) = little_play(day, played, least_cash=50 * M)
    assert (found.kind, found.person) == ("little_play", "E")
    assert (found.figures["cash_in"], found.figures["cash_out"], found.figures["played"]) == (
        100 * M,
        95 * M,
        10 * M,
    )
