"""What the venues ask of the apps above them, which they do not import: each question is a
hook (``casino.kernel.hooks.Hook``) declared here, with the one app that answers it,
registering its answer when it is ready (its ``AppConfig.ready``).

Why hooks: the venues sit below the floor and the rulesets (docs/ARCHITECTURE.md, "Layers"),
yet some of their rules need what only those apps know. A venue's clocks, a gaming day's
start and a table's game, boxes and chips do not change while a session is open there, nor
does a table's ruleset; and a table is given a ruleset by its id. Importing the floor's
sessions or the rulesets' reads would make the venues depend on apps that depend on them.
Signals do not fit: they tell, they do not answer. So the question is asked here and the
rule stays with the app that owns it: what an open session is is the floor's
(``TableSession.Status.OPEN``), which rulesets a user may name is the rulesets'
(``casino.rulesets.selectors.ruleset_get``). The rulesets, above the venues, ask the floor
the same question through the same hook (``casino.rulesets.services.versions``).

``open_session`` (answered by the floor, ``casino.floor.apps``): an expression over
``Table`` rows, the id of the session open at each table (null when none), so a question
about many tables is one query (``open_tables``, ``open_session_at``).

``ruleset_get`` (answered by the rulesets, ``casino.rulesets.apps``), with ``user`` and
``pk``: the ruleset of the user's venues with that id, or None.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from casino.kernel.hooks import Hook
from casino.venues.models import Table

#: The id of the session open at a table (null when none), an expression over ``Table``.
open_session: Hook[[], Any] = Hook("open_session", answered_by="casino.floor")
#: A ruleset of the user's venues by its id, or None.
ruleset_get: Hook[..., Any] = Hook("ruleset_get", answered_by="casino.rulesets")


def open_tables(tables: QuerySet[Table]) -> list[str]:
    """The codes of ``tables`` at which a session is open, in order."""
    return list(
        tables.alias(open_session=open_session())
        .filter(open_session__isnull=False)
        .order_by("code")
        .values_list("code", flat=True)
    )


def open_session_at(table: Table) -> int | None:
    """The id of the session open at ``table``, or None."""
    return (
        Table.objects.filter(pk=table.pk)
        .annotate(open_session=open_session())
        .values_list("open_session", flat=True)
        .get()
    )
