"""The second factor in tests: the production rule stands (a manager's password alone opens
nothing); these helpers give a test's people a verified device the way a person would have
one, so the tests about something else log in as before.

- ``force_login_verified(client, user)``: Django's ``force_login``, then the session marked
  as verified by a confirmed TOTP device of the user (as ``django_otp.login`` marks it).
  ``tests/conftest.py`` puts it in place of ``Client.force_login`` for every test;
  ``force_login_unverified`` is Django's own, for the tests of the gate itself.
- ``code_for(username)``: a TOTP code a person who needs a second factor would type now
  (from a fresh confirmed device of theirs: a device takes each time step's code once), or
  None for one who needs none; the browser tests' login helpers type it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.staff.policy import needs_second_factor

#: Django's own ``Client.force_login``, before ``tests/conftest.py`` replaces it.
force_login_unverified = Client.force_login


def totp_code(device: TOTPDevice, *, ahead: int = 0) -> str:
    """The code ``device``'s authenticator app shows now, or ``ahead`` time steps later: a
    device takes each step's code once, so a second login within the step the enrolment
    used types the next step's (which the device's tolerance accepts)."""
    otp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    otp.time = otp.time + ahead * device.step
    return f"{otp.token():0{device.digits}d}"


def code_from_secret(secret: str) -> str:
    """The code an authenticator app shows now for ``secret`` as the enrolment page shows
    it (base32 in groups of four): what a person types after scanning the QR code."""
    import base64

    text = "".join(secret.split())
    key = base64.b32decode(text + "=" * (-len(text) % 8))
    return f"{TOTP(key).token():06d}"


def verified_device(user: Any, name: str = "tests") -> TOTPDevice:
    """A confirmed TOTP device of ``user`` (the existing one of ``name``, or a new one)."""
    device, _created = TOTPDevice.objects.get_or_create(
        user=user, name=name, defaults={"confirmed": True}
    )
    return device


def force_login_verified(client: Client, user: Any, backend: str | None = None) -> None:
    force_login_unverified(client, user, backend)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = verified_device(user).persistent_id
    session.save()


def code_for(username: str) -> str | None:
    """A code ``username`` would type after the password now, or None if they need none."""
    user = get_user_model()._default_manager.get(username=username)
    if not needs_second_factor(user):
        return None
    # A new device each time: a device refuses a code of a time step it has already taken.
    device = TOTPDevice.objects.create(user=user, name="tests-login", confirmed=True)
    return totp_code(device)
