"""Staff: the roles a member holds at each venue, who tried to log in, the API tokens
devices hold and the console PINs. The tables keep the names they had in the ``casino``
app (``Meta.db_table``).

``StaffRole`` is one role at one venue (``casino.staff.roles``).

``LoginAttempt`` is the security trail an auditor reads: every failed login, every
lockout and every login, written by ``casino.staff.logins`` (never edited). ``ApiToken``
is django-rest-knox's token (``KNOX_TOKEN_MODEL``) with the device it was issued to: only
a hash of the key is stored, never the key.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS


class LoginAttempt(models.Model):
    """One login attempt: a password checked (failed or succeeded), or a lockout."""

    class Outcome(models.TextChoices):
        SUCCEEDED = "succeeded", _("succeeded")
        FAILED = "failed", _("wrong username or password")
        #: Too many failed logins of this username from this address.
        LOCKED_OUT = "locked_out", _("locked out: too many failures of this username")
        #: Too many failed logins from this address, whatever the usernames.
        ADDRESS_LOCKED_OUT = (
            "address_locked_out",
            _("locked out: too many failures from this address"),
        )

    class EntryPoint(models.TextChoices):
        PAGE = "page", _("login page")
        ADMIN = "admin", _("admin login")
        API = "api", _("API login")
        APPROVAL = "approval", _("supervisor approval on the console")
        LOCK = "lock", _("console lock (PIN or password)")
        #: The code asked after the password (casino/staff/second_factor.py).
        CODE = "code", _("second-factor code")
        OTHER = "other", _("other")

    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    username = models.CharField(
        _("username as typed"), max_length=150, help_text=_("Cut to 150 characters.")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("The account the username names, if there is one."),
    )
    address = models.CharField(_("address"), max_length=64)
    user_agent = models.CharField(_("user agent"), max_length=255, blank=True)
    entry_point = models.CharField(_("entry point"), max_length=16, choices=EntryPoint.choices)
    outcome = models.CharField(_("outcome"), max_length=24, choices=Outcome.choices)

    class Meta:
        db_table = "casino_loginattempt"
        ordering = ["-at", "-id"]
        verbose_name = _("login attempt")
        verbose_name_plural = _("login attempts")
        indexes = [
            models.Index(fields=["username", "at"], name="loginattempt_username_at"),
            models.Index(fields=["address", "at"], name="loginattempt_address_at"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.username} {self.address} {self.outcome}"


class ApiToken(AbstractAuthToken):
    """An API token of one device: knox's (SHA-512 ``digest`` of the key, the key's first
    characters to find it, ``expiry``) with a short id, the device's name and its last use.

    One per user and device: a second login from the same device replaces the token.
    """

    id = models.BigAutoField(_("ID"), primary_key=True)
    # knox makes the digest the primary key; here it is only unique, so a token has a short
    # id to be listed and revoked by, which reveals nothing of the key.
    digest = models.CharField(_("key digest"), max_length=CONSTANTS.DIGEST_LENGTH, unique=True)
    # knox's prefix of the key, again only for its name in the staff's language.
    token_key = models.CharField(
        _("key prefix"),
        max_length=CONSTANTS.MAXIMUM_TOKEN_PREFIX_LENGTH + CONSTANTS.TOKEN_KEY_LENGTH,
        db_index=True,
    )
    # knox's fields again, with names the admin shows in the staff's language.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        on_delete=models.CASCADE,
        related_name="auth_token_set",  # knox's name: its authentication reads it
    )
    created = models.DateTimeField(_("issued"), auto_now_add=True)
    expiry = models.DateTimeField(_("expires"), null=True, blank=True)
    device = models.CharField(_("device"), max_length=64)
    last_used = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        db_table = "casino_apitoken"
        ordering = ["-created", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        constraints = [
            models.UniqueConstraint(fields=["user", "device"], name="apitoken_one_per_device")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.device}"


class StaffPin(models.Model):
    """A staff member's PIN, which unlocks a shared console or switches its dealer: only
    its hash is stored (Django's password hasher), written by ``casino.staff.pins``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        primary_key=True,
        on_delete=models.PROTECT,
        related_name="console_pin",
    )
    pin_hash = models.CharField(_("PIN hash"), max_length=128)
    set_at = models.DateTimeField(_("set"), auto_now=True)
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("set by"),
        on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        db_table = "casino_staffpin"
        verbose_name = _("console PIN")
        verbose_name_plural = _("console PINs")

    def __str__(self) -> str:
        return f"PIN of {self.user}"


class StaffRole(models.Model):
    """One role a member of staff holds at one venue (``casino.staff.roles``): a user may be a
    manager at one venue and a dealer at another, and hold several roles at one venue.

    Written only by ``casino.staff.services``; a member holds roles only at venues whose
    ``staff`` they are in.
    """

    class Role(models.TextChoices):
        DEALER = "dealer", pgettext_lazy("staff role", "Dealer")
        SUPERVISOR = "supervisor", pgettext_lazy("staff role", "Supervisor")
        MANAGER = "manager", pgettext_lazy("staff role", "Manager")
        AUDITOR = "auditor", pgettext_lazy("staff role", "Auditor")
        CAGE = "cage", pgettext_lazy("staff role", "Cage cashier")
        COUNT = "count", pgettext_lazy("staff role", "Count team")
        COMPLIANCE = "compliance", pgettext_lazy("staff role", "Compliance")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="venue_roles",
        verbose_name=_("user"),
    )
    venue = models.ForeignKey(
        "venues.Venue",
        on_delete=models.PROTECT,
        related_name="staff_roles",
        verbose_name=_("venue"),
    )
    role = models.CharField(max_length=16, choices=Role.choices, verbose_name=_("role"))

    class Meta:
        db_table = "casino_staffrole"
        verbose_name = _("staff role")
        verbose_name_plural = _("staff roles")
        ordering = ["venue__code", "role"]
        constraints = [
            models.UniqueConstraint(fields=["user", "venue", "role"], name="staff_role_once"),
            models.CheckConstraint(
                condition=models.Q(
                    role__in=[
                        "dealer",
                        "supervisor",
                        "manager",
                        "auditor",
                        "cage",
                        "count",
                        "compliance",
                    ]
                ),
                name="staff_role_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} at {self.venue.code}"
