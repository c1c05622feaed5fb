"""Opening table sessions, shifts, the drop (closing: ``casino.services.closing``).

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

from casino.compiled import lock_by_key
from casino.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.models import (
    Account,
    Drop,
    EntryKind,
    LedgerEntry,
    Shift,
    Table,
    TableSession,
)
from casino.money import (
    MONEY_DECIMAL_PLACES,
    MONEY_MAX_DIGITS,
    Grouping,
    to_decimal,
    written,
)
from casino.roles import PLAY, SUPERVISE, can, venue_ids
from casino.services.audit import audit_record
from casino.services.dropboxes import dropbox_attach
from casino.services.gaming_days import shift_at
from casino.services.ledger import ledger_post

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
    when it does not exist yet (``casino.services.gaming_days``): a table can always be
    opened. A venue without a plan has one shift named "day" for the whole gaming day."""
    return shift_at(venue=venue, at=at)


@transaction.atomic
def session_open(
    *,
    table: Table,
    user: Any,
    opening_chips: Mapping[str, Any],
    dealer: Any = None,
    shift: Shift | None = None,
) -> TableSession:
    """Open a table with the opener's chip count; one open session per table."""
    table = Table.objects.select_for_update().select_related("venue").get(pk=table.pk)
    dealer = dealer or user
    if not can(user, PLAY, table.venue_id):
        raise Forbidden("you do not run tables at this venue")
    if not can(dealer, PLAY, table.venue_id):
        raise InvalidInput(f"{dealer} is not a dealer at {table.venue.name}", field="dealer")
    if table.status != Table.Status.ACTIVE:
        raise Conflict(f"table {table.code} is inactive; a manager can reactivate it")
    open_session = TableSession.objects.filter(table=table, status=TableSession.Status.OPEN).first()
    if open_session is not None:
        raise Conflict(
            f"table {table.code} is already open (session {open_session.pk}); close it first"
        )
    chips, total = chips_total(
        opening_chips,
        table.chip_denominations,
        field="opening_chips",
        grouping=table.venue.amount_grouping,
    )
    now = timezone.now()
    try:
        with transaction.atomic():
            session = TableSession.objects.create(
                table=table,
                shift=shift or shift_current(venue=table.venue, at=now),
                dealer=dealer,
                opened_by=user,
                opened_at=now,
                opening_chips=chips,
                opening_total=total,
            )
    except IntegrityError:
        raise Conflict(f"table {table.code} is already open; close it first") from None
    dropbox_attach(session=session)
    audit_record(
        user=user,
        action="session.open",
        obj=session,
        venue=table.venue,
        summary=f"opened {table} with {total}",
        after={"opening_chips": chips, "opening_total": str(total), "dealer": dealer.username},
    )
    return session


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
    amount = _positive(amount, "amount")
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
    audit_record(user=user, action="drop.record", obj=drop, venue=venue, summary=f"drop {amount}")
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
        action="drop.reverse",
        obj=reversal,
        venue=venue,
        summary=f"reversed drop {original.pk} of {original.amount}: {reason[:200]}",
        before={"drop": original.pk, "amount": str(original.amount)},
        after={"reversal": reversal.pk, "amount": str(reversal.amount), "reason": reason},
    )
    return reversal


def _positive(value: Any, field: str) -> Decimal:
    try:
        amount = to_decimal(value)
    except (TypeError, ValueError) as error:
        raise InvalidInput(f"{field}: {error}", field=field) from None
    if amount <= 0:
        raise InvalidInput(f"{field} must be more than 0, got {amount}", field=field)
    if amount.as_tuple().exponent < -MONEY_DECIMAL_PLACES or amount >= MAX_AMOUNT:
        raise InvalidInput(
            f"{field} must be below {MAX_AMOUNT} with at most {MONEY_DECIMAL_PLACES} decimals, "
            f"got {amount}",
            field=field,
        )
    return amount
