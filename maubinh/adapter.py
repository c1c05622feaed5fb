"""Mau Binh as the floor sees it: the adapter registered in ``casino.games``.

A round's boxes are the seats (2 to 4 players; no dealer hand). Each seat enters its 13
cards as the three rows it laid out, back first, separated by ``/``::

    AS KS QS JS TS / 2H 2D 2C 3S 3D / 4H 4D 5C

and one bet, ``stake``: the table stake, the same for every seat (1 chi is worth one stake).
A seat that quits (``quit=True``) pays the quit penalty to each other player; its cards may
be empty. Where the version leaves declaring an instant win to the player (``declaring``
optional), a seat whose hand holds one says whether it is declared (``declared``); an
undeclared hand plays its rows. Settlement is ``maubinh.engine.settle_table``: the seats'
results sum to zero, and each winner pays the table fee, rounded to the version's unit in its
mode, to the house.

The bet's ``deposit_required`` is 0: the rules require no deposit, and no figure short of
the worst case bounds a Mau Binh loss (the quit penalty a player could be told to show is
well below what a scoop with bonuses or an instant win costs; docs/MAUBINH.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from casino.cards import Card, check_distinct, format_cards, parse_cards
from casino.games import (
    BetResult,
    BoxInput,
    BoxResult,
    GameAdapter,
    GameAdmin,
    GameApi,
    GameConsole,
    GameDemo,
    GameReports,
    IntegrityCounts,
    IntegrityKey,
    LedgerLine,
    RoundInputError,
    RoundResult,
)
from casino.models import Account, EntryKind
from maubinh import engine
from maubinh.engine import Arrangement, PairResult, Row, SeatResult, integrity
from maubinh.house_take import figures_compute, figures_summary, figures_warnings
from maubinh.models import RULE_FIELDS, InstantWinAmount, MauBinhRulesetVersion, RowBonus
from maubinh.selectors import cached_snapshot
from maubinh.validation import ruleset_errors

BET_TYPE = "stake"
ROW_SEPARATOR = "/"
HAND_SIZE = 13
_ZERO = Decimal(0)
_NO_DEPOSIT = Decimal(0)


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


def _row_evaluation(name: Row, cards: tuple[Card, ...], hand: engine.RowHand) -> dict[str, Any]:
    return {
        "row": name.value,
        "cards": format_cards(cards),
        "category": hand.category.name,
        "label": hand.describe(),
    }


def _pair_evaluation(pair: PairResult) -> dict[str, Any]:
    return {
        "chi": pair.chi,
        "basis": pair.basis.value,
        "rows": list(pair.rows),
        "scoop": pair.scoop,
    }


def _won_all_rows(pair: PairResult) -> bool:
    return pair.scoop and all(chi > 0 for chi in pair.rows)


def _lost_all_rows(pair: PairResult) -> bool:
    return pair.scoop and all(chi < 0 for chi in pair.rows)


def seat_evaluation(
    seat: SeatResult,
    against: Sequence[PairResult],
    rules: engine.Ruleset,
    *,
    undeclared: bool = False,
) -> dict[str, Any]:
    """A seat as stored on its box and shown on the console (``undeclared``: the player did
    not declare the instant win the hand holds)."""
    hand: Arrangement | None = seat.arrangement
    judged = None if seat.quit else hand  # a quitter's cards are shown, never compared
    held = judged.instant_win if judged is not None else None
    instant = None if undeclared else held
    rows = (
        [
            _row_evaluation(name, cards, evaluated)
            for name, cards, evaluated in zip(engine.ROWS, hand.rows, hand.hands, strict=True)
        ]
        if hand is not None
        else []
    )
    if seat.quit:
        label = f"Quit: pays {rules.quit_penalty} chi to each other player"
    elif instant is not None:
        label = f"{instant.label} (instant win, {rules.instant_win_amount(instant)} chi)"
    elif judged is not None and judged.fouled:
        label = f"Fouled: {judged.foul_reason}"
    else:
        label = " / ".join(row["label"] for row in rows)
    if held is not None and instant is None:
        label = f"{label} ({held.label} not declared)"
    return {
        "label": label,
        "rows": rows,
        "fouled": judged is not None and judged.fouled,
        "foul_reason": judged.foul_reason if judged is not None else None,
        "instant_win": instant.value if instant is not None else None,
        "undeclared_instant_win": held.value if held is not None and instant is None else None,
        "quit": seat.quit,
        "chi": seat.chi,
        "against": {str(pair.opponent): _pair_evaluation(pair) for pair in against},
        "scooped": [pair.opponent for pair in against if _won_all_rows(pair)],
        "scooped_by": [pair.opponent for pair in against if _lost_all_rows(pair)],
    }


class MauBinhAdapter(GameAdapter):
    code = "maubinh"
    name = gettext_lazy("Mau Binh")
    bet_types = (BET_TYPE,)
    version_model = MauBinhRulesetVersion

    # The game's parts, each in its own module (imported when first asked, after every app
    # is loaded: they import the floor's screens, API and admin).

    @cached_property
    def console(self) -> GameConsole:
        from maubinh.console import CONSOLE

        return CONSOLE

    @cached_property
    def api(self) -> GameApi:
        from maubinh.api import API

        return API

    @cached_property
    def admin(self) -> GameAdmin:
        from maubinh.admin import ADMIN

        return ADMIN

    @cached_property
    def reports(self) -> GameReports:
        from maubinh.reports import REPORTS

        return REPORTS

    @cached_property
    def demo(self) -> GameDemo:
        from maubinh.demo import DEMO

        return DEMO

    # The rules of a version: its row bonuses and instant wins beside its fields.

    rule_fields = RULE_FIELDS
    rule_relations = ("row_bonuses", "instant_wins")

    def rules_copy(self, version: MauBinhRulesetVersion, draft: MauBinhRulesetVersion) -> None:
        """The fields, then a copy of each row bonus and instant win."""
        super().rules_copy(version, draft)
        RowBonus.objects.bulk_create(
            RowBonus(version=draft, row=b.row, category=b.category, chi=b.chi)
            for b in version.row_bonuses.all()
        )
        InstantWinAmount.objects.bulk_create(
            InstantWinAmount(version=draft, kind=w.kind, chi=w.chi)
            for w in version.instant_wins.all()
        )

    def rules_as_dict(self, version: MauBinhRulesetVersion) -> dict[str, Any]:
        """The rules as plain data, shaped like ``maubinh.engine.presets.PRESET_DATA``."""
        return {
            **super().rules_as_dict(version),
            "row_bonuses": {
                f"{b.row}:{b.category}": b.chi
                for b in sorted(version.row_bonuses.all(), key=lambda b: (b.row, b.category))
            },
            "instant_wins": {
                w.kind: w.chi for w in sorted(version.instant_wins.all(), key=lambda w: w.kind)
            },
        }

    def rule_errors(self, version: MauBinhRulesetVersion) -> list[str]:
        return ruleset_errors(version, version.row_bonuses.all(), version.instant_wins.all())

    def approval_figures(self, version: MauBinhRulesetVersion) -> tuple[dict, list[str]]:
        """The house take to store on approval, and what about the rules needs an override."""
        summary = figures_summary(
            figures_compute(version_id=version.pk),
            fee_rate=version.fee_rate,
            fee_basis=version.fee_basis,
        )
        return summary, figures_warnings(version)

    def snapshot(self, version: MauBinhRulesetVersion) -> engine.Ruleset:
        return cached_snapshot(version)

    def offered_bet_types(self, rules: engine.Ruleset) -> tuple[str, ...]:
        return self.bet_types

    integrity_tested = True

    def integrity_counts(self, result: RoundResult) -> IntegrityCounts:
        """Per seat dealt 13 cards: the strongest instant win its cards hold (``instant_win``,
        whatever the layout and whatever the venue pays) and its scoops by the cards
        (``scoop_balance``: ``"<given>/<taken>"``, the opponents its cards scoop and those
        that scoop it, each hand laid out by its cards alone), for its player; the same
        again by seat (``seat_...``: ``"<seat>:<category>"``, for the table's per-seat
        tests, whoever sits there); and every card dealt (the card test's one deck).
        docs/INTEGRITY.md, "Mau Binh"."""
        cards: list[str] = []
        keys: list[IntegrityKey] = []
        rows = {}
        for box in result.boxes:
            dealt = [card for card in box.cards.split() if card != "/"]
            cards += dealt
            if len(dealt) == HAND_SIZE:
                held = integrity.held_instant_win(dealt)
                keys.append(IntegrityKey("instant_win", held, box.position))
                keys.append(IntegrityKey("seat_instant_win", f"{box.position}:{held}"))
                rows[box.position] = integrity.cards_rows(dealt)
        if len(rows) > 1:
            for position, (given, taken) in integrity.scoops(rows).items():
                keys.append(IntegrityKey("scoop_balance", f"{given}/{taken}", position))
                keys.append(IntegrityKey("seat_scoop_balance", f"{position}:{given}/{taken}"))
        return IntegrityCounts(tuple(keys), tuple(cards))

    def integrity_expected(self, rules: engine.Ruleset) -> dict[str, dict[str, Fraction]]:
        """The exact shares of hands holding each instant win (the same under every ruleset:
        what the cards hold). The scoops need no figures: given and taken have the same
        mean."""
        return {"instant_win": integrity.instant_win_shares()}

    def evaluate_round(
        self, *, rules: engine.Ruleset, dealer_cards: str, boxes: Sequence[BoxInput]
    ) -> RoundResult:
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
        stake = _table_stake(boxes, rules)
        arrangements: dict[int, tuple[tuple[Card, ...], ...]] = {}
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
        ordered = sorted(boxes, key=lambda box: box.position)
        undeclared = _undeclared(boxes, arrangements, rules)
        try:
            table = engine.settle_table(
                {box.position: arrangements.get(box.position) for box in ordered},
                stake,
                rules,
                quitters=[box.position for box in ordered if box.quit],
                undeclared=undeclared,
            )
        except ValueError as error:  # checked above; kept so nothing escapes unexplained
            raise RoundInputError(str(error), field="boxes") from None
        results = []
        for box in ordered:
            seat = table.seats[box.position]
            results.append(
                BoxResult(
                    position=box.position,
                    cards=" / ".join(format_cards(row) for row in arrangements[box.position])
                    if box.position in arrangements
                    else "",
                    evaluation=seat_evaluation(
                        seat,
                        table.against(box.position),
                        rules,
                        undeclared=box.position in undeclared,
                    ),
                    bets=(
                        BetResult(
                            bet_type=BET_TYPE,
                            stake=stake,
                            deposit_required=_NO_DEPOSIT,
                            outcome="win" if seat.net > 0 else "lose" if seat.net < 0 else "push",
                            odds=Decimal(seat.chi),
                            gross=seat.gross,
                            commission=seat.fee,
                            net=seat.net,
                        ),
                    ),
                )
            )
        dealt, paid = self.round_orders(boxes)
        return RoundResult(
            dealer_cards="",
            dealer_evaluation=None,
            boxes=tuple(results),
            deal_order=dealt,
            payment_order=paid,
        )

    def round_orders(self, boxes: Sequence[BoxInput]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Seats are dealt and paid in seat order."""
        positions = tuple(sorted(box.position for box in boxes))
        return positions, positions

    def ledger_lines(self, result: RoundResult) -> list[LedgerLine]:
        """Per seat: its result moves between the players (the seats' results sum to zero),
        then its table fee from the player to the house. Zero amounts are not posted."""
        lines: list[LedgerLine] = []
        for box in result.boxes:
            for bet in box.bets:
                if bet.gross:
                    lines.append(
                        LedgerLine(
                            Account.PLAYER,
                            EntryKind.STAKE_RESULT,
                            bet.gross,
                            box.position,
                            BET_TYPE,
                        )
                    )
                if bet.commission:
                    lines.append(
                        LedgerLine(
                            Account.PLAYER, EntryKind.FEE, -bet.commission, box.position, BET_TYPE
                        )
                    )
                    lines.append(
                        LedgerLine(
                            Account.HOUSE, EntryKind.FEE, bet.commission, box.position, BET_TYPE
                        )
                    )
        return lines


def _undeclared(
    boxes: Sequence[BoxInput],
    arrangements: dict[int, tuple[tuple[Card, ...], ...]],
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


def _table_stake(boxes: Sequence[BoxInput], rules: engine.Ruleset) -> Decimal:
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
