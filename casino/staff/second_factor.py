"""The second factor: a TOTP device (an authenticator app) and ten recovery codes for those
who must log in with a code after the password (``policy.needs_second_factor``).

- Enrolment, on the first login after the password: ``second_factor_enrol_start`` gives the
  account a TOTP device waiting for its first code (shown as a QR code and as text; audited
  when made, ``second_factor.enrol_start``: whoever saw its secret could read the codes);
  ``second_factor_enrol_confirm`` checks that code and issues the recovery codes, shown once.
  Audited (``second_factor.enrol``), never with a secret or a code.
- Verification, on every later login: ``second_factor_verify`` takes a TOTP code or a
  recovery code, which works once (its use is audited: ``second_factor.recovery_used``).
- A reset (a lost phone): ``second_factor_reset`` removes the devices; the member enrols
  again at the next login. Audited (``second_factor.reset``).

Every code is checked behind the login lockout (``throttling.code_authenticate``): a wrong
code counts as a wrong password of the username at the address.

Locking: enrolment and a reset lock the member's row, so two enrolments of one account at
once (two tabs) confirm one device after the other, the second replacing the first.
"""

from __future__ import annotations

import base64
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django_otp import devices_for_user, match_token
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel.errors import Forbidden
from casino.staff.policy import may_reset_second_factor
from casino.staff.throttling import LoginRefusal, code_authenticate

#: How many recovery codes an enrolment issues.
RECOVERY_CODES = 10
TOTP_NAME = "authenticator"
RECOVERY_NAME = "recovery codes"


def _lock(user: Any) -> None:
    get_user_model()._default_manager.select_for_update().filter(pk=user.pk).first()


def has_second_factor(user: Any) -> bool:
    """Whether ``user`` has enrolled: a confirmed TOTP device."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def secret_text(device: TOTPDevice) -> str:
    """The device's secret as an authenticator app takes it typed: base32, in groups of four."""
    secret = base64.b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def _clean(code: str) -> str:
    # Typed with spaces or a dash, or in capitals (recovery codes are lower case).
    return "".join(ch for ch in (code or "") if ch.isalnum()).lower()


@transaction.atomic
def second_factor_enrol_start(*, user: Any) -> TOTPDevice:
    """The account's TOTP device waiting for its first code, made now (and audited) if there
    is none; the page shown again shows the same one."""
    _lock(user)
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("pk").first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=TOTP_NAME, confirmed=False)
        audit_record(
            user=user,
            action=AuditAction.SECOND_FACTOR_ENROL_START,
            obj=user,
            summary=f"{user.get_username()} was shown a new authenticator's secret to enrol",
            after={"device": device.name, "confirmed": False},
        )
    return device


def second_factor_enrol_confirm(
    *, request: HttpRequest, user: Any, device: TOTPDevice, code: str, refusal: LoginRefusal
) -> list[str] | None:
    """Confirm ``device`` with its first code: the recovery codes (shown once, stored only
    as django-otp's static tokens), or None for a wrong code. The code is checked behind
    the lockout (``PermissionDenied`` past it); any earlier device of the account goes."""
    token = _clean(code)
    checked = code_authenticate(
        request, user, lambda: device if device.verify_token(token) else None, refusal=refusal
    )
    if checked is None:
        return None
    return _enrol(user=user, device=device)


@transaction.atomic
def _enrol(*, user: Any, device: TOTPDevice) -> list[str]:
    _lock(user)
    TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
    StaticDevice.objects.filter(user=user).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    recovery = StaticDevice.objects.create(user=user, name=RECOVERY_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _each in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create([StaticToken(device=recovery, token=code) for code in codes])
    audit_record(
        user=user,
        action=AuditAction.SECOND_FACTOR_ENROL,
        obj=user,
        summary=f"{user.get_username()} enrolled an authenticator and {RECOVERY_CODES} "
        "recovery codes",
        after={"device": device.name, "recovery_codes": RECOVERY_CODES},
    )
    return codes


def second_factor_verify(
    *, request: HttpRequest, user: Any, code: str, refusal: LoginRefusal
) -> Device | None:
    """The device that took ``code`` (the authenticator's, or the recovery codes', which
    each work once), or None for a wrong code; behind the lockout (``PermissionDenied``
    past it). A recovery code's use is audited with how many are left."""
    token = _clean(code)
    if not token:
        return None
    device = code_authenticate(request, user, lambda: match_token(user, token), refusal=refusal)
    if isinstance(device, StaticDevice):
        _recovery_used(user=user, device=device)
    return device


@transaction.atomic
def _recovery_used(*, user: Any, device: StaticDevice) -> None:
    left = device.token_set.count()
    audit_record(
        user=user,
        action=AuditAction.SECOND_FACTOR_RECOVERY_USED,
        obj=user,
        summary=f"{user.get_username()} logged in with a recovery code; {left} left",
        after={"recovery_codes_left": left},
    )


@transaction.atomic
def second_factor_reset(*, member: Any, user: Any) -> int:
    """Remove ``member``'s second factor (authenticator and recovery codes): they enrol
    again at their next login. ``user`` is who resets it (``may_reset_second_factor``).
    How many devices were removed."""
    if not may_reset_second_factor(user):
        raise Forbidden(_("Only a superuser resets a second factor."), reason="second_factor")
    _lock(member)
    devices = [device.name for device in devices_for_user(member, confirmed=None)]
    TOTPDevice.objects.filter(user=member).delete()
    StaticDevice.objects.filter(user=member).delete()
    audit_record(
        user=user,
        action=AuditAction.SECOND_FACTOR_RESET,
        obj=member,
        summary=f"reset the second factor of {member.get_username()}",
        before={"devices": sorted(devices)},
    )
    return len(devices)
