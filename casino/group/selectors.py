"""Reads of the operating group: who holds which group role, which venues of a group a user
reads, the rates in force for gaming days and every version of them."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.db.models import Q

from casino.group.models import ExchangeRate, GroupRole, GroupVenue, OperatingGroup
from casino.staff.policy import Capability, allows_group, groups_allowing, venues_allowing
from casino.staff.roles import GROUP_ROLES
from casino.venues.models import Venue


def group_roles_select(user: str) -> str:
    """The group roles of the user whose id is the SQL expression ``user``, one
    ``"<group id>:<role>"`` a row (``casino.staff.roles.group_roles_select``' answer)."""
    return (
        f"SELECT g.group_id || ':' || g.role AS held FROM {GroupRole._meta.db_table} g "  # noqa: S608
        f"WHERE g.user_id = {user}"
    )


def operator_venue_ids(venue_id: int) -> frozenset[int]:
    """The venues the operating group of the venue ``venue_id`` runs, itself included; empty
    when it is in no group (``casino.players.hooks.operator_venue_ids``)."""
    group = GroupVenue.objects.filter(venue_id=venue_id).values("group_id")
    return frozenset(
        GroupVenue.objects.filter(group_id__in=group).values_list("venue_id", flat=True)
    )


def readable_groups(user: Any) -> list[OperatingGroup]:
    """The groups whose figures the user reads: those where they hold a group role, and
    those with a venue whose reports they read (then that venue's lines only)."""
    venue_ids = venues_allowing(user, Capability.READ_REPORTS)
    group_ids = set(groups_allowing(user, Capability.READ_GROUP))
    group_ids |= set(
        GroupVenue.objects.filter(venue_id__in=venue_ids).values_list("group_id", flat=True)
    )
    return list(OperatingGroup.objects.filter(pk__in=group_ids).order_by("code"))


def reads_a_group(user: Any) -> bool:
    """Whether ``readable_groups(user)`` has a group, in one query (the navigation asks on
    every page): a group role that reads the figures, or a venue of a group whose reports
    the user reads."""
    if not getattr(user, "is_authenticated", False):
        return False
    venue_ids = venues_allowing(user, Capability.READ_REPORTS)  # the request's roles: no query
    reading = Capability.READ_GROUP.roles & set(GROUP_ROLES)  # the group's roles of it
    return OperatingGroup.objects.filter(
        Q(pk__in=GroupRole.objects.filter(user=user, role__in=reading).values("group_id"))
        | Q(pk__in=GroupVenue.objects.filter(venue_id__in=venue_ids).values("group_id"))
    ).exists()


def readable_venues(user: Any, group: OperatingGroup) -> list[GroupVenue]:
    """The group's venues whose lines the user reads: every one for a group role, else
    only those whose reports they read at the venue (a venue manager reads their own)."""
    members = GroupVenue.objects.filter(group=group).select_related("venue")
    if not allows_group(user, Capability.READ_GROUP, group.pk):
        members = members.filter(venue_id__in=venues_allowing(user, Capability.READ_REPORTS))
    return list(members.order_by("country", "venue__code"))


def group_currencies(group: OperatingGroup) -> list[str]:
    """The currencies of the group's venues other than its reporting currency."""
    return sorted(
        set(
            Venue.objects.filter(pk__in=group.memberships.values("venue_id"))
            .exclude(currency=group.reporting_currency)
            .values_list("currency", flat=True)
        )
    )


def rates_in_force(
    *, group: OperatingGroup, currencies: Iterable[str], start: date, end: date
) -> dict[tuple[str, date], ExchangeRate]:
    """The rate in force for each (currency, gaming date) from ``start`` to ``end`` into
    the group's reporting currency: the latest approved version of the day. A day without
    one is missing from the answer (its figures are not converted)."""
    found: dict[tuple[str, date], ExchangeRate] = {}
    for rate in (
        ExchangeRate.objects.filter(
            group=group,
            to_currency=group.reporting_currency,
            from_currency__in=list(currencies),
            day__range=(start, end),
            status=ExchangeRate.Status.APPROVED,
        )
        .select_related("approved_by", "proposed_by")
        .order_by("day", "from_currency", "version")
    ):
        found[(rate.from_currency, rate.day)] = rate  # a later version supersedes
    return found


def rate_in_force(*, group: OperatingGroup, currency: str, day: date) -> ExchangeRate | None:
    return rates_in_force(group=group, currencies=[currency], start=day, end=day).get(
        (currency, day)
    )


def rate_versions(*, group: OperatingGroup, start: date, end: date) -> list[ExchangeRate]:
    """Every version of the group's rates for gaming dates from ``start`` to ``end``,
    proposed or approved, the latest day first."""
    return list(
        ExchangeRate.objects.filter(group=group, day__range=(start, end))
        .select_related("proposed_by", "approved_by")
        .order_by("-day", "from_currency", "-version")
    )


def waiting_rates(*, group: OperatingGroup) -> list[ExchangeRate]:
    """The group's proposed rates waiting for a second group manager."""
    return list(
        ExchangeRate.objects.filter(group=group, status=ExchangeRate.Status.PROPOSED)
        .select_related("proposed_by")
        .order_by("day", "from_currency", "version")
    )
