"""What makes a Mau Binh ruleset complete and sane, in words a venue manager can act on.

Used by the admin's forms (before saving) and by approval (before anything goes live).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Protocol

from django.utils.translation import gettext as _

from casino.kernel.money import RATE_DECIMAL_PLACES, RATE_MAX_DIGITS
from maubinh.engine.rules import (
    FRONT_CATEGORIES,
    SHARED_AMOUNT_DIVISOR,
    InstantWin,
    Row,
    RowCategory,
    TiedInstantWins,
)
from maubinh.engine.settle import MAX_PLAYERS
from maubinh.models import CATEGORY_LABELS, INSTANT_WIN_LABELS, ROW_LABELS

#: The most opponents a seat has.
OPPONENTS = MAX_PLAYERS - 1
#: A round records a seat's chi as its bet's odds, a rate field: at most 999.9999.
MAX_SEAT_CHI = 10 ** (RATE_MAX_DIGITS - RATE_DECIMAL_PLACES) - 1


class VersionLike(Protocol):
    scoop_multiplier: int | None
    fee_rate: Decimal | None
    quit_penalty: int | None
    tied_instant_wins: str | None


class RowBonusLike(Protocol):
    row: str | None
    category: str | None
    chi: int | None


class InstantWinLike(Protocol):
    kind: str | None
    chi: int | None


def _row_label(row: str, category: str) -> str:
    return f"{ROW_LABELS[Row(row)]} / {CATEGORY_LABELS[RowCategory[category]]}"


def version_errors(version: VersionLike) -> list[str]:
    """The version's own fields (the form's field validators say the same, beside the field)."""
    errors = []
    if version.scoop_multiplier is None or version.scoop_multiplier < 1:
        errors.append(_("Scoop multiplier: 1 (no scoop rule) or more; 2 doubles a scoop."))
    if version.fee_rate is None or not Decimal(0) <= version.fee_rate < Decimal(1):
        errors.append(_("Table fee rate: from 0 up to, not including, 1 (0.05 is 5%)."))
    if version.quit_penalty is None or version.quit_penalty < 1:
        errors.append(
            _(
                "Quit penalty: a whole number of chi, 1 or more (a player who could quit for "
                "nothing would quit every weak hand)."
            )
        )
    return errors


def row_bonus_errors(rows: Iterable[RowBonusLike]) -> list[str]:
    """Each bonus names a row and a hand that row can hold, once, for a positive chi."""
    errors = []
    seen: set[tuple[str, str]] = set()
    for bonus in rows:
        if bonus.row is None or bonus.category is None:
            continue  # the form marks the empty field itself
        where = _row_label(bonus.row, bonus.category)
        key = (bonus.row, bonus.category)
        if key in seen:
            errors.append(_("%(where)s: there are two bonuses; keep one.") % {"where": where})
            continue
        seen.add(key)
        if bonus.row == Row.FRONT and RowCategory[bonus.category] not in FRONT_CATEGORIES:
            errors.append(
                _(
                    "%(where)s: the front row holds three cards, so it can only be Three of a "
                    "Kind, Pair or High Card."
                )
                % {"where": where}
            )
        if bonus.chi is None or bonus.chi < 1:
            errors.append(
                _("%(where)s: the bonus must be a whole number of chi, 1 or more.")
                % {"where": where}
            )
    return errors


def instant_win_errors(wins: Iterable[InstantWinLike]) -> list[str]:
    """Each instant win appears once, with 0 (not paid) or a positive number of chi."""
    errors = []
    seen: set[str] = set()
    for win in wins:
        if win.kind is None:
            continue
        label = INSTANT_WIN_LABELS[InstantWin(win.kind)]
        if win.kind in seen:
            errors.append(_("%(label)s: there are two amounts; keep one.") % {"label": label})
            continue
        seen.add(win.kind)
        if win.chi is None or win.chi < 0:
            errors.append(
                _("%(label)s: the amount must be a whole number of chi, 0 (not paid) or more.")
                % {"label": label}
            )
    return errors


def shared_amount_errors(version: VersionLike, wins: Iterable[InstantWinLike]) -> list[str]:
    """With tied instant wins sharing one payment, each amount splits evenly between two or
    three winners (the engine keeps chi whole)."""
    if version.tied_instant_wins != TiedInstantWins.SHARE:
        return []
    return [
        _(
            "%(label)s pays %(chi)s chi: tied winners share it between two or three, so with "
            "shared payments it must be a multiple of %(divisor)s (18, 72 and 78 are). Change "
            "the amount, or let each tied winner collect in full."
        )
        % {
            "label": INSTANT_WIN_LABELS[InstantWin(win.kind)],
            "chi": win.chi,
            "divisor": SHARED_AMOUNT_DIVISOR,
        }
        for win in wins
        if win.kind is not None and win.chi and win.chi % SHARED_AMOUNT_DIVISOR
    ]


def worst_case_chi(
    version: VersionLike, rows: Iterable[RowBonusLike], wins: Iterable[InstantWinLike]
) -> int:
    """The most chi one player can lose to one opponent in a round under these rules.

    The larger of: the biggest instant win; every row won with its biggest bonus (a plain
    win scores 1), times the scoop multiplier; the quit penalty.
    """
    best = {row: 1 for row in Row}
    for bonus in rows:
        if bonus.row is not None and bonus.chi is not None:
            best[Row(bonus.row)] = max(best[Row(bonus.row)], bonus.chi)
    scoop = version.scoop_multiplier or 1
    instant = max((win.chi or 0 for win in wins), default=0)
    return max(instant, sum(best.values()) * scoop, version.quit_penalty or 0)


def ruleset_errors(
    version: VersionLike, rows: Iterable[RowBonusLike], wins: Iterable[InstantWinLike]
) -> list[str]:
    """Every reason the rules cannot be approved; empty when they are complete and sane."""
    rows, wins = list(rows), list(wins)
    errors = [
        *version_errors(version),
        *row_bonus_errors(rows),
        *instant_win_errors(wins),
        *shared_amount_errors(version, wins),
    ]
    if not errors:
        worst = worst_case_chi(version, rows, wins) * OPPONENTS
        if worst > MAX_SEAT_CHI:
            errors.append(
                _(
                    "A player could win or lose %(worst)s chi in one round (against "
                    "%(opponents)s opponents); rounds record at most %(most)s: lower the largest "
                    "amounts."
                )
                % {"worst": worst, "opponents": OPPONENTS, "most": MAX_SEAT_CHI}
            )
    return errors
