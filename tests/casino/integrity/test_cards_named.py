"""The card test in 1- to 8-deck shoes: one rank off by a few cards is caught where the rank
chi-square dilutes it, fair shoes alert no more often than the level, and every card and
rank outside its band is named, not only the rarest and the commonest."""

from __future__ import annotations

import numpy as np
import pytest

from casino.integrity.cards import card_frequency_test
from casino.kernel.cards import DECK


def shoe(decks: int, *, extra: tuple[str, ...] = (), missing: tuple[str, ...] = ()) -> np.ndarray:
    copies = {str(card): decks for card in DECK}
    for card in extra:
        copies[card] += 1
    for card in missing:
        copies[card] -= 1
    return np.array([copies[str(card)] for card in DECK])


def dealt(rng, copies: np.ndarray, per_round: int, rounds: int) -> dict[str, int]:
    """The cards of ``rounds`` rounds of ``per_round`` cards, each from the whole shoe."""
    counts = rng.multivariate_hypergeometric(copies, per_round, size=rounds).sum(axis=0)
    return {str(card): int(n) for card, n in zip(DECK, counts, strict=True)}


def test_fair_shoes_of_one_six_and_eight_decks_alert_at_most_at_the_level():
    # 300 fair samples each; 5% would be 15, and 24 is more than 2.3 SD above it.
    for decks, per_round, rounds in ((1, 25, 100), (6, 6, 1000), (8, 6, 1000)):
        rng = np.random.default_rng(decks)
        alerts = 0
        for _ in range(300):
            counts = dealt(rng, shoe(decks), per_round, rounds)
            result = card_frequency_test(counts, cards_per_round={per_round: rounds}, decks=decks)
            alerts += result.p_value < 0.05
        assert alerts <= 24, (decks, alerts)


def test_one_rank_added_to_an_eight_deck_shoe_is_caught_and_named():
    # The four nines of one more deck (420 cards), six cards a round: the nines' share goes
    # from 7.69% to 8.57%. Measured: 90% of samples caught by 3,500 rounds at 0.05 (the rank
    # chi-square and the card extremes alone: 80%).
    rng = np.random.default_rng(34)
    copies = shoe(8, extra=("9S", "9H", "9D", "9C"))
    caught = named = 0
    for _ in range(100):
        counts = dealt(rng, copies, 6, 3500)
        result = card_frequency_test(counts, cards_per_round={6: 3500}, decks=8)
        caught += result.p_value < 0.05
        named += [d.key for d in result.ranks_out] == ["9"]
    assert caught >= 82
    assert named >= 70
    assert all(not d.low for d in result.ranks_out)


def test_every_missing_card_is_named_not_only_the_rarest():
    rng = np.random.default_rng(5)
    counts = dealt(rng, shoe(1, missing=("AS", "KH", "7D")), 25, 40)
    result = card_frequency_test(counts, cards_per_round={25: 40}, decks=1)
    assert {d.key for d in result.cards_out} == {"AS", "KH", "7D"}
    assert all(d.low and d.observed == 0 and d.p_value < 0.05 for d in result.cards_out)
    assert result.p_value < 0.001


@pytest.mark.parametrize("decks", [2, 6, 8])
def test_a_card_planted_twice_in_a_multi_deck_shoe_is_named(decks):
    rng = np.random.default_rng(decks)
    counts = dealt(rng, shoe(decks, extra=("AS", "AS")), 6, 3000)
    result = card_frequency_test(counts, cards_per_round={6: 3000}, decks=decks)
    assert ("AS", False) in [(d.key, d.low) for d in result.cards_out]
    assert result.p_value < 0.05


@pytest.mark.django_db
def test_the_runs_card_alert_names_every_missing_card(floor):
    from casino.integrity.models import IntegrityResult
    from tests.casino.integrity.simulated import Manipulation, deal
    from tests.casino.integrity.test_runs import day, open_tables

    sessions = open_tables(floor, 2)
    deal(sessions[0], 40, seed=11, crooked=Manipulation(missing=("AS", "KH")))
    deal(sessions[1], 40, seed=12)
    run = day(floor, sessions)
    cards = IntegrityResult.objects.get(run=run, test="cards", label=sessions[0].table.code)
    assert cards.alert
    flagged = {cell["key"] for cell in cards.cells if cell["outside"]}
    assert {"AS (too few)", "KH (too few)"} <= flagged
    fair = IntegrityResult.objects.get(run=run, test="cards", label=sessions[1].table.code)
    assert not fair.alert
