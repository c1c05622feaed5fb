"""The navigation bar's question: where else the signed-in user may go."""

from __future__ import annotations

from typing import Any

from django import template

from casino.floor.console.terminal import is_console_only
from casino.group.selectors import reads_a_group
from casino.staff.roles import COMPLIANCE_WORK, COUNT_FIGURES, can, roles_of, venue_ids
from casino.venues.selectors import report_venues

register = template.Library()


@register.simple_tag(takes_context=True)
def nav_access(context: Any) -> dict[str, bool]:
    """The console (a floor role at a venue), the count (its team, and who reads its
    figures), compliance (its staff's cases and reports), the reports (one venue's, at
    least), the group's figures (a group role, or the reports of a venue of a group) and the
    admin (staff): each link only for those it lets in. A login a PIN opened is the
    console's only: no reports, no admin."""
    request = context["request"]
    user = request.user
    whole = not is_console_only(request)
    return {
        "console": bool(roles_of(user) and venue_ids(user)),
        "count": any(can(user, COUNT_FIGURES, venue_id) for venue_id in venue_ids(user)),
        "compliance": whole
        and any(can(user, COMPLIANCE_WORK, venue_id) for venue_id in venue_ids(user)),
        "reports": whole and report_venues(user=user).exists(),
        "group": whole and reads_a_group(user),
        "admin": whole and bool(user.is_active and user.is_staff),
    }
