"""What a drop box holds as a counter counts it: bank notes by the venue's notes, other
instruments (a cheque, a voucher) by what they are and their amount, each read from what the
counter typed and cleaned; and how a second count differs from the first. The chips are read
by the floor's ``chips_total``, as a session's are. casino.count.services records the counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _

from casino.count.models import BoxCount
from casino.floor.services.sessions import MAX_CHIPS, SESSION_TOTAL_LIMIT
from casino.kernel.amounts import check_amount
from casino.kernel.errors import InvalidInput
from casino.kernel.money import plain, to_decimal
from casino.venues.models import Venue

#: The longest description of another instrument (a cheque, a voucher, a coupon).
MAX_WHAT = 120
_ZERO = Decimal(0)


def read_notes(
    values: Mapping[str, Any] | None, denominations: Sequence[str], *, field: str
) -> tuple[dict[str, int], Decimal]:
    """A count of bank notes (denomination -> number of notes), cleaned, with its total."""
    if values is None:
        return {}, _ZERO
    if not isinstance(values, Mapping):
        raise InvalidInput(
            _("give the notes as an object of denomination -> number of notes"), field=field
        )
    allowed = {to_decimal(d): d for d in denominations}
    clean: dict[str, int] = {}
    total = _ZERO
    for denomination, count in values.items():
        try:
            value = to_decimal(str(denomination))
        except (TypeError, ValueError):
            value = None
        if value not in allowed:
            raise InvalidInput(
                _("%(value)s is not a bank note of this venue; its notes are %(notes)s")
                % {"value": denomination, "notes": ", ".join(denominations) or "-"},
                field=f"{field}.{denomination}",
            )
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_CHIPS:
            raise InvalidInput(
                _("the number of %(value)s notes is a whole number from 0 to %(most)s")
                % {"value": denomination, "most": MAX_CHIPS},
                field=f"{field}.{denomination}",
            )
        if count:
            clean[allowed[value]] = clean.get(allowed[value], 0) + count
        total += value * count
    return clean, total


def read_others(
    values: Sequence[Mapping[str, Any]] | None, venue: Venue
) -> tuple[list[dict[str, str]], Decimal]:
    """Other instruments: each a description and a positive amount of ``venue``."""
    if not values:
        return [], _ZERO
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Sequence):
        raise InvalidInput(
            _('give the other instruments as a list of {"what": ..., "amount": ...}'),
            field="others",
        )
    clean: list[dict[str, str]] = []
    total = _ZERO
    for index, item in enumerate(values):
        field = f"others[{index}]"
        what = str((item or {}).get("what", "")).strip() if isinstance(item, Mapping) else ""
        if not what or len(what) > MAX_WHAT:
            raise InvalidInput(
                _(
                    "say what the instrument is (a cheque, a voucher...), in at most %(most)s "
                    "characters"
                )
                % {"most": MAX_WHAT},
                field=f"{field}.what",
            )
        amount = check_amount(item.get("amount"), venue, field=f"{field}.amount")
        if amount <= 0 or amount >= SESSION_TOTAL_LIMIT:
            raise InvalidInput(
                _("the amount of %(what)s is an amount more than 0, e.g. 500000") % {"what": what},
                field=f"{field}.amount",
            )
        clean.append({"what": what, "amount": plain(amount)})
        total += amount
    return clean, total


def count_differences(first: BoxCount, second: Mapping[str, Any]) -> dict[str, Any]:
    """Second - first, per note and chip denomination (only those that differ) and for
    the other instruments' total; ``agrees`` when nothing differs."""
    notes = {
        d: second["notes"].get(d, 0) - first.notes.get(d, 0)
        for d in sorted({*first.notes, *second["notes"]}, key=to_decimal, reverse=True)
    }
    chips = {
        d: second["chips"].get(d, 0) - first.chips.get(d, 0)
        for d in sorted({*first.chips, *second["chips"]}, key=to_decimal, reverse=True)
    }
    first_others = sum((to_decimal(o["amount"]) for o in first.others), _ZERO)
    second_others = sum((to_decimal(o["amount"]) for o in second["others"]), _ZERO)
    notes = {d: n for d, n in notes.items() if n}
    chips = {d: n for d, n in chips.items() if n}
    others = second_others - first_others
    return {
        "notes": notes,
        "chips": chips,
        "others": others,
        "total": second["total"] - first.total,
        "agrees": not notes and not chips and not others,
    }
