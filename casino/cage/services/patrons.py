"""Unknown patrons, and the cash the cage window counts for a person.

- ``unknown_patron_create``: a dealer, supervisor, manager or the cage's cashier records a
  patron nobody knows: how they look, and a temporary identifier the floor reads
  (``U-20261205-3``: the venue's gaming date and the day's number). ``cash_record`` and the
  cage window record one themselves when a patron nobody knows reaches a threshold and is
  described.
- ``unknown_patron_link``: a supervisor or a manager links an unknown patron to the member
  they turn out to be, once (the same member again changes nothing, another is refused);
  from then on the patron's cash, earlier and later, adds up with the member's
  (``casino.cage.cash_log.cash_people``).
- ``person_locked``: the row every writer of a person's cash locks before it reads their
  day's total, in this order: the unknown patron's row, then the member's (and their
  person's, whose memberships an exclusion area adds up), as ``cash_record`` and the front
  money and markers' services lock the member. Two tables recording at once for one person
  are served one after the other, so the second sees the first's cash and one alert is
  raised (``CashAlert``'s unique constraints back it up).
- The cage window (``casino.cage.services.inventory``: chip purchases and redemptions):
  ``window_patron`` locks and asks the person before the movement (a purchase is a buy-in's
  eligibility question, a redemption a cash-out's), and refuses cash reaching a threshold
  from nobody (the membership number, the unknown patron's identifier or a description is
  given), and a member's reaching the reporting threshold while their record holds no
  identity document unless the cashier gives the one seen (the table's rule,
  ``identification_asked``; the movement keeps it); ``window_counted``
  raises the day's alert after it. Front money deposited and returned and markers paid in
  cash ask the same before they record (``casino.cage.services.cage_identification``) and
  raise their alerts through ``front_money_counted`` and ``marker_payment_counted``, at
  the end of their services.

Every write is audited.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.cash_log import Source, counted_as
from casino.cage.models import (
    CageMovement,
    CashDirection,
    CashInstrument,
    CashLevel,
    FrontMoney,
    FrontMoneyKind,
    MarkerPayment,
    UnknownPatron,
)
from casino.cage.services.thresholds import (
    MAX_DESCRIPTION,
    day_alert,
    gaming_date_at,
    identification_asked,
    threshold_crossing,
)
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.players.eligibility import Activity, check_player_may
from casino.players.membership import membership_key
from casino.players.models import Person, Player
from casino.staff.roles import CASHIER, PLAY, SUPERVISE, can
from casino.venues.models import Venue

#: Who records an unknown patron: the tables' people and the cage's cashier.
RECORDERS = PLAY | CASHIER


def _as_dict(patron: UnknownPatron) -> dict[str, Any]:
    return {
        "code": patron.code,
        "description": patron.description,
        "gaming_date": patron.gaming_date.isoformat(),
        "member": patron.member.membership_number if patron.member_id else None,
    }


def _description(description: str) -> str:
    description = (description or "").strip()
    if not description:
        raise InvalidInput(
            gettext("Describe the patron (e.g. a man about 40, grey jacket, glasses)."),
            field="patron_description",
        )
    if len(description) > MAX_DESCRIPTION:
        raise InvalidInput(
            gettext("Keep it under %(max)d characters.") % {"max": MAX_DESCRIPTION + 1},
            field="patron_description",
        )
    return description


@transaction.atomic
def unknown_patron_create(
    *, venue: Venue, user: Any, description: str, at: datetime | None = None
) -> UnknownPatron:
    """Record a patron nobody knows, described, with the day's next temporary identifier
    (the venue's row locked while the number is taken)."""
    if not can(user, RECORDERS, venue.pk):
        raise Forbidden(gettext("Only the tables' staff and the cage record an unknown patron."))
    description = _description(description)
    at = at or timezone.now()
    venue = Venue.objects.select_for_update().get(pk=venue.pk)
    day = gaming_date_at(venue, at)
    last = UnknownPatron.objects.filter(venue=venue, gaming_date=day).aggregate(n=Max("number"))
    number = (last["n"] or 0) + 1
    patron = UnknownPatron.objects.create(
        venue=venue,
        code=f"U-{day:%Y%m%d}-{number}",
        gaming_date=day,
        number=number,
        description=description,
        created_by=user,
        created_at=at,
    )
    audit_record(
        user=user,
        action=AuditAction.CASH_UNKNOWN_PATRON,
        obj=patron,
        venue=venue,
        summary=f"unknown patron {patron.code}: {description}",
        after=_as_dict(patron),
    )
    return patron


def unknown_patron_of(venue: Venue, code: str) -> UnknownPatron | None:
    """The venue's unknown patron by their temporary identifier ("" is none)."""
    code = (code or "").strip().upper()
    if not code:
        return None
    patron = UnknownPatron.objects.filter(venue=venue, code=code).first()
    if patron is None:
        raise InvalidInput(
            gettext("No unknown patron %(code)s at this venue.") % {"code": code},
            field="unknown_patron",
        )
    return patron


@transaction.atomic
def unknown_patron_link(
    *, patron: UnknownPatron, member: Player, user: Any, at: datetime | None = None
) -> UnknownPatron:
    """A supervisor or a manager links the unknown patron to the member they are, once; the
    member's day is judged again with the patron's cash in it (an alert where it now
    reaches the reporting threshold, under the member's lock)."""
    patron = UnknownPatron.objects.select_for_update(of=("self",)).get(pk=patron.pk)
    if not can(user, SUPERVISE, patron.venue_id):
        raise Forbidden(gettext("Only a supervisor or a manager links an unknown patron."))
    member, _none = person_locked(Player.objects.get(pk=member.pk), None)
    if member.venue_id != patron.venue_id:
        raise InvalidInput(gettext("This player is not a member of this venue."), field="member")
    if patron.member_id == member.pk:
        return patron
    if patron.member_id is not None:
        raise Conflict(
            gettext("%(code)s is already linked to another member.") % {"code": patron.code},
            field="member",
            reason="already_linked",
        )
    before = _as_dict(patron)
    patron.member, patron.linked_by, patron.linked_at = member, user, at or timezone.now()
    patron.save(update_fields=["member", "linked_by", "linked_at"])
    audit_record(
        user=user,
        action=AuditAction.CASH_UNKNOWN_PATRON_LINK,
        obj=patron,
        venue=patron.venue,
        summary=f"unknown patron {patron.code} is member {member.membership_number}",
        before=before,
        after=_as_dict(patron),
    )
    for direction in CashDirection.values:
        day_alert(
            venue=patron.venue,
            gaming_date=patron.gaming_date,
            direction=direction,
            at=patron.linked_at,
            source=Source.PATRON_LINK,
            source_id=patron.pk,
            player=member,
        )
    return patron


def person_locked(
    player: Player | None, unknown_patron: UnknownPatron | None
) -> tuple[Player | None, UnknownPatron | None]:
    """Lock the person's rows (see the module's docstring) and return them as read under the
    lock: an unknown patron linked to a member is returned as the member."""
    if unknown_patron is not None:
        unknown_patron = UnknownPatron.objects.select_for_update(of=("self",)).get(
            pk=unknown_patron.pk
        )
        player, unknown_patron = counted_as(player, unknown_patron)
    if player is not None:
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.person_id is not None:
            Person.objects.select_for_update().filter(pk=player.person_id).first()
    return player, unknown_patron


@dataclass(frozen=True)
class WindowPatron:
    """Who buys or cashes in chips at the cage window: a member, an unknown patron, a
    description of a patron nobody knows, or nobody given."""

    player: Player | None = None
    unknown_patron: UnknownPatron | None = None
    description: str = ""
    #: The identity document seen, where the thresholds ask for one (``identification_asked``).
    id_document_type: str = ""
    id_document_number: str = ""

    def recorded(self) -> dict[str, Any]:
        """What the cage movement keeps of them (``cage_move``'s arguments)."""
        return {
            "player": self.player,
            "unknown_patron": self.unknown_patron,
            "id_document_type": self.id_document_type,
            "id_document_number": self.id_document_number,
        }


def window_patron_named(
    venue: Venue, person: str, description: str = "", document: tuple[str, str] = ("", "")
) -> WindowPatron:
    """The patron a cashier names at the window: an unknown patron's identifier or a
    membership number ("": nobody, described or not), with the identity document seen
    (type, number); ``InvalidInput`` naming ``player`` when it is nobody at the venue."""
    seen = {"id_document_type": document[0], "id_document_number": document[1]}
    person = (person or "").strip()
    patron = UnknownPatron.objects.filter(venue=venue, code=person.upper()).first()
    if person and patron is None:
        key = membership_key(person)
        player = Player.objects.filter(venue=venue, membership_number=key).first() if key else None
        if player is None:
            raise InvalidInput(
                gettext(
                    "Nobody at this venue is %(person)s: give a membership number or an "
                    "unknown patron's identifier."
                )
                % {"person": person},
                field="player",
            )
        return WindowPatron(player=player, **seen)
    return WindowPatron(unknown_patron=patron, description=description, **seen)


_ASKED = {CashDirection.IN: Activity.BUY_IN, CashDirection.OUT: Activity.CASH_OUT}


def window_patron(
    *, venue: Venue, user: Any, direction: str, amount: Any, patron: WindowPatron | None, at: Any
) -> WindowPatron:
    """The person of a movement at the cage window, locked and asked, before it is posted: a
    patron nobody knows whose cash reaches a threshold is recorded as an unknown patron from
    the description given, refused without one."""
    patron = patron or WindowPatron()
    player, unknown = person_locked(patron.player, patron.unknown_patron)
    if player is not None:
        check_player_may(player=player, venue=venue, activity=_ASKED[direction], at=at)
    crossing = threshold_crossing(
        venue=venue,
        kind=direction,
        instrument=CashInstrument.CASH,
        amount=amount,
        player=player,
        unknown_patron=unknown,
        at=at,
    )
    # the table's rule: a member reaching the reporting threshold without a document on
    # their record shows one, which the movement keeps
    document = identification_asked(
        crossing if player is not None else None,
        id_document_type=patron.id_document_type,
        id_document_number=patron.id_document_number,
        patron_description="",
    )
    if crossing is not None and player is None and unknown is None:
        if not (patron.description or "").strip():
            raise InvalidInput(
                gettext(
                    "This cash reaches the %(threshold)s: give the membership number or the "
                    "unknown patron's identifier, or describe the patron."
                )
                % {"threshold": CashLevel(crossing.level).label.lower()},
                field="patron_description",
                reason="identification_required",
            )
        unknown = unknown_patron_create(
            venue=venue, user=user, description=patron.description, at=at
        )
    return WindowPatron(player=player, unknown_patron=unknown, **document)


def window_counted(movement: CageMovement, direction: str) -> None:
    """The day's alert a chip purchase or redemption raises, if any."""
    day_alert(
        venue=movement.venue,
        player=movement.player,
        unknown_patron=movement.unknown_patron,
        gaming_date=movement.gaming_date,
        direction=direction,
        at=movement.recorded_at,
        source=Source.WINDOW,
        source_id=movement.pk,
    )


_FRONT_MONEY = {FrontMoneyKind.DEPOSIT: CashDirection.IN, FrontMoneyKind.RETURN: CashDirection.OUT}


def front_money_counted(movement: FrontMoney) -> None:
    """The day's alert a front money deposit or return raises, if any (the member is locked
    by the front money's service)."""
    if movement.kind not in _FRONT_MONEY:
        return
    person_locked(movement.player, None)
    day_alert(
        venue=movement.venue,
        player=movement.player,
        gaming_date=movement.gaming_date,
        direction=_FRONT_MONEY[movement.kind],
        at=movement.recorded_at,
        source=Source.FRONT_MONEY,
        source_id=movement.pk,
    )


def marker_payment_counted(payment: MarkerPayment) -> None:
    """The day's alert a marker paid in cash raises, if any (the member is locked by the
    markers' service)."""
    if payment.method != MarkerPayment.Method.CASH or payment.kind != MarkerPayment.Kind.PAYMENT:
        return
    marker = payment.marker
    person_locked(marker.player, None)
    day_alert(
        venue=marker.venue,
        player=marker.player,
        gaming_date=payment.gaming_date,
        direction=CashDirection.IN,
        at=payment.received_at,
        source=Source.MARKER_PAYMENT,
        source_id=payment.pk,
    )
