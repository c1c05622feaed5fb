"""A Mau Binh round's seats as the floor hands them in (a round's boxes are the seats), read
and checked before the engine settles them: each seat's 13 cards as the three rows it laid
out, back first, separated by ``/``::

    AS KS QS JS TS / 2H 2D 2C 3S 3D / 4H 4D 5C

one bet, ``stake``, the table stake, the same for every seat; where the version leaves it to
the player, whether a seat declares the instant win its hand holds. Each refusal is a
``RoundInputError`` naming the field (docs/MAUBINH.md, "Rounds").
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from casino.games import BoxInput, RoundInputError
from casino.kernel.cards import Card, check_distinct, parse_cards
from maubinh import engine

BET_TYPE = "stake"
ROW_SEPARATOR = "/"
HAND_SIZE = 13
_ZERO = Decimal(0)

#: A seat's three rows, back first.
Rows = tuple[tuple[Card, ...], ...]


def parse_seat(text: str) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """A seat's cards as entered, ``"back / middle / front"``, checked: 13 different cards,
    5, 5 and 3 to the rows. ``ValueError`` says what is wrong, naming the row when it can.

    >>> [format_cards(row) for row in parse_seat("as ks qs js 10s / 2h 2d 2c 3s 3d / 4h 4d 5c")]
    ['AS KS QS JS TS', '2H 2D 2C 3S 3D', '4H 4D 5C']
    >>> parse_seat("AS KS QS JS TS / 2H 2D 2C 3S 3D / 4H 4D 5C 6C")
    Traceback (most recent call last):
    ...
    ValueError: the front row has 4 cards; it takes 3 (14 cards in all; a hand is 13)
    >>> parse_seat("AS KS QS JS TS 2H 2D 2C 3S 3D 4H 4D")
    Traceback (most recent call last):
    ...
    ValueError: the hand has 12 cards; it takes 13, laid out as back (5) / middle (5) / front (3)
    """
    parts = text.split(ROW_SEPARATOR)
    rows = tuple(parse_cards(part) for part in parts)
    total = sum(len(row) for row in rows)
    if len(rows) == len(engine.ROWS):
        for name, row in zip(engine.ROWS, rows, strict=True):
            if len(row) != name.size:
                params = {"row": _(name.value), "count": len(row), "size": name.size}
                if total != HAND_SIZE:
                    raise ValueError(
                        _(
                            "the %(row)s row has %(count)s cards; it takes %(size)s "
                            "(%(total)s cards in all; a hand is %(hand)s)"
                        )
                        % {**params, "total": total, "hand": HAND_SIZE}
                    )
                raise ValueError(
                    _("the %(row)s row has %(count)s cards; it takes %(size)s") % params
                )
        check_distinct(
            {f"the {name} row": row for name, row in zip(engine.ROWS, rows, strict=True)}
        )
        return rows  # type: ignore[return-value]
    if total != HAND_SIZE:
        raise ValueError(
            _(
                "the hand has %(count)s cards; it takes %(hand)s, laid out as back (5) / "
                "middle (5) / front (3)"
            )
            % {"count": total, "hand": HAND_SIZE}
        )
    raise ValueError(
        ngettext(
            "the hand is entered as %(count)s row; separate the three rows with '/': "
            "back (5) / middle (5) / front (3)",
            "the hand is entered as %(count)s rows; separate the three rows with '/': "
            "back (5) / middle (5) / front (3)",
            len(rows),
        )
        % {"count": len(rows)}
    )


def check_players(dealer_cards: str, boxes: Sequence[BoxInput]) -> None:
    """No dealer's hand (the players play each other) and 2 to 4 players."""
    if dealer_cards and dealer_cards.strip():
        raise RoundInputError(
            gettext_lazy(
                "Mau Binh has no dealer's hand: the players play each other; leave the "
                "dealer's cards empty"
            ),
            field="dealer_cards",
            reason="no_dealer_hand",
        )
    if not engine.MIN_PLAYERS <= len(boxes) <= engine.MAX_PLAYERS:
        raise RoundInputError(
            _("Mau Binh takes %(low)s to %(high)s players, got %(count)s")
            % {"low": engine.MIN_PLAYERS, "high": engine.MAX_PLAYERS, "count": len(boxes)},
            field="boxes",
            reason="players_out_of_range",
        )


def read_seats(boxes: Sequence[BoxInput]) -> dict[int, Rows]:
    """Each seat's rows by position, read with ``parse_seat``; no card in two seats. A seat
    that quits may have no cards (and no rows)."""
    arrangements: dict[int, Rows] = {}
    seen: dict[Card, int] = {}
    for index, box in enumerate(boxes):
        field = f"boxes[{index}].cards"
        if not box.cards.strip():
            if box.quit:
                continue
            raise RoundInputError(
                _("seat %(seat)s has no cards; only a player who quits may have none")
                % {"seat": box.position},
                field=field,
                reason="seat_without_cards",
            )
        try:
            rows = parse_seat(box.cards)
        except (TypeError, ValueError) as error:
            raise RoundInputError(
                _("seat %(seat)s: %(error)s") % {"seat": box.position, "error": error},
                field=field,
                reason="seat_cards",
            ) from None
        for card in (card for row in rows for card in row):
            if card in seen:
                raise RoundInputError(
                    _("'%(card)s' is in both seat %(first)s and seat %(seat)s")
                    % {"card": card, "first": seen[card], "seat": box.position},
                    field=field,
                    reason="card_twice",
                )
            seen[card] = box.position
        arrangements[box.position] = rows
    return arrangements


def undeclared_seats(
    boxes: Sequence[BoxInput],
    arrangements: dict[int, Rows],
    rules: engine.Ruleset,
) -> set[int]:
    """The seats whose player did not declare the instant win their hand holds.

    Where declaring is optional every seat holding one (quitters aside) must say; where it is
    automatic none may decline. No seat declares an instant win its hand does not hold.
    """
    # The console's package imports this module: its labels are imported when needed.
    from maubinh.console.labels import instant_win_label

    optional = rules.declaring is engine.Declaring.OPTIONAL
    undeclared = set()
    for index, box in enumerate(boxes):
        rows = arrangements.get(box.position)
        if box.quit or rows is None or (box.declared is None and not optional):
            continue
        held = engine.check_arrangement(*rows, rules).instant_win
        field = f"boxes[{index}].declared"
        if held is None:
            if box.declared:
                raise RoundInputError(
                    _("seat %(seat)s declares an instant win, but its cards hold none")
                    % {"seat": box.position},
                    field=field,
                    reason="no_instant_win_to_declare",
                )
            continue
        params = {"seat": box.position, "win": instant_win_label(held)}
        if box.declared is None:
            raise RoundInputError(
                _(
                    "seat %(seat)s holds %(win)s: ask the player whether it is declared (these "
                    "rules leave it to the player)"
                )
                % params,
                field=field,
                reason="declaration_missing",
            )
        if not box.declared:
            if not optional:
                raise RoundInputError(
                    _(
                        "seat %(seat)s holds %(win)s: these rules take every instant win "
                        "automatically, so it cannot be left undeclared"
                    )
                    % params,
                    field=field,
                    reason="declaring_automatic",
                )
            undeclared.add(box.position)
    return undeclared


def table_stake(boxes: Sequence[BoxInput], rules: engine.Ruleset) -> Decimal:
    """The one stake every seat plays for: positive, a multiple of the version's rounding
    unit, equal."""
    stake: Decimal | None = None
    first = None
    for index, box in enumerate(boxes):
        field = f"boxes[{index}].bets.{BET_TYPE}"
        other = sorted(set(box.stakes) - {BET_TYPE})
        if other:
            raise RoundInputError(
                _(
                    "seat %(seat)s: Mau Binh has one bet, '%(bet)s' (the table stake); "
                    "not '%(other)s'"
                )
                % {"seat": box.position, "bet": BET_TYPE, "other": other[0]},
                field=f"boxes[{index}].bets.{other[0]}",
                reason="bet_not_offered",
            )
        value = box.stakes.get(BET_TYPE)
        if value is None:
            raise RoundInputError(
                _("seat %(seat)s has no stake; every seat plays for the table stake")
                % {"seat": box.position},
                field=field,
                reason="stake_missing",
            )
        if isinstance(value, float | bool) or not isinstance(value, Decimal | int):
            raise RoundInputError(
                f"seat {box.position}: the stake is an amount of money, got {value!r}", field=field
            )
        value = Decimal(value)
        if value <= _ZERO:
            raise RoundInputError(
                _("seat %(seat)s: the stake must be positive, got %(stake)s")
                % {"seat": box.position, "stake": value},
                field=field,
                reason="stake_not_positive",
            )
        if value % rules.rounding_unit:
            raise RoundInputError(
                _(
                    "seat %(seat)s: the stake %(stake)s is not a multiple of the rounding unit "
                    "%(unit)s"
                )
                % {"seat": box.position, "stake": value, "unit": rules.rounding_unit},
                field=field,
                reason="stake_off_unit",
            )
        if stake is None:
            stake, first = value, box.position
        elif value != stake:
            raise RoundInputError(
                _(
                    "seat %(seat)s stakes %(stake)s but seat %(first)s stakes %(first_stake)s: "
                    "every seat plays for the same table stake"
                )
                % {"seat": box.position, "stake": value, "first": first, "first_stake": stake},
                field=field,
                reason="stakes_differ",
            )
    return stake  # type: ignore[return-value]  # there are at least two boxes
