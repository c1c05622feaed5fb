"""Settling a Mau Binh table: chi between every pair of players, then money and the fee.

For every pair of players (i, j) (docs/RULES.md B2), in this order:

1. **Quit**: a player who quits pays ``quit_penalty`` chi to each other player instead of
   being compared; two players who both quit score 0 between them (each would pay the other
   the same penalty).
2. **Instant wins**: a player with one takes its amount from the other without comparing
   rows. If both have one, the stronger (:class:`InstantWin` order) takes its own amount from
   the weaker; two instant wins of the same kind score 0 between them. With
   ``tied_instant_wins`` ``share``, the players holding the same kind share what each weaker
   player pays: the amount divided by how many hold it. With ``declaring`` ``optional``, a
   seat in ``undeclared`` holds its instant win without taking it: its rows are compared.
3. **Fouls**: a fouled player loses every row to a clean one; each row scores for the winner
   as in step 4 (row bonuses of the winner's rows; 1 chi a row without
   ``foul_pays_row_bonuses``), and with ``foul_counts_as_scoop`` the scoop multiplier
   applies. Two fouled players score 0.
4. **Row by row**: the winner of a row scores 1 chi or the row bonus of the winning row;
   a tied row scores 0.
5. **Scoop**: winning all three rows against one opponent multiplies everything won from
   that opponent by ``scoop_multiplier``. A tied row means nobody won all three.

Instant-win amounts and quit penalties are never multiplied. The pairwise chi sum to zero
over the table.

Money (docs/RULES.md B3): a seat's ``gross`` is its chi times the stake. With ``fee_basis``
``net_result`` a seat with a positive gross pays the table fee, ``fee_rate`` x gross rounded
to the ruleset's ``rounding_unit`` in its ``rounding_mode`` (``up``, ``ROUND_CEILING``, as the
rule sheets have it, unless the ruleset says otherwise: ``casino.kernel.money.round_to_unit``);
losers pay none. With ``each_win`` the fee is taken, rounded the same way, from every amount
the seat won from one opponent, whatever it lost to the others. ``net = gross - fee``.

>>> from decimal import Decimal
>>> from maubinh.engine import presets
>>> table = settle_table(
...     {
...         "east": ("AS AH AD AC 2S", "KS KH KD 3C 3D", "QS QH 4C"),
...         "west": ("JS JH TC TD 5S", "9S 9H 6C 7C 8D", "2H 3H 4D"),
...     },
...     Decimal("1000"),
...     presets.get("bigkool-2016"),
... )
>>> east = table.seats["east"]
>>> east.chi, east.gross, east.fee, east.net  # (8 + 4 + 1) x 2 for the scoop
(26, Decimal('26000'), Decimal('1300'), Decimal('24700'))
>>> table.pair("west", "east").rows, table.pair("west", "east").scoop
((-8, -4, -1), True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from casino.kernel.money import round_to_unit
from maubinh.engine.arrangement import Arrangement, arrangement_of, parse_rows_mask
from maubinh.engine.rules import Declaring, FeeBasis, InstantWin, Ruleset, TiedInstantWins

Seat = Hashable
MIN_PLAYERS = 2
MAX_PLAYERS = 4
_ZERO = Decimal(0)


class PairBasis(StrEnum):
    """What decided a pair of players: the first step of docs/RULES.md B2 that applied."""

    QUIT = "quit"
    INSTANT_WIN = "instant_win"
    FOUL = "foul"
    ROWS = "rows"


@dataclass(frozen=True, slots=True)
class PairResult:
    """The result between two players, from ``seat``'s side (``opponent`` holds the mirror).

    - ``chi``: what ``seat`` won from ``opponent`` (negative: lost), all multipliers applied;
    - ``basis``: which rule decided it (:class:`PairBasis`);
    - ``rows``: chi each row scored for ``seat`` (back, middle, front), before the scoop
      multiplier; negative when lost, 0 for a tie or when rows were not compared;
    - ``scoop``: one of the two won all three rows (a fouled player loses all three when
      ``foul_counts_as_scoop``), so ``scoop_multiplier`` applied (it may be 1);
    - the two players' instant wins, fouls and quits, as seen by the settlement.
    """

    seat: Seat
    opponent: Seat
    chi: int
    basis: PairBasis
    rows: tuple[int, int, int]
    scoop: bool
    instant_win: InstantWin | None
    opponent_instant_win: InstantWin | None
    fouled: bool
    opponent_fouled: bool
    quit: bool
    opponent_quit: bool


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's round: chi over all opponents and the money.

    ``gross = chi x stake``; ``fee`` is the table fee (0 unless ``gross`` is positive);
    ``net = gross - fee``. ``arrangement`` is None for a player who quit without cards.
    """

    seat: Seat
    chi: int
    gross: Decimal
    fee: Decimal
    net: Decimal
    quit: bool
    arrangement: Arrangement | None


@dataclass(frozen=True, slots=True)
class TableSettlement:
    """A settled table: per seat (in the order given) and per ordered pair of seats."""

    stake: Decimal
    seats: Mapping[Seat, SeatResult]
    pairwise: Mapping[tuple[Seat, Seat], PairResult]
    house_fee: Decimal

    def pair(self, seat: Seat, opponent: Seat) -> PairResult:
        """The result between ``seat`` and ``opponent``, from ``seat``'s side."""
        return self.pairwise[seat, opponent]

    def against(self, seat: Seat) -> tuple[PairResult, ...]:
        """``seat``'s results against each opponent, in seat order."""
        return tuple(self.pairwise[seat, other] for other in self.seats if other != seat)


def fee_on(gross: Decimal, rules: Ruleset) -> Decimal:
    """The table fee on a seat's gross result, rounded to the rounding unit in the rounding
    mode; 0 on a loss.

    >>> from maubinh.engine import presets
    >>> rules = presets.get("classic").with_rounding_unit(Decimal("1000"))
    >>> fee_on(Decimal("3000"), rules), fee_on(Decimal("-3000"), rules)
    (Decimal('1000'), Decimal('0'))

    5% of 150,000 (7,500) at a unit of 1,000, in each mode:

    >>> [str(fee_on(Decimal("150000"), rules.with_rounding(Decimal("1000"), mode)))
    ...  for mode in ("up", "half_up", "down", "none")]
    ['8000', '8000', '7000', '7500.00']
    """
    if gross <= 0:
        return _ZERO
    return round_to_unit(gross * rules.fee_rate, rules.rounding_unit, rules.rounding_mode)


def _check_stake(stake: Any, rules: Ruleset) -> Decimal:
    if isinstance(stake, float | bool) or not isinstance(stake, Decimal | int):
        raise TypeError(f"the stake is money: give a Decimal, not {type(stake).__name__}")
    stake = Decimal(stake)
    if not stake > 0:
        raise ValueError(f"the stake must be positive, got {stake}")
    if stake % rules.rounding_unit != 0:
        raise ValueError(
            f"the stake {stake} is not a multiple of the rounding unit {rules.rounding_unit}"
        )
    return stake


def _seat_rows(seat: Seat, rows: Any) -> tuple[tuple[tuple[Any, ...], ...], int]:
    if isinstance(rows, Arrangement):
        rows = rows.rows
    try:
        rows = tuple(rows)
    except TypeError:
        rows = ()
    if len(rows) != 3:
        raise ValueError(
            f"seat {seat}: an arrangement is three rows (back, middle, front), got {rows!r}"
        )
    try:
        return parse_rows_mask(*rows)
    except ValueError as error:
        raise ValueError(f"seat {seat}: {error}") from None


def settle_table(
    arrangements: Mapping[Seat, Any],
    stake: Decimal,
    rules: Ruleset,
    *,
    quitters: Iterable[Seat] = (),
    undeclared: Iterable[Seat] = (),
) -> TableSettlement:
    """Settle one round of Mau Binh between 2 to 4 players.

    ``arrangements`` maps each seat to its rows ``(back, middle, front)`` (each text or
    cards; an :class:`Arrangement` is accepted too). A seat in ``quitters`` quit the round: it
    pays ``quit_penalty`` chi to each other player and is not compared; its cards may be None
    or missing from ``arrangements`` (when given they are checked like the others). All cards
    at the table must differ. A seat in ``undeclared`` did not declare the instant win its
    hand holds (rules with ``declaring`` ``optional`` only): its rows are compared instead.

    >>> from maubinh.engine import presets
    >>> settle_table({1: ("AS AH AD AC 2S", "KS KH KD 3C 3D", "QS QH 4C")}, Decimal(1),
    ...              presets.get("classic"))
    Traceback (most recent call last):
    ...
    ValueError: Mau Binh takes 2 to 4 players, got 1
    """
    stake = _check_stake(stake, rules)
    undeclared_seats = set(undeclared)
    if undeclared_seats and rules.declaring is Declaring.AUTOMATIC:
        raise ValueError(
            "these rules take every instant win automatically: a player cannot leave one undeclared"
        )
    quit_seats = set(quitters)
    seats = list(arrangements)
    seats.extend(seat for seat in dict.fromkeys(quitters) if seat not in arrangements)
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise ValueError(f"Mau Binh takes {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(seats)}")

    hands: dict[Seat, Arrangement | None] = {}
    mask = 0
    card_count = 0
    for seat in seats:
        given = arrangements.get(seat)
        if given is None:
            if seat not in quit_seats:
                raise ValueError(f"seat {seat} has no cards; only a player who quits may have none")
            hands[seat] = None
            continue
        rows, seat_mask = _seat_rows(seat, given)
        card_count += 13
        mask |= seat_mask
        hands[seat] = arrangement_of(rows, rules)
    if mask.bit_count() != card_count:
        _name_repeated_card(hands)

    pairwise, chi_by_seat = _settle_pairs(seats, hands, quit_seats, undeclared_seats, rules)
    seat_results: dict[Seat, SeatResult] = {}
    house_fee = _ZERO
    each_win = rules.fee_basis is FeeBasis.EACH_WIN
    for seat in seats:
        chi = chi_by_seat[seat]
        gross = stake * chi
        if each_win:
            fee = sum(
                (
                    fee_on(stake * pairwise[seat, other].chi, rules)
                    for other in seats
                    if other != seat
                ),
                _ZERO,
            )
        else:
            fee = fee_on(gross, rules)
        house_fee += fee
        seat_results[seat] = SeatResult(
            seat, chi, gross, fee, gross - fee, seat in quit_seats, hands[seat]
        )
    return TableSettlement(
        stake, MappingProxyType(seat_results), MappingProxyType(pairwise), house_fee
    )


def _name_repeated_card(hands: Mapping[Seat, Arrangement | None]) -> None:
    seen: dict[Any, str] = {}
    for seat, hand in hands.items():
        if hand is None:
            continue
        for card in hand.cards:
            if card in seen:
                raise ValueError(f"'{card}' is in both seat {seen[card]} and seat {seat}")
            seen[card] = str(seat)


#: What the pair loop needs of a seat, in a locals-friendly tuple: the seat, whether it quit
#: (or has no hand), the instant win it plays (None: none, or undeclared), whether it fouled,
#: and its rows' strengths and bonuses (back, middle, front; None for a quitter).
_Facts = tuple[Seat, bool, Any, bool, tuple[int, int, int, int, int, int] | None]


def _seat_facts(
    seats: list[Seat],
    hands: Mapping[Seat, Arrangement | None],
    quit_seats: set[Seat],
    undeclared: set[Seat],
    rules: Ruleset,
) -> list[_Facts]:
    """Each seat's facts for the pair loop, in seat order."""
    bonus_back, bonus_middle, bonus_front = rules._bonus_table
    facts: list[_Facts] = []
    for seat in seats:
        hand = hands[seat]
        if hand is None or seat in quit_seats:
            facts.append((seat, True, None, False, None))
            continue
        b, m, f = hand.back_hand, hand.middle_hand, hand.front_hand
        facts.append(
            (
                seat,
                False,
                None if seat in undeclared else hand.instant_win,
                hand.fouled,
                (
                    b.strength,
                    m.strength,
                    f.strength,
                    bonus_back[b.category],
                    bonus_middle[m.category],
                    bonus_front[f.category],
                ),
            )
        )
    return facts


def _settle_pairs(
    seats: list[Seat],
    hands: Mapping[Seat, Arrangement | None],
    quit_seats: set[Seat],
    undeclared: set[Seat],
    rules: Ruleset,
) -> tuple[dict[tuple[Seat, Seat], PairResult], dict[Seat, int]]:
    """Every pair of seats compared once (each result stored both ways), and each seat's chi
    summed over its pairs: a quit first, then an instant win, a foul, the rows."""
    amounts = dict(rules._offered)
    foul_bonuses = rules.foul_pays_row_bonuses
    multiplier = rules.scoop_multiplier
    foul_scoops = rules.foul_counts_as_scoop
    penalty = rules.quit_penalty
    facts = _seat_facts(seats, hands, quit_seats, undeclared, rules)

    if rules.tied_instant_wins is TiedInstantWins.SHARE:
        holders = Counter(win for _seat, _quit, win, _foul, _rows in facts if win is not None)
        amounts = {kind: chi // holders.get(kind, 1) for kind, chi in amounts.items()}

    pairwise: dict[tuple[Seat, Seat], PairResult] = {}
    chi_by_seat = dict.fromkeys(seats, 0)
    no_rows = (0, 0, 0)
    for n, (seat_i, quit_i, win_i, foul_i, rows_i) in enumerate(facts):
        for seat_j, quit_j, win_j, foul_j, rows_j in facts[n + 1 :]:
            scoop = False
            rows = no_rows
            if quit_i or quit_j:
                basis = PairBasis.QUIT
                chi = 0 if quit_i == quit_j else (penalty if quit_j else -penalty)
            elif win_i is not None or win_j is not None:
                basis = PairBasis.INSTANT_WIN
                strength_i = 0 if win_i is None else win_i.strength
                strength_j = 0 if win_j is None else win_j.strength
                if strength_i > strength_j:
                    chi = amounts[win_i]
                elif strength_j > strength_i:
                    chi = -amounts[win_j]
                else:
                    chi = 0
            elif foul_i or foul_j:
                basis = PairBasis.FOUL
                if foul_i and foul_j:
                    chi = 0
                else:
                    if not foul_bonuses:
                        rows = (-1, -1, -1) if foul_i else (1, 1, 1)
                    elif foul_i:
                        rows = (-rows_j[3], -rows_j[4], -rows_j[5])
                    else:
                        rows = (rows_i[3], rows_i[4], rows_i[5])
                    chi = rows[0] + rows[1] + rows[2]
                    if foul_scoops:
                        scoop = True
                        chi *= multiplier
            else:
                basis = PairBasis.ROWS
                bi, mi, fi, bonus_bi, bonus_mi, bonus_fi = rows_i
                bj, mj, fj, bonus_bj, bonus_mj, bonus_fj = rows_j
                rows = (
                    bonus_bi if bi > bj else (-bonus_bj if bj > bi else 0),
                    bonus_mi if mi > mj else (-bonus_mj if mj > mi else 0),
                    bonus_fi if fi > fj else (-bonus_fj if fj > fi else 0),
                )
                chi = rows[0] + rows[1] + rows[2]
                if (rows[0] > 0 and rows[1] > 0 and rows[2] > 0) or (
                    rows[0] < 0 and rows[1] < 0 and rows[2] < 0
                ):
                    scoop = True
                    chi *= multiplier
            chi_by_seat[seat_i] += chi
            chi_by_seat[seat_j] -= chi
            pairwise[seat_i, seat_j] = PairResult(
                seat_i, seat_j, chi, basis, rows, scoop,
                win_i, win_j, foul_i, foul_j, quit_i, quit_j,
            )  # fmt: skip
            pairwise[seat_j, seat_i] = PairResult(
                seat_j, seat_i, -chi, basis, (-rows[0], -rows[1], -rows[2]), scoop,
                win_j, win_i, foul_j, foul_i, quit_j, quit_i,
            )  # fmt: skip
    return pairwise, chi_by_seat
