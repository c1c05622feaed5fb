"""What makes a Niu Niu paytable complete and sane, in words a venue manager can act on.

Used by the admin's forms (before saving) and by approval (before anything goes live).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Protocol

from django.utils.translation import gettext as _

from casino.kernel.money import plain
from niuniu.engine.rules import BetType, Category
from niuniu.models import BET_TYPE_LABELS, CATEGORY_LABELS


class VersionLike(Protocol):
    def enabled_bet_types(self) -> list[BetType]: ...
    def enabled_categories(self) -> list[Category]: ...
    def deposit_multiple(self, bet_type: BetType) -> Decimal: ...


class RowLike(Protocol):
    bet_type: str
    category: str
    win_odds: Decimal | None
    commission_rate: Decimal | None
    loss_multiple: Decimal | None


class LineLike(Protocol):
    position: int | None
    name: str
    odds: Decimal | None


def _label(bet_type: str, category: str) -> str:
    return f"{BET_TYPE_LABELS[BetType(bet_type)]} / {CATEGORY_LABELS[Category[category]]}"


def paytable_errors(
    version: VersionLike, rows: Iterable[RowLike], bonus_lines: Iterable[LineLike] = ()
) -> list[str]:
    """Every reason the paytable cannot be approved; empty when it is complete and sane."""
    errors: list[str] = []
    seen: set[tuple[str, str]] = set()
    for row in rows:
        key = (row.bet_type, row.category)
        where = _label(*key)
        if key in seen:
            errors.append(_("%(where)s: there are two rows; keep one.") % {"where": where})
            continue
        seen.add(key)
        if row.win_odds is None or row.win_odds < 0:
            errors.append(_("%(where)s: win odds must be 0 or more.") % {"where": where})
        if row.commission_rate is None or not 0 <= row.commission_rate <= 1:
            errors.append(
                _("%(where)s: commission rate must be between 0 and 1 (0.05 is 5%%).")
                % {"where": where}
            )
        deposit = version.deposit_multiple(BetType(row.bet_type))
        if row.loss_multiple is None or not 1 <= row.loss_multiple <= deposit:
            errors.append(
                _(
                    "%(where)s: loss multiple must be between 1 and the deposit multiple "
                    "(%(deposit)s)."
                )
                % {"where": where, "deposit": plain(deposit)}
            )
    for bet_type in version.enabled_bet_types():
        missing = [c for c in version.enabled_categories() if (bet_type.value, c.name) not in seen]
        if missing:
            names = ", ".join(str(CATEGORY_LABELS[c]) for c in missing)
            errors.append(
                _(
                    "%(bet)s has no row for %(names)s: every hand needs a row for every bet type "
                    "offered."
                )
                % {"bet": BET_TYPE_LABELS[bet_type], "names": names}
            )
    positions: set[int] = set()
    for line in bonus_lines:
        if line.position in positions:
            errors.append(
                _("Bonus line %(position)s appears twice; number the lines 1, 2, 3...")
                % {"position": line.position}
            )
        positions.add(line.position)
        if line.odds is None or line.odds < 0:
            errors.append(_("Bonus line '%(name)s': odds must be 0 or more.") % {"name": line.name})
    return errors
