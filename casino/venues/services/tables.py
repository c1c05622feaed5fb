"""Setting up tables: game, ruleset, boxes, chips and the stake limits per bet type.

Locking: an edit locks the table row, the same lock ``session_open`` takes, so a table's
ruleset, game, boxes and chips cannot change while a session is being opened; they cannot
change at all while a session is open (the closing count uses the chips it opened with).
A table's ruleset (and with it its game) is not changed here: it is its paytable, so a
change is requested and a second manager approves it (``casino.venues.services.table_rulesets``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel import registry
from casino.kernel.amounts import check_amount
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS, plain, to_decimal
from casino.staff.roles import MANAGE, can
from casino.venues.hooks import open_session_at
from casino.venues.models import Table, TableLimit, Venue

# The rulesets sit above the venues, which take a ruleset as it is given (its venue, code and
# game): only a type checker reads its class.
if TYPE_CHECKING:
    from casino.rulesets.models import Ruleset

#: What cannot change while a session is open at the table.
IN_PLAY_FIELDS = ("ruleset", "game", "seats", "chip_denominations")
#: What ``table_update`` takes; ``ruleset`` and ``game`` only as they are (a change of them
#: is a request a second manager approves).
EDITABLE = (*IN_PLAY_FIELDS, "code", "status", "limits")
#: The largest chip value (a chip count times it must still fit a money field).
MAX_CHIP = Decimal("1000000000")


def _amount(value: Any, field: str) -> Decimal:
    try:
        amount = to_decimal(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"{value!r} is not an amount", field=field) from None
    exponent = amount.as_tuple().exponent
    if isinstance(exponent, int) and -exponent > MONEY_DECIMAL_PLACES:
        raise InvalidInput(
            f"{plain(amount)} has more than {MONEY_DECIMAL_PLACES} decimal places", field=field
        )
    if amount.adjusted() >= MONEY_MAX_DIGITS - MONEY_DECIMAL_PLACES:
        raise InvalidInput(f"{plain(amount)} is too large", field=field)
    return amount


def _denominations(values: Any) -> list[str]:
    """Chip values as text, largest first; each positive, none twice."""
    if isinstance(values, str | bytes) or not isinstance(values, Sequence) or not values:
        raise InvalidInput(
            'give the chips as a list of values, e.g. ["100000", "5000"]',
            field="chip_denominations",
        )
    chips: dict[Decimal, str] = {}
    for index, value in enumerate(values):
        field = f"chip_denominations[{index}]"
        chip = _amount(value, field)
        if not 0 < chip <= MAX_CHIP:
            raise InvalidInput(
                f"a chip is worth more than 0 and at most {plain(MAX_CHIP)}, got {plain(chip)}",
                field=field,
            )
        if chip in chips:
            raise InvalidInput(f"the {plain(chip)} chip is given twice", field=field)
        chips[chip] = plain(chip)
    return [chips[chip] for chip in sorted(chips, reverse=True)]


def _limits(
    limits: Mapping[str, Mapping[str, Any]], *, game: str, venue: Venue
) -> dict[str, tuple[Decimal, Decimal]]:
    """Stake limits per bet type: min > 0, max >= min, both multiples of the rounding unit."""
    if not isinstance(limits, Mapping):
        raise InvalidInput(
            'give the limits as {bet type: {"min_stake": ..., "max_stake": ...}}', field="limits"
        )
    bet_types = registry.get(game).bet_types
    clean: dict[str, tuple[Decimal, Decimal]] = {}
    for bet_type, limit in limits.items():
        field = f"limits.{bet_type}"
        if bet_type not in bet_types:
            raise InvalidInput(
                f"{bet_type!r} is not a bet type of {game}: use {', '.join(bet_types)}",
                field=field,
            )
        if not isinstance(limit, Mapping) or not {"min_stake", "max_stake"} <= set(limit):
            raise InvalidInput(f"give the {bet_type} limit as min_stake and max_stake", field=field)
        # Each a multiple of the venue's chip unit, refused in the words of every amount.
        unit = venue.rounding_unit
        low = check_amount(limit["min_stake"], venue, field=f"{field}.min_stake", unit=unit)
        high = check_amount(limit["max_stake"], venue, field=f"{field}.max_stake", unit=unit)
        if low <= 0:
            raise InvalidInput(
                f"the {bet_type} minimum must be more than 0, got {plain(low)}",
                field=f"{field}.min_stake",
            )
        if high < low:
            raise InvalidInput(
                f"the {bet_type} maximum {plain(high)} is below its minimum {plain(low)}",
                field=f"{field}.max_stake",
            )
        clean[bet_type] = (low, high)
    return clean


def check_ruleset(ruleset: Ruleset, *, venue: Venue, game: str) -> None:
    """Only a ruleset of the table's own venue and game (never a preset) may be assigned."""
    if ruleset.venue_id != venue.pk:
        raise InvalidInput(
            f"ruleset {ruleset.code} is not one of {venue.name}'s rulesets", field="ruleset"
        )
    if ruleset.game != game:
        raise InvalidInput(
            f"ruleset {ruleset.code} is a {ruleset.game} ruleset; this table plays {game}",
            field="ruleset",
        )


def _check(table: Table) -> None:
    try:
        table.full_clean(exclude=["venue", "ruleset"], validate_constraints=False)
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise InvalidInput(f"{field}: {messages[0]}", field=field) from None
    taken = Table.objects.filter(venue_id=table.venue_id, code=table.code).exclude(pk=table.pk)
    if taken.exists():
        raise InvalidInput(f"there is already a table {table.code} at this venue", field="code")


def _save(table: Table, **kwargs: Any) -> None:
    try:
        with transaction.atomic():
            table.save(**kwargs)
    except IntegrityError:
        raise InvalidInput(
            f"there is already a table {table.code} at this venue", field="code"
        ) from None


def set_limits(table: Table, limits: Mapping[str, tuple[Decimal, Decimal]]) -> None:
    TableLimit.objects.filter(table=table).delete()
    TableLimit.objects.bulk_create(
        TableLimit(table=table, bet_type=bet_type, min_stake=low, max_stake=high)
        for bet_type, (low, high) in limits.items()
    )


def table_state(table: Table, limits: Mapping[str, tuple[Decimal, Decimal]]) -> dict[str, Any]:
    """The table as the audit trail records it, before and after a change."""
    return {
        "code": table.code,
        "game": table.game,
        "ruleset": table.ruleset_id,
        "seats": table.seats,
        "chip_denominations": list(table.chip_denominations),
        "status": table.status,
        "limits": {bt: [plain(low), plain(high)] for bt, (low, high) in sorted(limits.items())},
    }


def current_limits(table: Table) -> dict[str, tuple[Decimal, Decimal]]:
    return {
        limit.bet_type: (limit.min_stake, limit.max_stake)
        for limit in TableLimit.objects.filter(table=table)
    }


@transaction.atomic
def table_create(
    *,
    venue: Venue,
    user: Any,
    code: str,
    game: str,
    ruleset: Ruleset,
    seats: int,
    chip_denominations: Sequence[Any],
    limits: Mapping[str, Mapping[str, Any]] | None = None,
    status: str = Table.Status.ACTIVE,
) -> Table:
    """Set up a table at a venue with a ruleset of the same venue and game."""
    if not can(user, MANAGE, venue.pk):
        raise Forbidden("only a manager sets up tables")
    try:
        registry.get(game)
    except LookupError:
        installed = ", ".join(adapter.code for adapter in registry.all_games())
        raise InvalidInput(f"{game!r} is not a game here; use {installed}", field="game") from None
    check_ruleset(ruleset, venue=venue, game=game)
    table = Table(
        venue=venue,
        code=(code or "").strip(),
        game=game,
        ruleset=ruleset,
        seats=seats,
        chip_denominations=_denominations(chip_denominations),
        status=status,
    )
    _check(table)
    clean_limits = _limits(limits or {}, game=game, venue=venue)
    _save(table)
    set_limits(table, clean_limits)
    audit_record(
        user=user,
        action=AuditAction.TABLE_CREATE,
        obj=table,
        venue=venue,
        summary=f"set up table {table.code} ({game})",
        after=table_state(table, clean_limits),
    )
    return table


@transaction.atomic
def table_update(*, table: Table, user: Any, **changes: Any) -> Table:
    """Change a table. ``limits`` replaces all of its limits; ``seats`` and
    ``chip_denominations`` cannot change while a session is open at the table.

    ``ruleset`` and ``game`` are taken only as they are (a form sends every field): a
    change of them is requested with ``table_rulesets.ruleset_change_request``.
    """
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise InvalidInput(
            f"{', '.join(sorted(unknown))} cannot be changed; a table's editable fields are "
            f"{', '.join(EDITABLE)}",
            field=sorted(unknown)[0],
        )
    table = Table.objects.select_for_update(of=("self",)).select_related("venue").get(pk=table.pk)
    venue = table.venue
    if not can(user, MANAGE, venue.pk):
        raise Forbidden("only a manager changes tables")
    if "ruleset" in changes and getattr(changes["ruleset"], "pk", None) != table.ruleset_id:
        raise InvalidInput(
            gettext(
                "a table's ruleset is its paytable and changes only when a second manager "
                "approves it: request the change of ruleset, and another manager of the venue "
                "approves it once the table is closed"
            ),
            field="ruleset",
        )
    if "game" in changes and changes["game"] != table.game:
        raise InvalidInput(
            gettext(
                "a table's game changes only together with a ruleset of that game: request a "
                "change to a ruleset of the new game"
            ),
            field="game",
        )
    old_limits = current_limits(table)
    before = table_state(table, old_limits)
    if "seats" in changes:
        table.seats = changes["seats"]
    if "chip_denominations" in changes:
        table.chip_denominations = _denominations(changes["chip_denominations"])
    if "code" in changes:
        table.code = (changes["code"] or "").strip()
    if "status" in changes:
        table.status = changes["status"]
    new_limits = (
        _limits(changes["limits"], game=table.game, venue=venue)
        if "limits" in changes
        else old_limits
    )
    _check(table)
    after = table_state(table, new_limits)
    in_play = [name for name in IN_PLAY_FIELDS if before[name] != after[name]]
    if in_play:
        session_id = open_session_at(table)
        if session_id is not None:
            raise Conflict(
                f"table {table.code} is open (session {session_id}); its "
                f"{', '.join(in_play)} can change once it is closed"
            )
    if after == before:
        return table
    _save(table)
    if new_limits != old_limits:
        set_limits(table, new_limits)
    audit_record(
        user=user,
        action=AuditAction.TABLE_UPDATE,
        obj=table,
        venue=venue,
        summary=f"changed table {table.code}",
        before=before,
        after=after,
    )
    return table
