"""Login records and API tokens: the only writers of ``LoginAttempt`` and ``ApiToken``.

A login record is itself the security trail (like ``audit_record``, it is not audited
again); issuing and revoking a token are audited (``token.issue``, ``token.revoke``,
``token.revoke_all``), with the device and the expiry, never the key.

Locking: issuing a token locks the user's row, so two logins of one user from one device
at the same moment replace each other in turn (one token per device, a UNIQUE constraint
behind it) instead of one of them failing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from knox.settings import knox_settings

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel.errors import InvalidInput
from casino.staff.models import ApiToken, LoginAttempt

#: The longest device name a token keeps.
DEVICE_MAX_LENGTH = ApiToken._meta.get_field("device").max_length


@transaction.atomic
def login_record(
    *,
    username: str,
    address: str,
    user_agent: str,
    entry_point: str,
    outcome: str,
    user: Any = None,
) -> LoginAttempt:
    """Store one login attempt (``casino.staff.throttling`` calls it): the username as typed
    (cut to its column), the account it names if any, the address, the user agent."""
    if outcome not in LoginAttempt.Outcome.values:
        raise InvalidInput(f"unknown login outcome {outcome!r}", field="outcome")
    if entry_point not in LoginAttempt.EntryPoint.values:
        raise InvalidInput(f"unknown entry point {entry_point!r}", field="entry_point")
    if user is None:
        user = get_user_model()._default_manager.filter(username=username).first()
    return LoginAttempt.objects.create(
        username=username[:150],
        user=user,
        address=address[:64],
        user_agent=(user_agent or "")[:255],
        entry_point=entry_point,
        outcome=outcome,
    )


def _device(device: str) -> str:
    name = " ".join((device or "").split())
    if not name:
        raise InvalidInput(
            _("Name the device the token is for, e.g. the table's tablet: NN1-tablet."),
            field="device",
        )
    if len(name) > DEVICE_MAX_LENGTH:
        raise InvalidInput(
            _("A device name has at most %(count)d characters.") % {"count": DEVICE_MAX_LENGTH},
            field="device",
        )
    return name


@transaction.atomic
def token_issue(*, user: Any, device: str) -> tuple[ApiToken, str]:
    """A new token for ``user`` on ``device``; any token that device held is revoked.

    Returns the token and its key: the key is shown once, here, and never stored (the
    token keeps its SHA-512 digest). It expires ``REST_KNOX["TOKEN_TTL"]`` from now.
    """
    name = _device(device)
    get_user_model()._default_manager.select_for_update().filter(pk=user.pk).first()
    replaced = list(ApiToken.objects.filter(user=user, device=name).values_list("pk", flat=True))
    if replaced:
        ApiToken.objects.filter(pk__in=replaced).delete()
    ttl: timedelta | None = knox_settings.TOKEN_TTL
    token, key = ApiToken.objects.create(user=user, expiry=ttl, device=name)
    # Counted as used from its issue: the first requests need not write it again.
    token.last_used = token.created
    token.save(update_fields=["last_used"])
    audit_record(
        user=user,
        action=AuditAction.TOKEN_ISSUE,
        obj=token,
        summary=f"API token for device {name}"
        + (f", replacing token {replaced[0]}" if replaced else ""),
        after={"device": name, "expiry": token.expiry.isoformat() if token.expiry else None},
    )
    return token, key


@transaction.atomic
def token_revoke(*, token: ApiToken, user: Any) -> None:
    """Revoke one token: its device must log in again. ``user`` is who revokes it."""
    before = {"device": token.device, "user": token.user.get_username()}
    token_id = token.pk
    token.delete()
    token.pk = token_id  # the audit event names the token revoked
    audit_record(
        user=user,
        action=AuditAction.TOKEN_REVOKE,
        obj=token,
        summary=f"revoked the API token of {before['user']} on device {before['device']}",
        before=before,
    )


@transaction.atomic
def token_revoke_all(*, user: Any) -> int:
    """Revoke every token of ``user`` (every device logs in again); how many there were."""
    tokens = ApiToken.objects.filter(user=user)
    devices = sorted(tokens.values_list("device", flat=True))
    tokens.delete()
    audit_record(
        user=user,
        action=AuditAction.TOKEN_REVOKE_ALL,
        obj=user,
        summary=f"revoked all {len(devices)} API tokens of {user.get_username()}",
        before={"devices": devices},
    )
    return len(devices)


def token_touch(token: ApiToken, *, every: timedelta = timedelta(minutes=5)) -> None:
    """Note that ``token`` was used now, at most once per ``every`` (one UPDATE per device
    every few minutes, not one per request). Not audited: it is a reading of the clock."""
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= every:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now
