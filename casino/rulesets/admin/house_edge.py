"""The house-edge panel of a ruleset version's change page, written once for every game.

The game computes the figures of its rules (the exact house edge of a paytable, the
simulated house take of a fee game) in a task and stores them in a row keyed by the rules'
content hash; the panel sends the task when the row is not done, and is polled with HTMX
until it is. The game's ``GameAdmin`` gives the row, what a done row says, and the table
of its figures (``house_edge_template``) with its context, included in the panel's shell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from django.http import HttpRequest
from django.template.response import TemplateResponse

from casino.rulesets.models import RulesetVersion
from casino.rulesets.selectors import version_in_force

if TYPE_CHECKING:
    from casino import games

#: The statuses a figures row goes through (each game's row has these).
DONE, FAILED = "done", "failed"
#: The panel's shell; the game's table of its figures is included in it when ready.
PANEL = "admin/house_edge_panel.html#figures"


class HouseEdgeRow(Protocol):
    """A game's stored figures of one set of rules, as the panel reads it."""

    status: str
    progress: int
    error: str


def compared_with(
    game: games.GameAdmin, version: RulesetVersion
) -> tuple[dict[str, Any] | None, str]:
    """The figures of the version in force for the same ruleset when it is another one, and
    how the panel names it."""
    in_force = version_in_force(model=type(version), ruleset=version.ruleset)
    if in_force is None or in_force.pk == version.pk:
        return None, ""
    figures = in_force.figures
    if figures is None:
        row = game.house_edge_row(in_force)
        figures = game.house_edge_summary(in_force, row) if row.status == DONE else None
    return figures, f"v{in_force.number} (in force)" if figures else ""


def house_edge_panel(
    request: HttpRequest, game: games.GameAdmin, version: RulesetVersion
) -> TemplateResponse:
    """The panel as it stands: ready, still computing (polled), failed, or refused."""
    refusal = game.house_edge_refusal(version)
    if refusal is not None:
        return TemplateResponse(request, PANEL, refusal)
    row = game.house_edge_row(version)
    context: dict[str, object]
    if row.status == DONE:
        compared, compared_label = compared_with(game, version)
        summary = game.house_edge_summary(version, row)
        context = {
            "state": "ready",
            "version": version,
            "compared_label": compared_label,
            "ready_template": game.house_edge_template,
            **game.house_edge_ready(version, summary, compared),
        }
    elif row.status == FAILED:
        context = {"state": "failed", "error": row.error}
    else:
        context = {
            "state": "waiting",
            "progress": row.progress,
            "figures_url": request.path,
            **game.house_edge_waiting(version),
        }
    return TemplateResponse(request, PANEL, context)
