"""The integrity run's tests: each group (casino.integrity.groups) against what the rules
of the ruleset versions its rounds were dealt under give (the game's ``integrity_expected``,
mixed by each version's share of the group's observations). No writes: the run
(casino.integrity.runs) stores what these return.

* ``dealer_hand`` / ``box_hand`` / ``instant_win``: the categories dealt (chi-square with
  pooling, exact multinomial on a small sample; an impossible category alerts on any);
* ``box_outcome``: the boxes' wins against the dealer (binomial);
* ``scoop_balance``: where players play each other, what a player's cards take from the
  others' against what theirs take from it (a seat's scoops given and taken): equal means
  under a fair deal, tested by round;
* ``cards``: ranks, suits and the rarest and commonest card against a fair shuffle;
* ``net_result``: a rated player's net result against its exact mean and SD given the bets
  placed (the version's house edge and SD per unit, as the fluctuation flag reads them).

A test with too small a sample says so in its note and has no p-value.
"""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import date
from fractions import Fraction
from typing import Any

from django.db.models import Sum

from casino import games
from casino.floor.models import BetTally
from casino.integrity import statistics as st
from casino.integrity.cards import NAMED_AT, CardFrequencyResult, card_frequency_test
from casino.integrity.groups import (
    MINIMUM,
    SEAT_SUBJECTS,
    SUBJECTS,
    Z95,
    Group,
    Outcome,
    Scope,
    read_groups,
)
from casino.integrity.sums import bet_outcome, round_outcome, scoop_balance
from casino.rulesets.rates import rates_of

#: Rounds the card test needs (its missing-card part is exact on any sample).
CARD_MINIMUM = st.MinimumSample(rounds=20)
#: Bets a player's net result needs.
NET_MINIMUM = 200
#: Above this many boxes a win rate's test is the normal approximation (with continuity
#: correction; the exact sum over every count costs more than the rest of a run).
BINOMIAL_EXACT_MAX = 1000


def run_tests(venue_id: int, date_from: date, date_to: date) -> list[Outcome]:
    """Every test of the venue's period (no writes): what the run stores."""
    groups = read_groups(venue_id, date_from, date_to)
    expected = _Expected()
    outcomes: list[Outcome] = []
    for group in groups.values():
        adapter = _adapter(group.game)
        if adapter is None or not adapter.integrity_tested:
            continue
        for subject in SUBJECTS[group.scope]:
            counts = group.categories.get(subject)
            if not counts:
                continue
            if subject in SEAT_SUBJECTS:
                outcomes += _per_seat(group, SEAT_SUBJECTS[subject], counts, expected)
                continue
            outcome = _test(group, subject, counts, expected)
            if outcome is not None:
                outcomes.append(outcome)
        if group.scope in (Scope.TABLE, Scope.DEALER) and group.cards:
            outcomes.append(_cards(group, expected))
    outcomes += _net_results(venue_id, date_from, date_to)
    return outcomes


def _adapter(game: str) -> Any:
    try:
        return games.get(game)
    except LookupError:
        return None


class _Expected:
    """The game's expected figures per ruleset version, read once per run."""

    def __init__(self) -> None:
        self._figures: dict[tuple[str, int], Any] = {}
        self._decks: dict[tuple[str, int], int] = {}

    def _rules(self, game: str, version_id: int) -> Any:
        adapter = games.get(game)
        version = adapter.version_model.objects.get(pk=version_id)
        return adapter, adapter.snapshot(version)

    def figures(self, game: str, version_id: int) -> dict[str, dict[str, Any]]:
        key = (game, version_id)
        if key not in self._figures:
            adapter, rules = self._rules(game, version_id)
            self._figures[key] = adapter.integrity_expected(rules) or {}
            self._decks[key] = adapter.integrity_decks(rules)
        return self._figures[key]

    def decks(self, game: str, version_id: int) -> int:
        self.figures(game, version_id)
        return self._decks[(game, version_id)]


def _category(
    group: Group,
    subject: str,
    counts: dict[tuple[int, str], int],
    expected: _Expected,
    *,
    by_round: bool = True,
) -> Outcome | None:
    """Categories of one subject against the versions' probabilities, mixed by the share of
    the group's observations each version dealt (``by_round``: the boxes' wins tested by
    round where the group counted them so; one position's are one box a round)."""
    observed: dict[str, int] = defaultdict(int)
    per_version: dict[int, int] = defaultdict(int)
    for (version, category), n in counts.items():
        observed[category] += n
        per_version[version] += n
    total = sum(observed.values())
    mixed: dict[str, Any]
    if len(per_version) == 1:  # one version: its own figures, exact as the game gave them
        (version,) = per_version
        mixed = dict(expected.figures(group.game, version).get(subject) or {})
        if not mixed:
            return None
    else:  # each version's figures weighted by its share of the observations
        mixed = defaultdict(float)
        for version, n in per_version.items():
            probabilities = expected.figures(group.game, version).get(subject)
            if not probabilities:
                return None
            for category, p in probabilities.items():
                mixed[category] += float(p) * n / total
    for category in observed:
        mixed.setdefault(category, 0)
    cells = _cells(observed, mixed, total)
    if subject == "box_outcome" and by_round and group.categories.get("round_outcome"):
        return round_outcome(group, subject, observed, mixed, cells)
    if subject == "box_outcome":
        wins = observed.get("win", 0)
        decided = wins + observed.get("lose", 0)
        win, lose = float(mixed.get("win", 0)), float(mixed.get("lose", 0))
        p_win = win / (win + lose) if win + lose else 0.5
        if decided < MINIMUM.rounds:
            return Outcome(
                group, subject, decided, cells, note=f"{decided} boxes, {MINIMUM.rounds} needed"
            )
        result = st.binomial_test(wins, decided, p_win, exact_max=BINOMIAL_EXACT_MAX)
        return Outcome(
            group, subject, decided, cells, result.method, result.observed_rate, result.p_value
        )
    result = st.category_test(observed, mixed, minimum=MINIMUM)
    if isinstance(result, st.NotEnoughData):
        return Outcome(group, subject, total, cells, note=result.reason)
    statistic = getattr(result, "statistic", None)
    method = getattr(result, "method", "chi-square")
    return Outcome(group, subject, total, cells, method, statistic, result.p_value)


def _test(
    group: Group,
    subject: str,
    counts: dict[tuple[int, str], int],
    expected: _Expected,
    *,
    by_round: bool = True,
) -> Outcome | None:
    if subject == "scoop_balance":
        return scoop_balance(group, subject, counts)
    if subject == "bet_outcome":
        return bet_outcome(group, subject, counts, expected.figures)
    return _category(group, subject, counts, expected, by_round=by_round)


def _per_seat(
    group: Group, subject: str, counts: dict[tuple[int, str], int], expected: _Expected
) -> list[Outcome]:
    """One test of ``subject`` per seat of the table (a dealer favouring a seat, whoever
    sits in it, rated or not)."""
    seats: dict[int, dict[tuple[int, str], int]] = defaultdict(dict)
    for (version, category), n in counts.items():
        seat, _colon, rest = category.partition(":")
        seats[int(seat)][(version, rest)] = n
    outcomes = []
    for seat in sorted(seats):
        outcome = _test(group, subject, seats[seat], expected, by_round=False)
        if outcome is not None:
            outcome.position = seat
            outcomes.append(outcome)
    return outcomes


def _cells(observed: dict[str, int], probabilities: dict[str, Any], n: int) -> list[dict]:
    cells = []
    for key, p in probabilities.items():
        share = float(p)
        expected = n * share
        half = Z95 * math.sqrt(n * share * (1 - share))
        band = st.Band(expected, max(0.0, expected - half), min(float(n), expected + half))
        seen = observed.get(key, 0)
        cells.append(
            {
                "key": key,
                "observed": seen,
                "expected": band.expected,
                "low": band.low,
                "high": band.high,
                "outside": not band.low <= seen <= band.high,
            }
        )
    return cells


def _cards(group: Group, expected: _Expected) -> Outcome:
    """The cards dealt at a table or by a dealer against a fair shuffle."""
    cards_per_round = dict(group.dealt)
    decks = 1
    versions = {v for counts in group.categories.values() for v, _c in counts}
    if versions:
        decks = max(expected.decks(group.game, v) for v in versions)
    total = sum(group.cards.values())
    ranks: dict[str, int] = defaultdict(int)
    for card, n in group.cards.items():
        ranks[card[0]] += n
    share = Fraction(1, 13)
    cells = _cells(ranks, {rank: share for rank in "23456789TJQKA"}, total)
    if total != sum(m * r for m, r in cards_per_round.items()):
        return Outcome(group, "cards", total, cells, note="cards and rounds counted disagree")
    result = card_frequency_test(
        dict(group.cards), cards_per_round=cards_per_round, decks=decks, minimum=CARD_MINIMUM
    )
    if isinstance(result, st.NotEnoughData):
        return Outcome(group, "cards", total, cells, note=result.reason)
    _named_ranks(cells, result)
    rarest, low, mean = result.rarest
    commonest, high, _mean = result.commonest
    named = {d.key for d in result.cards_out}
    # Every card outside the band a fair shoe keeps all 52 cards in, 95% of the time.
    band = st.normal_quantile(1 - NAMED_AT / (2 * 52))
    for d in result.cards_out:
        cells.append(
            {
                "key": f"{d.key} ({'too few' if d.low else 'too many'})",
                "observed": d.observed,
                "expected": d.expected,
                "low": max(0.0, d.expected - band * d.sd),
                "high": d.expected + band * d.sd,
                "outside": True,
            }
        )
    if str(rarest) not in named:
        cells.append(
            {
                "key": f"{rarest} (rarest)",
                "observed": low,
                "expected": mean,
                "low": mean - 1.96 * math.sqrt(mean),
                "high": mean + 1.96 * math.sqrt(mean),
                "outside": result.missing_card_p < 0.05,
            }
        )
    if str(commonest) not in named:
        cells.append(
            {
                "key": f"{commonest} (commonest)",
                "observed": high,
                "expected": mean,
                "low": mean - 1.96 * math.sqrt(mean),
                "high": mean + 1.96 * math.sqrt(mean),
                "outside": result.extra_card_p < 0.05,
            }
        )
    return Outcome(
        group, "cards", total, cells, "ranks, suits, cards", result.ranks.statistic, result.p_value
    )


def _named_ranks(cells: list[dict[str, Any]], result: CardFrequencyResult) -> None:
    """The rank cells' band made the one a fair shoe keeps all 13 ranks in 95% of the time,
    and a rank outside it (corrected for the 13 ranks: ``result.ranks_out``) flagged."""
    named = {d.key for d in result.ranks_out}
    band = st.normal_quantile(1 - NAMED_AT / (2 * 13))
    for cell in cells:
        cell["low"] = max(0.0, cell["expected"] - band * result.rank_sd)
        cell["high"] = cell["expected"] + band * result.rank_sd
        cell["outside"] = cell["key"] in named


def _net_results(venue_id: int, date_from: date, date_to: date) -> list[Outcome]:
    """Each rated player's net result against its exact mean and SD, house-banked games."""
    rows = (
        BetTally.objects.filter(
            venue_id=venue_id,
            shift__gaming_date__gte=date_from,
            shift__gaming_date__lte=date_to,
            player__isnull=False,
            bets__gt=0,
        )
        .values_list("player_id", "game", "ruleset_version_id", "bet_type")
        .annotate(
            n=Sum("bets"),
            handle=Sum("handle"),
            squared=Sum("stake_squared"),
            result=Sum("player_result"),
        )
        .order_by()
    )
    rows = list(rows)
    rates = {(r.game, r.version_id): r for r in rates_of(sorted({(g, v) for _p, g, v, *_ in rows}))}
    sums: dict[tuple[int, str], list] = {}
    for player, game, version, bet_type, n, handle, squared, result in rows:
        adapter = _adapter(game)
        if adapter is None or not adapter.reports.house_banked:
            continue
        rate = rates.get((game, version))
        edge = rate.edges.get(bet_type) if rate else None
        sd = rate.sds.get(bet_type) if rate else None
        entry = sums.setdefault((player, game), [0, 0.0, 0.0, 0.0, True])
        entry[0] += n
        entry[3] += float(result)
        if edge is None or sd is None:
            entry[4] = False
            continue
        entry[1] += -float(edge) * float(handle)
        entry[2] += float(squared) * float(sd) ** 2
    outcomes = []
    for (player, game), (n, mean, variance, result, rated) in sums.items():
        group = Group(Scope.PLAYER, player, game)
        sd = math.sqrt(variance) if variance > 0 else 0.0
        cells = [
            {
                "key": "net result",
                "observed": round(result, 2),
                "expected": mean,
                "low": mean - 1.96 * sd,
                "high": mean + 1.96 * sd,
                "outside": not mean - 1.96 * sd <= result <= mean + 1.96 * sd,
            }
        ]
        if not rated or variance <= 0:
            outcomes.append(Outcome(group, "net_result", n, cells, note="no approved figures"))
        elif n < NET_MINIMUM:
            outcomes.append(
                Outcome(group, "net_result", n, cells, note=f"{n} bets, {NET_MINIMUM} needed")
            )
        else:
            z = st.z_test(result, mean, variance)
            outcomes.append(Outcome(group, "net_result", n, cells, "z", z.z, z.p_value))
    return outcomes
