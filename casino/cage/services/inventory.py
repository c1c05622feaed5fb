"""The cage's inventory by denomination: its shifts, its counts with two signatures, and the
window's and the vault's movements, each posted to the cage book
(``casino.cage.services.cage_book.cage_move``).

- ``cage_count_record``: a cashier or a manager counts the cage, to open a shift (none is
  open) or to close the open one. The count is compared with what the book says the cage
  holds: a difference needs a reason, or the count is refused.
- ``cage_count_sign``: a second person (a cashier or a manager, not the counter) signs the
  count. Signed, it opens or closes the shift, and a difference is posted against
  over/short (``count_adjustment``), so the book holds what was counted; a difference also
  tells integrity (``casino.cage.signals.cage_count_imbalance``), which opens an
  investigation. The venue's first signed count has nothing to be compared with: it is
  posted against the opening balance and opens nothing.
- ``chip_purchase`` and ``chip_redemption``: a patron buys chips with notes at the window,
  or cashes them in; the notes and the chips are worth the same, and count in the patron's
  day's cash (``casino.cage.services.patrons``: a threshold's cash is refused from nobody).
- ``vault_transfer``: notes and chips carried to the vault, or brought from it.
- ``slip_move``: a fill's chips leave the cage as the cashier issues it (and come back if
  the issued fill is voided), a credit's arrive as the cashier receives it; called by
  ``casino.cage.services.slips`` in its transaction.

Expected inventory = the opening count + every movement since (the book's cage account);
the closing count is compared with it by denomination.

Locking: every write locks the venue's row first (``select_for_update``), so the book's
movements and the counts are served one after another: a count reads the book under the
same lock the movements take. A slip's movement takes the slip's lock, then the venue's.

Every write is audited.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.inventory_selectors import (
    Holding,
    cage_inventory,
    denominations,
    has_been_counted,
    holding_value,
    open_shift,
)
from casino.cage.models import (
    HOUSE_CHIPS,
    CageAccount,
    CageCount,
    CageMovement,
    CageShift,
    CashDirection,
    Instrument,
    MovementKind,
    Slip,
)
from casino.cage.services.cage_book import (
    PIECES,
    between,
    cage_move,
    clean_note,
    locked_venue,
    read_holding,
)
from casino.cage.services.patrons import WindowPatron, window_counted, window_patron
from casino.cage.services.thresholds import gaming_date_at
from casino.cage.signals import cage_count_imbalance
from casino.floor.services.inventory import chips_discrepancy
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import venue_money
from casino.staff.policy import Capability, allows
from casino.venues.models import Venue

_PIECES = PIECES


# Counts


def _refuse_counter(user: Any, venue: Venue) -> None:
    if not allows(user, Capability.COUNT_CAGE, venue.pk):
        raise Forbidden(
            _("Only the cage's cashier or a manager of the venue counts the cage and signs it."),
            reason="not_counter",
        )


def _difference(counted: Holding, expected: Holding, listed: Mapping[str, list[str]]) -> Holding:
    return {
        instrument: chips_discrepancy(
            counted[instrument], expected[instrument], listed[instrument]
        ).chips
        for instrument in _PIECES
    }


def _count_audited(count: CageCount) -> dict[str, Any]:
    return {
        "kind": count.kind,
        "status": count.status,
        "notes": count.notes,
        "chips": count.chips,
        "expected": {"notes": count.expected_notes, "chips": count.expected_chips},
        "difference": count.difference,
        "difference_value": str(count.difference_value),
        "reason": count.reason,
        "shift": count.shift_id,
    }


@transaction.atomic
def cage_count_record(
    *,
    venue: Venue,
    user: Any,
    kind: str,
    counted: Mapping[str, Any],
    reason: str = "",
    at: datetime | None = None,
) -> CageCount:
    """Count the cage to open a shift (``kind`` ``opening``, no shift open) or to close the
    open one (``closing``): the notes and chips by denomination (``{"notes": {...},
    "chips": {...}}``). The count keeps what the book expected and the difference; one that
    differs needs ``reason``. It waits for a second person's signature
    (``cage_count_sign``); a count already waiting is superseded by this one. Locks the
    venue's row."""
    venue = locked_venue(venue)
    _refuse_counter(user, venue)
    if kind not in CageCount.Kind.values:
        raise InvalidInput(
            _("%(kind)s is not a cage count: count to open or to close a shift.") % {"kind": kind},
            field="kind",
        )
    shift = open_shift(venue)
    if kind == CageCount.Kind.OPENING and shift is not None:
        raise Conflict(
            _("A cage shift is open: close it with a closing count before opening another."),
            field="kind",
            reason="shift_open",
        )
    if kind == CageCount.Kind.CLOSING and shift is None:
        raise Conflict(
            _("No cage shift is open: open one with an opening count."),
            field="kind",
            reason="no_shift",
        )
    holding = read_holding(venue, counted, field="counted")
    reason = clean_note(reason, "reason")
    first = not has_been_counted(venue)
    expected = cage_inventory(venue)
    difference = _difference(holding, expected, denominations(venue))
    value = holding_value(difference)
    if not first and any(difference.values()) and not reason:
        raise InvalidInput(
            _(
                "The count differs from what the cage should hold by %(value)s: say why, "
                "or count again."
            )
            % {"value": venue_money(value, venue, signed=True)},
            field="reason",
            reason="reason_missing",
        )
    waiting = list(
        CageCount.objects.select_for_update().filter(venue=venue, status=CageCount.Status.PENDING)
    )
    for old in waiting:
        old.status = CageCount.Status.SUPERSEDED
        old.save(update_fields=["status"])
    count = CageCount.objects.create(
        venue=venue,
        shift=shift,
        kind=kind,
        status=CageCount.Status.PENDING,
        currency=venue.currency,
        chip_set=HOUSE_CHIPS,
        notes=holding[Instrument.NOTES],
        chips=holding[Instrument.CHIPS],
        expected_notes=expected[Instrument.NOTES],
        expected_chips=expected[Instrument.CHIPS],
        difference={k: v for k, v in difference.items() if v},
        difference_value=value,
        first=first,
        reason=reason,
        counted_by=user,
        counted_at=at or timezone.now(),
    )
    audit_record(
        user=user,
        action=AuditAction.CAGE_COUNT,
        obj=count,
        venue=venue,
        summary=(
            f"{kind} count of the cage: {venue_money(holding_value(holding), venue)}, "
            f"difference {venue_money(value, venue, signed=True)}"
            + (f" (superseding count {', '.join(str(o.pk) for o in waiting)})" if waiting else "")
        ),
        after=_count_audited(count),
    )
    return count


@transaction.atomic
def cage_count_sign(*, count: CageCount, user: Any, at: datetime | None = None) -> CageCount:
    """A second person signs a waiting count: a cashier or a manager who did not count it.
    The book must not have moved since the count (else: count again). Signed, an opening
    count opens a shift and a closing count closes the open one; a difference is posted
    against over/short (the venue's first count: against the opening balance) and, but for
    the first count, tells integrity to open an investigation. Locks the venue's row, then
    the count's."""
    venue = locked_venue(count.venue)
    count = CageCount.objects.select_for_update().get(pk=count.pk)
    _refuse_counter(user, venue)
    if count.status != CageCount.Status.PENDING:
        raise Conflict(
            _("This count is %(status)s: only a count waiting for its second signature is signed.")
            % {"status": str(count.get_status_display()).lower()},
            reason="count_state",
        )
    if count.counted_by_id == user.pk:
        raise Forbidden(
            _("You counted the cage: a second person signs the count."), reason="two_people"
        )
    expected = cage_inventory(venue)
    if expected != {Instrument.NOTES: count.expected_notes, Instrument.CHIPS: count.expected_chips}:
        raise Conflict(
            _("The cage has moved since it was counted: count it again."), reason="cage_moved"
        )
    now = at or timezone.now()
    shift = count.shift
    if count.kind == CageCount.Kind.OPENING:
        shift = CageShift.objects.create(
            venue=venue,
            gaming_date=gaming_date_at(venue, now),
            status=CageShift.Status.OPEN,
            opened_at=now,
        )
    count.shift = shift
    count.status = CageCount.Status.SIGNED
    count.signed_by = user
    count.signed_at = now
    difference = {
        Instrument.NOTES: count.difference.get(Instrument.NOTES, {}),
        Instrument.CHIPS: count.difference.get(Instrument.CHIPS, {}),
    }
    if any(difference.values()):
        against = CageAccount.OPENING if count.first else CageAccount.OVER_SHORT
        kind = MovementKind.OPENING_BALANCE if count.first else MovementKind.COUNT_ADJUSTMENT
        count.movement = cage_move(
            venue=venue,
            user=user,
            kind=kind,
            lines=between(CageAccount.CAGE, against, difference),
            note=count.reason,
            reference=f"{count.kind} count {count.pk}",
            at=now,
        )
    count.save(update_fields=["shift", "status", "signed_by", "signed_at", "movement"])
    if count.kind == CageCount.Kind.CLOSING:
        shift.status = CageShift.Status.CLOSED
        shift.closed_at = now
        shift.save(update_fields=["status", "closed_at"])
    audit_record(
        user=user,
        action=AuditAction.CAGE_COUNT_SIGN,
        obj=count,
        venue=venue,
        summary=(
            f"signed the {count.kind} count {count.pk} of the cage "
            f"({'opened' if count.kind == CageCount.Kind.OPENING else 'closed'} shift {shift.pk})"
        ),
        after=_count_audited(count),
    )
    if any(difference.values()) and not count.first:
        cage_count_imbalance.send(sender=CageCount, count=count)
    return count


# The window and the vault


def _refuse_cashier(user: Any, venue: Venue) -> None:
    if not allows(user, Capability.CAGE, venue.pk):
        raise Forbidden(_("Only the cage's cashier works the cage window."), reason="not_cashier")


@transaction.atomic
def _exchange(
    *,
    venue: Venue,
    user: Any,
    kind: str,
    chips: Any,
    notes: Any,
    note: str,
    at: datetime | None,
    patron: WindowPatron | None,
) -> CageMovement:
    _refuse_cashier(user, venue)
    chips_held = read_holding(venue, {Instrument.CHIPS: chips}, field="chips")
    notes_held = read_holding(venue, {Instrument.NOTES: notes}, field="notes")
    chips_value, notes_value = holding_value(chips_held), holding_value(notes_held)
    if not chips_value:
        raise InvalidInput(_("Count at least one chip."), field="chips")
    if chips_value != notes_value:
        raise InvalidInput(
            _("The chips come to %(chips)s and the notes to %(notes)s: they are the same.")
            % {"chips": venue_money(chips_value, venue), "notes": venue_money(notes_value, venue)},
            field="notes",
            reason="exchange_unequal",
        )
    purchase = kind == MovementKind.CHIP_PURCHASE
    direction = CashDirection.IN if purchase else CashDirection.OUT
    at = at or timezone.now()
    who = window_patron(
        venue=venue, user=user, direction=direction, amount=notes_value, patron=patron, at=at
    )
    # A purchase: the chips go to the patron, the notes come into the cage; a redemption
    # the other way round.
    to_patron, to_cage = (chips_held, notes_held) if purchase else (notes_held, chips_held)
    movement = cage_move(
        venue=venue,
        user=user,
        kind=kind,
        lines=[
            *between(CageAccount.PATRONS, CageAccount.CAGE, to_patron),
            *between(CageAccount.CAGE, CageAccount.PATRONS, to_cage),
        ],
        note=note,
        at=at,
        **who.recorded(),
    )
    window_counted(movement, direction)
    return movement


def chip_purchase(
    *,
    venue: Venue,
    user: Any,
    chips: Mapping[str, int],
    notes: Mapping[str, int],
    note: str = "",
    at: datetime | None = None,
    patron: WindowPatron | None = None,
) -> CageMovement:
    """A patron buys ``chips`` at the cage window with ``notes`` of the same value."""
    return _exchange(
        venue=venue,
        user=user,
        kind=MovementKind.CHIP_PURCHASE,
        chips=chips,
        notes=notes,
        note=note,
        at=at,
        patron=patron,
    )


def chip_redemption(
    *,
    venue: Venue,
    user: Any,
    chips: Mapping[str, int],
    notes: Mapping[str, int],
    note: str = "",
    at: datetime | None = None,
    patron: WindowPatron | None = None,
) -> CageMovement:
    """A patron cashes ``chips`` in at the cage window for ``notes`` of the same value."""
    return _exchange(
        venue=venue,
        user=user,
        kind=MovementKind.CHIP_REDEMPTION,
        chips=chips,
        notes=notes,
        note=note,
        at=at,
        patron=patron,
    )


def vault_transfer(
    *,
    venue: Venue,
    user: Any,
    kind: str,
    moved: Mapping[str, Any],
    note: str = "",
    reference: str = "",
    at: datetime | None = None,
) -> CageMovement:
    """Notes and chips (``{"notes": {...}, "chips": {...}}``) carried from the cage to the
    vault (``kind`` ``to_vault``) or from the vault to the cage (``from_vault``)."""
    _refuse_cashier(user, venue)
    if kind not in (MovementKind.TO_VAULT, MovementKind.FROM_VAULT):
        raise InvalidInput(_("A transfer goes to the vault or comes from it."), field="kind")
    holding = read_holding(venue, moved, field="moved")
    if not any(holding.values()):
        raise InvalidInput(_("Count at least one note or chip to carry."), field="moved")
    into, out_of = (
        (CageAccount.VAULT, CageAccount.CAGE)
        if kind == MovementKind.TO_VAULT
        else (CageAccount.CAGE, CageAccount.VAULT)
    )
    return cage_move(
        venue=venue,
        user=user,
        kind=kind,
        lines=between(into, out_of, holding),
        note=note,
        reference=reference,
        at=at,
    )


def slip_move(
    *, slip: Slip, user: Any, back: bool = False, at: datetime | None = None
) -> CageMovement:
    """The chips of a fill leave the cage for the tables as the cashier issues it (``back``:
    they come back, the issued fill voided at the cage); a credit's come into the cage as
    the cashier receives them (a paper slip entered afterwards: at ``at``, the time on the
    paper). Called by ``casino.cage.services.slips`` and ``casino.cage.services.manual`` in
    their transaction, the slip locked."""
    venue = Venue.objects.get(pk=slip.venue_id)
    fill = slip.kind == Slip.Kind.FILL
    chips = {Instrument.CHIPS: dict(slip.chips)}
    outward = fill and not back
    into, out_of = (
        (CageAccount.TABLES, CageAccount.CAGE)
        if outward
        else (CageAccount.CAGE, CageAccount.TABLES)
    )
    return cage_move(
        venue=venue,
        user=user,
        kind=MovementKind.FILL if fill else MovementKind.CREDIT,
        lines=between(into, out_of, chips),
        reference=f"{slip.kind} {slip.label}",
        note=str(_("voided: the chips came back")) if back else "",
        slip=slip,
        at=at,
    )
