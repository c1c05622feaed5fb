"""The operating group's writes, each checked and audited: setting the group up (a
superuser's job, as giving staff their roles is) and its exchange rates (a group manager
proposes a day's rate, a second one approves it; an approved rate is never changed, a
correction is a new version that supersedes it)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import slug_re
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.group.models import CURRENCY, ExchangeRate, GroupRole, GroupVenue, OperatingGroup
from casino.group.selectors import group_currencies, rate_in_force
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import plain
from casino.staff.policy import group_rate_refusal
from casino.staff.roles import GROUP_ROLES, forget
from casino.venues.models import Venue
from casino.venues.models.venues import validate_time_zone

#: The longest code a group has (``OperatingGroup.code``).
CODE_LENGTH = OperatingGroup._meta.get_field("code").max_length


def _superuser_only(user: Any) -> None:
    """A superuser sets the group up; ``None`` is a command run on the server by its
    operator (``manage.py demo``), audited as the system's."""
    if user is not None and not getattr(user, "is_superuser", False):
        raise Forbidden(gettext("only a superuser sets up the operating group and its roles"))


@transaction.atomic
def group_create(
    *, user: Any, code: str, name: str, reporting_currency: str, timezone_name: str = "UTC"
) -> OperatingGroup:
    """A new operating group with its reporting currency."""
    _superuser_only(user)
    code, name = (code or "").strip(), (name or "").strip()
    if not slug_re.fullmatch(code) or len(code) > CODE_LENGTH:
        raise InvalidInput(
            gettext(
                "Write the group's code in letters, digits, - and _ (at most %(most)d), "
                "e.g. asia-pacific."
            )
            % {"most": CODE_LENGTH},
            field="code",
        )
    if OperatingGroup.objects.filter(code=code).exists():
        raise InvalidInput(
            gettext("There is already an operating group with the code %(code)s.") % {"code": code},
            field="code",
        )
    if not name:
        raise InvalidInput(gettext("Give the group's name."), field="name")
    if not CURRENCY.regex.fullmatch(reporting_currency or ""):
        raise InvalidInput(
            gettext("Write the reporting currency as its three-letter ISO code, e.g. USD."),
            field="reporting_currency",
        )
    try:
        validate_time_zone(timezone_name)  # a venue's rule: an IANA zone the database knows
    except ValidationError as error:
        raise InvalidInput(error.messages[0], field="timezone") from None
    group = OperatingGroup.objects.create(
        code=code, name=name, reporting_currency=reporting_currency, timezone=timezone_name
    )
    audit_record(
        user=user,
        action=AuditAction.GROUP_CREATE,
        obj=group,
        summary=f"operating group {code}: figures in {reporting_currency}",
        after={"code": code, "reporting_currency": reporting_currency},
    )
    return group


@transaction.atomic
def group_venue_add(*, user: Any, group: OperatingGroup, venue: Venue, country: str) -> GroupVenue:
    """Put ``venue`` (of no group yet) in ``group``, in ``country`` (ISO 3166 code)."""
    _superuser_only(user)
    country = (country or "").strip().upper()
    if len(country) != 2 or not country.isalpha():
        raise InvalidInput(
            gettext("Write the country as its two-letter ISO code, e.g. VN."), field="country"
        )
    taken = GroupVenue.objects.filter(venue=venue).select_related("group").first()
    if taken is not None:
        raise Conflict(
            gettext("%(venue)s is already a venue of %(group)s.")
            % {"venue": venue.name, "group": taken.group.name}
        )
    member = GroupVenue.objects.create(group=group, venue=venue, country=country)
    audit_record(
        user=user,
        action=AuditAction.GROUP_VENUE_ADD,
        obj=member,
        venue=venue,
        summary=f"{venue.code} in operating group {group.code} ({country})",
    )
    return member


@transaction.atomic
def group_role_grant(*, user: Any, group: OperatingGroup, member: Any, role: str) -> GroupRole:
    """Give ``member`` a group role (``casino.staff.roles.GROUP_ROLES``) at ``group``."""
    _superuser_only(user)
    if role not in GROUP_ROLES:
        raise InvalidInput(
            gettext("%(role)s is not a group role: one of %(roles)s.")
            % {"role": role, "roles": ", ".join(GROUP_ROLES)},
            field="role",
        )
    held, created = GroupRole.objects.get_or_create(user=member, group=group, role=role)
    if created:
        audit_record(
            user=user,
            action=AuditAction.GROUP_ROLE_GRANT,
            obj=held,
            summary=f"{member.get_username()}: {role} of {group.code}",
        )
    forget(member)
    return held


def _rate(value: Any) -> Decimal:
    try:
        rate = value if isinstance(value, Decimal) else Decimal(str(value).strip())
    except InvalidOperation:
        rate = None
    if rate is None or not rate.is_finite() or rate <= 0:
        raise InvalidInput(
            gettext(
                "Write the rate as a positive number with a point for decimals: what one unit "
                "of the venue's currency is in the reporting currency, e.g. 0.0000393."
            ),
            field="rate",
        )
    if rate != rate.quantize(Decimal("1E-12")) or rate >= Decimal("1E12"):
        raise InvalidInput(
            gettext("A rate has at most 12 decimals and 12 digits before the point."),
            field="rate",
        )
    return rate


@transaction.atomic
def rate_propose(
    *, group: OperatingGroup, user: Any, day: date, from_currency: str, rate: Any, source: str
) -> ExchangeRate:
    """A group manager proposes the rate of a gaming day for one of the group's currencies
    into its reporting currency. A day that has an approved rate gets a new version, which
    supersedes it once a second group manager approves it."""
    refusal = group_rate_refusal(user=user, group_id=group.pk)
    if refusal is not None:
        raise refusal
    currencies = group_currencies(group)
    if from_currency not in currencies:
        raise InvalidInput(
            gettext("%(currency)s is not converted: the group's venues use %(currencies)s.")
            % {"currency": from_currency, "currencies": ", ".join(currencies) or "—"},
            field="from_currency",
        )
    rate = _rate(rate)
    source = (source or "").strip()
    if not source:
        raise InvalidInput(
            gettext("Say where the rate comes from, e.g. Vietcombank 16:00 fixing."),
            field="source",
        )
    OperatingGroup.objects.select_for_update().get(pk=group.pk)  # one version number at a time
    key = {
        "group": group,
        "day": day,
        "from_currency": from_currency,
        "to_currency": group.reporting_currency,
    }
    last = ExchangeRate.objects.filter(**key).aggregate(last=Max("version"))["last"] or 0
    superseded = rate_in_force(group=group, currency=from_currency, day=day)
    version = ExchangeRate.objects.create(
        **key,
        rate=rate,
        source=source[:200],
        version=last + 1,
        supersedes=superseded,
        proposed_by=user,
        proposed_at=timezone.now(),
    )
    audit_record(
        user=user,
        action=AuditAction.GROUP_RATE_PROPOSE,
        obj=version,
        summary=(
            f"proposed {version.pair} {day.isoformat()} v{version.version}: {plain(rate)} "
            f"({version.source})" + (f", superseding v{superseded.version}" if superseded else "")
        ),
        after={"day": day.isoformat(), "pair": version.pair, "rate": plain(rate), "source": source},
    )
    return version


@transaction.atomic
def rate_approve(*, rate: ExchangeRate, user: Any) -> ExchangeRate:
    """A second group manager (not the proposer) approves a proposed rate: from now on it
    converts its day's figures, superseding any version approved before it."""
    rate = (
        ExchangeRate.objects.select_for_update(of=("self",)).select_related("group").get(pk=rate.pk)
    )
    refusal = group_rate_refusal(user=user, group_id=rate.group_id, made_by=[rate.proposed_by_id])
    if refusal is not None:
        raise refusal
    if rate.status == ExchangeRate.Status.APPROVED:
        raise Conflict(
            gettext(
                "Version %(version)s of the %(pair)s rate for %(day)s is approved already; "
                "an approved rate is never changed: propose a new version to correct it."
            )
            % {"version": rate.version, "pair": rate.pair, "day": rate.day.isoformat()}
        )
    in_force = rate_in_force(group=rate.group, currency=rate.from_currency, day=rate.day)
    if in_force is not None and in_force.version > rate.version:
        raise Conflict(
            gettext(
                "Version %(newer)s of the %(pair)s rate for %(day)s was approved after this "
                "one was proposed; propose a new version if it needs correcting."
            )
            % {"newer": in_force.version, "pair": rate.pair, "day": rate.day.isoformat()}
        )
    before = {"in_force": in_force.version if in_force else None}
    rate.status = ExchangeRate.Status.APPROVED
    rate.approved_by, rate.approved_at = user, timezone.now()
    rate.save(update_fields=["status", "approved_by", "approved_at"])
    audit_record(
        user=user,
        action=AuditAction.GROUP_RATE_APPROVE,
        obj=rate,
        summary=(
            f"approved {rate.pair} {rate.day.isoformat()} v{rate.version}: {plain(rate.rate)} "
            f"({rate.source})"
        ),
        before=before,
        after={"in_force": rate.version},
    )
    return rate
