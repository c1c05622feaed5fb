"""The cash thresholds and their rule: what a cash transaction at a table reaches, what it
then asks of the table, and the alert a player's day raises (the recording is
``casino.cage.services.cash``).

- The thresholds (``CashThresholds``): a manager proposes a logging and a reporting
  threshold (``thresholds_propose``), a second manager approves them
  (``thresholds_approve``); the latest approved version is in force from its approval on.
- The rule: only cash counts, and what else the venue's law counts (Macau's chips and
  credit: ``casino.cage.cash_log.counted_instruments``). Per person and gaming day
  (``gaming_date_at``), the cash in and the cash out are added up apart from every cash
  movement of the day, at the tables (buy-ins and cash-outs, voids left out) and at the
  cage (chip purchases and redemptions, front money deposited and returned, markers paid
  in cash): the multiple transaction log,
  ``casino.cage.cash_log``, whose rows of the person ``day_total`` adds. A person is a
  member, with their memberships at the venues of an exclusion area that adds up cash
  (each venue's own gaming day of that date, ``casino.players.areas.cash_memberships``),
  or an unknown patron (``UnknownPatron``), whose cash is a member's once linked to them.
  A total at or above the logging threshold puts all of that day's cash transactions of
  that direction in the log (each further one too); at or above the reporting threshold,
  an alert is raised once per person, day and direction (``CashAlert``, shown on the
  cage's screen and the reports' dashboard, and a line on the ``casino.security`` logger),
  and the day's total is a report candidate. The writers lock the person's row first
  (``casino.cage.services.patrons.person_locked``), so two tables crossing it at once raise
  one alert.
- At the table, before recording (``threshold_crossing``, the rule's one place, asked by
  the form and by ``cash_record``): a cash transaction whose day total, with it, reaches a
  threshold is said to reach it, and needs identification (``identification_asked``): a
  patron nobody knows and not recorded as an unknown patron (so it counts alone) is
  described, which records them as one (``casino.cage.services.patrons``); a
  member reaching the reporting threshold shows an identity document unless their record
  holds one. The transaction keeps the threshold it reached and the identification taken,
  which the dealer's list and the pit's view of the table show.

Every write is audited.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.cash_log import (
    People,
    Source,
    cash_log,
    cash_people,
    counted_as,
    counted_instruments,
    log_total,
)
from casino.cage.models import (
    CashAlert,
    CashKind,
    CashLevel,
    CashThresholds,
    CashTransaction,
    UnknownPatron,
)
from casino.cage.services.threshold_presets import check_legal_ceiling, preset_figures
from casino.kernel import amounts
from casino.kernel.errors import Forbidden, InvalidInput
from casino.kernel.money import venue_money
from casino.players.models import Player
from casino.staff.policy import approves_own
from casino.staff.roles import MANAGE, can
from casino.venues.models import GamingDay, Venue
from casino.venues.services.gaming_days import gaming_date_of

logger = logging.getLogger("casino.security")
#: The longest description of a patron nobody knows (``CashTransaction``).
MAX_DESCRIPTION = 255


def gaming_date_at(venue: Venue, at: datetime) -> Any:
    """The venue's gaming date of ``at``: the day made that covers it, else by its start."""
    day = (
        GamingDay.objects.filter(venue=venue, starts_at__lte=at, ends_at__gt=at)
        .values_list("gaming_date", flat=True)
        .first()
    )
    return day or gaming_date_of(venue, at)


def check_amount(
    amount: Any, venue: Venue, *, field: str = "amount", unit: Decimal | None = None
) -> Decimal:
    """An amount more than 0 of the venue (``casino.kernel.amounts.check_amount``: its currency's
    decimals, a multiple of ``unit`` where given), ``InvalidInput`` otherwise."""
    amount = amounts.check_amount(amount, venue, field=field, unit=unit)
    if amount <= 0:
        raise InvalidInput(gettext("The amount must be more than 0."), field=field)
    return amount


def thresholds_in_force(venue: Venue, at: datetime | None = None) -> CashThresholds | None:
    """The venue's latest version approved at ``at`` (now), or None."""
    at = at or timezone.now()
    return (
        CashThresholds.objects.filter(
            venue=venue, status=CashThresholds.Status.APPROVED, approved_at__lte=at
        )
        .order_by("-approved_at", "-id")
        .first()
    )


def day_total(
    *,
    player: Player | None = None,
    gaming_date: Any,
    kind: str,
    at: datetime | None = None,
    unknown_patron: UnknownPatron | None = None,
    people: People | None = None,
) -> Decimal:
    """The person's cash of one direction (``kind``: a ``CashDirection``) on a gaming day:
    their rows of the multiple transaction log (``casino.cage.cash_log``), a member's with
    their linked memberships' where the area adds up cash (as it is at ``at``, now unless
    given) and the unknown patrons linked to them; ``people``, when the caller has asked
    ``cash_people`` already, instead of the person. The one place the total is added up."""
    if people is None:
        people = cash_people(player=player, unknown_patron=unknown_patron, at=at)
    return log_total(cash_log(gaming_date=gaming_date, people=people), kind)


class Identification:
    """What a threshold crossing asks of the table before it records."""

    NONE = ""
    #: A patron nobody knows: how they look (they cannot be followed by a total).
    DESCRIPTION = "description"
    #: A member reaching the reporting threshold without a document on their record.
    DOCUMENT = "document"


@dataclass(frozen=True)
class ThresholdCrossing:
    """A cash transaction that reaches the venue's logging or reporting threshold."""

    level: str  # CashLevel
    threshold: Decimal
    #: The day's cash of that direction before this one (0 for a patron nobody knows and
    #: not recorded as an unknown patron).
    earlier: Decimal
    #: With this one.
    total: Decimal
    identification: str  # Identification

    @property
    def reporting(self) -> bool:
        return self.level == CashLevel.REPORTING


def threshold_crossing(
    *,
    venue: Venue,
    kind: str,
    instrument: str,
    amount: Decimal,
    player: Player | None = None,
    at: datetime | None = None,
    unknown_patron: UnknownPatron | None = None,
) -> ThresholdCrossing | None:
    """Whether recording this transaction reaches a threshold in force, and what it then
    asks of the table; None when it reaches none (or no thresholds are approved).

    The rule's one place: the console's form asks it before recording, ``cash_record``
    asks it again (under the person's lock) and keeps its answer, as the cage window does.
    Only cash counts; a member's or an unknown patron's earlier cash of that direction and
    gaming day is added, as the log and the alert add it; a patron nobody knows is judged
    by this transaction alone."""
    if instrument not in counted_instruments(venue) or kind not in CashKind.values:
        return None
    at = at or timezone.now()
    thresholds = thresholds_in_force(venue, at)
    if thresholds is None:
        return None
    player, unknown_patron = counted_as(player, unknown_patron)
    earlier = Decimal(0)
    if player is not None or unknown_patron is not None:
        earlier = day_total(
            player=player,
            unknown_patron=unknown_patron,
            gaming_date=gaming_date_at(venue, at),
            kind=kind,
            at=at,
        )
    total = earlier + amount
    if total >= thresholds.reporting_threshold:
        level, threshold = CashLevel.REPORTING, thresholds.reporting_threshold
    elif total >= thresholds.logging_threshold:
        level, threshold = CashLevel.LOGGING, thresholds.logging_threshold
    else:
        return None
    if player is None and unknown_patron is not None:
        needs = Identification.NONE  # described when recorded as an unknown patron
    elif player is None:
        needs = Identification.DESCRIPTION
    elif level == CashLevel.REPORTING and not player.id_document_number:
        needs = Identification.DOCUMENT
    else:
        needs = Identification.NONE
    return ThresholdCrossing(
        level=level, threshold=threshold, earlier=earlier, total=total, identification=needs
    )


def identification_asked(
    crossing: ThresholdCrossing | None,
    *,
    id_document_type: str,
    id_document_number: str,
    patron_description: str,
) -> dict[str, str]:
    """The identification a crossing asks for, checked (``InvalidInput`` naming the field
    when it is missing), as the transaction keeps it; nothing when none is asked."""
    needs = crossing.identification if crossing is not None else Identification.NONE
    if needs == Identification.DESCRIPTION:
        description = (patron_description or "").strip()
        if not description:
            raise InvalidInput(
                gettext(
                    "This cash reaches the %(threshold)s: describe the patron (e.g. a man "
                    "about 40, grey jacket, glasses), or give their membership number."
                )
                % {"threshold": CashLevel(crossing.level).label.lower()},
                field="patron_description",
                reason="identification_required",
            )
        if len(description) > MAX_DESCRIPTION:
            raise InvalidInput(
                gettext("Keep it under %(max)d characters.") % {"max": MAX_DESCRIPTION + 1},
                field="patron_description",
            )
        return {"patron_description": description}
    if needs == Identification.DOCUMENT:
        kind = (id_document_type or "").strip()
        number = (id_document_number or "").strip()
        for field, value, most in (
            ("id_document_type", kind, 32),
            ("id_document_number", number, 64),
        ):
            if not value:
                raise InvalidInput(
                    gettext(
                        "This cash reaches the reporting threshold: ask for an identity "
                        "document and give its type and number."
                    ),
                    field=field,
                    reason="identification_required",
                )
            if len(value) > most:
                raise InvalidInput(
                    gettext("Keep it under %(max)d characters.") % {"max": most + 1},
                    field=field,
                )
        return {"id_document_type": kind, "id_document_number": number}
    return {}


def alert_if_reached(tx: CashTransaction, at: datetime) -> CashAlert | None:
    """The alert a buy-in or cash-out at a table raises (``day_alert``)."""
    return day_alert(
        venue=tx.venue,
        player=tx.player,
        unknown_patron=tx.unknown_patron,
        gaming_date=tx.gaming_date,
        direction=tx.kind,
        at=at,
        source=Source.TABLE,
        source_id=tx.pk,
        transaction=tx,
    )


def day_alert(
    *,
    venue: Venue,
    gaming_date: Any,
    direction: str,
    at: datetime,
    source: str,
    source_id: int,
    player: Player | None = None,
    unknown_patron: UnknownPatron | None = None,
    transaction: CashTransaction | None = None,
) -> CashAlert | None:
    """Raise the reporting alert of the person's cash of the day and direction once it
    reaches the reporting threshold (once per person, day and direction: a unique
    constraint), audited and logged on ``casino.security``; None when it does not, or was
    raised already. ``source`` and ``source_id`` name the log's row that reached it. The
    caller holds the person's lock (``casino.cage.services.patrons.person_locked``)."""
    player, unknown_patron = counted_as(player, unknown_patron)
    thresholds = thresholds_in_force(venue, at)
    if thresholds is None or (player is None and unknown_patron is None):
        return None
    people = cash_people(player=player, unknown_patron=unknown_patron, at=at)
    total = day_total(gaming_date=gaming_date, kind=direction, people=people)
    if total < thresholds.reporting_threshold:
        return None
    # An unknown patron linked to the member is the member: one alert for both.
    whose = Q(player_id__in=people.player_ids) | Q(unknown_patron_id__in=people.patron_ids)
    if CashAlert.objects.filter(
        whose, venue=venue, gaming_date=gaming_date, direction=direction
    ).exists():
        return None
    alert = CashAlert.objects.create(
        venue=venue,
        player=player,
        unknown_patron=unknown_patron,
        gaming_date=gaming_date,
        direction=direction,
        total=total,
        threshold=thresholds.reporting_threshold,
        transaction=transaction,
        source=source,
        source_id=source_id,
        raised_at=at,
    )
    who = player.membership_number if player is not None else unknown_patron.code
    audit_record(
        user=None,
        action=AuditAction.CASH_ALERT,
        obj=alert,
        venue=venue,
        summary=(
            f"{who}'s {alert.get_direction_display()} total of gaming day "
            f"{gaming_date.isoformat()} reached the reporting threshold: "
            f"{venue_money(total, venue)}"
        ),
    )
    logger.warning(
        "cash reporting threshold reached venue=%s player=%s gaming_date=%s direction=%s "
        "total=%s threshold=%s transaction=%s source=%s:%s",
        venue.code,
        who,
        gaming_date.isoformat(),
        direction,
        total,
        thresholds.reporting_threshold,
        transaction.pk if transaction is not None else None,
        source,
        source_id,
    )
    return alert


def _threshold(value: Any, venue: Venue, field: str) -> Decimal:
    return check_amount(value, venue, field=field)


@transaction.atomic
def thresholds_propose(
    *,
    venue: Venue,
    user: Any,
    logging_threshold: Any = None,
    reporting_threshold: Any = None,
    from_jurisdiction: bool = False,
) -> CashThresholds:
    """A manager proposes a version of the venue's thresholds; a second one approves it.
    ``from_jurisdiction``: the venue's law's figures, where not given (``preset_figures``);
    a reporting threshold above the law's is refused (``check_legal_ceiling``)."""
    if not can(user, MANAGE, venue.pk):
        raise Forbidden(gettext("Only a manager of the venue proposes its cash thresholds."))
    if from_jurisdiction:
        logging_threshold, reporting_threshold = preset_figures(
            venue, logging_threshold, reporting_threshold
        )
    logging_threshold = _threshold(logging_threshold, venue, "logging_threshold")
    reporting_threshold = _threshold(reporting_threshold, venue, "reporting_threshold")
    if reporting_threshold < logging_threshold:
        raise InvalidInput(
            gettext("The reporting threshold is at least the logging threshold."),
            field="reporting_threshold",
        )
    check_legal_ceiling(venue, reporting_threshold)
    version = CashThresholds.objects.create(
        venue=venue,
        logging_threshold=logging_threshold,
        reporting_threshold=reporting_threshold,
        proposed_by=user,
        proposed_at=timezone.now(),
    )
    audit_record(
        user=user,
        action=AuditAction.CASH_THRESHOLDS_PROPOSE,
        obj=version,
        venue=venue,
        summary=(
            f"proposed cash thresholds: log at {venue_money(logging_threshold, venue)}, "
            f"report at {venue_money(reporting_threshold, venue)}"
            + (f" (from the law of {venue.jurisdiction})" if from_jurisdiction else "")
        ),
        after={
            "logging": str(logging_threshold),
            "reporting": str(reporting_threshold),
            "jurisdiction": venue.jurisdiction,
        },
    )
    return version


@transaction.atomic
def thresholds_approve(*, version: CashThresholds, user: Any) -> CashThresholds:
    """A second manager (not the proposer) approves a proposed version: in force from now."""
    version = (
        CashThresholds.objects.select_for_update(of=("self",))
        .select_related("venue")
        .get(pk=version.pk)
    )
    if not can(user, MANAGE, version.venue_id):
        raise Forbidden(gettext("Only a manager of the venue approves its cash thresholds."))
    if version.status == CashThresholds.Status.APPROVED:
        return version
    if approves_own(user=user, made_by=[version.proposed_by_id]):
        raise Forbidden(
            gettext("A second manager approves the thresholds, not the one who proposed them.")
        )
    check_legal_ceiling(version.venue, version.reporting_threshold)
    version.status = CashThresholds.Status.APPROVED
    version.approved_by, version.approved_at = user, timezone.now()
    version.save(update_fields=["status", "approved_by", "approved_at"])
    audit_record(
        user=user,
        action=AuditAction.CASH_THRESHOLDS_APPROVE,
        obj=version,
        venue=version.venue,
        summary=(
            f"approved cash thresholds: log at "
            f"{venue_money(version.logging_threshold, version.venue)}, report at "
            f"{venue_money(version.reporting_threshold, version.venue)}"
        ),
    )
    return version
