"""Settling one box's bets against the dealer (docs/RULES.md A2, A3, A5).

Amounts are signed from the player's point of view: a win is positive, a loss negative.
The house's side of every line is the opposite amount, so a box always sums to zero.

Long because a box is settled on one page, in the order it runs: the checks of its stakes,
hands and deposits, then its lines, with their doctests; both ways in (``settle_box`` from
cards, ``settle_hands`` from hands a round evaluated once) share every step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from casino.kernel.cards import Card, check_distinct
from casino.kernel.money import round_to_unit, to_decimal
from niuniu.engine.bonus import winning_line
from niuniu.engine.hands import Hand, compare, evaluate
from niuniu.engine.rules import BetType, BonusLine, Category, PaytableRow, Ruleset

#: The order bets are settled and listed in: the bonus is settled before the others (seed 001).
SETTLEMENT_ORDER: tuple[BetType, ...] = (
    BetType.BONUS,
    BetType.SINGLE,
    BetType.DOUBLE,
    BetType.SUPER,
)
_ZERO = Decimal(0)
_ONE = Decimal(1)

Outcome = Literal["win", "lose"]


class SettlementError(ValueError):
    """A box that cannot be settled as given; ``field`` names what is wrong.

    ``field`` is a bet type (``"single"``, ``"double"``, ...) for a stake,
    ``"deposits.<bet type>"`` for a deposit,
    ``"player_cards"`` / ``"dealer_cards"`` for a hand, ``"cards"`` for a card in both.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str,
        code: str = "",
        params: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.field = field
        #: The rule that refused (``single_needed``...), and the message's figures by name, so
        #: an interface can say it in its reader's language; "" for a malformed input.
        self.code = code
        self.params = dict(params or {})


@dataclass(frozen=True)  # made by _line (no slots: filled in through its __dict__)
class BetLine:
    """How one bet settled.

    ``category`` is the hand that decided it (the player's on a win, the dealer's on a
    loss, the player's for the bonus); ``odds`` is the win odds or the loss multiple used.
    ``gross`` is +stake x win odds or -stake x loss multiple; ``commission`` (>= 0, winnings
    only) is already rounded to the rounding unit in the ruleset's rounding mode;
    ``net = gross - commission``.
    """

    bet_type: BetType
    stake: Decimal
    outcome: Outcome
    category: Category
    odds: Decimal
    gross: Decimal
    commission: Decimal
    net: Decimal
    deposit_required: Decimal
    #: The bonus line that paid (bonus bets only).
    bonus_line: BonusLine | None = None

    @property
    def house_net(self) -> Decimal:
        """The house's side: what it pays out (-gross) plus the commission it keeps."""
        return self.commission - self.gross


@dataclass(frozen=True)  # no slots: made as _line makes a BetLine
class BoxSettlement:
    """One box settled against the dealer; ``lines`` in settlement order (bonus first)."""

    player: Hand
    dealer: Hand
    player_wins: bool
    lines: tuple[BetLine, ...]

    @property
    def total_stake(self) -> Decimal:
        return sum((line.stake for line in self.lines), _ZERO)

    @property
    def total_net(self) -> Decimal:
        """The player's net result for the box (signed)."""
        return sum((line.net for line in self.lines), _ZERO)

    @property
    def total_commission(self) -> Decimal:
        return sum((line.commission for line in self.lines), _ZERO)

    @property
    def house_net(self) -> Decimal:
        """The house's net result for the box; always ``-total_net``."""
        return sum((line.house_net for line in self.lines), _ZERO)

    @property
    def total_deposit_required(self) -> Decimal:
        return sum((line.deposit_required for line in self.lines), _ZERO)

    def line(self, bet_type: BetType | str) -> BetLine | None:
        """The line of one bet type, or None when that bet was not placed."""
        wanted = BetType(bet_type)
        return next((line for line in self.lines if line.bet_type is wanted), None)


def deposit_multiple(rules: Ruleset, bet_type: BetType) -> Decimal:
    """The deposit a player shows for a bet, as a multiple of the stake of its deposit
    basis (:meth:`Ruleset.deposit_basis`: its own stake unless the rules say another bet's).

    The ruleset's ``deposit_multiples`` when set; otherwise the largest loss multiple of the
    bet's paytable (docs/RULES.md A3: the deposit covers the largest possible loss), and 1 for
    the bonus.
    """
    terms = rules.deposit_terms.get(bet_type)
    return terms[1] if terms is not None else _ONE


def settle_box(
    player_cards: Iterable[Card] | str,
    dealer_cards: Iterable[Card] | str,
    stakes: Mapping[BetType | str, Decimal | int | str],
    rules: Ruleset,
    *,
    deposits: Mapping[BetType | str, Decimal | int | str] | None = None,
) -> BoxSettlement:
    """Settle one box's bets against the dealer's hand.

    ``stakes`` maps bet types to stakes; a ``single`` is required on every box. Stakes must
    be positive multiples of ``rules.rounding_unit`` on bet types the ruleset offers. A bet's
    ``deposit_required`` is its deposit multiple times the stake of its deposit basis, which
    must then be placed too (sheets 000/004: "10 times the Double Bet"). With ``deposits``
    (bet type -> the deposit the player shows), each must cover ``deposit_required``; a bet
    type missing from ``deposits`` shows just its stake.

    Player wins: gross = stake x win odds of the player's category; the commission is
    commission rate x gross rounded to ``rules.rounding_unit`` as ``rules.rounding_mode``
    says (up, the rule sheets' way, unless the ruleset says otherwise), never more than gross.
    Dealer wins: net = -stake x loss multiple of the dealer's category. The bonus pays
    stake x odds of the best bonus line the player's cards meet, else loses the stake.

    >>> from niuniu.engine import presets
    >>> box = settle_box(
    ...     "KS QS 5H 4H TC", "JS QH JD AC 7H",    # Niu 9 against Niu 8
    ...     {"single": Decimal("100"), "double": Decimal("100")},
    ...     presets.get("vn-kr-004"),
    ... )
    >>> for line in box.lines:
    ...     print(line.bet_type, line.outcome, line.gross, line.commission, line.net)
    single win 100 5 95
    double win 200 10 190
    >>> box.total_net
    Decimal('285')

    5% of a single won at 150,000 is 7,500; at a unit of 1,000 each rounding mode takes:

    >>> vnd = presets.get("vn-kr-004").with_rounding_unit(Decimal("1000"))
    >>> for mode in ("up", "half_up", "down", "none"):
    ...     box = settle_box("KS QS 5H 4H TC", "JS QH JD AC 7H", {"single": Decimal("150000")},
    ...                      vnd.with_rounding(vnd.rounding_unit, mode))
    ...     print(mode, box.lines[0].commission, box.lines[0].net)
    up 8000 142000
    half_up 8000 142000
    down 7000 143000
    none 7500.00 142500.00
    """
    placed = _check_stakes(stakes, rules)
    player = _hand(player_cards, rules, "player_cards")
    dealer = _hand(dealer_cards, rules, "dealer_cards")
    return _settled(player, dealer, placed, rules, deposits)


def settle_hands(
    player: Hand,
    dealer: Hand,
    stakes: Mapping[BetType | str, Decimal | int | str],
    rules: Ruleset,
    *,
    deposits: Mapping[BetType | str, Decimal | int | str] | None = None,
    distinct: bool = False,
) -> BoxSettlement:
    """:func:`settle_box` for hands already evaluated under ``rules`` (``evaluate``): a
    round's dealer hand is evaluated once for all its boxes. The same checks (the stakes,
    no card in both hands, the deposits) and the same settlement; ``distinct``: the caller
    has checked already that the two hands share no card (a round checks all its hands at
    once), so it is not checked again.

    >>> from niuniu.engine import presets
    >>> rules = presets.get("vn-kr-004")
    >>> player, dealer = evaluate("KS QS 5H 4H TC", rules), evaluate("JS QH JD AC 7H", rules)
    >>> settle_hands(player, dealer, {"single": Decimal("100")}, rules).total_net
    Decimal('95')
    """
    return _settled(player, dealer, _check_stakes(stakes, rules), rules, deposits, distinct)


def _settled(
    player: Hand,
    dealer: Hand,
    placed: dict[BetType, Decimal],
    rules: Ruleset,
    deposits: Mapping[BetType | str, Decimal | int | str] | None,
    distinct: bool = False,
) -> BoxSettlement:
    if not distinct:
        # Distinct cards' masks (a bit each) neither overlap nor carry when summed.
        mine, theirs = player.cards, dealer.cards
        held, dealt = sum([card.mask for card in mine]), sum([card.mask for card in theirs])
        if held & dealt or (held | dealt).bit_count() != len(mine) + len(theirs):
            try:
                check_distinct({"the player's hand": mine, "the dealer's hand": theirs})
            except ValueError as error:
                raise SettlementError(str(error), field="cards") from None
    required = _deposits_required(placed, rules)
    if deposits is not None:
        _check_deposits(deposits, placed, required)

    player_wins = compare(player, dealer) > 0
    lines = []
    for bet_type in SETTLEMENT_ORDER:
        stake = placed.get(bet_type)
        if stake is None:
            continue
        if bet_type is BetType.BONUS:
            lines.append(_settle_bonus(player, stake, required[bet_type], rules))
            continue
        if player_wins:
            lines.append(_won(bet_type, stake, player.category, required[bet_type], rules))
        else:
            lines.append(_lost(bet_type, stake, dealer.category, required[bet_type], rules))
    settled = _new(BoxSettlement)
    settled.__dict__.update(
        player=player, dealer=dealer, player_wins=player_wins, lines=tuple(lines)
    )
    return settled


def _won(
    bet_type: BetType, stake: Decimal, category: Category, deposit_required: Decimal, rules: Ruleset
) -> BetLine:
    """A bet the player's hand won: the win odds of its ``category``, less the commission."""
    try:
        row = rules.paytable[bet_type][category]
    except KeyError:
        row = _row(rules, bet_type, category)  # names what is missing
    gross = stake * row.win_odds
    commission = commission_on(gross, row, rules)
    return _line(
        bet_type, stake, "win", category, row.win_odds, gross, commission, gross - commission,
        deposit_required,
    )  # fmt: skip


def _lost(
    bet_type: BetType, stake: Decimal, category: Category, deposit_required: Decimal, rules: Ruleset
) -> BetLine:
    """A bet the dealer's hand won: the stake times the loss multiple of the dealer's
    ``category``."""
    try:
        row = rules.paytable[bet_type][category]
    except KeyError:
        row = _row(rules, bet_type, category)  # names what is missing
    loss = -stake * row.loss_multiple
    return _line(
        bet_type, stake, "lose", category, row.loss_multiple, loss, _ZERO, loss, deposit_required
    )


_new = object.__new__


def _line(
    bet_type: BetType,
    stake: Decimal,
    outcome: Outcome,
    category: Category,
    odds: Decimal,
    gross: Decimal,
    commission: Decimal,
    net: Decimal,
    deposit_required: Decimal,
    bonus_line: BonusLine | None = None,
) -> BetLine:
    """``BetLine(...)`` filled in through its ``__dict__``: the frozen dataclass ``__init__``
    (one ``object.__setattr__`` a field) was the slowest part of settling a box (as
    ``evaluate`` makes a ``Hand``). The fields are exactly those of ``BetLine``."""
    line = _new(BetLine)
    line.__dict__.update(
        bet_type=bet_type,
        stake=stake,
        outcome=outcome,
        category=category,
        odds=odds,
        gross=gross,
        commission=commission,
        net=net,
        deposit_required=deposit_required,
        bonus_line=bonus_line,
    )
    return line


def commission_on(gross: Decimal, row: PaytableRow, rules: Ruleset) -> Decimal:
    """The commission on winnings ``gross`` paid by ``row``: the row's rate of it, rounded to
    the rules' unit in their rounding mode, never more than ``gross``.

    >>> from niuniu.engine import presets
    >>> vnd = presets.get("vn-kr-004").with_rounding(Decimal("1000"), "up")
    >>> commission_on(Decimal("1000"), vnd.row(BetType.SINGLE, Category.NIU_9), vnd)
    Decimal('1000')
    """
    return min(
        round_to_unit(gross * row.commission_rate, rules.rounding_unit, rules.rounding_mode),
        gross,
    )


def _deposits_required(placed: Mapping[BetType, Decimal], rules: Ruleset) -> dict[BetType, Decimal]:
    """Each placed bet's deposit: its multiple times the stake of its deposit basis.

    >>> from dataclasses import replace
    >>> from niuniu.engine import presets
    >>> rules = presets.get("vn-kr-004")
    >>> stakes = {BetType.SINGLE: Decimal(100), BetType.DOUBLE: Decimal(50),
    ...           BetType.SUPER: Decimal(20)}
    >>> _deposits_required(stakes, rules)[BetType.SUPER]  # 10 x its own 20
    Decimal('200')
    >>> on_double = replace(rules, deposit_bases={BetType.SUPER: BetType.DOUBLE})
    >>> _deposits_required(stakes, on_double)[BetType.SUPER]  # 10 x the Double's 50
    Decimal('500')
    """
    required = {}
    terms = rules.deposit_terms
    for bet_type in placed:
        basis, multiple = terms[bet_type]
        if basis not in placed:
            raise SettlementError(
                f"the {bet_type} deposit is a multiple of the {basis} stake: "
                f"place a {basis} bet on the same box",
                field=bet_type.value,
                code="deposit_basis_missing",
                params={"bet": bet_type.value, "basis": basis.value},
            )
        required[bet_type] = placed[basis] * multiple
    return required


def _row(rules: Ruleset, bet_type: BetType, category: Category) -> PaytableRow:
    try:
        return rules.row(bet_type, category)
    except KeyError:
        # A ruleset snapshot is validated when it is approved; this is a data error.
        raise ValueError(
            f"the ruleset {rules.code} has no {bet_type} row for {category.name}"
        ) from None


def _settle_bonus(
    player: Hand, stake: Decimal, deposit_required: Decimal, rules: Ruleset
) -> BetLine:
    line = winning_line(player, rules.bonus_lines)
    if line is None:
        outcome: Outcome = "lose"
        odds = _ONE
        gross = -stake
    else:
        outcome = "win"
        odds = line.odds
        gross = stake * odds
    return BetLine(
        bet_type=BetType.BONUS,
        stake=stake,
        outcome=outcome,
        category=player.category,
        odds=odds,
        gross=gross,
        commission=_ZERO,
        net=gross,
        deposit_required=deposit_required,
        bonus_line=line,
    )


#: Each bet type by its name (a ``BetType`` is its own name: a str).
_BET_TYPES: dict[str, BetType] = {bet_type.value: bet_type for bet_type in BetType}


def _bet_type(name: BetType | str) -> BetType:
    known = _BET_TYPES.get(name) if isinstance(name, str) else None
    if known is not None:
        return known
    try:
        return BetType(name)
    except ValueError:
        known = ", ".join(bet_type.value for bet_type in BetType)
        raise SettlementError(
            f"{name!r} is not a bet type: one of {known}", field=str(name)
        ) from None


def _amount(value: Decimal | int | str, bet_type: BetType, what: str) -> Decimal:
    try:
        return to_decimal(value)
    except (TypeError, ValueError) as error:
        raise SettlementError(f"the {bet_type} {what}: {error}", field=bet_type.value) from None


def _check_stakes(
    stakes: Mapping[BetType | str, Decimal | int | str], rules: Ruleset
) -> dict[BetType, Decimal]:
    placed: dict[BetType, Decimal] = {}
    offered = rules.bet_types
    unit = rules.rounding_unit
    known = _BET_TYPES.get
    for name, value in stakes.items():
        # A bet type's name and a finite Decimal (what every caller passes) read at once.
        bet_type = known(name) if isinstance(name, str) else None
        if bet_type is None:
            bet_type = _bet_type(name)
        if bet_type not in offered:
            raise SettlementError(
                f"the ruleset {rules.code} does not offer the {bet_type} bet; "
                f"it offers {', '.join(b.value for b in offered)}",
                field=bet_type.value,
                code="bet_not_offered",
                params={
                    "ruleset": rules.code,
                    "bet": bet_type.value,
                    "offered": ", ".join(b.value for b in offered),
                },
            )
        if type(value) is Decimal and value.is_finite():
            stake = value
        else:
            stake = _amount(value, bet_type, "stake")
        if stake <= 0:
            raise SettlementError(
                f"the {bet_type} stake must be positive, got {stake}",
                field=bet_type.value,
                code="stake_not_positive",
                params={"bet": bet_type.value, "stake": str(stake)},
            )
        if stake % unit:  # is_multiple: a ruleset's unit is positive
            raise SettlementError(
                f"the {bet_type} stake {stake} is not a multiple of the rounding unit {unit}",
                field=bet_type.value,
                code="stake_off_unit",
                params={"bet": bet_type.value, "stake": str(stake), "unit": str(unit)},
            )
        placed[bet_type] = stake
    if BetType.SINGLE not in placed:
        others = [bet_type.value for bet_type in SETTLEMENT_ORDER if bet_type in placed]
        if others:
            raise SettlementError(
                f"a {others[0]} bet needs a single bet on the same box",
                field=BetType.SINGLE.value,
                code="single_needed",
                params={"bet": others[0]},
            )
        raise SettlementError(
            "a box takes part in the round only with a single bet",
            field=BetType.SINGLE.value,
            code="single_missing",
        )
    return placed


def _hand(cards: Iterable[Card] | str, rules: Ruleset, field: str) -> Hand:
    try:
        # evaluate reads text and checks the cards as parse_cards(cards, count=5) does
        return evaluate(cards, rules)
    except (TypeError, ValueError) as error:
        whose = "player's" if field == "player_cards" else "dealer's"
        raise SettlementError(f"the {whose} hand: {error}", field=field) from None


def _check_deposits(
    deposits: Mapping[BetType | str, Decimal | int | str],
    placed: Mapping[BetType, Decimal],
    required: Mapping[BetType, Decimal],
) -> None:
    shown: dict[BetType, Decimal] = {}
    known = _BET_TYPES.get
    for name, value in deposits.items():
        bet_type = known(name) if isinstance(name, str) else None
        if bet_type is None:
            bet_type = _bet_type(name)
        if bet_type not in placed:
            raise SettlementError(
                f"a deposit is shown for a {bet_type} bet that is not placed",
                field=f"deposits.{bet_type.value}",
                code="deposit_not_placed",
                params={"bet": bet_type.value},
            )
        if type(value) is Decimal and value.is_finite():  # as to_decimal reads it
            shown[bet_type] = value
            continue
        try:
            shown[bet_type] = to_decimal(value)
        except (TypeError, ValueError) as error:
            raise SettlementError(
                f"the {bet_type} deposit: {error}", field=f"deposits.{bet_type.value}"
            ) from None
    for bet_type, stake in placed.items():
        # The chips on the box cover a loss of the stake itself.
        amount = shown.get(bet_type, stake)
        if amount < required[bet_type]:
            raise SettlementError(
                f"the {bet_type} bet of {stake} needs a deposit of {required[bet_type]} shown, "
                f"got {amount}",
                field=f"deposits.{bet_type.value}",
                code="deposit_short",
                params={
                    "bet": bet_type.value,
                    "stake": str(stake),
                    "required": str(required[bet_type]),
                    "shown": str(amount),
                },
            )
