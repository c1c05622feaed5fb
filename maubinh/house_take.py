"""The house take panel: a seeded Monte Carlo of the rules, cached by a content hash.

The house's only income at a Mau Binh table is the table fee: ``fee_rate`` x every positive
result, rounded to the venue's unit. Its expected value per round, per unit of table stake,
is ``fee_rate x E[chi the fee is taken from]``: the sum over seats of ``max(chi, 0)`` when the
fee is on a seat's net result, the sum over ordered pairs of seats of ``max(chi, 0)`` when it
is on each amount won (the version's ``fee_basis``; the simulation records both). The
expectation is estimated by dealing seeded decks to four players who all lay out with the
engine's auto-arranger (``suggest_arrangement``) and settling every 2-, 3- and 4-player table
those four hands make (docs/MAUBINH.md has the method, its interval and its cost). Where the
rules let a player leave an instant win undeclared, a simulated player holding one declares
it unless its rows, laid out without it, win it more at that table.

``figures_compute`` (run by the Celery task ``maubinh_house_take_task``, or by approval)
stores the simulation in a ``RulesFigures`` row keyed by ``rules_hash``; every version with
the same rules reads that row. The hash leaves the fee rate and its basis out (the simulation
does not depend on them), so changing only the fee is never recomputed. ``figures_summary``
turns a row into what the admin shows and approval stores; ``figures_warnings`` says what
needs an override.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Callable
from datetime import timedelta
from decimal import Decimal
from itertools import combinations, pairwise
from math import comb
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from casino.kernel.cards import DECK, Card
from casino.kernel.money import plain
from maubinh import engine
from maubinh.engine.arrange import Layout
from maubinh.engine.rules import Declaring, FeeBasis, InstantWin
from maubinh.models import INSTANT_WIN_LABELS, MauBinhRulesetVersion, RulesFigures
from maubinh.selectors import ruleset_snapshot, version_with_rules

#: Change this when the method changes, so stored figures are recomputed.
METHOD = "maubinh-house-take/2"
#: The deals are the same for every ruleset (common random numbers), so the change between
#: two rulesets is measured far more precisely than either interval suggests.
SEED = 20160513
#: Deals per simulation; each gives one 4-player, four 3-player and six 2-player tables.
#: About 800 auto-arranged hands: 15 to 35 s on one core (docs/MAUBINH.md).
DEFAULT_DEALS = 200
#: A fee rate above this is flagged (``MAUBINH_HIGH_FEE_RATE`` in settings overrides it).
DEFAULT_HIGH_FEE_RATE = Decimal("0.2")
#: A computation that has not finished after this long is taken to have died.
STALE_AFTER = timedelta(minutes=10)
TABLE_SIZES = (2, 3, 4)
PLAYERS_PER_DEAL = 4
HAND_SIZE = 13
#: Two-sided 95% normal quantile.
Z_95 = Decimal("1.96")
_FIGURE = Decimal("0.0001")
_STAT = Decimal("0.000001")


def house_take_deals() -> int:
    """Deals per simulation: ``MAUBINH_HOUSE_TAKE_DEALS`` in settings, else the default."""
    return int(getattr(settings, "MAUBINH_HOUSE_TAKE_DEALS", DEFAULT_DEALS))


def high_fee_rate() -> Decimal:
    return Decimal(str(getattr(settings, "MAUBINH_HIGH_FEE_RATE", DEFAULT_HIGH_FEE_RATE)))


def rules_hash(rules: engine.Ruleset, *, deals: int, seed: int = SEED) -> str:
    """The content hash of what the simulation depends on.

    Rows, instant wins, the scoop, the switches and the readings of the sheet, the number of
    deals, the seed and the method; not the fee rate or its basis (the simulation records the
    chi of both bases), the quit penalty (nobody quits in the simulation), the rounding unit
    and mode, the code or the name.
    """
    data = {
        "method": METHOD,
        "deals": deals,
        "seed": seed,
        "row_bonuses": sorted(
            [row.value, category.name, chi] for (row, category), chi in rules.row_bonuses.items()
        ),
        "instant_wins": sorted(
            [kind.value, chi] for kind, chi in rules.instant_wins.items() if chi > 0
        ),
        "scoop_multiplier": rules.scoop_multiplier,
        "wheel_is_lowest": rules.wheel_is_lowest,
        "foul_counts_as_scoop": rules.foul_counts_as_scoop,
        "dragon_flush_counts_as_dragon": rules.dragon_flush_counts_as_dragon,
        "tied_instant_wins": rules.tied_instant_wins.value,
        "declaring": rules.declaring.value,
        "instant_win_when_fouled": rules.instant_win_when_fouled,
        "foul_pays_row_bonuses": rules.foul_pays_row_bonuses,
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _mean_and_error(values: list[Decimal]) -> tuple[Decimal, Decimal]:
    """The mean and its standard error (0 with fewer than two values)."""
    count = len(values)
    mean = sum(values, Decimal(0)) / count
    if count < 2:
        return mean, Decimal(0)
    variance = sum(((v - mean) ** 2 for v in values), Decimal(0)) / (count - 1)
    return mean, (variance / count).sqrt()


def settle_as_players_choose(
    hands: dict[int, Layout],
    stake: Decimal,
    rules: engine.Ruleset,
    rows_instead: Callable[[int], Layout],
) -> engine.TableSettlement:
    """A table settled as its players choose where the rules leave them a choice.

    With ``declaring`` automatic that is the table as laid out. With it optional, each seat
    whose hand holds an instant win, in seat order, leaves it undeclared and plays
    ``rows_instead(seat)`` (its best layout were no instant win paid) when that wins the seat
    more chi at this table, the others' choices so far standing; an equal result declares.
    """
    table = engine.settle_table(hands, stake, rules)
    if rules.declaring is Declaring.AUTOMATIC:
        return table
    layouts, undeclared = dict(hands), set()
    for seat in hands:
        arrangement = table.seats[seat].arrangement
        if arrangement is None or arrangement.instant_win is None:
            continue
        trial_layouts = {**layouts, seat: rows_instead(seat)}
        trial = engine.settle_table(trial_layouts, stake, rules, undeclared={*undeclared, seat})
        if trial.seats[seat].chi > table.seats[seat].chi:
            table, layouts, undeclared = trial, trial_layouts, {*undeclared, seat}
    return table


def fee_chi(table: engine.TableSettlement) -> tuple[int, int]:
    """The chi the fee is taken from at a settled table: (the sum of the seats' positive
    results, the sum of every positive amount one seat won from another)."""
    seats = sum(result.chi for result in table.seats.values() if result.chi > 0)
    wins = sum(pair.chi for pair in table.pairwise.values() if pair.chi > 0)
    return seats, wins


def simulate_house_take(
    rules: engine.Ruleset,
    *,
    deals: int,
    seed: int = SEED,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Deal ``deals`` seeded decks to four players who auto-arrange, and settle every table.

    Each deal's four hands make one 4-player table, four 3-player tables and six 2-player
    tables (any subset of hands from one deck is a fair deal for that many players). For
    each size the deal's value is the mean, over its tables, of the chi won (the sum of the
    positive results: ``positive_chi``; and of every positive amount between two seats:
    ``won_chi``); the deals are independent, so their mean and standard error give the
    estimate and its interval. Players choose as :func:`settle_as_players_choose` says.
    Returns plain data (decimals as text); ``progress`` is called with the percentage done.
    """
    if deals < 1:
        raise ValueError(f"the simulation needs at least one deal, got {deals}")
    rng = random.Random(seed)
    stake = rules.rounding_unit  # any stake will do: only chi are kept
    per_deal: dict[int, list[Decimal]] = {n: [] for n in TABLE_SIZES}
    per_deal_won: dict[int, list[Decimal]] = {n: [] for n in TABLE_SIZES}
    scoops = pairs = instant_wins = 0
    no_instant_wins = dataclasses.replace(rules, instant_wins={})
    step = max(1, deals // 20)
    for done in range(1, deals + 1):
        deck = list(DECK)
        rng.shuffle(deck)
        cards = [deck[HAND_SIZE * k : HAND_SIZE * (k + 1)] for k in range(PLAYERS_PER_DEAL)]
        hands = [engine.suggest_arrangement(hand, rules) for hand in cards]
        rows_instead = _rows_instead(cards, no_instant_wins)
        for size in TABLE_SIZES:
            won = won_each = 0
            for seats in combinations(range(PLAYERS_PER_DEAL), size):
                table = settle_as_players_choose(
                    {s: hands[s] for s in seats}, stake, rules, rows_instead
                )
                on_seats, on_wins = fee_chi(table)
                won += on_seats
                won_each += on_wins
                if size == 2:
                    pairs += 1
                    scoops += table.pair(*seats).scoop
                elif size == PLAYERS_PER_DEAL:
                    instant_wins += sum(
                        result.arrangement.instant_win is not None
                        for result in table.seats.values()
                    )
            per_deal[size].append(Decimal(won) / comb(PLAYERS_PER_DEAL, size))
            per_deal_won[size].append(Decimal(won_each) / comb(PLAYERS_PER_DEAL, size))
        if progress is not None and (done % step == 0 or done == deals):
            progress(done * 100 // deals)
    return {
        "method": METHOD,
        "seed": seed,
        "deals": deals,
        "tables": {str(n): deals * comb(PLAYERS_PER_DEAL, n) for n in TABLE_SIZES},
        "positive_chi": _statistics(per_deal),
        "won_chi": _statistics(per_deal_won),
        "scoops_per_pair": str((Decimal(scoops) / pairs).quantize(_STAT)),
        "instant_wins_per_hand": str(
            (Decimal(instant_wins) / (deals * PLAYERS_PER_DEAL)).quantize(_STAT)
        ),
    }


def _rows_instead(cards: list[list[Card]], rules: engine.Ruleset) -> Callable[[int], Layout]:
    """Per seat, its best layout were no instant win paid (``rules`` pay none): laid out once,
    and only for the seats asked about."""
    found: dict[int, Layout] = {}

    def layout(seat: int) -> Layout:
        if seat not in found:
            found[seat] = engine.suggest_arrangement(cards[seat], rules)
        return found[seat]

    return layout


def _statistics(per_deal: dict[int, list[Decimal]]) -> dict[str, dict[str, str]]:
    """Per table size, the mean of the deals' values and its standard error, as text."""
    statistics = {}
    for size in TABLE_SIZES:
        mean, error = _mean_and_error(per_deal[size])
        statistics[str(size)] = {
            "mean": str(mean.quantize(_STAT)),
            "standard_error": str(error.quantize(_STAT)),
        }
    return statistics


def _get_or_create(rules_hash_: str, deals: int) -> RulesFigures:
    try:
        with transaction.atomic():
            row, _created = RulesFigures.objects.get_or_create(
                rules_hash=rules_hash_, defaults={"deals": deals}
            )
    except IntegrityError:
        row = RulesFigures.objects.get(rules_hash=rules_hash_)
    return row


def figures_row(version: MauBinhRulesetVersion, *, deals: int | None = None) -> RulesFigures:
    """The figures row for the version's rules, created (pending) when there is none."""
    deals = deals or house_take_deals()
    rules = ruleset_snapshot(version_with_rules(version.pk))
    return _get_or_create(rules_hash(rules, deals=deals), deals)


def figures_claim(row: RulesFigures) -> bool:
    """Mark a pending, failed or long-stalled row as being computed; True for the one caller
    that did, so the computation is sent once however often the panel polls (a failed one is
    tried again when the page is opened again)."""
    now = timezone.now()
    claimable = RulesFigures.objects.filter(
        pk=row.pk, status__in=[RulesFigures.Status.PENDING, RulesFigures.Status.FAILED]
    )
    if row.status == RulesFigures.Status.RUNNING and row.started_at is not None:
        claimable = RulesFigures.objects.filter(
            pk=row.pk, status=RulesFigures.Status.RUNNING, started_at__lt=now - STALE_AFTER
        )
    return bool(claimable.update(status=RulesFigures.Status.RUNNING, started_at=now, progress=0))


#: Simulations this process ran, by hash: the simulation is seeded, so rules simulated once
#: (a rolled-back approval, another database) are never simulated again here.
_SIMULATED: dict[str, dict[str, Any]] = {}
_SIMULATED_KEPT = 32


def figures_compute(*, version_id: int, deals: int | None = None) -> RulesFigures:
    """Simulate a version's rules and store the result unless it is stored already.

    Locking: none is held while simulating (it takes tens of seconds). The simulation is
    seeded, so two workers that compute the same rules at once store the same figures; the
    panel sends the task once per row (``figures_claim``). Progress is written as it goes
    unless the caller holds a transaction (approval), where nobody could see it.
    """
    deals = deals or house_take_deals()
    rules = ruleset_snapshot(version_with_rules(version_id))
    row = _get_or_create(rules_hash(rules, deals=deals), deals)
    if row.status == RulesFigures.Status.DONE:
        return row
    rows = RulesFigures.objects.filter(pk=row.pk)
    report = None
    if not connection.in_atomic_block:
        rows.exclude(status=RulesFigures.Status.DONE).update(
            status=RulesFigures.Status.RUNNING, started_at=timezone.now()
        )

        def report(percent: int) -> None:
            rows.filter(status=RulesFigures.Status.RUNNING).update(progress=min(percent, 99))

    figures = _SIMULATED.get(row.rules_hash)
    if figures is None:
        figures = simulate_house_take(rules, deals=deals, progress=report)
        if len(_SIMULATED) >= _SIMULATED_KEPT:
            _SIMULATED.pop(next(iter(_SIMULATED)))
        _SIMULATED[row.rules_hash] = figures
    rows.update(
        status=RulesFigures.Status.DONE,
        figures=figures,
        deals=deals,
        progress=100,
        error="",
        computed_at=timezone.now(),
    )
    row.refresh_from_db()
    return row


def figures_failed(*, version_id: int, error: str) -> None:
    """Record that computing a version's figures failed for good (shown on the panel)."""
    row = figures_row(MauBinhRulesetVersion.objects.get(pk=version_id))
    RulesFigures.objects.filter(pk=row.pk).exclude(status=RulesFigures.Status.DONE).update(
        status=RulesFigures.Status.FAILED, error=error[:2000]
    )


def figures_summary(row: RulesFigures, *, fee_rate: Decimal, fee_basis: str) -> dict[str, Any]:
    """What is shown and stored: per table size (2, 3, 4 players) the expected fee per round
    per unit of table stake, its 95% interval, and the same per seat, on the chi the
    ``fee_basis`` takes the fee from. Decimal strings, so the figures travel as JSON without
    floats."""
    figures = row.figures
    measure = "won_chi" if fee_basis == FeeBasis.EACH_WIN else "positive_chi"
    take, interval, per_seat, chi = {}, {}, {}, {}
    for size, stats in figures[measure].items():
        mean = Decimal(stats["mean"])
        margin = Z_95 * Decimal(stats["standard_error"])
        take[size] = str((fee_rate * mean).quantize(_FIGURE))
        interval[size] = [
            str((fee_rate * max(mean - margin, Decimal(0))).quantize(_FIGURE)),
            str((fee_rate * (mean + margin)).quantize(_FIGURE)),
        ]
        per_seat[size] = str((fee_rate * mean / int(size)).quantize(_FIGURE))
        chi[size] = str(mean.quantize(_FIGURE))
    return {
        "rules_hash": row.rules_hash,
        "fee_rate": plain(fee_rate),
        "fee_basis": str(fee_basis),
        "house_take": take,
        "house_take_ci": interval,
        "house_take_per_seat": per_seat,
        "positive_chi": chi,
        "rounds": figures["deals"],
        "tables": figures["tables"],
        "seed": figures["seed"],
        "scoops_per_pair": figures["scoops_per_pair"],
        "instant_wins_per_hand": figures["instant_wins_per_hand"],
    }


def figures_warnings(version: MauBinhRulesetVersion) -> list[str]:
    """Why approving these rules needs an explicit override, one sentence each."""
    warnings = []
    fee = version.fee_rate
    if fee == 0:
        warnings.append("The table fee is 0: the house takes nothing from this game.")
    elif fee > high_fee_rate():
        warnings.append(f"The table fee {fee:.1%} is unusually high (above {high_fee_rate():.0%}).")
    amounts = {InstantWin(w.kind): w.chi for w in version.instant_wins.all() if w.chi > 0}
    offered = [kind for kind in InstantWin if kind in amounts]  # strongest first
    for stronger, weaker in pairwise(offered):
        if amounts[stronger] < amounts[weaker]:
            warnings.append(
                f"{INSTANT_WIN_LABELS[stronger]} pays {amounts[stronger]} chi, less than "
                f"{INSTANT_WIN_LABELS[weaker]} ({amounts[weaker]}), though it beats it."
            )
    return warnings


def figures_rows_for_display(
    summary: dict[str, Any], compared: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """The panel's table: one row per table size, with the change from ``compared``."""
    rows = []
    for size, take in summary["house_take"].items():
        value = Decimal(take)
        before = (compared or {}).get("house_take", {}).get(size)
        low, high = (Decimal(v) for v in summary["house_take_ci"][size])
        rows.append(
            {
                "players": size,
                "house_take": value,
                "low": low,
                "high": high,
                "per_seat": Decimal(summary["house_take_per_seat"][size]),
                "positive_chi": Decimal(summary["positive_chi"][size]),
                "tables": summary["tables"][size],
                "change": value - Decimal(before) if before is not None else None,
            }
        )
    return rows
