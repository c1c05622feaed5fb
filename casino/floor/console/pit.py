"""Watching the floor: a live session read-only, for anyone with a role at its venue (an
auditor above all, who deals nothing).

The page shows the session as it stands (its table, dealer, rules in force, rounds, what
the house made, and the buy-ins or cash-outs that reached the venue's logging or reporting
threshold) and refreshes itself; it has no form and its URL takes no write:
a POST is refused with 403, and every page that writes stays behind the dealer's role
(``access.with_session``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.floor import answers, figures
from casino.floor.console import selectors
from casino.floor.console.access import page, session_context, session_view
from casino.floor.console.history import round_parts
from casino.floor.models import RoundStatus, TableSession
from casino.floor.rules import NoRulesInForce, rules_in_force
from casino.staff.policy import Capability

#: How often the read-only view asks for the session again, in seconds.
REFRESH_SECONDS = 15


def read_only_session(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A session's page for anyone with a role at its venue, refusing every write."""
    return session_view(view, capability=Capability.READ_FLOOR, read_only=True)


def _rules_line(session: TableSession) -> str:
    try:
        version = rules_in_force(session.table).version
    except NoRulesInForce:
        return _("No ruleset version in force: a manager must activate one.")
    return _("Rules: %(code)s v%(number)s") % {
        "code": session.table.ruleset.code,
        "number": version.number,
    }


@require_http_methods(["GET", "POST"])
@read_only_session
def watch(request: HttpRequest, session: TableSession) -> HttpResponse:
    """A live session, read-only (the whole page, or its ``watch`` part when it refreshes)."""
    rounds = selectors.session_rounds(session=session)
    settled = [r for r in rounds if r.status == RoundStatus.SETTLED]
    context = {
        **session_context(session, "watch"),
        "rounds": rounds,
        "rounds_settled": len(settled),
        # Win by ledger so far (``casino.floor.figures``), as the floor and the pit list show it.
        "house_so_far": figures.wins_by_ledger([session.pk]).get(session.pk, figures.ZERO),
        "rules_line": _rules_line(session),
        "crossings": answers.crossings(session),
        "consoles": round_parts(),
        "refresh_seconds": REFRESH_SECONDS,
    }
    return page(request, "console/watch.html", "watch", context)
