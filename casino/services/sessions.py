"""Opening and closing table sessions, shifts, the drop.

Locking: a session's writes lock its ``TableSession`` row first (``select_for_update``);
opening locks the ``Table`` row so two openings of one table cannot both succeed.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping
from datetime import datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.errors import Conflict, Forbidden, InvalidInput
from casino.models import (
    Account,
    Drop,
    EntryKind,
    LedgerEntry,
    Round,
    RoundStatus,
    Shift,
    Slip,
    SlipStatus,
    Table,
    TableSession,
    slip_label,
)
from casino.money import (
    MONEY_DECIMAL_PLACES,
    MONEY_MAX_DIGITS,
    Grouping,
    to_decimal,
    written,
)
from casino.reports.services import shift_report_schedule_if_done
from casino.roles import PLAY, SUPERVISE, can
from casino.services.audit import audit_record
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

#: The longest reason for a variance a close keeps (the console's and the API's limit).
MAX_REASON = 1000

#: When a venue's gaming date starts, in venue time, for the shift made when none is set up.
GAMING_DAY_STARTS = time(6, 0)
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
            f"the chips come to {_amount(total, grouping)}, more than a session can hold "
            f"(below {_amount(SESSION_TOTAL_LIMIT, grouping)}); check the number of chips of "
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
            f"with {_amount(adding, grouping)} the {what} of this session would come to "
            f"{_amount(total + adding, grouping)}; a session's {what} stays below "
            f"{_amount(SESSION_TOTAL_LIMIT, grouping)} so that it can be closed: check the "
            "amount",
            field=field,
        )


def shift_current(*, venue: Any, at: datetime | None = None) -> Shift:
    """The shift covering ``at`` at the venue; a whole gaming day when none is set up.

    A venue with its own shift plan creates its shifts ahead; one without gets a shift
    named "day" from 06:00 to 06:00 venue time, so a table can always be opened.
    """
    at = at or timezone.now()
    shift = Shift.objects.filter(venue=venue, starts_at__lte=at, ends_at__gt=at).first()
    if shift is not None:
        return shift
    tz = zoneinfo.ZoneInfo(venue.timezone)
    local = at.astimezone(tz)
    gaming_date = local.date() if local.time() >= GAMING_DAY_STARTS else local.date() - timedelta(1)
    starts = datetime.combine(gaming_date, GAMING_DAY_STARTS, tzinfo=tz)
    shift, _created = Shift.objects.get_or_create(
        venue=venue,
        gaming_date=gaming_date,
        name="day",
        defaults={"starts_at": starts, "ends_at": starts + timedelta(days=1)},
    )
    return shift


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
    audit_record(
        user=user,
        action="session.open",
        obj=session,
        venue=table.venue,
        summary=f"opened {table} with {total}",
        after={"opening_chips": chips, "opening_total": str(total), "dealer": dealer.username},
    )
    return session


def lock_open_session(session_id: int) -> TableSession:
    session = (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("table__venue", "table__ruleset")
        .get(pk=session_id)
    )
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


def session_figures(session: TableSession) -> dict[str, Decimal]:
    """Fills, credits, drop and the win by ledger of a session so far (sums in the database)."""
    slips = dict(
        Slip.objects.filter(session=session, status=SlipStatus.VERIFIED)
        .values_list("kind")
        .annotate(total=Sum("amount"))
    )
    drop = Drop.objects.filter(session=session).aggregate(total=Sum("amount"))["total"]
    won = LedgerEntry.objects.filter(
        session=session, round__isnull=False, account=Account.HOUSE
    ).aggregate(total=Sum("amount"))["total"]
    return {
        "fills": slips.get(Slip.Kind.FILL, _ZERO),
        "credits": slips.get(Slip.Kind.CREDIT, _ZERO),
        "drop": drop or _ZERO,
        "win_by_ledger": won or _ZERO,
    }


def check_closable(session: TableSession) -> None:
    """What must be done before a table closes: every round settled or voided, every slip
    verified or voided. ``Conflict`` says which (reason ``rounds_unsettled`` or
    ``slips_pending``), in the reader's language; the console asks before
    a supervisor signs."""
    unsettled = list(
        Round.objects.filter(session=session, status=RoundStatus.DEALT).values_list(
            "number", flat=True
        )
    )
    if unsettled:
        raise Conflict(
            _("round %(numbers)s is not settled; settle or void it before closing")
            % {"numbers": ", ".join(str(n) for n in unsettled)},
            reason="rounds_unsettled",
        )
    pending = pending_slips(session)
    if pending:
        raise Conflict(
            _("slip %(numbers)s is not verified; verify or void it first")
            % {"numbers": ", ".join(pending)},
            reason="slips_pending",
        )


def pending_slips(session: TableSession) -> list[str]:
    """The session's slips neither verified nor voided, by the number the screens show."""
    pending = Slip.objects.filter(
        session=session, status__in=[SlipStatus.REQUESTED, SlipStatus.ISSUED]
    ).order_by("year", "number")
    return [slip_label(year, number) for year, number in pending.values_list("year", "number")]


def check_variance_reason(venue: Any, variance: Decimal, reason: str) -> None:
    """Refuse a variance over the venue's ``variance_reason_over`` without a reason
    (``InvalidInput`` on ``variance_reason``, reason ``variance_reason_required``)."""
    allowed = venue.variance_reason_over
    if abs(variance) <= allowed or reason:
        return
    if allowed:
        message = _(
            "the count is %(variance)s off the ledger, more than the %(allowed)s this venue "
            "closes without a reason: say why in the reason for the variance, or count again"
        )
    else:
        message = _(
            "the count is %(variance)s off the ledger and this venue closes with a variance "
            "only with a reason: say why in the reason for the variance, or count again"
        )
    raise InvalidInput(
        message
        % {
            "variance": _amount(variance, venue.amount_grouping, signed=True),
            "allowed": _amount(allowed, venue.amount_grouping),
        },
        field="variance_reason",
        reason="variance_reason_required",
    )


def _amount(value: Decimal, grouping: Grouping | str, *, signed: bool = False) -> str:
    """An amount in a message, in the venue's ``grouping``: ``5,000``, ``-95.5`` (no
    trailing zeros), ``+5.000`` when ``signed``."""
    return written(value, grouping, signed=signed)


@transaction.atomic
def session_close(
    *,
    session: TableSession,
    user: Any,
    closing_chips: Mapping[str, Any],
    drop: Decimal | str | None = None,
    variance_reason: str = "",
) -> TableSession:
    """Close a table with the closer's count and reconcile it against the ledger.

    Win by count = closing - opening + credits - fills + drop; win by ledger = what the
    settled rounds moved to the house; the variance (count - ledger) is stored. A variance
    larger than the venue accepts without one (``Venue.variance_reason_over``) needs the
    closer's reason, which the audit event keeps.
    """
    session = lock_open_session(session.pk)
    venue = session.table.venue
    if not can(user, SUPERVISE, venue.pk):
        raise Forbidden("only a supervisor closes a table")
    check_closable(session)
    chips, closing_total = chips_total(
        closing_chips,
        session.table.chip_denominations,
        field="closing_chips",
        grouping=venue.amount_grouping,
    )
    if drop not in (None, ""):
        try:
            drop_record(session=session, user=user, amount=drop)
        except InvalidInput as error:
            raise InvalidInput(error.message.replace("amount", "drop", 1), field="drop") from None
    figures = session_figures(session)
    win_by_count = (
        closing_total
        - session.opening_total
        + figures["credits"]
        - figures["fills"]
        + figures["drop"]
    )
    variance = win_by_count - figures["win_by_ledger"]
    for name, value in (
        ("win by count", win_by_count),
        ("settled win", figures["win_by_ledger"]),
        ("variance", variance),
    ):
        # The totals' limit keeps these in the field; only a settled win beyond any
        # table's limits could not fit, which is a matter for the ledger's audit.
        if abs(value) >= MAX_AMOUNT:
            raise Conflict(
                f"the {name} would be {_amount(value, venue.amount_grouping)}, more than an "
                "amount can be; nothing was "
                "closed: run manage.py audit_ledger and check this session's rounds"
            )
    variance_reason = (variance_reason or "").strip()[:MAX_REASON]
    check_variance_reason(venue, variance, variance_reason)
    session.status = TableSession.Status.CLOSED
    session.closed_by = user
    session.closed_at = timezone.now()
    session.closing_chips = chips
    session.closing_total = closing_total
    session.fills_total = figures["fills"]
    session.credits_total = figures["credits"]
    session.drop_total = figures["drop"]
    session.win_by_count = win_by_count
    session.win_by_ledger = figures["win_by_ledger"]
    session.variance = variance
    session.save()
    audit_record(
        user=user,
        action="session.close",
        obj=session,
        venue=venue,
        summary=f"closed {session.table}: win by count {win_by_count}, variance {session.variance}",
        after={k: str(v) for k, v in figures.items()}
        | {
            "closing_total": str(closing_total),
            "variance": str(session.variance),
            "variance_reason": variance_reason,
        },
    )
    # The last table of a shift to close asks for the shift's report (built after commit).
    shift_report_schedule_if_done(session.shift_id)
    return session


@transaction.atomic
def session_reconcile(*, session: TableSession, user: Any) -> TableSession:
    """Mark a closed session as reviewed by a supervisor (its figures do not change)."""
    session = TableSession.objects.select_for_update().select_related("table").get(pk=session.pk)
    if not can(user, SUPERVISE, session.table.venue_id):
        raise Forbidden("only a supervisor reconciles a table session")
    if session.status != TableSession.Status.CLOSED:
        raise Conflict(f"session {session.pk} is {session.status}; only a closed one is reconciled")
    session.status = TableSession.Status.RECONCILED
    session.save(update_fields=["status"])
    audit_record(
        user=user,
        action="session.reconcile",
        obj=session,
        venue=session.table.venue,
        summary=f"reconciled, variance {session.variance}",
    )
    return session
