"""Opening table sessions, shifts, the drop (closing: ``casino.floor.services.closing``).

Locking: a session's writes lock its ``TableSession`` row first (``select_for_update``);
opening locks the ``Table`` row so two openings of one table cannot both succeed.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.compiled import lock_by_key
from casino.floor.models import TableSession
from casino.floor.services.inventory import Discrepancy, chips_discrepancy, table_inventory
from casino.floor.services.rotation import spell_first
from casino.floor.signals import session_opened
from casino.kernel.amounts import check_amount
from casino.kernel.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.kernel.money import (
    MONEY_DECIMAL_PLACES,
    MONEY_MAX_DIGITS,
    Grouping,
    to_decimal,
    written,
)
from casino.ledger.models import Account, Drop, EntryKind, LedgerEntry
from casino.ledger.services import ledger_post
from casino.staff.roles import PLAY, SUPERVISE, can, venue_ids
from casino.venues.models import Shift, Table
from casino.venues.services.gaming_days import shift_at

#: The most chips of one denomination a count may hold (a typo guard, and the column's size).
MAX_CHIPS = 1_000_000
#: The largest amount of money a field takes: MONEY_MAX_DIGITS digits, 2 after the point.
MAX_AMOUNT = Decimal(10) ** (MONEY_MAX_DIGITS - MONEY_DECIMAL_PLACES)
#: What each of a session's totals stays below: the opening and closing counts, its fills,
#: its credits, its drop. One digit fewer than a money field holds, so what the close
#: computes from them (win by count sums five of them, the variance takes the settled win
#: off that) always fits its field, and a session can always be closed.
SESSION_TOTAL_LIMIT = MAX_AMOUNT / 10

_ZERO = Decimal(0)


def chips_total(
    chips: Mapping[str, Any],
    denominations: list[str],
    *,
    field: str,
    grouping: Grouping | str = Grouping.COMMA,
) -> tuple[dict[str, int], Decimal]:
    """Check a chip count (denomination -> count) and return it cleaned with its total;
    a refusal writes amounts in the venue's ``grouping``."""
    if not isinstance(chips, Mapping):
        raise InvalidInput(
            "give the chip count as an object of denomination -> number of chips", field=field
        )
    allowed = {to_decimal(d): d for d in denominations}
    clean: dict[str, int] = {}
    total = _ZERO
    for denomination, count in chips.items():
        try:
            value = to_decimal(str(denomination))
        except (TypeError, ValueError):
            value = None
        if value not in allowed:
            raise InvalidInput(
                f"{denomination!r} is not a chip of this table; its chips are "
                f"{', '.join(denominations)}",
                field=f"{field}.{denomination}",
            )
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_CHIPS:
            raise InvalidInput(
                f"the count of {denomination} chips must be a whole number from 0 to "
                f"{MAX_CHIPS}, got {count!r}",
                field=f"{field}.{denomination}",
            )
        clean[allowed[value]] = clean.get(allowed[value], 0) + count
        total += value * count
    if total >= SESSION_TOTAL_LIMIT:
        raise InvalidInput(
            f"the chips come to {written(total, grouping)}, more than a session can hold "
            f"(below {written(SESSION_TOTAL_LIMIT, grouping)}); check the number of chips of "
            "each denomination",
            field=field,
        )
    return clean, total


def check_session_total(
    *,
    what: str,
    total: Decimal,
    adding: Decimal,
    field: str,
    grouping: Grouping | str = Grouping.COMMA,
) -> None:
    """Refuse an amount that would take a session's running total (its drop, fills or
    credits) to SESSION_TOTAL_LIMIT, before anything is written; the refusal writes
    amounts in the venue's ``grouping``."""
    if total + adding >= SESSION_TOTAL_LIMIT:
        raise InvalidInput(
            f"with {written(adding, grouping)} the {what} of this session would come to "
            f"{written(total + adding, grouping)}; a session's {what} stays below "
            f"{written(SESSION_TOTAL_LIMIT, grouping)} so that it can be closed: check the "
            "amount",
            field=field,
        )


def shift_current(*, venue: Any, at: datetime | None = None) -> Shift:
    """The shift covering ``at`` (now by default) at the venue, made from the venue's plan
    when it does not exist yet (``casino.venues.services.gaming_days``): a table can always be
    opened. A venue without a plan has one shift named "day" for the whole gaming day."""
    return shift_at(venue=venue, at=at)


#: The longest reason for an opening discrepancy a session keeps (the screens' limit too).
MAX_DISCREPANCY_REASON = 1000


def discrepancy_text(discrepancy: Discrepancy, grouping: Grouping | str) -> str:
    """A discrepancy as a person reads it: ``-2 × 100,000, +1 × 10,000 (in all -190,000)``."""
    lines = ", ".join(
        f"{'+' if n > 0 else ''}{n} × {written(to_decimal(d), grouping)}"
        for d, n in discrepancy.chips.items()
    )
    return f"{lines} ({written(discrepancy.total, grouping, signed=True)})"


def check_co_signers(*, counted_by: Any, confirmed_by: Any, venue: Any, field: str) -> None:
    """The two people of a count: the counter runs tables at the venue (``PLAY``), the
    confirmer supervises it (``SUPERVISE``), and they are two different people (refused
    on ``field``, the person a screen asked for)."""
    if not can(counted_by, PLAY, venue.pk):
        raise Forbidden(
            _("%(user)s does not run tables at %(venue)s and cannot count its chips")
            % {"user": counted_by.get_username(), "venue": venue.name},
            field="counted_by",
            reason="counter_not_dealer",
        )
    if counted_by.pk == confirmed_by.pk:
        raise Forbidden(
            _(
                "%(user)s counted the chips and cannot also confirm the count: a second "
                "person, a supervisor, confirms it with their own credentials"
            )
            % {"user": counted_by.get_username()},
            field=field,
            reason="confirmed_by_counter",
        )
    if not can(confirmed_by, SUPERVISE, venue.pk):
        raise Forbidden(
            _("%(user)s is not a supervisor at %(venue)s and cannot confirm the count")
            % {"user": confirmed_by.get_username(), "venue": venue.name},
            field="confirmed_by",
            reason="confirmer_not_supervisor",
        )


@transaction.atomic
def session_open(
    *,
    table: Table,
    counted_by: Any,
    confirmed_by: Any,
    opening_chips: Mapping[str, Any],
    discrepancy_reason: str = "",
    dealer: Any = None,
    shift: Shift | None = None,
) -> TableSession:
    """Open a table with the opener: ``counted_by`` (who counted, the dealer unless
    ``dealer`` names another) counts the tray, ``confirmed_by`` (a supervisor of the venue,
    another person) confirms it. One open session per table.

    The count is compared with the table's inventory (what its last session counted at
    close, ``table_inventory``); a difference is recorded per denomination and in all
    (counted - expected, signed) and needs ``discrepancy_reason`` (``InvalidInput`` on
    ``discrepancy_reason``, reason ``discrepancy_reason_required``, naming the
    difference). A table never closed has nothing to compare with: the count stands.
    """
    table = Table.objects.select_for_update().select_related("venue").get(pk=table.pk)
    venue = table.venue
    dealer = dealer or counted_by
    _check_openable(table=table, counted_by=counted_by, confirmed_by=confirmed_by, dealer=dealer)
    chips, total = chips_total(
        opening_chips,
        table.chip_denominations,
        field="opening_chips",
        grouping=venue.amount_grouping,
    )
    expected, discrepancy, reason = _opening_difference(
        table=table, chips=chips, reason=discrepancy_reason
    )
    now = timezone.now()
    try:
        with transaction.atomic():
            session = TableSession.objects.create(
                table=table,
                shift=shift or shift_current(venue=venue, at=now),
                dealer=dealer,
                opened_by=counted_by,
                opening_confirmed_by=confirmed_by,
                opened_at=now,
                opening_chips=chips,
                opening_total=total,
                opening_expected_chips=expected,
                opening_discrepancy=None if discrepancy is None else discrepancy.chips,
                opening_discrepancy_total=None if discrepancy is None else discrepancy.total,
                opening_discrepancy_reason=reason,
            )
    except IntegrityError:
        raise Conflict(f"table {table.code} is already open; close it first") from None
    session_opened.send(sender=TableSession, session=session)  # the count's box
    spell_first(session=session, recorded_by=counted_by)
    compared = _compared(discrepancy, venue.amount_grouping)
    audit_record(
        user=counted_by,
        action=AuditAction.SESSION_OPEN,
        obj=session,
        venue=venue,
        summary=f"opened {table} with {total}, {compared}",
        after={
            "opening_chips": chips,
            "opening_total": str(total),
            "dealer": dealer.username,
            "counted_by": counted_by.get_username(),
            "confirmed_by": confirmed_by.get_username(),
            "expected_chips": expected,
            "discrepancy": None if discrepancy is None else discrepancy.chips,
            "discrepancy_total": None if discrepancy is None else str(discrepancy.total),
            "discrepancy_reason": reason,
        },
    )
    return session


def _check_openable(*, table: Table, counted_by: Any, confirmed_by: Any, dealer: Any) -> None:
    """Refuse an opening by one who does not run the venue's tables, for a dealer who does
    not deal there, by co-signers who may not (``check_co_signers``), at an inactive table
    or at one already open."""
    venue = table.venue
    if not can(counted_by, PLAY, venue.pk):
        raise Forbidden("you do not run tables at this venue")
    if not can(dealer, PLAY, venue.pk):
        raise InvalidInput(f"{dealer} is not a dealer at {venue.name}", field="dealer")
    check_co_signers(
        counted_by=counted_by, confirmed_by=confirmed_by, venue=venue, field="confirmed_by"
    )
    if table.status != Table.Status.ACTIVE:
        raise Conflict(f"table {table.code} is inactive; a manager can reactivate it")
    open_session = TableSession.objects.filter(table=table, status=TableSession.Status.OPEN).first()
    if open_session is not None:
        raise Conflict(
            f"table {table.code} is already open (session {open_session.pk}); close it first"
        )


def _opening_difference(
    *, table: Table, chips: dict[str, int], reason: str
) -> tuple[dict[str, int] | None, Discrepancy | None, str]:
    """The table's inventory, the count's difference from it (None: nothing to compare
    with) and the reason kept for it, refused when a difference has no reason."""
    # Under the table's lock with none of its sessions open: no close changes it meanwhile.
    expected = table_inventory(table=table)
    discrepancy = (
        None if expected is None else chips_discrepancy(chips, expected, table.chip_denominations)
    )
    reason = (reason or "").strip()[:MAX_DISCREPANCY_REASON]
    if discrepancy and not reason:
        raise InvalidInput(
            _(
                "the count differs from the table's inventory (what its last session "
                "counted at close) by %(difference)s: say why in the reason for the "
                "difference, or count again"
            )
            % {"difference": discrepancy_text(discrepancy, table.venue.amount_grouping)},
            field="discrepancy_reason",
            reason="discrepancy_reason_required",
        )
    if not discrepancy:
        reason = ""  # nothing to explain
    return expected, discrepancy, reason


def _compared(discrepancy: Discrepancy | None, grouping: Grouping | str) -> str:
    """How the opening count compared with the inventory, as the audit event says it."""
    if discrepancy is None:
        return "first opening: no inventory to compare with"
    if discrepancy:
        return f"differs by {discrepancy_text(discrepancy, grouping)}"
    return "matches the inventory"


_LOCK_SESSION = lock_by_key(TableSession, "table__venue", "table__ruleset")


def lock_open_session(session_id: int, *, seen_by: Any = None) -> TableSession:
    """Lock the session ``session_id`` (its table, venue and ruleset loaded); refuse it
    unless it is open. With ``seen_by``, a session at none of that user's venues is not
    found, like one that does not exist (checked before its state, which it must not tell).
    """
    session = _LOCK_SESSION.first(session_id)
    if session is None or (
        seen_by is not None and session.table.venue_id not in venue_ids(seen_by)
    ):
        raise NotFound(f"there is no session {session_id} at your venues", field="session")
    if session.status != TableSession.Status.OPEN:
        raise Conflict(f"session {session.pk} is {session.status}; open the table again to play")
    return session


@transaction.atomic
def drop_record(*, session: TableSession, user: Any, amount: Decimal) -> Drop:
    """Enter the cash counted in the drop box; it moves from the players to the drop."""
    session = lock_open_session(session.pk)
    venue = session.table.venue
    if not can(user, SUPERVISE, venue.pk):
        raise Forbidden("only a supervisor enters the drop")
    amount = _positive(amount, "amount", venue)
    dropped = Drop.objects.filter(session=session).aggregate(total=Sum("amount"))["total"]
    check_session_total(
        what="drop",
        total=dropped or _ZERO,
        adding=amount,
        field="amount",
        grouping=venue.amount_grouping,
    )
    drop = Drop.objects.create(
        session=session, amount=amount, counted_by=user, counted_at=timezone.now()
    )
    ledger_post(
        [
            LedgerEntry(
                venue=venue,
                session=session,
                drop=drop,
                account=Account.DROP,
                kind=EntryKind.DROP,
                amount=amount,
                created_by=user,
            ),
            LedgerEntry(
                venue=venue,
                session=session,
                drop=drop,
                account=Account.PLAYER,
                kind=EntryKind.DROP,
                amount=-amount,
                created_by=user,
            ),
        ]
    )
    audit_record(
        user=user, action=AuditAction.DROP_RECORD, obj=drop, venue=venue, summary=f"drop {amount}"
    )
    return drop


@transaction.atomic
def drop_reverse(*, drop: Drop, user: Any, reason: str) -> Drop:
    """Reverse a drop entered by mistake, while its session is open.

    Nothing is deleted: a drop of the opposite amount names the mistaken one, its ledger
    entries reverse the mistaken one's (so the drop's money is back with the players and
    the ledger still balances), and the session's drop is the sum of both. A supervisor
    does it and says why. A drop is reversed once; a reversal is not reversed (enter the
    drop again instead).
    """
    session = lock_open_session(drop.session_id)
    venue = session.table.venue
    if not can(user, SUPERVISE, venue.pk):
        raise Forbidden("only a supervisor reverses a drop")
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput("say why the drop is reversed", field="reason")
    # Read again under the session's lock, which every drop of the session takes first.
    original = Drop.objects.get(pk=drop.pk)
    if original.reverses_id is not None:
        raise Conflict(
            f"drop {original.pk} is itself a reversal (of drop {original.reverses_id}); "
            "to count that drop again, enter it again"
        )
    if Drop.objects.filter(reverses=original).exists():
        raise Conflict(f"drop {original.pk} is already reversed")
    reversal = Drop.objects.create(
        session=session,
        amount=-original.amount,
        reverses=original,
        reason=reason[:255],
        counted_by=user,
        counted_at=timezone.now(),
    )
    ledger_post(
        [
            LedgerEntry(
                venue=venue,
                session=session,
                drop=reversal,
                account=entry.account,
                kind=EntryKind.VOID,
                amount=-entry.amount,
                reverses=entry,
                created_by=user,
            )
            for entry in LedgerEntry.objects.filter(drop=original).order_by("pk")
        ]
    )
    audit_record(
        user=user,
        action=AuditAction.DROP_REVERSE,
        obj=reversal,
        venue=venue,
        summary=f"reversed drop {original.pk} of {original.amount}: {reason[:200]}",
        before={"drop": original.pk, "amount": str(original.amount)},
        after={"reversal": reversal.pk, "amount": str(reversal.amount), "reason": reason},
    )
    return reversal


def _positive(value: Any, field: str, venue: Any) -> Decimal:
    """An amount of ``venue`` (``casino.kernel.amounts.check_amount``: its currency's decimals)
    more than 0 and below ``MAX_AMOUNT``."""
    amount = check_amount(value, venue, field=field)
    if amount <= 0:
        raise InvalidInput(f"{field} must be more than 0, got {amount}", field=field)
    if amount.as_tuple().exponent < -MONEY_DECIMAL_PLACES or amount >= MAX_AMOUNT:
        raise InvalidInput(
            f"{field} must be below {MAX_AMOUNT} with at most {MONEY_DECIMAL_PLACES} decimals, "
            f"got {amount}",
            field=field,
        )
    return amount
