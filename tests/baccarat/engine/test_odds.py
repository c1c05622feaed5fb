"""Exact odds: counted over every ordered deal, checked against a brute force over every
ordered deal of a small shoe and against the published eight-deck figures."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import pytest

from baccarat.engine import DealError, Winner, deal, presets, ruleset_odds, summary
from casino.kernel.cards import parse_card

COMMISSION = presets.get("commission")
NO_COMMISSION = presets.get("no-commission")
#: Ten cards of mixed values, a pair of kings among them: every branch of the tableau deals.
SMALL_SHOE = [parse_card(c) for c in ["AS", "2H", "3C", "4D", "5S", "6H", "7C", "9D", "KS", "KH"]]


def brute_force(shoe, rules):
    """Every ordered six-card deal of ``shoe`` played by the engine's tableau, by outcome."""
    outcomes: Counter = Counter()
    player_pairs = 0
    for cards in permutations(shoe, 6):
        for used in (4, 5, 6):
            try:
                coup = deal(cards[:used], rules)
            except DealError:
                continue
            break
        outcomes[
            (coup.player.total, coup.banker.total, len(coup.player.cards), len(coup.banker.cards))
        ] += 1
        player_pairs += cards[0].rank == cards[2].rank
    return outcomes, player_pairs


def test_the_count_is_the_brute_force_outcome_by_outcome():
    rules = replace(COMMISSION, decks=8)
    shoe = Counter(card.rank for card in SMALL_SHOE)
    odds = ruleset_odds(rules, shoe=shoe)
    outcomes, pairs = brute_force(SMALL_SHOE, rules)
    assert odds.total == 10 * 9 * 8 * 7 * 6 * 5 == sum(outcomes.values())
    assert dict(odds.outcomes) == dict(outcomes)
    assert odds.pair_count == pairs
    # Every branch was dealt: naturals, a Player draw, a Banker draw, both.
    assert {(2, 2), (3, 2), (2, 3), (3, 3)} <= {(k[2], k[3]) for k in outcomes}


def test_a_full_eight_deck_shoe_counts_integers_summing_to_every_six_card_deal():
    odds = ruleset_odds(COMMISSION)
    assert all(isinstance(n, int) and n > 0 for n in odds.outcomes.values())
    assert sum(odds.outcomes.values()) == odds.total == 416 * 415 * 414 * 413 * 412 * 411
    assert sum(odds.count(w) for w in Winner) == odds.total


@pytest.mark.parametrize(
    ("rules", "bet", "edge"),
    [
        (COMMISSION, "banker", "0.010579"),
        (COMMISSION, "player", "0.012351"),
        (COMMISSION, "tie", "0.143596"),
        (replace(COMMISSION, tie_odds=Decimal(9)), "tie", "0.048440"),
        (COMMISSION, "player_pair", "0.103614"),
        (COMMISSION, "banker_pair", "0.103614"),
        (NO_COMMISSION, "banker", "0.014581"),
        (NO_COMMISSION, "player", "0.012351"),
    ],
)
def test_the_published_eight_deck_edges(rules, bet, edge):
    house_edge = ruleset_odds(rules).bets[bet].house_edge
    assert isinstance(house_edge, Fraction)
    assert f"{float(house_edge):.6f}" == edge


def test_every_bet_has_an_exact_edge_offered_or_not():
    odds = ruleset_odds(COMMISSION)
    for bet in ("player", "banker", "tie", "player_pair", "banker_pair", "super6"):
        line = odds.bets[bet]
        assert isinstance(line.house_edge, Fraction)
        assert line.win_probability + line.push_probability + line.lose_probability == 1
        assert line.variance > 0


def test_super6_from_its_own_counts():
    odds = ruleset_odds(NO_COMMISSION)
    two = sum(n for k, n in odds.outcomes.items() if k[1] == 6 and k[1] > k[0] and k[3] == 2)
    three = sum(n for k, n in odds.outcomes.items() if k[1] == 6 and k[1] > k[0] and k[3] == 3)
    expected = Fraction(12 * two + 20 * three - (odds.total - two - three), odds.total)
    assert odds.bets["super6"].expected == expected


def test_the_no_commission_banker_pays_half_on_six():
    odds = ruleset_odds(NO_COMMISSION)
    six = Fraction(sum(n for k, n in odds.outcomes.items() if k[1] == 6 and k[0] < 6), odds.total)
    others = odds.probability("banker") - six
    expected = six / 2 + others - odds.probability("player")
    assert odds.bets["banker"].expected == expected


def test_six_decks_are_the_same_rules_on_a_smaller_shoe():
    six = replace(COMMISSION, decks=6)
    odds = ruleset_odds(six)
    assert odds.total == 312 * 311 * 310 * 309 * 308 * 307
    assert f"{float(odds.bets['banker'].house_edge):.5f}" == "0.01056"
    assert odds.bets["banker"].house_edge != ruleset_odds(COMMISSION).bets["banker"].house_edge


def test_a_shoe_missing_cards_changes_the_odds():
    shoe = {rank: 32 for rank in "A23456789TJQK"}
    shoe["5"] = 0
    assert ruleset_odds(COMMISSION, shoe=shoe).total == 384 * 383 * 382 * 381 * 380 * 379


def test_the_summary_an_approver_reads():
    rules = replace(COMMISSION, bet_types=("player", "banker", "tie"), tie_odds=Decimal(9))
    rows = {str(row.bet_type): row for row in summary(rules)}
    assert list(rows) == ["player", "banker", "tie", "player_pair", "banker_pair", "super6"]
    assert [name for name, row in rows.items() if row.offered] == ["player", "banker", "tie"]
    assert (rows["banker"].pays, rows["tie"].pays, rows["player_pair"].pays) == (
        "1:1 less 5% commission",
        "9:1",
        "11:1",
    )
    odds = ruleset_odds(rules)
    assert rows["tie"].house_edge == odds.bets["tie"].house_edge
    assert rows["banker"].push_probability == odds.probability("tie")
    assert rows["player"].win_probability == odds.probability("player")
    no_commission = {str(row.bet_type): row.pays for row in summary(NO_COMMISSION)}
    assert no_commission["banker"] == "1:1, 1:2 on a Banker 6"
    assert no_commission["super6"] == "12:1 in two cards, 20:1 in three"


def test_the_expected_return_and_variance_of_a_unit_stake():
    odds = ruleset_odds(COMMISSION)
    player = odds.bets["player"]
    win, lose = odds.probability("player"), odds.probability("banker")
    assert player.return_ == player.expected == win - lose == -player.house_edge
    assert player.variance == win + lose - (win - lose) ** 2
    banker = odds.bets["banker"]
    paid = Fraction(19, 20)
    assert banker.variance == paid**2 * lose + win - (paid * lose - win) ** 2


def odds_doc_table(heading: str) -> list[list[str]]:
    """The rows of the table under ``heading`` in docs/ODDS.md's Baccarat section."""
    text = (Path(__file__).resolve().parents[3] / "docs" / "ODDS.md").read_text(encoding="utf-8")
    section = text[text.index("## Baccarat (Punto Banco)") :]
    block = section[section.index(heading) :].split("\n\n")[1]
    rows = [line.strip("|").split("|") for line in block.splitlines()[2:]]
    return [[cell.strip() for cell in row] for row in rows]


def percent(value: Fraction) -> str:
    return f"{float(value) * 100:.4f}%"


def test_docs_odds_other_shoes_are_the_count():
    for decks, player, banker, no_commission, tie, pair, super6 in odds_doc_table(
        "### Other shoes"
    ):
        rules = replace(COMMISSION, decks=int(decks))
        odds = ruleset_odds(rules)
        edges = [percent(odds.bets[bet].house_edge) for bet in ("player", "banker", "tie")]
        assert edges == [player, banker, tie]
        assert percent(odds.bets["player_pair"].house_edge) == pair
        assert percent(odds.bets["super6"].house_edge) == super6
        if no_commission != "-":
            banker_six = ruleset_odds(replace(NO_COMMISSION, decks=int(decks))).bets["banker"]
            assert percent(banker_six.house_edge) == no_commission


def test_docs_odds_preset_table_is_the_count():
    rows = odds_doc_table("### Presets `commission` and `no-commission` (8 decks)")
    odds = {"commission": ruleset_odds(COMMISSION), "no-commission": ruleset_odds(NO_COMMISSION)}
    nine = ruleset_odds(replace(COMMISSION, tie_odds=Decimal(9)))
    bets = {
        "Player": (odds["commission"], "player"),
        "Banker (`commission`)": (odds["commission"], "banker"),
        "Banker (`no-commission`)": (odds["no-commission"], "banker"),
        "Tie": (odds["commission"], "tie"),
        "Tie (at 9:1)": (nine, "tie"),
        "Player Pair, Banker Pair": (odds["commission"], "player_pair"),
        "Super 6": (odds["commission"], "super6"),
    }
    assert [row[0] for row in rows] == list(bets)
    for name, _pays, win, push, edge, sd in rows:
        counted, bet = bets[name]
        line = counted.bets[bet]
        assert percent(line.win_probability) == win
        assert push == ("-" if not line.push_probability else percent(line.push_probability))
        assert percent(line.house_edge) == edge
        assert f"{float(line.variance) ** 0.5:.4f}" == sd
