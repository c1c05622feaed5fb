"""The order boxes are dealt and paid in (seed 001; docs/RULES.md A4).

Positions are the boxes' numbers on the layout. **Position 1 is the box on the dealer's
right**, and numbers rise towards the dealer's left.

- Paying starts at the box on the dealer's right and goes leftwards (seed 001: "começa pela
  caixa à direita do dealer e segue para a esquerda"): ascending position.
- Dealing starts at the box with the largest single ("Even") stake, ties going to the lower
  position, and then goes clockwise (seed 001: "no sentido horário"). Seen from above, with
  the dealer facing the players, clockwise runs from the dealer's left towards the dealer's
  right, as in blackjack (dealt from first base, paid from third base). So after the first
  box, dealing goes to **descending** positions, wrapping from position 1 round to the highest.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal


def deal_order(single_stakes: Mapping[int, Decimal]) -> tuple[int, ...]:
    """Box positions in the order they receive their hands.

    >>> deal_order({1: Decimal("100"), 2: Decimal("500"), 4: Decimal("200"), 5: Decimal("500")})
    (2, 1, 5, 4)
    >>> deal_order({})
    ()
    """
    return _dealt(sorted(_check_positions(single_stakes)), single_stakes)


def round_orders(single_stakes: Mapping[int, Decimal]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`deal_order` and :func:`payment_order` of a round's boxes (positions, each
    with its single stake), the positions checked once: a round settled asks for both.

    >>> round_orders({1: Decimal("100"), 2: Decimal("500"), 4: Decimal("200")})
    ((2, 1, 4), (1, 2, 4))
    """
    positions = sorted(_check_positions(single_stakes))  # a mapping's keys: each once
    return _dealt(positions, single_stakes), tuple(positions)


def _dealt(positions: list[int], single_stakes: Mapping[int, Decimal]) -> tuple[int, ...]:
    """The deal order of ``positions`` (ascending): from the largest single stake, the
    lowest position of those tied (the first ``max`` meets), then clockwise."""
    if not positions:
        return ()
    first = max(positions, key=single_stakes.__getitem__)
    at = positions.index(first)
    return (first, *reversed(positions[:at]), *reversed(positions[at + 1 :]))


def payment_order(positions: Iterable[int]) -> tuple[int, ...]:
    """Box positions in the order they are paid: from the dealer's right, leftwards.

    >>> payment_order([4, 1, 3])
    (1, 3, 4)
    """
    positions = list(positions)
    _check_positions(positions)
    if len(set(positions)) != len(positions):
        raise ValueError(f"a box position appears twice in {sorted(positions)}")
    return tuple(sorted(positions))


def _check_positions(positions: Iterable[int]) -> Iterable[int]:
    for position in positions:
        if isinstance(position, bool) or not isinstance(position, int) or position < 1:
            raise ValueError(f"box positions are whole numbers from 1, got {position!r}")
    return positions
