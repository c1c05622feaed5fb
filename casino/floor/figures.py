"""The figures of a table's play, each defined once: every surface (the console's close
screen and summary, the count's pages, the shift report and its files, the dashboard, the
periods, the API) takes a figure from here, and a page says which definition it uses
with ``DEFINITIONS``.

- **Drop**: what the players gave the table for chips, as counted: the drops the pit
  entered at the table and the count's (each box's second count, posted to the box's last
  session), reversals included.
- **Win by count** (MICS): closer - opener + credits - fills + drop.
- **Win by ledger** (the house's settled win): what the settled rounds moved to the
  house in the ledger; voided rounds move nothing.
- **Variance**: win by count - win by ledger. A session's stored variance is the one at
  its close; once its box is counted, the counted figures stand beside it (``counted``).
- **Handle**: the stakes of the settled bets. **Hold %**: the house's settled win over
  the handle. **Win/drop %**: win by count over the drop.
- **Theoretical win**: stake x house edge of the bet type under the round's ruleset
  version; a fee game's is its fee.
- **Average bet**: the handle over the bets; over several lines (a rating by hand has an
  average bet and a time, no handle), each line's average bet weighted by its minutes.
- **Actual win** (of a player): the house's win from the player: what they lost in the
  games the house banks, plus the fees the fee games took from them (what they lost to
  other players there is not the house's); a rating by hand: the win it records.
- **Tray expected** at close: opener + fills - credits + the house's net chips from
  settled rounds - chips sold at the table (buy-ins) + chips bought back (cash-outs).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery, Sum
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from casino import games
from casino.floor import answers
from casino.floor.models import TableSession
from casino.ledger.models import Account, Drop, LedgerEntry

ZERO = Decimal(0)
CENT = Decimal("0.01")

#: What each figure means, in the reader's language, for the pages that show it.
DEFINITIONS: dict[str, Promise] = {
    "drop": _(
        "Drop: what the players gave the table for chips, as counted (the pit's drops at "
        "the table and the count's)."
    ),
    "win_by_count": _("Win by count = closer − opener + credits − fills + drop."),
    "win_by_ledger": _(
        "Win by ledger: what the settled rounds moved to the house; voided rounds move nothing."
    ),
    "variance": _("Variance = win by count − win by ledger."),
    "handle": _("Handle: the stakes of the settled bets."),
    "hold_pct": _("Hold % = the house's win of settled bets over the handle."),
    "win_drop_pct": _("Win/drop % = win by count over the drop."),
    "theoretical_win": _("Theoretical win = stake × house edge of the ruleset played."),
    "average_bet": _(
        "Average bet = handle over the bets; over several lines, each line's average bet "
        "weighted by its minutes (a rating by hand has no handle)."
    ),
    "actual_win": _(
        "Actual win: the house's from the player: their loss where the house banks, the "
        "fees they paid where players play each other."
    ),
    "tray_expected": _(
        "Tray expected = opener + fills − credits + the house's net chips from settled rounds "
        "− chips sold at the table + chips bought back at the table."
    ),
}


def pct(part: Decimal | None, whole: Decimal | None) -> Decimal | None:
    """``part`` over ``whole`` in percent, to the cent; None without a whole."""
    if part is None or not whole:
        return None
    return (part * 100 / whole).quantize(CENT, rounding=ROUND_HALF_EVEN)


def win_by_count(
    *, opener: Decimal, closer: Decimal, fills: Decimal, credits: Decimal, drop: Decimal
) -> Decimal:
    """Win by count (MICS) = closer - opener + credits - fills + drop."""
    return closer - opener + credits - fills + drop


def variance(*, win_by_count: Decimal, win_by_ledger: Decimal) -> Decimal:
    """Variance = win by count - win by ledger."""
    return win_by_count - win_by_ledger


def house_win(player_result: Decimal | None) -> Decimal:
    """The house's settled win: what the players lost (their net, negated)."""
    return -(player_result or ZERO)


def hold_pct(house_win: Decimal | None, handle: Decimal | None) -> Decimal | None:
    """Hold % = the house's settled win over the handle."""
    return pct(house_win, handle)


def win_drop_pct(win: Decimal | None, drop: Decimal | None) -> Decimal | None:
    """Win/drop % = win by count over the drop."""
    return pct(win, drop)


def theoretical_win(stake: Decimal, edge: Decimal) -> Decimal:
    """Theoretical win = stake x house edge."""
    return stake * edge


def average_bet(handle: Decimal | None, bets: int | None) -> Decimal | None:
    """Average bet = the handle over the bets, to the cent; None without bets."""
    if not bets:
        return None
    return ((handle or ZERO) / bets).quantize(CENT, rounding=ROUND_HALF_EVEN)


def average_bet_over_time(lines: Iterable[tuple[Decimal | None, int]]) -> Decimal | None:
    """The average bet of several lines, each ``(average bet, minutes)``: weighted by the
    minutes of the lines that have one, to the cent; None when none has both."""
    weighted, timed = ZERO, 0
    for bet, minutes in lines:
        if bet is not None:
            weighted += bet * minutes
            timed += minutes
    return (weighted / timed).quantize(CENT, rounding=ROUND_HALF_EVEN) if timed else None


def actual_win(*, banked_result: Decimal | None, fees: Decimal | None) -> Decimal:
    """A player's actual win (the house's from them): what they lost in the games the
    house banks (``house_win`` of their result there) plus the fees the fee games took
    from them (what they lost to other players there is no win of the house's)."""
    return house_win(banked_result) + (fees or ZERO)


def _ledger_won() -> QuerySet[LedgerEntry]:
    """The ledger entries a win by ledger sums: the house's side of settled rounds."""
    return LedgerEntry.objects.filter(round__isnull=False, account=Account.HOUSE)


def win_by_ledger_of_session() -> Subquery:
    """Win by ledger of the session an annotation is made on (``OuterRef("pk")``), in the
    query that reads the sessions; None while its rounds moved nothing."""
    return Subquery(
        _ledger_won()
        .filter(session=OuterRef("pk"))
        .order_by()
        .values("session")
        .annotate(total=Sum("amount"))
        .values("total")
    )


def wins_by_ledger(session_ids: Iterable[int]) -> dict[int, Decimal]:
    """Win by ledger per session so far (one query): what its settled rounds moved to the
    house; a session without any is left out (its win is 0)."""
    return dict(
        _ledger_won()
        .filter(session_id__in=list(session_ids))
        .order_by()
        .values_list("session_id")
        .annotate(total=Sum("amount"))
    )


def drops_by_session(session_ids: Iterable[int]) -> dict[int, Decimal]:
    """The drop per session so far (one query): every drop entered or counted, reversals
    included; a session without any is left out (its drop is 0)."""
    return dict(
        Drop.objects.filter(session_id__in=list(session_ids))
        .order_by()
        .values_list("session_id")
        .annotate(total=Sum("amount"))
    )


def session_sums(session: TableSession) -> dict[str, Decimal]:
    """A session's movements so far (sums in the database): verified fills and credits,
    every drop and the count's part of it, the win by ledger, and the chips the table sold
    and bought back (buy-ins and cash-outs not voided, paid other than in chips: the cage's
    answers, ``casino.floor.answers``)."""
    drops = Drop.objects.filter(session=session).aggregate(
        total=Sum("amount"), counted=Sum("amount", filter=Q(drop_box__isnull=False))
    )
    won = _ledger_won().filter(session=session).aggregate(total=Sum("amount"))["total"]
    cage = answers.session_sums(session)
    return {
        "fills": cage["fills"],
        "credits": cage["credits"],
        "drop": drops["total"] or ZERO,
        "counted_drop": drops["counted"] or ZERO,
        "win_by_ledger": won or ZERO,
        "chips_sold": cage["chips_sold"],
        "chips_bought_back": cage["chips_bought_back"],
    }


@dataclass(frozen=True)
class TrayExpected:
    """The tray a closing count should find, line by line."""

    opener: Decimal
    fills: Decimal
    credits: Decimal
    house_net: Decimal
    chips_sold: Decimal
    chips_bought_back: Decimal

    @property
    def total(self) -> Decimal:
        return (
            self.opener
            + self.fills
            - self.credits
            + self.house_net
            - self.chips_sold
            + self.chips_bought_back
        )

    def lines(self) -> list[tuple[str, Promise, Decimal]]:
        """(key, label, signed amount) in the order the tray is worked out."""
        return [
            ("opener", _("Opener"), self.opener),
            ("fills", _("+ Fills"), self.fills),
            ("credits", _("− Credits"), -self.credits),
            ("house_net", _("+ House's net chips from settled rounds"), self.house_net),
            ("chips_sold", _("− Chips sold at the table (buy-ins)"), -self.chips_sold),
            (
                "chips_bought_back",
                _("+ Chips bought back at the table (cash-outs)"),
                self.chips_bought_back,
            ),
        ]


def tray_expected(*, opener: Decimal, sums: dict[str, Decimal]) -> TrayExpected:
    """Tray expected = opener + fills - credits + house net chips - chips sold + chips
    bought back (``sums`` as ``session_sums`` gives them)."""
    return TrayExpected(
        opener=opener,
        fills=sums["fills"],
        credits=sums["credits"],
        house_net=sums["win_by_ledger"],
        chips_sold=sums["chips_sold"],
        chips_bought_back=sums["chips_bought_back"],
    )


@dataclass(frozen=True)
class Counted:
    """A closed session's figures with its box's count, beside those stored at close."""

    counted: bool  # its box's count is posted (else: "drop not counted yet")
    counted_drop: Decimal  # the count's drop posted to the session after its close
    drop: Decimal
    win_by_count: Decimal
    variance: Decimal


def with_count(
    session: TableSession, *, counted_drop: Decimal, box_counted: bool, settles: bool = True
) -> Counted | None:
    """The stored close figures of ``session`` with the count's drop added (None while it
    is open). A game that settles no rounds has no variance to explain."""
    if session.status == TableSession.Status.OPEN or session.win_by_count is None:
        return None
    win = (session.win_by_count or ZERO) + counted_drop
    return Counted(
        counted=box_counted,
        counted_drop=counted_drop,
        drop=(session.drop_total or ZERO) + counted_drop,
        win_by_count=win,
        variance=(
            variance(win_by_count=win, win_by_ledger=session.win_by_ledger or ZERO)
            if settles
            else ZERO
        ),
    )


def with_count_sums(sessions: QuerySet[TableSession]) -> QuerySet[TableSession]:
    """``sessions`` annotated with what ``with_count`` needs, in the same query:
    ``counted_drop_sum`` (the count's drops posted to it) and ``box_counted``."""
    counted = (
        Drop.objects.filter(session=OuterRef("pk"), drop_box__isnull=False)
        .order_by()
        .values("session")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    return sessions.annotate(
        counted_drop_sum=Subquery(counted),
        box_counted=answers.box_counted(),
    )


def counted_of(session: TableSession) -> Counted | None:
    """``with_count`` of a session read through ``with_count_sums``."""
    return with_count(
        session,
        counted_drop=getattr(session, "counted_drop_sum", None) or ZERO,
        box_counted=bool(getattr(session, "box_counted", False)),
        settles=games.get(session.table.game).settles_rounds,
    )


def sessions_counted(sessions: list[TableSession]) -> dict[int, Counted | None]:
    """``with_count`` for each session, in two queries."""
    ids = [s.pk for s in sessions]
    counted = dict(
        Drop.objects.filter(session_id__in=ids, drop_box__isnull=False)
        .values_list("session_id")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    boxed = set(
        TableSession.objects.filter(answers.box_counted(), pk__in=ids).values_list("pk", flat=True)
    )
    return {
        s.pk: with_count(
            s,
            counted_drop=counted.get(s.pk) or ZERO,
            box_counted=s.pk in boxed,
            settles=games.get(s.table.game).settles_rounds,
        )
        for s in sessions
    }


def session_counted(session: TableSession) -> Counted | None:
    return sessions_counted([session])[session.pk]


def figure_definitions(*keys: str) -> list[dict[str, Any]]:
    """The definitions of ``keys``, for a page's "how these figures are worked out"."""
    return [{"key": key, "text": DEFINITIONS[key]} for key in keys]
