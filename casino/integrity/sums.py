"""The integrity tests of a sum against its mean: the boxes' wins at a table by round, a
player's or a seat's scoops given against taken, the bets on each side of a deal. Each
returns an :class:`~casino.integrity.groups.Outcome` of its group
(casino.integrity.group_tests calls them)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from casino.integrity import statistics as st
from casino.integrity.groups import MINIMUM, Z95, Group, Outcome


def round_outcome(
    group: Group,
    subject: str,
    observed: dict[str, int],
    mixed: dict[str, Any],
    cells: list[dict],
) -> Outcome:
    """The boxes' wins at a table or by a dealer, by round: the boxes of a round play one
    dealer's hand and win or lose together, so the variance of their wins is estimated
    from the rounds (``round_outcome``: won/decided per round; a sandwich estimate around
    the fair rate), not taken as binomial."""
    win, lose = float(mixed.get("win", 0)), float(mixed.get("lose", 0))
    p_win = win / (win + lose) if win + lose else 0.5
    wins = decided = 0
    variance = 0.0
    rounds = 0
    for (_version, category), n in group.categories["round_outcome"].items():
        won, boxes = (int(part) for part in category.split("/"))
        wins += won * n
        decided += boxes * n
        variance += n * (won - boxes * p_win) ** 2
        rounds += n
    if rounds < MINIMUM.rounds or variance <= 0:
        return Outcome(
            group, subject, decided, cells, note=f"{rounds} rounds, {MINIMUM.rounds} needed"
        )
    z = st.z_test(wins, decided * p_win, variance)
    return Outcome(group, subject, decided, cells, "z by round", z.z, z.p_value)


def bet_outcome(
    group: Group,
    subject: str,
    counts: dict[tuple[int, str], int],
    figures: Callable[[str, int], dict[str, Any]],
) -> Outcome:
    """Bets on a side of a deal nobody sees before it is dealt (a game's two sides,
    ``"<side>/<outcome>"``): how often they won of those decided, against each
    side's exact share of the deals that decide it (``bet_outcome`` of the versions the
    bets were placed under). The wins of all sides are tested together by a z-test of their
    sum, each decided bet a trial of its side's share (a box backs a side once a round)."""
    wins: dict[str, int] = defaultdict(int)
    means: dict[str, float] = defaultdict(float)
    variances: dict[str, float] = defaultdict(float)
    decided = 0
    for (version, category), n in counts.items():
        side, _slash, outcome = category.partition("/")
        share = float((figures(group.game, version).get(subject) or {}).get(side, 0))
        if outcome not in ("win", "lose") or not 0 < share < 1:
            continue
        decided += n
        wins[side] += n if outcome == "win" else 0
        means[side] += n * share
        variances[side] += n * share * (1 - share)
    cells = []
    for side in sorted(means):
        half = Z95 * math.sqrt(variances[side])
        low, high = max(0.0, means[side] - half), means[side] + half
        seen = wins[side]
        cells.append(
            {
                "key": side,
                "observed": seen,
                "expected": means[side],
                "low": low,
                "high": high,
                "outside": not low <= seen <= high,
            }
        )
    variance = sum(variances.values())
    if decided < MINIMUM.rounds or variance <= 0:
        return Outcome(
            group, subject, decided, cells, note=f"{decided} boxes, {MINIMUM.rounds} needed"
        )
    z = st.z_test(sum(wins.values()), sum(means.values()), variance)
    return Outcome(group, subject, decided, cells, "z", z.z, z.p_value)


def scoop_balance(group: Group, subject: str, counts: dict[tuple[int, str], int]) -> Outcome:
    """A player's or a seat's scoops by the cards, given against taken (``"<given>/<taken>"``
    per seat and round). Dealt fairly the two have the same mean, whatever the ruleset and the
    players' skill, so their difference is tested against 0 with its variance estimated
    from the rounds (a seat's scoops in one round go together)."""
    given = taken = rounds = 0
    variance = 0.0
    for (_version, category), n in counts.items():
        mine, theirs = (int(part) for part in category.split("/"))
        given += mine * n
        taken += theirs * n
        variance += n * (mine - theirs) ** 2
        rounds += n
    decided = given + taken
    # Each is half the scoops, give or take half the difference: its band is the test's.
    half = Z95 * math.sqrt(variance) / 2
    cells = [
        {
            "key": key,
            "observed": seen,
            "expected": decided / 2,
            "low": max(0.0, decided / 2 - half),
            "high": decided / 2 + half,
            "outside": abs(seen - decided / 2) > half,
        }
        for key, seen in (("given", given), ("taken", taken))
    ]
    if rounds < MINIMUM.rounds or variance <= 0:
        return Outcome(
            group, subject, rounds, cells, note=f"{rounds} rounds, {MINIMUM.rounds} needed"
        )
    z = st.z_test(given - taken, 0, variance)
    return Outcome(group, subject, rounds, cells, "z by round", z.z, z.p_value)
