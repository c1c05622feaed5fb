"""Console PINs and taking over a shared console: the only writers of ``StaffPin``.

A dealer's PIN unlocks a console that locked itself while idle, and lets another dealer
take a terminal over without a full login: it is short, so it is only ever checked behind
the login lockout (``casino.throttling.pin_authenticate``), and only its hash is stored.
A member sets their own PIN; a superuser, or a manager of a venue the member works at,
sets it for them. Every change is audited (``pin.set``, who set whose PIN, never the PIN),
and so is a takeover (``console.takeover``: who took the console from whom).

Locking: setting a PIN locks the member's account row, so two changes apply in turn.
"""

from __future__ import annotations

import itertools
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils.translation import gettext as _

from casino.errors import Forbidden, InvalidInput
from casino.models import StaffPin
from casino.roles import MANAGE, can, venue_ids
from casino.services.audit import audit_record

PIN_MIN_LENGTH, PIN_MAX_LENGTH = 4, 8


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
        action="pin.set",
        obj=record,
        summary=f"{'changed' if existing else 'set'} the {who} console PIN",
        after={"member": member.get_username(), "set_by": user.get_username()},
    )
    return record


def pin_matches(member: Any, pin: str) -> bool:
    """Whether ``pin`` is ``member``'s console PIN (False when they have none). A read: the
    caller counts the attempt first (``casino.throttling.pin_authenticate``)."""
    record = StaffPin.objects.filter(user=member).only("pin_hash").first()
    return record is not None and check_password(pin, record.pin_hash)


def has_pin(username: str) -> bool:
    return StaffPin.objects.filter(user__username=username, user__is_active=True).exists()


@transaction.atomic
def console_takeover(*, user: Any, previous: Any) -> None:
    """Record that ``user`` took over a console ``previous`` was signed in on."""
    audit_record(
        user=user,
        action="console.takeover",
        obj=user,
        summary=f"{user.get_username()} took over the console from {previous.get_username()}",
        before={"user": previous.get_username()},
        after={"user": user.get_username()},
    )
