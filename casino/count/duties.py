"""The count's segregation of duties (``UNLESS`` of casino/staff/policy.py states them for
every capability): who may count a drop box, and who may confirm the close of a day's count.
The count's services raise what these return (casino.count.services), and its screens ask
them before offering a form.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext_lazy as _

from casino.cage.models import Slip
from casino.count.models import DropBox
from casino.floor.models import TableSession
from casino.kernel.errors import Forbidden
from casino.staff.policy import Capability, allows
from casino.venues.models import DealerSpell


def box_count_refusal(*, user: Any, box: DropBox) -> Forbidden | None:
    """Why ``user`` may not count ``box``, or None: the count team's role at the venue, no
    supervising there, and no part at the box's table on its gaming day: a spell dealt
    there (a relief included), a session opened, closed or confirmed, a slip requested or
    signed for it."""
    venue_id = box.venue_id
    if not allows(user, Capability.COUNT_BOX, venue_id):
        return Forbidden(_("only the count team counts the drop boxes"), reason="not_counter")
    if allows(user, Capability.SUPERVISE_TABLES, venue_id):
        return Forbidden(
            _("you supervise the tables at this venue, so you do not count their drop boxes"),
            reason="counter_supervises",
        )
    dealt = DealerSpell.objects.filter(session=OuterRef("pk"), dealer=user)
    signed = Slip.objects.filter(session=OuterRef("pk")).filter(
        Q(requested_by=user)
        | Q(issued_by=user)
        | Q(dealer_confirmed_by=user)
        | Q(supervisor_confirmed_by=user)
        | Q(received_by=user)
    )
    took_part = TableSession.objects.filter(
        table_id=box.table_id, shift__gaming_date=box.gaming_date
    ).filter(
        Q(dealer=user)
        | Q(opened_by=user)
        | Q(opening_confirmed_by=user)
        | Q(closing_counted_by=user)
        | Q(closed_by=user)
        | Exists(dealt)
        | Exists(signed)
    )
    if took_part.exists():
        return Forbidden(
            _(
                "you worked at table %(table)s on %(date)s (dealt there, counted or confirmed "
                "its opener or closer, or signed one of its slips), so another counter counts "
                "its box"
            )
            % {"table": box.table.code, "date": box.gaming_date.isoformat()},
            reason="counter_at_table",
        )
    return None


def may_count_box(*, user: Any, box: DropBox) -> bool:
    return box_count_refusal(user=user, box=box) is None


def count_close_refusal(*, user: Any, confirmed_by: Any, venue_id: int) -> Forbidden | None:
    """Why ``confirmed_by`` may not confirm ``user``'s close of the venue's count, or None:
    a second member of its count team, another person than the one closing, who does not
    supervise there either."""
    if confirmed_by is None:
        return Forbidden(
            _("a second member of the count team confirms the close"), reason="no_second_counter"
        )
    if confirmed_by.pk == getattr(user, "pk", None):
        return Forbidden(
            _("you close the count yourself: another member of the count team confirms it"),
            reason="same_counter",
        )
    if not allows(confirmed_by, Capability.COUNT_BOX, venue_id):
        return Forbidden(
            _("only a member of the count team confirms the close of the count"),
            reason="second_not_counter",
        )
    if allows(confirmed_by, Capability.SUPERVISE_TABLES, venue_id):
        return Forbidden(
            _(
                "the second counter supervises the tables at this venue, so does not confirm "
                "their count"
            ),
            reason="second_supervises",
        )
    return None


def count_reopen_refusal(*, user: Any, venue_id: int) -> Forbidden | None:
    """Why ``user`` may not reopen a closed count at the venue, or None: a manager of the
    venue. (The count itself says when a closed count may be reopened at all:
    ``casino.count.reopening.count_reopen``.)"""
    if not allows(user, Capability.MANAGE_VENUE, venue_id):
        return Forbidden(
            _("only a manager of the venue reopens a closed count"), reason="not_manager"
        )
    return None


def may_reopen_count(*, user: Any, venue_id: int) -> bool:
    return count_reopen_refusal(user=user, venue_id=venue_id) is None
