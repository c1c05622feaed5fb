"""Mau Binh as the floor sees it: the adapter registered in ``casino.games``.

A round's boxes are the seats (2 to 4 players; no dealer hand), read and checked by
``maubinh.seats``. Each seat enters its 13 cards as the three rows it laid out, back first,
separated by ``/``::

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

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from typing import Any

from django.utils.translation import gettext_lazy

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
from casino.kernel.cards import format_cards
from casino.ledger.models import Account, EntryKind
from maubinh import engine
from maubinh.engine import integrity
from maubinh.evaluation import seat_evaluation
from maubinh.house_take import figures_compute, figures_summary, figures_warnings
from maubinh.models import RULE_FIELDS, InstantWinAmount, MauBinhRulesetVersion, RowBonus
from maubinh.seats import (
    BET_TYPE,
    HAND_SIZE,
    Rows,
    check_players,
    read_seats,
    table_stake,
    undeclared_seats,
)
from maubinh.selectors import cached_snapshot
from maubinh.validation import ruleset_errors

_NO_DEPOSIT = Decimal(0)


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
        check_players(dealer_cards, boxes)
        stake = table_stake(boxes, rules)
        arrangements = read_seats(boxes)
        ordered = sorted(boxes, key=lambda box: box.position)
        undeclared = undeclared_seats(boxes, arrangements, rules)
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
        dealt, paid = self.round_orders(boxes)
        return RoundResult(
            dealer_cards="",
            dealer_evaluation=None,
            boxes=tuple(
                _box_result(
                    box.position,
                    table,
                    arrangements.get(box.position),
                    stake,
                    rules,
                    undeclared=box.position in undeclared,
                )
                for box in ordered
            ),
            deal_order=dealt,
            payment_order=paid,
        )

    def round_orders(self, boxes: Sequence[BoxInput]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Seats are dealt and paid in seat order."""
        positions = tuple(sorted(box.position for box in boxes))
        return positions, positions

    def declared_of(self, evaluation: Mapping[str, Any] | None) -> bool | None:
        """A seat's instant win was declared when its evaluation holds it, left undeclared
        when it holds it as ``undeclared_instant_win`` (``maubinh.evaluation``); None when
        the hand held none."""
        if not evaluation:
            return None
        if evaluation.get("instant_win"):
            return True
        if evaluation.get("undeclared_instant_win"):
            return False
        return None

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


def _box_result(
    position: int,
    table: engine.TableSettlement,
    rows: Rows | None,
    stake: Decimal,
    rules: engine.Ruleset,
    *,
    undeclared: bool,
) -> BoxResult:
    """A seat's settled result as the floor stores it on its box: its one bet, the table
    stake, won or lost by its chi, less its table fee."""
    seat = table.seats[position]
    return BoxResult(
        position=position,
        cards=" / ".join(format_cards(row) for row in rows) if rows is not None else "",
        evaluation=seat_evaluation(seat, table.against(position), rules, undeclared=undeclared),
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
