"""Setting up venues (a superuser's job) and changing them (the venue's managers).

A venue also says how far a table's closing count may be off its ledger without a reason
(``variance_reason_over``, 0 or more; 0: every variance needs one), which
``session_close`` asks for; whether its tables drop at each close or once a gaming day
(``drop_each_close``, casino.count.boxes), and the bank notes its count counts by
(``note_denominations``, casino.count.services); and what of its members leaves the site
for the group (``group_player_data``: pseudonymised, the default, or identified), which the
site's publication follows (casino.ops.sites) and only a superuser changes; and whose
anti-money-laundering law it follows (``jurisdiction``, ``casino.venues.jurisdictions``; empty:
none chosen), which caps the cash thresholds its managers propose, so only a superuser
changes it too.

A venue's currency, time zone and rounding unit are what its money is counted, dated and
rounded in: they change only while no session is open at any of its tables, and a new
rounding unit must still divide every stake limit of its tables.

Locking: an edit locks the venue's tables, then the venue row, in the order
``session_open`` takes them (table, then its venue), so no session opens while the
venue changes.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel.amounts import check_amount
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import (
    MONEY_DECIMAL_PLACES,
    MONEY_MAX_DIGITS,
    is_multiple,
    plain,
    to_decimal,
)
from casino.staff.roles import MANAGE, can
from casino.venues.hooks import open_tables
from casino.venues.jurisdictions import JURISDICTIONS
from casino.venues.models import Table, TableLimit, Venue
from casino.venues.models.venues import (
    DEFAULT_SESSION_HOURS,
    MAX_SESSION_HOURS,
    MIN_SESSION_HOURS,
)

#: What ``venue_update`` may change.
EDITABLE = (
    "code",
    "name",
    "currency",
    "rounding_unit",
    "variance_reason_over",
    "timezone",
    "language",
    "session_hours",
    "amount_grouping",
    "drop_each_close",
    "note_denominations",
    "group_player_data",
    "jurisdiction",
)
#: What only a superuser changes: what the group's jurisdiction allows to leave the site, and
#: the law that caps the venue's cash thresholds (a manager would lift the cap by clearing it).
SUPERUSER_FIELDS = ("group_player_data", "jurisdiction")
#: The most bank notes a venue counts by.
MAX_NOTES = 20
#: What cannot change while a session is open at one of the venue's tables.
LIVE_FIELDS = ("currency", "timezone", "rounding_unit")


def _as_dict(venue: Venue) -> dict[str, str]:
    return {
        "code": venue.code,
        "name": venue.name,
        "currency": venue.currency,
        "rounding_unit": plain(to_decimal(venue.rounding_unit)),
        "variance_reason_over": plain(to_decimal(venue.variance_reason_over)),
        "timezone": venue.timezone,
        "language": venue.language,
        "session_hours": str(venue.session_hours),
        "amount_grouping": venue.amount_grouping,
        "drop_each_close": str(bool(venue.drop_each_close)).lower(),
        "note_denominations": ", ".join(venue.note_denominations or []),
        "group_player_data": venue.group_player_data,
        "jurisdiction": venue.jurisdiction,
    }


def _session_hours(value: Any) -> int:
    """A login's length in whole hours, within the bounds a shared terminal allows."""
    try:
        hours = int(str(value).strip())
    except (TypeError, ValueError):
        hours = 0
    if not MIN_SESSION_HOURS <= hours <= MAX_SESSION_HOURS:
        raise InvalidInput(
            gettext("a login lasts from %(min)d to %(max)d hours; give a whole number of hours")
            % {"min": MIN_SESSION_HOURS, "max": MAX_SESSION_HOURS},
            field="session_hours",
        )
    return hours


def _rounding_unit(value: Any) -> Decimal:
    try:
        return to_decimal(value)
    except (TypeError, ValueError):
        raise InvalidInput(
            gettext("%(value)s is not an amount; give the rounding unit, e.g. 1000")
            % {"value": value},
            field="rounding_unit",
        ) from None


def _variance_reason_over(value: Any) -> Decimal:
    try:
        amount = to_decimal(value)
    except (TypeError, ValueError):
        amount = None
    if amount is None or amount < 0:
        raise InvalidInput(
            gettext(
                "%(value)s is not an amount of 0 or more; give the variance a table may close "
                "with without a reason, e.g. 50000 (0: every variance needs a reason)"
            )
            % {"value": value},
            field="variance_reason_over",
        )
    return amount


def _note_denominations(values: Any) -> list[str]:
    """Bank notes as text, largest first; each a positive amount, none twice (empty: the
    count counts no notes by denomination)."""
    if values in (None, ""):
        return []
    if isinstance(values, str | bytes) or not isinstance(values, list | tuple):
        raise InvalidInput(
            gettext('give the bank notes as a list of values, e.g. ["500000", "200000"]'),
            field="note_denominations",
        )
    if len(values) > MAX_NOTES:
        raise InvalidInput(
            gettext("a venue counts at most %(most)d kinds of note") % {"most": MAX_NOTES},
            field="note_denominations",
        )
    notes: dict[Decimal, str] = {}
    for value in values:
        try:
            note = to_decimal(str(value).strip())
        except (TypeError, ValueError):
            note = None
        if (
            note is None
            or note <= 0
            or note.as_tuple().exponent < -MONEY_DECIMAL_PLACES
            or note.adjusted() >= MONEY_MAX_DIGITS - MONEY_DECIMAL_PLACES - 1
        ):
            raise InvalidInput(
                gettext("%(value)s is not a bank note's value; give an amount more than 0")
                % {"value": value},
                field="note_denominations",
            )
        if note in notes:
            raise InvalidInput(
                gettext("the %(value)s note is given twice") % {"value": plain(note)},
                field="note_denominations",
            )
        notes[note] = plain(note)
    return [notes[note] for note in sorted(notes, reverse=True)]


def _group_player_data(value: Any) -> str:
    """What of the venue's members leaves the site for the group, one of its two kinds."""
    if value not in Venue.GroupPlayerData.values:
        raise InvalidInput(
            gettext(
                "%(value)s is not what a venue sends the group of its members; give "
                "pseudonymised or identified"
            )
            % {"value": value},
            field="group_player_data",
        )
    return str(value)


def _jurisdiction(value: Any) -> str:
    """A jurisdiction's code (``casino.venues.jurisdictions.JURISDICTIONS``), or empty."""
    code = (value or "").strip() if isinstance(value, str) else value
    if code in ("", None):
        return ""
    if code not in JURISDICTIONS:
        raise InvalidInput(
            gettext("%(value)s is not a jurisdiction; give one of %(codes)s, or none")
            % {"value": value, "codes": ", ".join(JURISDICTIONS)},
            field="jurisdiction",
        )
    return str(code)


def _taken(venue: Venue) -> InvalidInput:
    return InvalidInput(
        gettext("there is already a venue with the code %(code)s; choose another code")
        % {"code": venue.code},
        field="code",
    )


def _check(venue: Venue) -> None:
    """Field checks (codes, lengths, the time zone) as ``InvalidInput`` naming the field."""
    try:
        venue.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise InvalidInput(f"{field}: {messages[0]}", field=field) from None
    if Venue.objects.filter(code=venue.code).exclude(pk=venue.pk).exists():
        raise _taken(venue)


def _save(venue: Venue, **kwargs: Any) -> None:
    try:
        with transaction.atomic():
            venue.save(**kwargs)
    except IntegrityError:
        raise _taken(venue) from None


@transaction.atomic
def venue_create(
    *,
    user: Any,
    code: str,
    name: str,
    currency: str,
    rounding_unit: Any,
    timezone: str,
    language: str = "en",
    session_hours: Any = DEFAULT_SESSION_HOURS,
    variance_reason_over: Any = 0,
    amount_grouping: str = "comma",
    drop_each_close: bool = False,
    note_denominations: Any = None,
    group_player_data: str = Venue.GroupPlayerData.PSEUDONYMISED,
    jurisdiction: str = "",
) -> Venue:
    """Set up a venue. Only a superuser does: a manager works at the venues given to them."""
    if not getattr(user, "is_superuser", False):
        raise Forbidden(gettext("only a superuser sets up a venue"))
    venue = Venue(
        code=(code or "").strip(),
        name=(name or "").strip(),
        currency=(currency or "").strip(),
        rounding_unit=_rounding_unit(rounding_unit),
        variance_reason_over=_variance_reason_over(variance_reason_over),
        timezone=(timezone or "").strip(),
        language=language,
        session_hours=_session_hours(session_hours),
        amount_grouping=amount_grouping,
        drop_each_close=bool(drop_each_close),
        note_denominations=_note_denominations(note_denominations),
        group_player_data=_group_player_data(group_player_data),
        jurisdiction=_jurisdiction(jurisdiction),
    )
    _check(venue)
    _amounts_of(venue, MONEY_FIELDS)
    _save(venue)
    audit_record(
        user=user,
        action=AuditAction.VENUE_CREATE,
        obj=venue,
        venue=venue,
        summary=f"set up venue {venue.code}",
        after=_as_dict(venue),
    )
    return venue


#: A venue's own amounts, held to its currency (``_amounts_of``).
MONEY_FIELDS = ("rounding_unit", "variance_reason_over")


def _amounts_of(venue: Venue, names: Any) -> None:
    """Each of ``names`` an amount of ``venue`` as every amount is (its currency's decimals:
    no 0.5 VND rounding unit), refused in the reader's words (``check_amount``)."""
    for name in names:
        check_amount(getattr(venue, name), venue, field=name)


def _limits_off_the_unit(venue: Venue, unit: Decimal) -> None:
    for limit in TableLimit.objects.filter(table__venue=venue).select_related("table"):
        for name in ("min_stake", "max_stake"):
            value = getattr(limit, name)
            if not is_multiple(value, unit):
                raise Conflict(
                    gettext(
                        "table %(table)s's %(bet_type)s limit %(value)s is not a multiple of "
                        "the new rounding unit %(unit)s; change the table's limits first"
                    )
                    % {
                        "table": limit.table.code,
                        "bet_type": limit.bet_type,
                        "value": plain(value),
                        "unit": plain(unit),
                    }
                )


@transaction.atomic
def venue_update(*, venue: Venue, user: Any, **changes: Any) -> Venue:
    """Change a venue (its managers, or a superuser). Its currency, time zone and rounding
    unit change only while no session is open at any of its tables."""
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise InvalidInput(
            f"{', '.join(sorted(unknown))} cannot be changed; a venue's editable fields are "
            f"{', '.join(EDITABLE)}",
            field=sorted(unknown)[0],
        )
    list(Table.objects.select_for_update(of=("self",)).filter(venue_id=venue.pk).order_by("pk"))
    venue = Venue.objects.select_for_update().get(pk=venue.pk)
    if not (getattr(user, "is_superuser", False) or can(user, MANAGE, venue.pk)):
        raise Forbidden(gettext("only a manager of the venue changes it"))
    before = _as_dict(venue)
    for name, value in changes.items():
        if name == "rounding_unit":
            value = _rounding_unit(value)
        elif name == "session_hours":
            value = _session_hours(value)
        elif name == "variance_reason_over":
            value = _variance_reason_over(value)
        elif name == "drop_each_close":
            value = bool(value)
        elif name == "note_denominations":
            value = _note_denominations(value)
        elif name == "group_player_data":
            value = _group_player_data(value)
        elif name == "jurisdiction":
            value = _jurisdiction(value)
        elif isinstance(value, str):
            value = value.strip()
        setattr(venue, name, value)
    _check(venue)
    _amounts_of(venue, [name for name in MONEY_FIELDS if name in changes])
    after = _as_dict(venue)
    if before["group_player_data"] != after["group_player_data"] and not getattr(
        user, "is_superuser", False
    ):
        # The site's publication follows it: what the group's jurisdiction allows, decided
        # for the group, not by one venue (docs/OPERATIONS.md, "A group of sites").
        raise Forbidden(
            gettext("only a superuser changes what the venue sends the group of its members"),
            field="group_player_data",
        )
    if before["jurisdiction"] != after["jurisdiction"] and not getattr(user, "is_superuser", False):
        # Its law caps the cash thresholds the venue's managers propose (docs/compliance/).
        raise Forbidden(
            gettext("only a superuser changes whose law the venue follows"),
            field="jurisdiction",
        )
    live = [name for name in LIVE_FIELDS if before[name] != after[name]]
    if live:
        open_codes = open_tables(Table.objects.filter(venue=venue))
        if open_codes:
            raise Conflict(
                gettext(
                    "these tables are open: %(tables)s; the venue's %(fields)s can change once "
                    "all of its tables are closed"
                )
                % {"tables": ", ".join(open_codes), "fields": ", ".join(live)}
            )
    if "rounding_unit" in live:
        _limits_off_the_unit(venue, to_decimal(venue.rounding_unit))
    if after == before:
        return venue
    _save(venue)
    audit_record(
        user=user,
        action=AuditAction.VENUE_UPDATE,
        obj=venue,
        venue=venue,
        summary=f"changed venue {venue.code}",
        before=before,
        after=after,
    )
    return venue
