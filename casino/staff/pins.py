"""Console PINs and a shared console's lock: the only writers of ``StaffPin``.

A PIN unlocks a console that was locked (idle, or by hand), and lets another member of the
floor take a terminal over without a full login: it is short, so it is only ever checked
behind the login lockout (``casino.staff.throttling.pin_authenticate``), and only its hash is
stored. It is for the floor only (:func:`pin_refusal`): an account whose every role is a
dealer's or a supervisor's; managers, auditors, the cage, the count team and superusers
keep their passwords. What a PIN opens is a console session, never the admin, the reports
or the API (``casino.floor.console.terminal``).

A member sets their own PIN; a superuser, or a manager of a venue the member works at,
sets it for them. Every change is audited (``pin.set``, who set whose PIN, never the PIN);
what a PIN then opens (a console's unlock or takeover) is recorded by the floor
(``casino.floor.services.consoles``).

Locking: setting a PIN locks the member's account row, so two changes apply in turn.
"""

from __future__ import annotations

import itertools
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils.translation import gettext as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel.errors import Forbidden, InvalidInput
from casino.staff.models import StaffPin
from casino.staff.roles import DEALER, MANAGE, SUPERVISOR, can, roles_of, venue_ids

PIN_MIN_LENGTH, PIN_MAX_LENGTH = 4, 8
#: The roles a PIN is for: the floor's, at the tables. An account holding any other role
#: anywhere (a manager approves, an auditor reads everything, the cage and the count team
#: hold money) signs in with its password only.
PIN_ROLES = frozenset({DEALER, SUPERVISOR})


def is_pin_shaped(text: str) -> bool:
    """Whether ``text`` could be a PIN (what the lock screen tries as one before a password)."""
    return text.isascii() and text.isdecimal() and PIN_MIN_LENGTH <= len(text) <= PIN_MAX_LENGTH


def _check_pin(pin: str) -> None:
    if not is_pin_shaped(pin):
        raise InvalidInput(
            _("A PIN is %(min)d to %(max)d digits, nothing else.")
            % {"min": PIN_MIN_LENGTH, "max": PIN_MAX_LENGTH},
            field="pin",
        )
    steps = {int(b) - int(a) for a, b in itertools.pairwise(pin)}
    if len(set(pin)) == 1 or steps in ({1}, {-1}):
        raise InvalidInput(
            _(
                "This PIN is too easy to guess (one digit repeated, or a run like 1234): "
                "choose another."
            ),
            field="pin",
        )


def pin_refusal(member: Any) -> str | None:
    """Why ``member`` may not hold or use a console PIN, or None when they may: an active
    account, no superuser, with roles only of the floor (``PIN_ROLES``)."""
    roles = roles_of(member)
    if not member.is_active or member.is_superuser or not roles or roles - PIN_ROLES:
        return _(
            "A PIN is for dealers and supervisors only: managers, auditors, the cage, the "
            "count team and administrators sign in with their password."
        )
    return None


def _may_set(user: Any, member: Any) -> bool:
    if user.pk == member.pk or getattr(user, "is_superuser", False):
        return True
    return any(can(user, MANAGE, venue_id) for venue_id in venue_ids(member))


@transaction.atomic
def pin_set(*, user: Any, member: Any, pin: str) -> StaffPin:
    """Set ``member``'s console PIN to ``pin`` (``user`` sets it: the member, a superuser or
    a manager of one of the member's venues)."""
    if not _may_set(user, member):
        raise Forbidden(_("Only the member, a manager of their venue or a superuser sets a PIN."))
    refused = pin_refusal(member)
    if refused:
        raise Forbidden(refused, reason="password_only")
    _check_pin(pin)
    get_user_model()._default_manager.select_for_update().filter(pk=member.pk).first()
    existing = StaffPin.objects.filter(user=member).first()
    record = existing or StaffPin(user=member)
    record.pin_hash = make_password(pin)
    record.set_by = user
    record.save()
    who = "own" if user.pk == member.pk else f"{member.get_username()}'s"
    audit_record(
        user=user,
        action=AuditAction.PIN_SET,
        obj=record,
        summary=f"{'changed' if existing else 'set'} the {who} console PIN",
        after={"member": member.get_username(), "set_by": user.get_username()},
    )
    return record


def pin_matches(member: Any, pin: str) -> bool:
    """Whether ``pin`` is ``member``'s console PIN (False when they have none). A read: the
    caller counts the attempt first (``casino.staff.throttling.pin_authenticate``)."""
    record = StaffPin.objects.filter(user=member).only("pin_hash").first()
    return record is not None and check_password(pin, record.pin_hash)


def pin_holder(username: str) -> tuple[Any, str | None]:
    """The active account ``username`` names if it holds a console PIN, and why it may not
    use it (:func:`pin_refusal`; None when it may); ``(None, None)`` when it holds none.
    The lock screen checks a PIN-shaped secret as a PIN only when the holder may use it."""
    record = (
        StaffPin.objects.filter(user__username=username, user__is_active=True)
        .select_related("user")
        .first()
    )
    if record is None:
        return None, None
    return record.user, pin_refusal(record.user)
